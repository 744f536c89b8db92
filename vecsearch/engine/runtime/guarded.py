"""A user's functions in the engine: compiled with bounds checks, handed to the kernels in their tables.

The kernels of a user's puzzle hold no code of the user's (``codegen``); they take its functions
in their ``tables``: ``kernel_tables(puzzle)`` is ``(the puzzle's tables, (limits, fields,
ranking, functions...))`` (the layout of ``vecsearch.kernels.guards``), the puzzle's own tables
for a built-in; each function a ``first_class.Compiled`` and the whole a ``first_class.Typed``,
so that a kernel's call costs no typing. Each function is compiled once per process for the
argument types its role is called with (``argument_types``), with bounds checks
(``_numba.checked_function``; cached on disk when it lives in a file), on the compile clock
(``jit.compiling``). A function numba cannot
compile, or one returning another type than its role's (a float count), is a
``PuzzleDefinitionError`` naming it. numba calls the feature these kernels rely on, first-class
functions, experimental: that warning is silenced here.
"""

from __future__ import annotations

import warnings
from dataclasses import replace

import numpy as np
from numba import typeof
from numba.core import config, types
from numba.core.errors import NumbaError, NumbaExperimentalFeatureWarning

from vecsearch._numba import checked_function
from vecsearch.contract import CHECKS, ROLES, ROLES_BY_NAME
from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.caches import KERNELS
from vecsearch.engine.runtime.codegen import importable
from vecsearch.errors import BrokenRule, PuzzleDefinitionError
from vecsearch.kernels.first_class import Compiled, Typed

warnings.filterwarnings("ignore", message="First-class function type feature is experimental",
                        category=NumbaExperimentalFeatureWarning)


def kernel_tables(puzzle):
    """What the kernels of ``puzzle`` take as ``tables`` (see the module docstring)."""
    if puzzle.guard is None:
        return puzzle.tables
    return KERNELS.get(("tables", puzzle), lambda: _guarded_tables(puzzle))


def guarded_heuristic(puzzle, heuristic):
    """``heuristic`` (made by a user's puzzle) with the tables its guard takes: its own, then a
    guard holding its function compiled (and the puzzle's limits and layout)."""
    if puzzle.guard is None:
        return heuristic
    given_types = argument_types(puzzle, "heuristic", htables=typeof(heuristic.tables))
    compiled = _compiled(puzzle, ROLES_BY_NAME["heuristic"], heuristic.function, given_types)
    guard = _guard(puzzle, {"heuristic": compiled})
    # its children are bounded one by one, each through the guard (``Heuristic.children`` is unguarded)
    return replace(heuristic, tables=Typed((heuristic.tables, guard)), children=None)


def _guarded_tables(puzzle) -> tuple:
    BrokenRule.describing[puzzle.serial] = puzzle  # the guards name the puzzle by its serial
    compiled = {role.name: _compiled(puzzle, role, puzzle.functions[role.kernel_name]) for role in ROLES
                if puzzle.functions.get(role.kernel_name) is not None}
    return Typed((puzzle.tables, _guard(puzzle, compiled)))


def _guard(puzzle, compiled: dict) -> tuple:
    """``(limits, fields, ranking, functions...)``: a role's slot holds its function (a
    ``Compiled``) or None; a puzzle not over values has empty layout arrays."""
    fields, ranking = puzzle.layout_arrays() or (np.zeros((5, 0), np.int64), np.zeros((1, 1), np.int64))
    slots = (Compiled(compiled[role.name]) if role.name in compiled else None for role in ROLES)
    return (puzzle.limits(), fields, ranking, *slots)


def argument_types(puzzle, role: str, htables=None) -> tuple:
    """The numba types the function of ``role`` is called with: the names its declaration gives
    (``contract.ROLES``), typed for ``puzzle`` (``Puzzle.state_types``); ``htables``: the type of
    a heuristic's tables."""
    state, states = puzzle.state_types()
    vector = types.Array(types.int64, 1, "C")
    kinds = {"state": state, "tables": typeof(puzzle.tables), "children": states, "moves": vector, "ranks": vector,
             "rank": types.int64, "component": types.int64, "htables": htables}
    return tuple(kinds[name] for name in ROLES_BY_NAME[role].arguments)


def _compiled(puzzle, role, function, given_types=None):
    given_types = given_types or argument_types(puzzle, role.name)
    name = getattr(getattr(function, "py_func", function), "__name__", role.name)
    try:
        compiled = jit.compiling(name, lambda: checked_function(function, given_types,
                                                                cache=importable(function) is not None))
    except NumbaError as error:
        raise PuzzleDefinitionError(f"{puzzle.name}: {jit.compile_failure(error, function)}") from error
    if config.DISABLE_JIT:
        return compiled  # a Python function: nothing typed (the guards check what comes back)
    returned = compiled.nopython_signatures[0].return_type
    if not _returns_what(puzzle, role, returned):
        raise PuzzleDefinitionError(f"{puzzle.name}: {role.name} ({name}) returns {returned}; expected"
                                    f" {CHECKS[role.check]}")
    return compiled


def _returns_what(puzzle, role, returned) -> bool:
    """Whether ``returned`` (a numba type) is what ``role`` must return."""
    if role.check == "condition":
        return isinstance(returned, (types.Boolean, types.Integer))
    if role.check == "state":
        state, _ = puzzle.state_types()
        return isinstance(returned, types.Integer) if isinstance(state, types.Integer) \
            else isinstance(returned, types.Array) and returned.ndim == 1
    return isinstance(returned, types.Integer)
