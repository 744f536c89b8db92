"""A user's functions in the engine: compiled with bounds checks, handed to the kernels in their tables.

The kernels of a user's puzzle hold no code of the user's (``codegen``); they take its functions
in their ``tables``: ``kernel_tables(puzzle)`` is ``(the puzzle's tables, functions, limits[,
fields, ranking])`` (the layout of ``vecsearch.kernels.guards``), the puzzle's own tables for a
built-in. Each function is compiled once per process for the argument types its role is called
with (``argument_types``), with bounds checks (``_numba.checked_function``; cached on disk
when it lives in a file), on the compile clock (``jit.compiling``). A function numba cannot
compile, or one returning another type than its role's (a float count), is a
``PuzzleDefinitionError`` naming it. numba calls the feature these kernels rely on, first-class
functions, experimental: that warning is silenced here.
"""

from __future__ import annotations

import warnings
from dataclasses import replace

from numba import typeof
from numba.core import types
from numba.core.errors import NumbaError, NumbaExperimentalFeatureWarning

from vecsearch._numba import checked_function
from vecsearch.contract import CHECKS, ROLES, ROLES_BY_NAME
from vecsearch.engine import jit
from vecsearch.engine.caches import KERNELS
from vecsearch.engine.codegen import importable
from vecsearch.errors import BrokenRule, PuzzleDefinitionError

warnings.filterwarnings("ignore", message="First-class function type feature is experimental",
                        category=NumbaExperimentalFeatureWarning)


def kernel_tables(puzzle):
    """What the kernels of ``puzzle`` take as ``tables`` (see the module docstring)."""
    if puzzle.guard is None:
        return puzzle.tables
    return KERNELS.get(("tables", puzzle), lambda: _guarded_tables(puzzle))


def guarded_heuristic(puzzle, heuristic):
    """``heuristic`` (made by a user's puzzle) with the tables its guard takes: its own, then its
    function compiled, the puzzle's limits and layout arrays."""
    if puzzle.guard is None:
        return heuristic
    given_types = argument_types(puzzle, "heuristic", htables=typeof(heuristic.tables))
    compiled = _compiled(puzzle, ROLES_BY_NAME["heuristic"], heuristic.function, given_types)
    functions = tuple((compiled,) if role.name == "heuristic" else None for role in ROLES)
    return replace(heuristic, tables=(heuristic.tables, functions, puzzle.limits(), *puzzle.layout_arrays()))


def _guarded_tables(puzzle) -> tuple:
    BrokenRule.describing[puzzle.serial] = puzzle  # the guards name the puzzle by its serial
    functions = tuple(None if puzzle.functions.get(role.kernel_name) is None
                      else (_compiled(puzzle, role, puzzle.functions[role.kernel_name]),) for role in ROLES)
    return (puzzle.tables, functions, puzzle.limits(), *puzzle.layout_arrays())


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
