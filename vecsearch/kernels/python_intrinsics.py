"""The operations of ``intrinsics`` in plain Python, for ``NUMBA_DISABLE_JIT=1``.

With numba's JIT disabled every kernel runs as Python (a debugger steps through the templates'
own lines, coverage counts them), except what numba alone can run: the LLVM intrinsics.
``intrinsics`` binds its names to these instead when the JIT is disabled; each does what its
intrinsic does, slowly:

- ``prefetch``, ``yield_cpu``: a hint, nothing to do (``yield_cpu`` still lets another thread run);
- ``atomic_or`` / ``atomic_and`` / ``atomic_add`` / ``synced_add``: the read-modify-write under
  one lock (threads of ``engine.blocks`` may share an array), returning the old element;
- ``popcount``: the set bits of the 64-bit two's complement; ``cycles``: nanoseconds;
- ``stack_empty`` / ``stack_matrix``: a new array (the stack is the compiled code's);
- ``repeat_first_row``: row 0 copied into every row; ``borrowed``: the value itself (no
  reference counts to detach);
- ``to_fixed_tuple``: numba's ``to_fixed_tuple``, the first ``n`` elements as a tuple.
"""

import threading
import time

import numpy as np

_LOCK = threading.Lock()  # one read-modify-write at a time, as the hardware's atomics
_WORD = (1 << 64) - 1


def prefetch(array, index):
    """Nothing: a cache hint."""


def _update(array, index, value, operation):
    value = np.array(value).astype(array.dtype)[()]  # cast as the intrinsic casts: wrapping around
    with _LOCK:
        old = array[index]
        array[index] = operation(old, value)
        return old


def atomic_or(array, index, value):
    """``array[index] |= value`` (uint64); the previous word."""
    return _update(array, index, value, np.bitwise_or)


def atomic_and(array, index, value):
    """``array[index] &= value``; the previous element."""
    return _update(array, index, value, np.bitwise_and)


def atomic_add(array, index, value):
    """``array[index] += value``; the previous element."""
    return _update(array, index, value, np.add)


synced_add = atomic_add  # one lock orders every update


def popcount(x):
    """Number of set bits of ``x`` as a 64-bit word."""
    return np.int64((int(x) & _WORD).bit_count())


def cycles():
    """A clock's ticks (nanoseconds; the processor's counter is the compiled code's)."""
    return np.int64(time.perf_counter_ns())


def yield_cpu():
    """Let another thread run; 0, as ``sched_yield`` on success."""
    time.sleep(0)
    return np.int32(0)


def stack_empty(size):
    """A new int64 array of ``size`` elements."""
    return np.empty(size, np.int64)


def stack_matrix(size, rows, cols):
    """A new C-ordered int64 ``rows x cols`` matrix (``rows * cols <= size``)."""
    return np.empty(size, np.int64)[:rows * cols].reshape(rows, cols)


def repeat_first_row(matrix):
    """Row 0 of ``matrix`` copied into every other row."""
    matrix[1:] = matrix[0]


def borrowed(value):
    """``value`` itself."""
    return value


def to_fixed_tuple(array, length):
    """The first ``length`` elements of ``array`` as a tuple."""
    return tuple(array[:length])
