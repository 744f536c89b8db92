"""Heuristics in the engine: chosen by name, evaluated in bulk, inlined into search kernels.

A puzzle offers heuristics by name (``Puzzle.heuristic_names``; the first is its default) and
makes one (a ``vecsearch.heuristics.Heuristic``) for a goal with
``Puzzle.make_heuristic(goals, name)``. The search kernels for a
(puzzle, heuristic function) pair are generated from ``engine/heuristic/heuristic_template.py`` and cached
like the layer kernels, so the heuristic is inlined into the search loop.
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.runtime.caches import HEURISTICS, KERNELS
from vecsearch.engine.runtime.codegen import build_kernels
from vecsearch.engine.runtime.guarded import guarded_heuristic
from vecsearch.errors import VecsearchError
from vecsearch.heuristics import Heuristic

ROLES = ("expand_state", "heuristic_state")
OPTIONAL_ROLES = ("heuristic_update_state", "heuristic_children_state")  # Heuristic.update, .children

def heuristic_values(heuristic: Heuristic, states) -> np.ndarray:
    """The heuristic of each state (a layer, or anything ``Puzzle.states`` reads)."""
    puzzle = heuristic.puzzle
    states = puzzle.states(states)
    kernel = search_kernels(puzzle, heuristic).heuristic_values
    kernel(states[:0], heuristic.tables)
    return kernel(states, heuristic.tables)


def search_kernels(puzzle, heuristic: Heuristic):
    """The IDA* / A* kernel module of ``puzzle`` with ``heuristic``'s function (and update, if
    it has one) bound to the roles."""
    key = ("heuristic", puzzle.kernel_label, puzzle.width, puzzle.move_capacity, puzzle.functions["expand_state"],
           heuristic.function, heuristic.update, heuristic.children, heuristic.allocates, puzzle.guard)
    functions = {"expand_state": puzzle.functions["expand_state"], "heuristic_state": heuristic.function,
                 "heuristic_update_state": heuristic.update, "heuristic_children_state": heuristic.children}
    return KERNELS.get(key, lambda: build_kernels(functions, puzzle.width, puzzle.move_capacity, puzzle.kernel_label,
                                                  guard=puzzle.guard, allocating=heuristic.allocates,
                                                  templates=("heuristic_template",), roles=ROLES,
                                                  optional_roles=OPTIONAL_ROLES))


def resolve_heuristic(puzzle, goals: np.ndarray, heuristic=None, **options) -> Heuristic:
    """A ``Heuristic`` towards ``goals``: ``heuristic`` is one already made, a name the puzzle
    offers, or None for the puzzle's default. Made heuristics are kept for the process."""
    if isinstance(heuristic, Heuristic):
        if heuristic.puzzle is not puzzle or not np.array_equal(heuristic.goals, goals):
            raise VecsearchError(f"heuristic {heuristic.name!r} was made for another puzzle or goal")
        return heuristic
    names = puzzle.heuristic_names
    if not names:
        raise VecsearchError(f"{puzzle.name} offers no heuristic: give Puzzle(heuristic=...) for A* / IDA*")
    name = names[0] if heuristic is None else heuristic
    if name not in names:
        raise ValueError(f"{puzzle.name} has no heuristic {name!r}; choose one of {', '.join(names)}")
    key = (puzzle, goals.tobytes(), name, tuple(sorted((k, repr(v)) for k, v in options.items())))
    return HEURISTICS.get(key, lambda: guarded_heuristic(puzzle, puzzle.make_heuristic(goals, name, **options)))


def inverse_table(puzzle) -> np.ndarray:
    """``inverse[m]``: the move undoing ``m`` (-1 where the puzzle declares none)."""
    if puzzle.inverse_moves is None:
        return np.full(puzzle.max_moves, -1, dtype=np.int64)
    return np.array(puzzle.inverse_moves, dtype=np.int64)
