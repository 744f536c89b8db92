"""The numba compilation options vecsearch uses, in one place.

- ``kernel``: a cached ``@njit`` for functions whose arguments are arrays, scalars and tuples of
  arrays. Such functions load from the on-disk cache in a new process (a few ms instead of a
  compile of 0.3-1 s).
- ``parallel_kernel``: the same with ``parallel=True`` for ``prange`` loops over a frontier.
- ``state_function``: per-state puzzle rules (expand one state, rank one state). They are not
  cached on their own because they are compiled into the layer kernels that call them, where
  they are inlined.
- ``user_kernel`` / ``user_parallel_kernel``: uncached variants for kernels built around a puzzle
  defined in a notebook (its functions live in no importable file, so numba cannot cache them);
  such puzzles pay one compile per process, done by ``Puzzle.warm_up()``.

``error_model="numpy"`` removes the division-by-zero checks from integer ``//`` and ``%`` in hot
loops; our kernels never divide by zero by construction.

``OMP_WAIT_POLICY=passive`` (unless the user set it): OpenMP worker threads sleep between
parallel regions instead of spinning. A search launches one region per layer; with spinning
workers and another program busy on one core, every region waited for a descheduled worker
(measured: full 3x3 BFS 184 ms instead of 13 ms; passive: 19.5 ms, no worse than one thread).
It must be set before numba first starts its thread pool, hence here, at import.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from numba import njit  # noqa: E402

_COMMON = dict(error_model="numpy", nogil=True)

kernel = njit(cache=True, **_COMMON)
parallel_kernel = njit(cache=True, parallel=True, **_COMMON)
state_function = njit(inline="always", **_COMMON)
user_kernel = njit(cache=False, **_COMMON)
user_parallel_kernel = njit(cache=False, parallel=True, **_COMMON)
