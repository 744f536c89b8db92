"""Serial range kernels run over blocks of their input on several threads.

Every heavy kernel is a serial loop over a range ``[lo, hi)`` of its input (the ``*_range``
kernels of the templates), compiled with ``nogil=True``. Large inputs are cut into blocks that a
few Python threads hand to the kernel one after another; numba releases the GIL for each call, so
the blocks run in parallel, and threads that finish early take more blocks. Small inputs are one
call on the calling thread, with no thread woken at all, and so is a call from one of the pool's
threads (a block that cuts its own work into blocks): it runs its blocks itself, as numba runs a
nested parallel loop serially, rather than wait for a helper from the pool it occupies.

Why not numba's ``prange``: lowering a parallel loop re-optimises the whole inlined loop body
once more for the loop's function and once for its wrapper, 8-10 s of compiling per kernel (three
quarters of a two-bit search's compile), for no speed that these threads do not give too.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba

from vecsearch.contract import is_whole

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_pool_threads: set[threading.Thread] = set()  # the pool's threads, as each starts


def workers() -> int:
    """Threads a search may use: numba's thread count for the calling thread (``threads=`` of
    the searches sets it; ``NUMBA_NUM_THREADS`` bounds it)."""
    return numba.get_num_threads()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max(1, numba.config.NUMBA_NUM_THREADS - 1), thread_name_prefix="vecsearch",
                                       initializer=lambda: _pool_threads.add(threading.current_thread()))
        return _pool


def map_blocks(call: Callable, n: int, block: int) -> list:
    """``[call(lo, hi)]`` for the blocks ``[lo, hi)`` of ``block`` items covering ``[0, n)``, in
    block order, computed on up to ``workers()`` threads (the calling thread is one of them).
    One call ``call(0, n)`` when a single thread or a single block will do."""
    count = min(workers(), -(-n // block))
    if count <= 1 or threading.current_thread() in _pool_threads:
        return [call(0, n)]
    bounds = [(lo, min(n, lo + block)) for lo in range(0, n, block)]
    results = [None] * len(bounds)
    claims = itertools.count()  # next() is atomic under the GIL: each block is taken once
    stopped = []  # set when the calling thread fails (Ctrl-C): the others take no new block

    def work():
        for i in claims:
            if i >= len(bounds) or stopped:
                return
            results[i] = call(*bounds[i])

    helpers = [_executor().submit(work) for _ in range(count - 1)]
    try:
        work()
    except BaseException:
        stopped.append(True)
        raise
    finally:
        for helper in helpers:
            helper.result()
    return results


_team: ThreadPoolExecutor | None = None
_team_busy = threading.Lock()  # one team call at a time: its helpers then each have a thread


def together(call: Callable, workers: int) -> list | None:
    """``[call(w, workers)]`` for ``w`` in ``range(workers)``, all at the same time: for kernels
    whose workers wait for one another, so each needs a thread of its own (the helpers come from a
    pool that runs nothing else). None, and nothing run, while another team call holds the pool."""
    global _team
    if not _team_busy.acquire(blocking=False):
        return None
    try:
        if _team is None:
            _team = ThreadPoolExecutor(max(1, numba.config.NUMBA_NUM_THREADS - 1), thread_name_prefix="vecsearch-team")
        helpers = [_team.submit(call, w, workers) for w in range(1, workers)]
        first = call(0, workers)
        return [first] + [helper.result() for helper in helpers]
    finally:
        _team_busy.release()


def thread_count(threads):
    """``threads`` (None: all cores), refused unless it is a whole number, 1 or more."""
    if threads is not None and not is_whole(threads, 1):
        raise ValueError(f"threads must be a whole number, 1 or more (or None for all cores), not {threads!r}")
    return threads


@contextlib.contextmanager
def thread_limit(threads: int | None):
    """Within the block, searches use at most ``threads`` threads (None: no change)."""
    if thread_count(threads) is None:
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(previous)
