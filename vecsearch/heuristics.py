"""``Heuristic``: an admissible state function bound to its goal-specific tables.

Part of the puzzle contract: a puzzle makes its heuristics (``Puzzle.make_heuristic``); the engine
evaluates them in bulk and inlines them into its search kernels (``vecsearch.engine.heuristic.evaluation``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vecsearch.puzzle import Puzzle


@dataclass(eq=False)
class Heuristic:
    """An admissible heuristic: a lower bound on the moves from a state to the goals.

    Made by a puzzle (``puzzle.make_heuristic(goals, name)``, ``name`` one of
    ``puzzle.heuristic_names``) and passed to ``solve(..., method="idastar", heuristic=)``; the
    engine evaluates it in bulk and inlines it into its search kernels.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle.
    name : str
        Its name (``"manhattan"``, ``"pdb"``...).
    function : numba function
        ``function(state, tables) -> int``: the bound of one packed state.
    tables : tuple of numpy.ndarray
        What ``function`` reads (pattern databases, the goal layer...).
    goals : numpy.ndarray
        The goal states the bound is towards.
    description : str, optional
        What it is, in words.
    build_seconds : float, optional
        Seconds spent building or loading its tables (pattern databases).
    details : dict, optional
        Facts about its tables (for pattern databases: their sizes and files).
    update : numba function, optional
        ``update(parent, info, child, tables) -> (bound, info)``: a child's bound from its
        parent's ``info`` (< 0: none, compute whole), for searches that walk from parent to child.
    children : numba function, optional
        ``children(parent, info, kids, first, count, tables, limit, bounds, infos)``: the bounds of
        ``kids[first:first + count]``, a node's children, at once into ``bounds`` (exact up to
        ``limit``; above it, any admissible bound above ``limit``), for IDA*: a heuristic of
        table lookups stages them over the children, each read prefetched, and stops at a child
        once it exceeds ``limit``. Compiled without reference counting: it must not allocate
        (vecsearch's own heuristics; left out for a user's puzzle, whose heuristic runs behind
        its guard, one child at a time).
    allocates : bool, optional
        Whether ``function`` allocates arrays (an exact table's lookup does). IDA*'s loop is
        compiled without reference counting unless it does.

    Examples
    --------
    >>> puzzle = vs.get_puzzle("sliding-3x3")
    >>> manhattan = puzzle.make_heuristic(puzzle.goal_states(), "manhattan")
    >>> manhattan.function(puzzle.states("8 6 7 2 5 4 3 x 1")[0], manhattan.tables)
    21
    >>> len(vs.solve(puzzle, "8 6 7 2 5 4 3 x 1", method="idastar", heuristic=manhattan))
    31
    """

    puzzle: Puzzle
    name: str
    function: object
    tables: tuple
    goals: np.ndarray
    description: str = ""
    build_seconds: float = 0.0
    details: dict = field(default_factory=dict)
    update: object = None
    children: object = None
    allocates: bool = False

    @property
    def nbytes(self) -> int:
        """Bytes of its tables (arrays, and arrays in tuples among them)."""
        return sum(getattr(a, "nbytes", 0) for t in self.tables for a in (t if isinstance(t, tuple) else (t,)))

    def __repr__(self) -> str:
        return f"<Heuristic {self.name!r} of {self.puzzle.name}: {self.description}>"
