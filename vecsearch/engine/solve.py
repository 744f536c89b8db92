"""``solve``: one instance by any single-instance method; ``distance_table``: tables kept for reuse."""

from __future__ import annotations

from vecsearch.engine import methods
from vecsearch.engine.caches import DISTANCE_TABLES
from vecsearch.engine.endpoints import as_puzzle
from vecsearch.engine.goals import default_goals
from vecsearch.engine.solution import Solution
from vecsearch.engine.tables import DistanceTable
from vecsearch.errors import NoSolution


def distance_table(puzzle, goal=None, *, max_depth=None, storage="bytes", threads=None) -> DistanceTable:
    """The distance table towards ``goal`` (within ``max_depth``; ``storage`` as for
    ``DistanceTable``), built once (on ``threads`` threads) and kept in ``caches.DISTANCE_TABLES``."""
    puzzle = as_puzzle(puzzle)
    goals = default_goals(puzzle) if goal is None else puzzle.states(goal)
    key = (puzzle, goals.tobytes(), max_depth, storage)
    return DISTANCE_TABLES.get(key, lambda: DistanceTable(puzzle, goals, max_depth=max_depth, storage=storage,
                                                          threads=threads))


def solve(puzzle, start=None, goal=None, *, method: str | None = None, max_depth=None, **options) -> Solution:
    """A shortest solution from ``start`` to ``goal`` (defaults: the puzzle's own).

    ``method`` (``vecsearch.engine.methods``): ``"bidirectional"`` (meet in the middle; the
    default for goal states), ``"bfs"`` (forward only; the default for a goal condition, which
    it tests on every layer), ``"table"`` (a distance table from the goal, built once and reused
    by later calls), or ``"idastar"`` / ``"astar"`` (heuristic search; option ``heuristic=``
    names one of ``puzzle.heuristic_names`` or passes a ``Heuristic``). Methods that start from
    the goal list a goal condition's states first (``goals.goal_layer``). Options a method does
    not honour are refused (``MethodError``). Raises ``NoSolution`` when there is none (within
    ``max_depth``, if given).
    """
    puzzle = as_puzzle(puzzle)
    condition = goal is None and puzzle.has_goal_condition
    method = method or ("bfs" if condition else "bidirectional")
    methods.check(method, puzzle, options, one=True)
    if method == "table":
        table = distance_table(puzzle, goal, **options)
        solution = table.solution(start if start is not None else puzzle.start_states()[:1])
        if solution is None or (max_depth is not None and len(solution) > max_depth):
            raise NoSolution(f"{puzzle.name}: the goal is not reachable" + _within(max_depth))
        return solution
    if condition and method == "bfs":
        from vecsearch.engine.search import bidirectional

        result = bidirectional(puzzle, start, None, strategy="forward", max_depth=max_depth, **options)
    else:
        goals = goal if goal is not None else None if condition else puzzle.goal_states()
        result = _search(method)(puzzle, start, goals, max_depth=max_depth, **options)
    if result.solution is None:
        why = "the goal is not reachable" if result.complete else "no solution"
        raise NoSolution(f"{puzzle.name}: {why}" + _within(max_depth), result)
    return result.solution


def _search(method: str):
    if method == "astar":
        from vecsearch.engine.astar import astar

        return astar
    if method == "idastar":
        from vecsearch.engine.idastar import idastar

        return idastar
    from vecsearch.engine.search import bfs, bidirectional

    return bidirectional if method == "bidirectional" else bfs


def _within(max_depth) -> str:
    return "" if max_depth is None else f" within {max_depth} moves"
