"""The front doors: ``solve`` one instance, ``solve_many`` instances that share a goal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vecsearch.engine.search import _resolve, bfs, bidirectional
from vecsearch.engine.solution import Solution
from vecsearch.engine.tables import DistanceTable
from vecsearch.errors import NoSolution

METHODS = ("bidirectional", "bfs", "table")
TABLE_AUTO_RANKS = 1 << 24  # below this many ranks a distance table is cheaper than any search

_tables: dict[tuple, DistanceTable] = {}


def distance_table(puzzle, goal=None, *, max_depth=None) -> DistanceTable:
    """The distance table towards ``goal`` (within ``max_depth``), built once per process and
    reused."""
    puzzle = _resolve(puzzle)
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    key = (id(puzzle), goals.tobytes(), max_depth)
    if key not in _tables:
        _tables[key] = DistanceTable(puzzle, goals, max_depth=max_depth)
    return _tables[key]


def solve(puzzle, start=None, goal=None, *, method: str = "bidirectional", max_depth=None, **options) -> Solution:
    """A shortest solution from ``start`` to ``goal`` (defaults: the puzzle's own).

    ``method``: ``"bidirectional"`` (meet in the middle; the default), ``"bfs"`` (forward only),
    or ``"table"`` (a distance table from the goal, built once and reused by later calls).
    Raises ``NoSolution`` when there is none (within ``max_depth``, if given).
    """
    puzzle = _resolve(puzzle)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if method == "table":
        table = distance_table(puzzle, goal)
        solution = table.solution(start if start is not None else puzzle.start_states()[:1])
        if solution is None or (max_depth is not None and len(solution) > max_depth):
            raise NoSolution(f"{puzzle.name}: the goal is not reachable" + _within(max_depth))
        return solution
    search = bidirectional if method == "bidirectional" else bfs
    result = search(puzzle, start, goal if goal is not None else puzzle.goal_states(), max_depth=max_depth, **options)
    if result.solution is None:
        why = "the goal is not reachable" if result.complete else "no solution"
        raise NoSolution(f"{puzzle.name}: {why}" + _within(max_depth), result)
    return result.solution


def _within(max_depth) -> str:
    return "" if max_depth is None else f" within {max_depth} moves"


@dataclass
class ManySolutions:
    """Answers for many starts: ``lengths[i]`` (-1: unreachable) and the moves of one shortest
    path in ``moves[i, :lengths[i]]``."""

    puzzle: object
    lengths: np.ndarray
    moves: np.ndarray
    method: str

    def __len__(self) -> int:
        return len(self.lengths)

    def moves_of(self, i: int) -> list[int] | None:
        return None if self.lengths[i] < 0 else self.moves[i, :self.lengths[i]].tolist()

    def formatted(self, i: int) -> str | None:
        """Instance ``i``'s moves as the puzzle writes them, or None if unreachable."""
        moves = self.moves_of(i)
        return None if moves is None else self.puzzle.format_moves(moves)


def solve_many(puzzle, starts, goal=None, *, method: str = "auto") -> ManySolutions:
    """Shortest solutions for every start towards one goal.

    ``method="auto"`` builds a distance table when the puzzle's rank space is small (below
    ``TABLE_AUTO_RANKS``), else searches each instance bidirectionally.
    """
    puzzle = _resolve(puzzle)
    starts = puzzle.states(starts)
    if method == "auto":
        cheap = puzzle.has_rank and puzzle.searchable_backward and puzzle.rank_size <= TABLE_AUTO_RANKS
        method = "table" if cheap else "bidirectional"
    if method == "table":
        lengths, moves = distance_table(puzzle, goal).solve_many(starts)
        return ManySolutions(puzzle, lengths, moves, method)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of auto, {', '.join(METHODS)}")
    search = bidirectional if method == "bidirectional" else bfs
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    found = [search(puzzle, starts[i:i + 1], goals).solution for i in range(len(starts))]
    width = max((len(s) for s in found if s is not None), default=0)
    lengths = np.array([len(s) if s is not None else -1 for s in found], dtype=np.int64)
    moves = np.zeros((len(starts), width), dtype=np.int64)
    for i, solution in enumerate(found):
        if solution is not None:
            moves[i, :len(solution)] = solution.moves
    return ManySolutions(puzzle, lengths, moves, method)
