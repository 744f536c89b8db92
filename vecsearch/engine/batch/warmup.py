"""Compiling ahead of time: what ``solve`` and ``bfs`` in each mode call, by miniature runs.

``warm_up(puzzle)`` and ``vecsearch warm-up`` run these steps; each is a tiny version of a real
call through the same code, so every kernel that call uses is compiled (or loaded from the
cache) before it:

- ``layers``: ``bfs`` in layers, two layers from the start (the multi-layer ``grow`` kernel, the
  visited set's kernels), and one single-layer expansion per kind of visited set a search of the
  puzzle may use (the kernel of larger frontiers);
- ``solve``: a bidirectional search to a state two moves away, path included (``solve``, and
  ``vecsearch solve`` on a few instances);
- ``table``: a distance table of radius 2 and descents in it (a batch large enough for a table),
  when the puzzle can have a byte-per-rank table; with an unrank, what a whole table adds to the
  two-bit search (``distance.warm_whole_tables``);
- ``twobit``: ``bfs(mode="twobit")`` two layers deep (push and pull are one kernel), when the
  puzzle has ``unrank`` and its table fits the memory.

Not warmed: the distance-mod-3 tables of batches over more than ``TABLE_AUTO_RANKS`` ranks,
``solve_pairs`` and the heuristic searches (their kernels compile on first use).
"""

from __future__ import annotations

import time

import numpy as np

from vecsearch.engine.batch.methods import TABLE_AUTO_RANKS
from vecsearch.engine.batch.solve import solve
from vecsearch.engine.layered.search import bfs
from vecsearch.engine.layered.sides import choose_visited
from vecsearch.engine.runtime import jit, planner
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.runtime.visited import make_visited
from vecsearch.engine.tables.distance import DistanceTable, warm_whole_tables
from vecsearch.registry import puzzle_of

STEPS = ("layers", "solve", "table", "twobit")


def steps(puzzle, batches: bool = True) -> list[str]:
    """The steps that apply to ``puzzle`` (``twobit`` only when its table fits the memory;
    ``table`` only with ``batches``)."""
    chosen = ["layers", "solve"]
    if batches and puzzle.has_rank and puzzle.searchable_backward and puzzle.rank_size <= TABLE_AUTO_RANKS:
        chosen.append("table")
    if puzzle.has_unrank and planner.fits(puzzle, mode="twobit"):
        chosen.append("twobit")
    return chosen


def run(puzzle, step: str) -> list[tuple[str, float]]:
    """Run one step; returns ``(kernel, seconds)`` for each kernel it compiled or loaded."""
    if step not in STEPS:
        raise ValueError(f"unknown warm-up step {step!r}; choose one of {', '.join(STEPS)}")
    outer, jit.compile_log = jit.compile_log, []
    try:
        _STEPS[step](puzzle)
        return jit.compile_log
    finally:
        if outer is not None:  # a caller's log sees the step's kernels too
            outer.extend(jit.compile_log)
        jit.compile_log = outer


def run_steps(puzzle, batches: bool = True) -> dict[str, list[tuple[str, float]]]:
    """Every step of ``steps(puzzle, batches)``: ``{step: [(kernel, seconds), ...]}``."""
    return {step: run(puzzle, step) for step in steps(puzzle, batches)}


def warm_up(puzzle, *, validate: bool = True, batches: bool = False) -> float:
    """Compile (or load from the cache) what a puzzle's searches will call, ahead of time.

    Miniature runs of ``solve`` and of ``bfs`` in each mode; the first real search then pays no
    compile time. ``vecsearch warm-up`` does the same for a machine or a container image.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    validate : bool, default True
        Probe the puzzle first (`validate`).
    batches : bool, default False
        Also the distance-table kernels that large batches use.

    Returns
    -------
    float
        The seconds taken.

    Examples
    --------
    >>> seconds = vs.warm_up(vs.get_puzzle("sliding-2x3"))
    >>> vs.bfs("sliding-2x3").profile.compile_seconds < 1
    True
    """
    from vecsearch.validation import validate as check

    puzzle = puzzle_of(puzzle)
    started = time.perf_counter()
    if validate:
        check(puzzle)
    run_steps(puzzle, batches)
    return time.perf_counter() - started


def kernel_set(puzzle) -> tuple:
    """Puzzles with equal ``kernel_set`` warm up the same kernels: one warms the other's."""
    return (puzzle.kernel_label, puzzle.width, puzzle.move_capacity, _visited_kinds(puzzle), tuple(steps(puzzle)))


def _visited_kinds(puzzle) -> tuple[str, ...]:
    return tuple(sorted({choose_visited(puzzle, sides=1), choose_visited(puzzle, sides=2)}))


def _start(puzzle) -> np.ndarray:
    return puzzle.start_states()[:1]


def _near(puzzle) -> np.ndarray:
    """A state at most two moves from the start (the farthest such, when there is one)."""
    result = bfs(puzzle, _start(puzzle), max_depth=2, mode="layers")
    return result.last_layer.states[:1] if result.last_layer is not None and len(result.last_layer) else _start(puzzle)


def _layers(puzzle) -> None:
    _near(puzzle)
    for kind in _visited_kinds(puzzle):
        visited = make_visited(puzzle, kind)
        visited.expand(Layer.of(visited.add(_start(puzzle)), puzzle.width), False, None)
        visited.release([])


def _solve(puzzle) -> None:
    solve(puzzle, _start(puzzle), _near(puzzle))


def _table(puzzle) -> None:
    DistanceTable(puzzle, _start(puzzle), max_depth=2).solve_many(_near(puzzle))
    if puzzle.has_unrank:
        warm_whole_tables()


def _twobit(puzzle) -> None:
    bfs(puzzle, _start(puzzle), max_depth=2, mode="twobit")


_STEPS = {"layers": _layers, "solve": _solve, "table": _table, "twobit": _twobit}
