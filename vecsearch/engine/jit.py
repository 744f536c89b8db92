"""Keeping JIT compile time out of search timings.

The first call of a kernel with new argument types compiles it (or loads it from the disk
cache). ``call`` times such first calls and adds them to a process-wide clock; searches report
the clock's advance as compile time, apart from search time. For a kernel that does real work,
first ``call`` it on *empty* inputs of the same types (``frontier[:0]``), so that only the
compile is on the clock.
"""

from __future__ import annotations

import time

import numpy as np

_called: set = set()
_compile_seconds = 0.0


def compile_seconds() -> float:
    """Seconds spent compiling or loading kernels in this process so far."""
    return _compile_seconds


def call(kernel, *args):
    """``kernel(*args)``; the first call per argument-type signature goes on the compile clock."""
    global _compile_seconds
    key = (id(kernel), tuple(_type_key(a) for a in args))
    if key in _called:
        return kernel(*args)
    started = time.perf_counter()
    result = kernel(*args)
    _compile_seconds += time.perf_counter() - started
    _called.add(key)
    return result


def _type_key(value):
    if isinstance(value, np.ndarray):
        return (value.dtype, value.ndim)
    if isinstance(value, tuple):
        return tuple(map(_type_key, value))
    return type(value)
