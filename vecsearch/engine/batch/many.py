"""``solve_many``: many instances, the method picked once, solved chunk by chunk.

An instance is an id, a start state and a goal (a state or a set; default: the puzzle's goal).
The method comes from the registry (``vecsearch.engine.batch.methods``; ``auto`` picks by cost), chunks
run one after another on the local cores (the kernels are parallel) or on a ``dask.distributed``
cluster (``client=``), and ``iter_many`` yields each ``Chunk`` as it finishes; ``solve_many``
gathers them into one ``ManySolutions``. Files of instances are ``vecsearch.batch_io``'s job.
"""

from __future__ import annotations

import time

from vecsearch.engine.batch import methods
from vecsearch.engine.batch.instances import Instances, instances_from, refuse_duplicate_ids
from vecsearch.engine.batch.strategies import solve_chunk
from vecsearch.engine.results.answers import Chunk, ManySolutions
from vecsearch.engine.runtime.endpoints import as_puzzle, depth_limit, whole_number
from vecsearch.engine.runtime.progress import progress_bar


def solve_many(puzzle, instances, goal=None, *, method: str = "auto", max_depth=None, chunk_size=None, client=None,
               progress=None, **options) -> ManySolutions:
    """Shortest solutions of many instances, in input order.

    One method answers them all, chunk by chunk (on all cores, or on a dask cluster).

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    instances : array or iterable
        An array of starts, an iterable of starts (states or texts), ``(id, start)`` or
        ``(id, start, goal)`` tuples, or ``{"id", "start", "goal"}`` dicts; ids default to
        positions and must be unique. A wide puzzle's state is the tuple of its words (as
        ``parse_state`` gives it), a list or an array row: one start, never a pair. Packed
        states given one by one are checked to be states of the puzzle; an array of them (the
        engine's own, in bulk) is taken as it is.
    goal : state or text, optional
        The goal of instances that name none (default: the puzzle's).
    method : str, default "auto"
        ``"auto"`` (the registry's choice for this puzzle and batch) or a name of `METHODS`.
    max_depth : int, optional
        The longest solution looked for; longer ones are answered -1.
    chunk_size : int, optional
        Instances per chunk (default: the method's).
    client : dask.distributed.Client, optional
        Send the chunks to this cluster's workers.
    progress : bool, optional
        Draw a tqdm bar (default: when standard error is a terminal).
    **options
        Options of the method (``threads=``, ``heuristic=``...), refused if it does not honour
        them.

    Returns
    -------
    ManySolutions
        Lengths and moves in input order; malformed instances are left out of the answers and
        listed in ``errors``.

    See Also
    --------
    solve_pairs : Many instances, each with its own goal, searched from both ends.

    Examples
    --------
    >>> many = vs.solve_many("eight", ["1 2 3 4 5 6 7 x 8", "8 6 7 2 5 4 3 x 1", "1 2 3 4 5 6 8 7 x"])
    >>> many.lengths.tolist(), many.formatted(0)
    ([1, 31, -1], 'r')
    """
    puzzle = as_puzzle(puzzle)
    depth_limit(max_depth)
    whole_number(chunk_size, "chunk_size", 1)
    batch, errors = instances_from(puzzle, instances, goal)
    refuse_duplicate_ids([*batch.ids, *(key for key, _ in errors)])
    chosen = methods.for_batch(method, puzzle, batch, options, max_depth)
    chunks = list(chunks_of(puzzle, batch, chosen, max_depth=max_depth, chunk_size=chunk_size, client=client,
                            progress=progress, options=options))
    return ManySolutions.from_chunks(puzzle, batch.ids, chunks, errors, chosen.name)


def iter_many(puzzle, instances: Instances, *, method: str = "auto", max_depth=None, chunk_size=None, client=None,
              progress=None, ordered=False, **options):
    """``Chunk`` after ``Chunk`` as chunks finish (in input order locally; with a ``client``, in
    finishing order unless ``ordered``)."""
    puzzle = as_puzzle(puzzle)
    depth_limit(max_depth)
    whole_number(chunk_size, "chunk_size", 1)
    chosen = methods.for_batch(method, puzzle, instances, options, max_depth)
    return chunks_of(puzzle, instances, chosen, max_depth=max_depth, chunk_size=chunk_size, client=client,
                     progress=progress, ordered=ordered, options=options)


def chunks_of(puzzle, instances: Instances, method: methods.Method, *, max_depth=None, chunk_size=None, client=None,
              progress=None, ordered=False, options=None):
    """``iter_many`` once the puzzle, the instances and the method are resolved (``options``
    checked against the method)."""
    options = dict(options or {})
    size = method.chunk_size if chunk_size is None else chunk_size
    bounds = [(lo, min(len(instances), lo + size)) for lo in range(0, len(instances), size)]
    with progress_bar(progress, f"{method.name} {puzzle.name}", unit=" inst", total=len(instances)) as bar:
        if client is not None:
            from vecsearch.engine.batch.distributed import map_chunks

            chunks = map_chunks(client, puzzle, instances, bounds, method.name, max_depth, options, ordered)
        else:
            chunks = (_timed(puzzle, lo, instances.take(lo, hi), method, max_depth, options) for lo, hi in bounds)
        for chunk in chunks:
            bar.advance(len(chunk.lengths))
            yield chunk


def _timed(puzzle, first, chunk, method, max_depth, options) -> Chunk:
    began = time.perf_counter()
    lengths, moves, profile = solve_chunk(puzzle, chunk, method, max_depth, options)
    return Chunk(first, chunk.ids, lengths, moves, time.perf_counter() - began, method.name, profile)
