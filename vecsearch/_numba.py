"""The numba compilation options vecsearch uses, in one place.

- ``kernel``: a cached ``@njit`` for functions whose arguments are arrays, scalars and tuples of
  arrays. Such functions load from the on-disk cache in a new process (a few ms instead of a
  compile of 0.3-1 s).
- ``parallel_kernel``: the same with ``parallel=True`` for ``prange`` loops over a frontier.
- ``loop``: the hot loop of a kernel, compiled without reference counting (``_nrt=False``). A
  per-state function inlined into a loop binds its ``tables`` argument afresh on every call, and
  numba counts a reference to every array of that tuple each time: two calls with an atomic
  operation per array per state, on counters that every thread shares (pancake-12's rank steps:
  214 ns per state with them, 137 ns without, on one thread). A loop cannot allocate, so its
  kernel allocates the scratch arrays and calls it once per range. Only for vecsearch's own rules,
  which never allocate: code generation binds ``loop`` to ``kernel`` for a user's.
- ``state_function``: per-state puzzle rules (expand one state, rank one state). They are not
  cached on their own because they are compiled into the layer kernels that call them, where
  they are inlined.
- ``called``: a function compiled once and called by the kernels (not inlined into each by
  numba, which costs compile time per kernel): the one that raises a guard's ``BrokenRule``.
- ``checked_function(function, argument_types, cache)``: a user's per-state function, compiled
  for the argument types its role is called with (``engine.runtime.guarded.argument_types``), with bounds checks:
  an index out of range raises ``IndexError``, which its guard (``kernels/guard_template``) turns
  into a ``BrokenRule``, instead of writing outside an array. The kernels take it as a first-class
  function, so they serve every user puzzle of the same types and load from the cache even when
  the function was defined in a notebook; the function itself is cached when it lives in a file
  (``cache``). An indirect call: never inlined, as bounds checks need.
- ``user_kernel`` / ``user_parallel_kernel``: uncached variants, for kernel modules that cannot be
  written to the cache directory.

``NUMBA_DISABLE_JIT=1``: every kernel runs as Python (a debugger, coverage). The kernels the
engine calls (``kernel``, ``parallel_kernel`` and the ``user_`` ones) then return what compiled
code returns to Python: Python numbers, not numpy scalars (``as_compiled_returns``).

``error_model="numpy"`` removes the division-by-zero checks from integer ``//`` and ``%`` in hot
loops; our kernels never divide by zero by construction.

``OMP_WAIT_POLICY=passive`` (unless the user set it): OpenMP worker threads sleep between
parallel regions instead of spinning. A search launches one region per layer; with spinning
workers and another program busy on one core, every region waited for a descheduled worker
(measured: full 3x3 BFS 184 ms instead of 13 ms; passive: 19.5 ms, no worse than one thread).
It must be set before numba first starts its thread pool, hence here, at import.

``faster_inlining()`` and ``reused_callee_irs()`` (installed when numba first compiles in the
process) remove a quadratic cost from numba's inliner, which took most of the compile time of
kernels built from ``inline="always"`` functions, and its preparing a function's IR again at
every call site; see there.

``quicker_cache_loads()`` (installed at import) loads a cached kernel without numba's full
context refresh, which imports and registers every implementation numba has (0.08-0.13 s at the
first load of a process: most of what a judge problem's whole process spends past its imports)
although a load compiles nothing; a compile still refreshes in full. See there.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "passive")

import copy  # noqa: E402
import functools  # noqa: E402

import numpy as np  # noqa: E402
from numba import config, njit  # noqa: E402
from numba.core import event  # noqa: E402

_COMMON = dict(error_model="numpy", nogil=True)


def _boxed(result):
    """``result`` of a kernel run as Python as compiled code returns it: numpy scalars as Python
    numbers (in tuples too), arrays as they are."""
    if isinstance(result, tuple):
        return tuple(_boxed(item) for item in result)
    return result.item() if isinstance(result, np.generic) else result


def as_compiled_returns(decorator):
    """``decorator``, whose functions return as compiled kernels do when ``NUMBA_DISABLE_JIT=1``
    runs them as Python (unchanged otherwise)."""
    if not config.DISABLE_JIT:
        return decorator

    def decorate(function):
        run = decorator(function)

        @functools.wraps(function)
        def returning_as_compiled(*args):
            return _boxed(run(*args))

        returning_as_compiled.py_func = function
        return returning_as_compiled

    return decorate


kernel = as_compiled_returns(njit(cache=True, **_COMMON))
parallel_kernel = as_compiled_returns(njit(cache=True, parallel=True, **_COMMON))
state_function = njit(inline="always", **_COMMON)
called = njit(_nrt=True, **_COMMON)
loop = njit(cache=True, _nrt=False, **_COMMON)
user_kernel = as_compiled_returns(njit(cache=False, **_COMMON))
user_parallel_kernel = as_compiled_returns(njit(cache=False, parallel=True, **_COMMON))


def checked_function(function, argument_types: tuple, cache: bool):
    """``function`` (plain, or a numba dispatcher: its Python function is used) compiled with
    bounds checks for ``argument_types`` (numba types)."""
    return njit(argument_types, boundscheck=True, cache=cache, **_COMMON)(getattr(function, "py_func", function))


class _ScopeSharingCopy:
    """Stands in for the ``copy`` module inside ``numba.core.inline_closurecall``.

    To inline a function, numba deep-copies its IR one block at a time, each with a fresh memo.
    Every variable refers to the function's scope, which holds every variable, so each block's
    copy also copies the whole scope: blocks x variables, 44% of compiling a two-bit kernel.
    Here the blocks of one scope share a memo while one ``inline_ir`` call runs, so the scope is
    copied once (as one deep copy of the whole IR would); separate copies stay separate.
    """

    def __init__(self, block_type):
        self.block_type = block_type
        self.memos = None  # scope id -> memo, during one inline_ir call

    def deepcopy(self, value, memo=None):
        if memo is None and self.memos is not None and isinstance(value, self.block_type):
            memo = self.memos.setdefault(id(value.scope), {})
        return copy.deepcopy(value, memo)

    def __getattr__(self, name):
        return getattr(copy, name)


def faster_inlining() -> bool:
    """Install ``_ScopeSharingCopy`` in numba's inliner (once; importing the inliner costs
    0.1 s, so only code generation asks). False, and nothing changed, on a numba whose inliner
    is not laid out as this expects. Compiled code is the same either way."""
    from numba.core import inline_closurecall, ir

    if isinstance(getattr(inline_closurecall, "copy", None), _ScopeSharingCopy):
        return True
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if worker is None or getattr(inline_closurecall, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return False
    shim = _ScopeSharingCopy(ir.Block)
    inline_ir = worker.inline_ir

    def inline_ir_sharing_scopes(self, *args, **kwargs):
        saved, shim.memos = shim.memos, {}
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            shim.memos = saved

    inline_closurecall.copy = shim
    worker.inline_ir = inline_ir_sharing_scopes
    return True


_callee_irs: dict = {}  # (function, what its IR depends on) -> its IR, during one outermost compile


def reused_callee_irs() -> bool:
    """Make numba's inliner prepare a function's IR once per compile, not once per call site.

    To inline a call, numba runs the compiler's untyped passes over the callee (bytecode to IR,
    rewrites, and the inlining of its own callees, recursively), then copies that IR into the
    caller (``inline_ir`` copies it first: the IR itself is not changed). A kernel inlines the same
    puzzle rules at several call sites, each time from the bytecode up: here the IR is kept in
    ``_callee_irs`` by function and by what the untyped passes read (the pipeline, the parallel
    and loop-lifting options), and dropped when the outermost compile ends, so a function
    redefined between compiles is read afresh (13% less compiling for the pocket cube's two-bit,
    pair and IDA* kernels). False, and nothing changed, on a numba whose inliner is not laid out
    as this expects."""
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_function, "reusing", False):
        return True
    if not all(hasattr(worker, name) for name in ("run_untyped_passes", "inline_ir", "inline_function")):
        return False

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        flags = self.flags
        key = (function, getattr(self, "_compiler_pipeline", None), repr(getattr(flags, "auto_parallel", None)),
               getattr(flags, "enable_looplift", None), getattr(flags, "no_rewrites", None))
        callee_ir = _callee_irs.get(key)
        if callee_ir is None:
            callee_ir = _callee_irs[key] = self.run_untyped_passes(function)
        else:
            flags.enable_ssa = False  # as run_untyped_passes leaves it
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

    inline_function.reusing = True
    worker.inline_function = inline_function
    return True


class _Compiles(event.Listener):
    """Installs ``faster_inlining`` and ``reused_callee_irs`` when numba starts its first compile
    in the process (a process that only loads kernels from the cache never imports the inliner),
    and empties ``_callee_irs`` when an outermost compile ends (numba's compiler lock holds
    meanwhile: one compile at a time). It stays registered: numba would skip the next listener
    of the event it is told of if it left the list then."""

    installed = False
    depth = 0

    def on_start(self, ev) -> None:
        if not self.installed:
            faster_inlining()
            reused_callee_irs()
            self.installed = True
        self.depth += 1

    def on_end(self, ev) -> None:
        self.depth -= 1
        if self.depth == 0:
            _callee_irs.clear()


def quicker_cache_loads() -> bool:
    """Make numba's cache load a kernel after initialising only what a loaded kernel calls into.

    Before each load, numba refreshes its target context in full: it imports every module of
    implementations (arrays, linear algebra, random numbers, typed containers...) and registers
    them for typing and lowering, which only a compile uses. A loaded kernel needs only the symbols
    its machine code links to: the runtime's (``rtsys.initialize``, which the refresh also does),
    numba's C helpers (registered with the context itself) and the hash secret, registered when
    ``numba.cpython.hashing`` is imported. Those are set up here instead; the first compile
    refreshes in full as before (``numba.core.compiler.compile_extra``). False, and nothing
    changed, on a numba whose cache is not laid out as this expects."""
    from numba.core import caching
    from numba.core.runtime import rtsys

    cache = caching.Cache
    if getattr(cache.load_overload, "quick", False):
        return True
    if not all(hasattr(cache, name) for name in ("_load_overload", "_guard_against_spurious_io_errors")) \
            or not hasattr(rtsys, "initialize"):
        return False

    def load_overload(self, sig, target_context):
        import numba.cpython.hashing  # noqa: F401  (the hash secret's symbols)

        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload.quick = True
    cache.load_overload = load_overload
    return True


event.register("numba:compile", _Compiles())
quicker_cache_loads()
