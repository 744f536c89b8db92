"""Chunks of a batch on a ``dask.distributed`` cluster (optional: ``pip install vecsearch[dask]``).

Each chunk is one task: the worker rebuilds the puzzle from its registry name (or unpickles a
user's puzzle), solves the chunk with the same kernels as a local run (its distance table is
built once per worker process and reused), and returns lengths and moves. Results come back as
tasks finish.
"""

from __future__ import annotations

import time

import numpy as np

from vecsearch.engine.batch.methods import METHODS
from vecsearch.engine.batch.strategies import solve_chunk
from vecsearch.engine.results.answers import Chunk
from vecsearch.engine.runtime.cluster import cluster_workers
from vecsearch.engine.runtime.endpoints import portable


def _run(puzzle, chunk, method, max_depth, options):
    from vecsearch.engine.runtime.endpoints import as_puzzle

    began = time.perf_counter()
    lengths, moves, profile = solve_chunk(as_puzzle(puzzle), chunk, METHODS[method], max_depth, options)
    return lengths, moves, profile, time.perf_counter() - began


START_KEYED = ("start-tables", "start-balls")  # methods that build a table per distinct start


def map_chunks(client, puzzle, instances, bounds, method, max_depth, options, ordered=False):
    """``Chunk``s of ``instances`` split at ``bounds``, solved on ``client``'s workers. For a
    method with a table per start, unless the chunks must come back in order, instances are
    regrouped by start and each start's chunks sent to one worker (``group_by_start``), so that
    each table is built once in the cluster rather than once per worker that meets it (a chunk
    that dask's work stealing moves to an idle worker builds it there too)."""
    try:
        from distributed import as_completed
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("a dask cluster needs dask.distributed: pip install 'vecsearch[dask]'") from None
    shipped = portable(puzzle)
    size = max((hi - lo for lo, hi in bounds), default=1)
    if method in START_KEYED and not ordered:
        workers = sorted(cluster_workers(client))
        groups = [(positions, [workers[w]]) for positions, w in group_by_start(instances, size, len(workers))]
    else:
        groups = [(np.arange(lo, hi), None) for lo, hi in bounds]
    futures = {}
    for positions, where in groups:
        part = instances.select(positions)
        placed = {} if where is None else {"workers": where, "allow_other_workers": True}  # others, if it dies
        future = client.submit(_run, shipped, part, method, max_depth, options, pure=False, **placed)
        futures[future] = positions
    finished = {}
    order = [int(positions[0]) for positions, _ in groups]
    next_index = 0
    for future in as_completed(futures):
        positions = futures[future]
        lengths, moves, profile, seconds = future.result()
        ids = [instances.ids[i] for i in positions.tolist()] if isinstance(instances.ids, list) else \
            instances.ids[positions]
        contiguous = len(positions) == 0 or positions[-1] - positions[0] == len(positions) - 1
        chunk = Chunk(int(positions[0]) if len(positions) else 0, ids, lengths, moves, seconds, method, profile,
                      None if contiguous else positions)
        if not ordered:
            yield chunk
            continue
        finished[chunk.first] = chunk
        while next_index < len(order) and order[next_index] in finished:
            yield finished.pop(order[next_index])
            next_index += 1


def group_by_start(instances, size: int, workers: int) -> list[tuple[np.ndarray, int]]:
    """Chunks of at most ``size`` instance positions, each holding whole groups of one start
    where they fit (a larger group is cut), with the worker each goes to: every chunk of a
    start goes to the same worker, starts spread to balance the instances per worker."""
    if len(instances) == 0:
        return []
    _, group = np.unique(instances.starts, axis=0, return_inverse=True)
    order = np.argsort(group.ravel(), kind="stable")
    bounds = np.flatnonzero(np.diff(group.ravel()[order])) + 1
    load = np.zeros(workers, np.int64)
    assigned: list[list[np.ndarray]] = [[] for _ in range(workers)]
    for members in sorted(np.split(order, bounds), key=len, reverse=True):  # largest first: even loads
        worker = int(np.argmin(load))
        load[worker] += len(members)
        assigned[worker].append(members)
    chunks = []
    for worker, groups in enumerate(assigned):
        current, count = [], 0
        for members in groups:
            for lo in range(0, len(members), size):
                piece = members[lo:lo + size]
                if count + len(piece) > size:
                    chunks.append((np.sort(np.concatenate(current)), worker))
                    current, count = [], 0
                current.append(piece)
                count += len(piece)
        if current:
            chunks.append((np.sort(np.concatenate(current)), worker))
    return chunks
