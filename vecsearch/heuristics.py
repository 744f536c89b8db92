"""``Heuristic``: an admissible state function bound to its goal-specific tables.

Part of the puzzle contract: a puzzle makes its heuristics (``Puzzle.make_heuristic``); the engine
evaluates them in bulk and inlines them into its search kernels (``vecsearch.engine.heuristic``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


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
    update: object = None  # optional ``update(parent, info, child, tables) -> (bound, info)``: the bound of a
    # child from its parent's ``info`` (< 0: none, compute whole), for searches that walk from parent to child

    @property
    def nbytes(self) -> int:
        """Bytes of its tables (arrays, and arrays in tuples among them)."""
        return sum(getattr(a, "nbytes", 0) for t in self.tables for a in (t if isinstance(t, tuple) else (t,)))

    def __repr__(self) -> str:
        return f"<Heuristic {self.name!r} of {self.puzzle.name}: {self.description}>"
