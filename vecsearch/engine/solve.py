"""The front doors: ``solve`` one instance, ``solve_many`` instances that share a goal."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vecsearch.engine.caches import DISTANCE_TABLES
from vecsearch.engine.endpoints import as_puzzle
from vecsearch.engine.search import bfs, bidirectional
from vecsearch.engine.solution import Solution
from vecsearch.engine.tables import DistanceTable
from vecsearch.errors import NoSolution

METHODS = ("bidirectional", "bfs", "table", "astar", "idastar")
TABLE_AUTO_RANKS = 1 << 24  # up to this many ranks a byte-per-rank distance table may answer a batch
HEURISTIC_AUTO_RANKS = 1 << 32  # above this many ranks (or with no rank), IDA* if the puzzle has a heuristic

# The cost model that decides whether a distance table pays for a batch (``table_pays``), measured
# with warm kernels on a 2-core machine busy with other work: building a whole table (one
# backward BFS) ran at 1.5-3.7 M ranks/s (3x3 sliding, pocket cube, pancake-9, TopSpin-10,
# Solitaire); one bidirectional search cost 0.9-10 ms, about 1 ms of Python per search plus
# 0.5-13 us per square root of the rank space (meet in the middle: each side explores about the
# root of the space). 3 us is near their geometric mean; a wrong guess within a few times costs
# little around the break-even (3x3 sliding: a table pays from about 40 instances).
TABLE_RANKS_PER_SECOND = 2.0e6
SEARCH_SECONDS = 1e-3
SEARCH_SECONDS_PER_SQRT_RANK = 3e-6


def distance_table(puzzle, goal=None, *, max_depth=None, storage="bytes") -> DistanceTable:
    """The distance table towards ``goal`` (within ``max_depth``; ``storage`` as for
    ``DistanceTable``), built once and kept in ``caches.DISTANCE_TABLES``."""
    puzzle = as_puzzle(puzzle)
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    key = (puzzle, goals.tobytes(), max_depth, storage)
    return DISTANCE_TABLES.get(key, lambda: DistanceTable(puzzle, goals, max_depth=max_depth, storage=storage))


def solve(puzzle, start=None, goal=None, *, method: str = "bidirectional", max_depth=None, **options) -> Solution:
    """A shortest solution from ``start`` to ``goal`` (defaults: the puzzle's own).

    ``method``: ``"bidirectional"`` (meet in the middle; the default), ``"bfs"`` (forward only),
    ``"table"`` (a distance table from the goal, built once and reused by later calls), or
    ``"idastar"`` / ``"astar"`` (heuristic search; option ``heuristic=`` names one of
    ``puzzle.heuristic_names`` or passes a ``Heuristic``; default: the puzzle's first).
    Raises ``NoSolution`` when there is none (within ``max_depth``, if given).
    """
    puzzle = as_puzzle(puzzle)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if method == "table":
        table = distance_table(puzzle, goal)
        solution = table.solution(start if start is not None else puzzle.start_states()[:1])
        if solution is None or (max_depth is not None and len(solution) > max_depth):
            raise NoSolution(f"{puzzle.name}: the goal is not reachable" + _within(max_depth))
        return solution
    if method in ("astar", "idastar"):
        from vecsearch.engine.astar import astar
        from vecsearch.engine.idastar import idastar

        search = astar if method == "astar" else idastar
    else:
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
    profile: object = None  # heuristic searches: nodes expanded per f-bound, summed over instances

    def __len__(self) -> int:
        return len(self.lengths)

    def moves_of(self, i: int) -> list[int] | None:
        return None if self.lengths[i] < 0 else self.moves[i, :self.lengths[i]].tolist()

    def formatted(self, i: int) -> str | None:
        """Instance ``i``'s moves as the puzzle writes them, or None if unreachable."""
        moves = self.moves_of(i)
        return None if moves is None else self.puzzle.format_moves(moves)


def solve_many(puzzle, starts, goal=None, *, method: str = "auto", **options) -> ManySolutions:
    """Shortest solutions for every start towards one goal.

    ``method="auto"`` builds a distance table when the puzzle's rank space is small (below
    ``TABLE_AUTO_RANKS``) and there are enough starts to pay for it (``table_pays``); runs IDA*
    on all cores when the space is huge (above ``HEURISTIC_AUTO_RANKS``, or no rank) and the
    puzzle offers a heuristic; else searches each instance bidirectionally. ``options`` go to
    IDA* (``heuristic=``, ``max_depth=``, ``threads=``).
    """
    puzzle = as_puzzle(puzzle)
    starts = puzzle.states(starts)
    if method == "auto":
        method = auto_method(puzzle, len(starts))
    if method == "table":
        lengths, moves = distance_table(puzzle, goal).solve_many(starts)
        return ManySolutions(puzzle, lengths, moves, method)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of auto, {', '.join(METHODS)}")
    if method == "idastar":
        from vecsearch.engine.idastar import idastar_many

        lengths, moves, profile = idastar_many(puzzle, starts, goal, **options)
        return ManySolutions(puzzle, lengths, moves, method, profile)
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    found = [_solution_or_none(puzzle, starts[i:i + 1], goals, method, options) for i in range(len(starts))]
    width = max((len(s) for s in found if s is not None), default=0)
    lengths = np.array([len(s) if s is not None else -1 for s in found], dtype=np.int64)
    moves = np.zeros((len(starts), width), dtype=np.int64)
    for i, solution in enumerate(found):
        if solution is not None:
            moves[i, :len(solution)] = solution.moves
    return ManySolutions(puzzle, lengths, moves, method)


def auto_method(puzzle, instances: int | None = None) -> str:
    """The method ``solve_many(method="auto")`` picks for ``puzzle`` and that many instances
    (None: as many as it takes for a table to pay)."""
    if puzzle.has_rank and puzzle.searchable_backward and puzzle.rank_size <= TABLE_AUTO_RANKS:
        if instances is None or table_pays(puzzle.rank_size, instances):
            return "table"
        return "bidirectional"
    huge = not puzzle.has_rank or puzzle.rank_size > HEURISTIC_AUTO_RANKS
    return "idastar" if huge and puzzle.heuristic_names else "bidirectional"


def table_pays(rank_size: int, instances: int, ranks_per_second: float = TABLE_RANKS_PER_SECOND) -> bool:
    """Whether one whole-space table (``rank_size`` ranks, built at ``ranks_per_second``) costs
    less than ``instances`` bidirectional searches (see the cost model's constants above)."""
    per_instance = SEARCH_SECONDS + math.sqrt(rank_size) * SEARCH_SECONDS_PER_SQRT_RANK
    return instances * per_instance >= rank_size / ranks_per_second


def _solution_or_none(puzzle, start, goals, method, options):
    try:
        return solve(puzzle, start, goals, method=method, **options)
    except NoSolution:
        return None
