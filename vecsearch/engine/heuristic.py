"""Heuristics for A* and IDA*: an admissible state function bound to its goal-specific tables.

A puzzle offers heuristics by name (``Puzzle.heuristic_names``; the first is its default) and
makes one for a goal with ``Puzzle.make_heuristic(goals, name)``. The search kernels for a
(puzzle, heuristic function) pair are generated from ``kernels/heuristic_template.py`` and cached
like the layer kernels, so the heuristic is inlined into the search loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vecsearch.engine import jit
from vecsearch.engine.codegen import KERNEL_DIR, build_kernels
from vecsearch.errors import VecsearchError

HEURISTIC_TEMPLATE = KERNEL_DIR / "heuristic_template.py"
ROLES = ("expand_state", "heuristic_state")

_kernels: dict[tuple, object] = {}
_made: dict[tuple, "Heuristic"] = {}


@dataclass(eq=False)
class Heuristic:
    """``function(state, tables)``: a lower bound on the moves from ``state`` to ``goals``."""

    puzzle: object
    name: str
    function: object
    tables: tuple
    goals: np.ndarray
    description: str = ""
    build_seconds: float = 0.0  # building or loading its tables (pattern databases)
    details: dict = field(default_factory=dict)

    @property
    def kernels(self):
        return search_kernels(self.puzzle, self.function)

    def values(self, states) -> np.ndarray:
        """The heuristic of each state (a layer)."""
        states = self.puzzle.states(states)
        kernel = self.kernels.heuristic_values
        jit.call(kernel, states[:0], self.tables)
        return kernel(states, self.tables)

    def __call__(self, state) -> int:
        return int(self.values(self.puzzle.states(state)[:1])[0])

    @property
    def nbytes(self) -> int:
        return sum(t.nbytes for t in self.tables if hasattr(t, "nbytes"))

    def __repr__(self) -> str:
        return f"<Heuristic {self.name!r} of {self.puzzle.name}: {self.description}>"


def search_kernels(puzzle, function):
    """The IDA* / A* kernel module of ``puzzle`` with ``function`` as its heuristic."""
    key = (puzzle.kernel_label, puzzle.width, puzzle.move_capacity, id(puzzle.expand_function), id(function))
    if key not in _kernels:
        functions = {"expand_state": puzzle.expand_function, "heuristic_state": function}
        _kernels[key] = build_kernels(functions, puzzle.width, puzzle.move_capacity, puzzle.kernel_label,
                                      templates=(HEURISTIC_TEMPLATE,), roles=ROLES, optional_roles=())
    return _kernels[key]


def resolve(puzzle, goals: np.ndarray, heuristic=None, **options) -> Heuristic:
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
    key = (id(puzzle), goals.tobytes(), name, tuple(sorted((k, repr(v)) for k, v in options.items())))
    if key not in _made:
        _made[key] = puzzle.make_heuristic(goals, name, **options)
    return _made[key]


def inverse_table(puzzle) -> np.ndarray:
    """``inverse[m]``: the move undoing ``m`` (-1 where the puzzle declares none)."""
    if puzzle.inverse_moves is None:
        return np.full(puzzle.max_moves, -1, dtype=np.int64)
    return np.array(puzzle.inverse_moves, dtype=np.int64)
