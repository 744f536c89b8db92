"""Keeping JIT compile time out of search timings.

The first call of a kernel with new argument types compiles it (or loads it from the disk
cache). ``call`` times the calls that add a compiled signature to the kernel and adds them to a
process-wide clock; searches report the clock's advance as compile time, apart from search
time. For a kernel that does real work, ``warm`` it first on *empty* inputs of the same types
(``frontier[:0]``), so that only the compile is on the clock.
"""

from __future__ import annotations

import time

_compile_seconds = 0.0
_warmed: set[int] = set()


def compile_seconds() -> float:
    """Seconds spent compiling or loading kernels in this process so far."""
    return _compile_seconds


def call(kernel, *args):
    """``kernel(*args)``; a call that compiles (or loads from the cache) a new signature goes on
    the compile clock. Cheap enough for every call: it only compares the kernel's overload
    count before and after."""
    global _compile_seconds
    known = len(kernel.overloads)
    started = time.perf_counter()
    result = kernel(*args)
    if len(kernel.overloads) != known:
        _compile_seconds += time.perf_counter() - started
    return result


def warm(kernel, *args) -> None:
    """``call`` the kernel once per process (on empty inputs of the types it will see)."""
    if id(kernel) not in _warmed:
        call(kernel, *args)
        _warmed.add(id(kernel))
