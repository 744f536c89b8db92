"""Keeping JIT compile time out of search timings, and saying when a compile is under way.

The first call of a kernel with new argument types compiles it (or loads it from the disk
cache). ``call`` times the calls that add a compiled signature to the kernel and adds them to a
process-wide clock (and to ``compile_log``, kernel by kernel, while it is a list); searches
report the clock's advance as compile time, apart from search time. For a kernel that does real
work, ``warm`` it first on *empty* inputs of the same types (``frontier[:0]``), so that only the
compile is on the clock.

A compile (not a load from the cache) that lasts longer than ``ANNOUNCE_AFTER`` seconds prints
one line on standard error, once per process, naming the family compiled (a user's puzzle: its
name), unless the environment says ``VECSEARCH_ANNOUNCE_COMPILE=0``: in a script or a notebook as
on the command line, a compile of seconds does not pass in silence. It listens to numba's
``numba:compile`` event, which fires only when a signature is really compiled, so a long search
never passes for a compile.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time

import numpy as np
from numba.core import event
from numba.core.errors import NumbaError

from vecsearch.errors import PuzzleDefinitionError

ANNOUNCE_AFTER = 0.5  # seconds a compile runs before it is announced

announce = os.environ.get("VECSEARCH_ANNOUNCE_COMPILE", "1") != "0"  # print the compile notice
subject: str | None = None  # what the notice says is compiled (None: the kernel's module)

compile_log: list[tuple[str, float]] | None = None  # a list: ``call`` appends (kernel, seconds) per compile

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
    overloads = getattr(kernel, "overloads", ())  # none: a plain function (NUMBA_DISABLE_JIT=1)
    known = len(overloads)
    started = time.perf_counter()
    try:
        result = kernel(*args)
    except NumbaError as error:
        raise PuzzleDefinitionError(compile_failure(error, kernel)) from error
    if not hasattr(kernel, "overloads"):
        return boxed(result)
    if len(overloads) != known:
        seconds = time.perf_counter() - started
        _compile_seconds += seconds
        if compile_log is not None:
            compile_log.append((getattr(getattr(kernel, "py_func", None), "__name__", repr(kernel)), seconds))
    return result


def boxed(result):
    """``result`` of a kernel run as Python (``NUMBA_DISABLE_JIT=1``) as numba returns it from
    compiled code: numpy scalars as Python numbers (tuples of them too), arrays as they are."""
    if isinstance(result, tuple):
        return tuple(boxed(item) for item in result)
    return result.item() if isinstance(result, np.generic) else result


def compiling(name: str, build):
    """``build()`` (a compile done ahead of its first call: a user's function for its argument
    types), on the compile clock and in ``compile_log`` as ``name``."""
    global _compile_seconds
    started = time.perf_counter()
    result = build()
    seconds = time.perf_counter() - started
    _compile_seconds += seconds
    if compile_log is not None:
        compile_log.append((name, seconds))
    return result


def compile_failure(error: NumbaError, kernel) -> str:
    """What a user needs from numba's refusal to compile ``kernel``: the function at fault (with
    its file and line when numba names them) and numba's first line of cause."""
    lines = [line.strip() for line in str(error).splitlines()]
    cause = next((line for line in lines if line and not line.startswith(("Failed in", "During:"))), lines[0])
    located = re.search(r'File "([^"]+)", line (\d+):\s*\n\s*def (\w+)\(', str(error))
    if located:
        where = f"{located[3]} ({located[1]}, line {located[2]})"
    else:
        where = _function_naming(cause, kernel) or "the puzzle's functions"
    return f"numba cannot compile {where}: {cause} (the chained error has numba's full message)"


def _function_naming(cause: str, kernel) -> str | None:
    """The function among ``kernel``'s globals that uses the undefined global ``cause`` names."""
    missing = re.search(r"name '(\w+)' is not defined", cause)
    if missing is None:
        return None
    for value in getattr(getattr(kernel, "py_func", None), "__globals__", {}).values():
        code = getattr(getattr(value, "py_func", None), "__code__", None)
        if code is not None and missing[1] in code.co_names:
            return value.py_func.__name__
    return None


def warm(kernel, *args) -> None:
    """``call`` the kernel once per process (on empty inputs of the types it will see)."""
    if id(kernel) not in _warmed:
        call(kernel, *args)
        _warmed.add(id(kernel))


def announce_compiles(what: str | None = None) -> None:
    """Print one line on standard error when a compile lasts more than ``ANNOUNCE_AFTER``
    seconds (``what``: what the line says is compiled, e.g. a puzzle's name), unless the
    environment says ``VECSEARCH_ANNOUNCE_COMPILE=0`` (tests comparing standard error do)."""
    global announce, subject
    announce, subject = os.environ.get("VECSEARCH_ANNOUNCE_COMPILE", "1") != "0", what


def notice(dispatcher) -> str:
    """The line announcing a compile of ``dispatcher`` (a numba kernel): it names ``subject``,
    else the family of the kernel module (``FAMILY``), else the module."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", None)
    what = subject or getattr(sys.modules.get(module), "FAMILY", None) or module or "vecsearch"
    cached = type(getattr(dispatcher, "_cache", None)).__name__ not in ("NullCache", "NoneType")
    later = "later runs load them from the cache" if cached else "they are not cached: once per process"
    return f"vecsearch: compiling kernels for {what} (once; {later})"


class _CompileNotice(event.Listener):
    """Starts a timer when an outermost compile starts and cancels it when the compile ends;
    a timer that fires prints the notice (once per process)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._depth = 0
        self._timer: threading.Timer | None = None
        self.announced = False

    def on_start(self, ev) -> None:
        with self._lock:
            self._depth += 1
            if self._depth == 1 and announce and not self.announced:
                self._timer = threading.Timer(ANNOUNCE_AFTER, self._say, (notice(ev.data.get("dispatcher")),))
                self._timer.daemon = True
                self._timer.start()

    def on_end(self, ev) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _say(self, line: str) -> None:
        with self._lock:
            if self.announced or self._timer is None:
                return
            print(line, file=sys.stderr, flush=True)
            self.announced = True


compile_notice = _CompileNotice()  # ``compile_notice.announced``: whether the line was printed
event.register("numba:compile", compile_notice)
