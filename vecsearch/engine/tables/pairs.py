"""``solve_pairs``: many independent start/goal searches, each bidirectional, in one kernel call.

A judge input of a thousand cases, each with its own goal, would pay Python's per-layer cost a
thousand times through ``bidirectional``. Here one kernel (``pair_template.py``) runs every
search: each worker thread keeps two depth tables of one byte per rank, searches its pairs one
after another, and resets only the entries it touched. A pair costs the states it visits.

Needs a rank (for the depth tables) and a backward direction; otherwise, or when the tables
would not fit in memory, each pair is searched by ``bidirectional`` instead (same answers).
"""

from __future__ import annotations

import contextlib

import numba
import numpy as np

from vecsearch.engine.layered.search import bidirectional
from vecsearch.engine.results.answers import ManySolutions
from vecsearch.engine.runtime import blocks, jit
from vecsearch.engine.runtime.caches import PAIR_DEPTH_TABLES
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle, depth_limit, whole_number
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.planner import physical_bytes
from vecsearch.engine.runtime.progress import progress_bar
from vecsearch.errors import InvalidPuzzleInput

UNSEEN = 255
MAX_SIDE_DEPTH = 254
FOUND_NONE, UNREACHABLE, TOO_DEEP = -2, -1, -3  # as in vecsearch/engine/tables/pair_template.py
CHUNK_BYTES = 32 << 20  # bound on the moves buffer of one kernel call


def solve_pairs(puzzle, starts, goals, *, max_depth=None, max_forward=None, max_backward=None,
                threads=None, progress=False) -> ManySolutions:
    """Shortest paths from ``starts[i]`` to ``goals[i]`` for every ``i``.

    Every pair is searched from both ends, all of them inside one kernel call per chunk.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    starts, goals : sequence
        Equally long; each item a state or several (a start set, a goal set), in any form
        ``puzzle.states`` reads.
    max_depth : int, optional
        Caps each path's length.
    max_forward, max_backward : int, optional
        Cap each side's depth.
    threads : int, optional
        Threads (default: all cores).
    progress : bool, default False
        Draw a bar of the pairs solved.

    Returns
    -------
    ManySolutions
        ``lengths[i]`` is -1 when pair ``i`` has no path (within the caps).

    Examples
    --------
    >>> pairs = vs.solve_pairs("chessboard", ["1111 0000 1110 0010"], ["1010 0101 1010 0101"])
    >>> pairs.lengths.tolist()
    [4]
    """
    puzzle = as_puzzle(puzzle)
    depth_limit(max_depth)
    for side, limit in (("max_forward", max_forward), ("max_backward", max_backward)):
        whole_number(limit, side, 0, " of moves")
    blocks.thread_count(threads)
    start_states, start_offsets = _sets(puzzle, starts, "start")
    goal_states, goal_offsets = _sets(puzzle, goals, "goal")
    n = len(start_offsets) - 1
    if len(goal_offsets) - 1 != n:
        raise InvalidPuzzleInput(f"{n} start(s) but {len(goal_offsets) - 1} goal(s): give one goal per start")
    _check_components(puzzle, start_states, start_offsets)
    limits = [_limit(v) for v in (max_forward, max_backward, max_depth)]
    workers = max(1, min(n, threads or numba.get_num_threads()))
    if not _fits(puzzle, workers):
        return _one_by_one(puzzle, start_states, start_offsets, goal_states, goal_offsets, limits, range(n))
    width = min(limits[2], limits[0] + limits[1], 2 * MAX_SIDE_DEPTH)
    lengths = np.empty(n, np.int64)
    kernel = layer_kernels(puzzle).pair_searches_worker
    chunk = max(1, CHUNK_BYTES // (8 * max(width, 1)))
    moves = np.zeros((n, 0), np.int64)  # widened to the longest path found
    with _depth_tables(puzzle, workers) as (depth_f, depth_b), \
            progress_bar(progress, f"pairs {puzzle.name}", unit=" pairs", total=n) as bar:
        jit.warm(kernel, 0, 1, start_states, start_offsets[:1], goal_states, goal_offsets[:1], kernel_tables(puzzle),
                 *limits, depth_f, depth_b, lengths[:0], np.zeros((0, width), np.int64))
        for lo in range(0, n, chunk):
            hi = min(n, lo + chunk)
            block = np.zeros((hi - lo, width), np.int64)
            fixed = (start_states, start_offsets[lo:hi + 1], goal_states, goal_offsets[lo:hi + 1],
                     kernel_tables(puzzle), *limits, depth_f, depth_b, lengths[lo:hi], block)
            # worker w: pairs w, w + workers, ...
            blocks.map_blocks(lambda w, _, fixed=fixed: kernel(w, workers, *fixed), workers, 1)
            used = max(0, int(lengths[lo:hi].max()))
            moves = _at_least(moves, used)
            moves[lo:hi, :used] = block[:, :used]
            bar.advance(hi - lo)
    deep = np.flatnonzero(lengths == TOO_DEEP)
    if len(deep):  # deeper than the byte tables can tell: search those pairs one by one
        redone = _one_by_one(puzzle, start_states, start_offsets, goal_states, goal_offsets, limits, deep)
        lengths[deep] = redone.lengths
        moves = _at_least(moves, redone.moves.shape[1])
        moves[deep, :redone.moves.shape[1]] = redone.moves
    lengths[lengths < 0] = -1
    return ManySolutions(puzzle, list(range(n)), lengths, moves, "pairs")


def _at_least(moves, width):
    """``moves``, widened with zero columns to ``width`` if narrower."""
    if moves.shape[1] >= width:
        return moves
    wider = np.zeros((len(moves), width), np.int64)
    wider[:, :moves.shape[1]] = moves
    return wider


def _sets(puzzle, items, what):
    """All states of all items in one array, and the offsets of each item's states."""
    if isinstance(items, np.ndarray) and items.ndim == (1 if puzzle.width == 1 else 2):
        states = puzzle.states(items)
        return states, np.arange(len(states) + 1, dtype=np.int64)
    arrays = [puzzle.states(item) for item in items]
    for i, array in enumerate(arrays):
        if len(array) == 0:
            raise InvalidPuzzleInput(f"{what} {i} is an empty set of states")
    sizes = np.array([len(a) for a in arrays], np.int64)
    offsets = np.zeros(len(arrays) + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    shape = (0,) if puzzle.width == 1 else (0, puzzle.width)
    return (np.concatenate(arrays) if arrays else np.empty(shape, np.int64)), offsets


def _check_components(puzzle, states, offsets):
    if len(states) == len(offsets) - 1:
        return  # one start per pair
    components = layer_kernels(puzzle).components(states, kernel_tables(puzzle))
    first = components[offsets[:-1]]
    sizes = np.diff(offsets)
    mixed = np.flatnonzero(np.repeat(first, sizes) != components)
    if len(mixed):
        pair = int(np.searchsorted(offsets, mixed[0], side="right") - 1)
        raise InvalidPuzzleInput(f"{puzzle.name}: the start states of pair {pair} lie in different components"
                                 " (they can never reach one another)")


def _limit(value) -> int:
    return (1 << 30) if value is None else int(value)


def _fits(puzzle, workers) -> bool:
    return (puzzle.has_rank and puzzle.searchable_backward
            and 2 * workers * puzzle.rank_size <= physical_bytes() / 4)


@contextlib.contextmanager
def _depth_tables(puzzle, workers):
    """The workers' depth tables, forward and backward: all UNSEEN between calls, so any puzzle of
    that rank size may use them. A call stopped half-way (a broken rule, Ctrl-C) leaves them
    dirty: they are dropped."""
    key = (puzzle.rank_size, workers)
    tables = PAIR_DEPTH_TABLES.get(key, lambda: np.full((2, workers, puzzle.rank_size), UNSEEN, np.uint8))
    try:
        yield tables[0], tables[1]
    except BaseException:
        PAIR_DEPTH_TABLES.discard(key)
        raise


def _one_by_one(puzzle, starts, start_offsets, goals, goal_offsets, limits, indices) -> ManySolutions:
    max_forward, max_backward, max_depth = (None if v == 1 << 30 else v for v in limits)
    found = []
    for i in indices:
        result = bidirectional(puzzle, starts[start_offsets[i]:start_offsets[i + 1]],
                               goals[goal_offsets[i]:goal_offsets[i + 1]], max_depth=max_depth,
                               max_forward=max_forward, max_backward=max_backward)
        found.append(result.solution)
    lengths = np.array([-1 if s is None else len(s) for s in found], np.int64)
    moves = np.zeros((len(found), max(0, int(lengths.max(initial=0)))), np.int64)
    for row, solution in enumerate(found):
        if solution is not None:
            moves[row, :len(solution)] = solution.moves
    return ManySolutions(puzzle, list(range(len(found))), lengths, moves, "bidirectional")
