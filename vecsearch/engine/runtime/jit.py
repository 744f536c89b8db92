"""Keeping JIT compile time out of search timings, and saying when a compile is under way.

The first call of a kernel with new argument types compiles it (or loads it from the disk
cache); numba holds its compiler lock meanwhile and says so by its ``numba:compiler_lock``
event. One listener (``compile_clock``) adds the time during which threads take or hold the lock
to a process-wide clock (and to ``compile_log``, kernel by kernel, while it is a list), so kernels
are called directly, and a search takes its timings from a ``Stopwatch``: wall seconds, the
compile seconds within them, and the difference. For a kernel that does real work, ``warm`` it
first on *empty* inputs of the same types (``frontier[:0]``), so that a compile is not mixed up
with the work in a per-phase timing.

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

from numba.core import event
from numba.core.errors import NumbaError

from vecsearch.errors import PuzzleDefinitionError

ANNOUNCE_AFTER = 0.5  # seconds a compile runs before it is announced

announce = os.environ.get("VECSEARCH_ANNOUNCE_COMPILE", "1") != "0"  # print the compile notice
subject: str | None = None  # what the notice says is compiled (None: the kernel's module)

compile_log: list[tuple[str, float]] | None = None  # a list: each compile or load as (kernel, seconds)

_warmed: set[int] = set()


class _CompileClock(event.Listener):
    """Adds up the seconds during which some thread takes or holds numba's compiler lock (the
    outermost hold: a compile loads or compiles what it calls inside it), and logs each
    thread's by kernel. numba says a thread takes the lock before it has it: a thread that calls
    a kernel that another is compiling waits inside the event. So the clock counts the wall
    seconds while any thread is inside, not each thread's: two threads calling a new kernel at
    once (the blocks of its first call) count its compile once."""

    def __init__(self):
        self.seconds = 0.0
        self._lock = threading.Lock()
        self._held = threading.local()
        self._inside = 0  # threads inside an outermost event
        self._since = 0.0  # when the first of them entered

    def on_start(self, ev) -> None:
        depth = getattr(self._held, "depth", 0)
        self._held.depth = depth + 1
        if depth == 0:
            self._held.began = now = time.perf_counter()
            self._held.kernel = _kernel_compiling() if compile_log is not None else None
            with self._lock:
                if self._inside == 0:
                    self._since = now
                self._inside += 1

    def on_end(self, ev) -> None:
        self._held.depth -= 1
        if self._held.depth == 0:
            now = time.perf_counter()
            with self._lock:
                self._inside -= 1
                if self._inside == 0:
                    self.seconds += now - self._since
            if compile_log is not None and self._held.kernel is not None:
                compile_log.append((self._held.kernel, now - self._held.began))


def _kernel_compiling() -> str | None:
    """The name of the kernel whose ``Dispatcher.compile`` takes the lock (None: another use)."""
    frame = sys._getframe(2)
    for _ in range(8):
        if frame is None:
            return None
        if frame.f_code.co_name == "compile" and "sig" in frame.f_locals:
            py_func = getattr(frame.f_locals.get("self"), "py_func", None)
            return getattr(py_func, "__name__", None)
        frame = frame.f_back
    return None


compile_clock = _CompileClock()
event.register("numba:compiler_lock", compile_clock)


def compile_seconds() -> float:
    """Seconds spent compiling or loading kernels in this process so far (every thread)."""
    return compile_clock.seconds


class Stopwatch:
    """Wall seconds since it was made (or ``restart``), and the compile seconds among them:
    ``search_seconds`` is the difference, what a profile reports as the work."""

    def __init__(self):
        self.restart()

    def restart(self) -> Stopwatch:
        self._began, self._compiled = time.perf_counter(), compile_clock.seconds
        return self

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self._began

    @property
    def compile_seconds(self) -> float:
        return compile_clock.seconds - self._compiled

    @property
    def search_seconds(self) -> float:
        return max(0.0, self.seconds - self.compile_seconds)


def compiling(name: str, build):
    """``build()`` (a compile done ahead of its first call: a user's function for its argument
    types), logged in ``compile_log`` as ``name``."""
    outer, log = compile_log, []
    _set_log(log if outer is not None else None)
    began = time.perf_counter()
    try:
        return build()
    finally:
        _set_log(outer)
        if outer is not None:
            outer.append((name, time.perf_counter() - began))


def _set_log(log) -> None:
    global compile_log
    compile_log = log


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
    """Call the kernel once per process (on empty inputs of the types it will see)."""
    if id(kernel) not in _warmed:
        kernel(*args)
        _warmed.add(id(kernel))


def named_failures(kernel, *args):
    """``kernel(*args)``, a numba refusal to compile it (a user's function numba cannot type)
    raised as a ``PuzzleDefinitionError`` naming the function at fault."""
    try:
        return kernel(*args)
    except NumbaError as error:
        raise PuzzleDefinitionError(compile_failure(error, kernel)) from error


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
