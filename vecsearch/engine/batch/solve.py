"""``solve``: one instance by any single-instance method; ``distance_table``: tables kept for reuse."""

from __future__ import annotations

from vecsearch.engine.batch import methods
from vecsearch.engine.results.solution import Solution
from vecsearch.engine.runtime.caches import DISTANCE_TABLES
from vecsearch.engine.runtime.endpoints import as_puzzle
from vecsearch.engine.runtime.goals import default_goals
from vecsearch.engine.tables.distance import DistanceTable
from vecsearch.errors import NoSolution


def distance_table(puzzle, goal=None, *, max_depth=None, storage="bytes", threads=None) -> DistanceTable:
    """The distance table towards a goal, built once per process and then reused.

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
        The table, kept until ``clear_caches("distance_tables")``.

    Examples
    --------
    >>> vs.distance_table("eight") is vs.distance_table("eight")
    True
    >>> vs.distance_table("eight").distance("8 6 7 2 5 4 3 x 1")
    31
    """
    puzzle = as_puzzle(puzzle)
    goals = default_goals(puzzle) if goal is None else puzzle.states(goal)
    key = (puzzle, goals.tobytes(), max_depth, storage)
    return DISTANCE_TABLES.get(key, lambda: DistanceTable(puzzle, goals, max_depth=max_depth, storage=storage,
                                                          threads=threads))


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
        from vecsearch.engine.layered.search import bidirectional

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
        from vecsearch.engine.heuristic.astar import astar

        return astar
    if method == "idastar":
        from vecsearch.engine.heuristic.idastar import idastar

        return idastar
    from vecsearch.engine.layered.search import bfs, bidirectional

    return bidirectional if method == "bidirectional" else bfs


def _within(max_depth) -> str:
    return "" if max_depth is None else f" within {max_depth} moves"
