"""Chunks of a batch on a ``dask.distributed`` cluster (optional: ``pip install vecsearch[dask]``).

Each chunk is one task: the worker rebuilds the puzzle from its registry name (or unpickles a
user's puzzle), solves the chunk with the same kernels as a local run (its distance table is
built once per worker process and reused), and returns lengths and moves. Results come back as
tasks finish.
"""

from __future__ import annotations

import time

from vecsearch.engine.answers import Chunk
from vecsearch.engine.endpoints import portable
from vecsearch.engine.strategies import solve_chunk


def _run(puzzle, chunk, method, max_depth, options):
    from vecsearch.engine.endpoints import as_puzzle

    began = time.perf_counter()
    lengths, moves, profile = solve_chunk(as_puzzle(puzzle), chunk, method, max_depth, options)
    return lengths, moves, profile, time.perf_counter() - began


def map_chunks(client, puzzle, instances, bounds, method, max_depth, options, ordered=False):
    """``Chunk``s of ``instances`` split at ``bounds``, solved on ``client``'s workers."""
    try:
        from distributed import as_completed
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("a dask cluster needs dask.distributed: pip install 'vecsearch[dask]'") from None
    shipped = portable(puzzle)
    futures = {}
    for lo, hi in bounds:
        future = client.submit(_run, shipped, instances.take(lo, hi), method, max_depth, options, pure=False)
        futures[future] = lo
    finished = {}
    order = [lo for lo, _ in bounds]
    next_index = 0
    for future in as_completed(futures):
        lo = futures[future]
        lengths, moves, profile, seconds = future.result()
        chunk = Chunk(lo, instances.ids[lo:lo + len(lengths)], lengths, moves, seconds, method, profile)
        if not ordered:
            yield chunk
            continue
        finished[lo] = chunk
        while next_index < len(order) and order[next_index] in finished:
            yield finished.pop(order[next_index])
            next_index += 1
