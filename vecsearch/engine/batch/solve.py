"""``solve``: one instance by any single-instance method; ``distance_table``: tables kept for reuse.

Each method that answers one instance has its runner here, named in its declaration
(``Method.one``): ``(puzzle, starts, goals, max_depth, options)``, the puzzle resolved, the start
layer and the goal layer (None: the puzzle's goal condition), the options checked; it returns a
``SearchResult`` (its ``solution`` None when there is none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vecsearch.engine.batch import methods
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.results.solution import Solution
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.caches import DISTANCE_TABLES
from vecsearch.engine.runtime.endpoints import as_puzzle, depth_limit
from vecsearch.engine.runtime.goals import default_goals
from vecsearch.errors import NoSolution

if TYPE_CHECKING:
    from vecsearch.engine.tables.distance import DistanceTable


def distance_table(puzzle, goal=None, *, max_depth=None, storage="bytes", threads=None) -> DistanceTable:
    """The distance table towards a goal, built once and then reused: the whole table towards
    the puzzle's own goal once per machine (saved in ``$VECSEARCH_CACHE_DIR/tables`` and mapped
    by later processes, ``tables.distance.saved_table``), others once per process (tables
    rooted at the starts of a batch are as many as its distinct starts: not kept on disk).

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    goal : state, text or sequence of them, optional
        The goal (default: the puzzle's).
    max_depth : int, optional
        Record only the states within this many moves (a ball).
    storage : {"bytes", "mod3"}, default "bytes"
        As for `DistanceTable`.
    threads : int, optional
        Threads that build it (default: all cores).

    Returns
    -------
    DistanceTable
        The table, kept in the process until ``clear_caches("distance_tables")``; a whole one
        towards the puzzle's goal also on disk (its ``file``; ``loaded``: read from there).

    Examples
    --------
    >>> vs.distance_table("eight") is vs.distance_table("eight")
    True
    >>> vs.distance_table("eight").distance("8 6 7 2 5 4 3 x 1")
    31
    """
    from vecsearch.engine.tables.distance import DistanceTable, saved_table  # a solve by search never needs it

    puzzle = as_puzzle(puzzle)
    goals = default_goals(puzzle) if goal is None else puzzle.states(goal)
    key = (puzzle, goals.tobytes(), max_depth, storage)
    if depth_limit(max_depth) is None and _its_own_goal(puzzle, goals):
        return DISTANCE_TABLES.get(key, lambda: saved_table(puzzle, goals, storage=storage, threads=threads))
    return DISTANCE_TABLES.get(key, lambda: DistanceTable(puzzle, goals, max_depth=max_depth, storage=storage,
                                                          threads=threads))


def _its_own_goal(puzzle, goals: np.ndarray) -> bool:
    """Whether ``goals`` (a layer) are the puzzle's goal states, in any order, or the states its
    goal condition accepts in their component."""
    if not len(goals) or not (puzzle.has_default_goal or puzzle.has_goal_condition):
        return False
    own = default_goals(puzzle, goals[:1])
    return own.shape == goals.shape and np.array_equal(np.unique(own, axis=0), np.unique(goals, axis=0))


def solve(puzzle, start=None, goal=None, *, method: str | None = None, max_depth=None, **options) -> Solution:
    """A shortest solution from ``start`` to ``goal``.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name (a built-in, a problem, a definition file).
    start : state or text, optional
        Where to start (default: the puzzle's start).
    goal : state, text or sequence of them, optional
        A state or a set (default: the puzzle's goal, or its goal condition).
    method : str, optional
        A name of `METHODS`: ``"bidirectional"`` (meet in the middle; the default for goal
        states), ``"bfs"`` (forward only; the default for a goal condition, tested on every
        layer), ``"table"`` (a distance table from the goal, built once and reused by later
        calls), ``"idastar"`` or ``"astar"`` (heuristic search). Methods that start from the
        goal list a goal condition's states first.
    max_depth : int, optional
        The longest solution looked for.
    **options
        Options of the method, such as ``threads=`` or ``heuristic=`` (one of
        ``puzzle.heuristic_names``, or a `Heuristic`); an option the method does not honour is
        refused (``MethodError``), never ignored.

    Returns
    -------
    Solution
        A shortest path: its states, moves and the search's profile.

    Raises
    ------
    NoSolution
        The goal is not reachable (within ``max_depth``).

    See Also
    --------
    solve_many : Many instances in one call.
    bidirectional : The search itself, with its result when there is no solution.

    Examples
    --------
    >>> str(vs.solve("eight", "2 3 4 1 5 x 7 6 8"))
    'ullddrurdllurdruldr'
    >>> len(vs.solve("sliding-3x3", "8 6 7 2 5 4 3 x 1", method="idastar"))
    31
    >>> vs.solve("sliding-3x3", "8 6 7 2 5 4 3 x 1", max_depth=30)
    Traceback (most recent call last):
    ...
    vecsearch.errors.NoSolution: sliding-3x3: no solution within 30 moves
    """
    puzzle = as_puzzle(puzzle)
    depth_limit(max_depth)
    condition = goal is None and puzzle.has_goal_condition
    chosen = methods.check(method or ("bfs" if condition else "bidirectional"), puzzle, options, one=True)
    starts = puzzle.start_states() if start is None else puzzle.states(start)
    goals = None if condition else puzzle.goal_states() if goal is None else puzzle.states(goal)
    assert chosen.one is not None  # check(..., one=True) refuses a method without a runner of one instance
    result = RUNNERS_OF_ONE[chosen.one](puzzle, starts, goals, max_depth, options)
    if result.solution is None:
        why = "the goal is not reachable" if result.complete else "no solution"
        raise NoSolution(f"{puzzle.name}: {why}" + _within(max_depth), result)
    return result.solution


def _within(max_depth) -> str:
    return "" if max_depth is None else f" within {max_depth} moves"


# --- the runners of one instance ------------------------------------------------------------

def bidirectional_one(puzzle, starts, goals, max_depth, options) -> SearchResult:
    """A search from both ends, meeting in the middle."""
    from vecsearch.engine.layered.search import bidirectional

    return bidirectional(puzzle, starts, goals, max_depth=max_depth, **options)


def bfs_one(puzzle, starts, goals, max_depth, options) -> SearchResult:
    """A forward search, stopping at the goal layer or, without one, on the goal condition."""
    from vecsearch.engine.layered.search import bidirectional

    return bidirectional(puzzle, starts, goals, strategy="forward", max_depth=max_depth, **options)


def astar_one(puzzle, starts, goals, max_depth, options) -> SearchResult:
    """A* under the method's heuristic."""
    from vecsearch.engine.heuristic.astar import astar

    return astar(puzzle, starts, goals, max_depth=max_depth, **options)


def idastar_one(puzzle, starts, goals, max_depth, options) -> SearchResult:
    """IDA* under the method's heuristic."""
    from vecsearch.engine.heuristic.idastar import idastar

    return idastar(puzzle, starts, goals, max_depth=max_depth, **options)


def table_one(puzzle, starts, goals, max_depth, options) -> SearchResult:
    """The path down the distance table of the goal (``distance_table``: built once, then reused)."""
    with thread_limit(options.get("threads")):
        table = distance_table(puzzle, default_goals(puzzle) if goals is None else goals, **options)
        solution = table.solution(starts[:1])
    if solution is not None and max_depth is not None and len(solution) > max_depth:
        solution = None
    return SearchResult(puzzle, table.profile, solution, True, [])


RUNNERS_OF_ONE = {run.__name__: run for run in (bidirectional_one, bfs_one, astar_one, idastar_one, table_one)}
