"""The numba compilation options vecsearch uses, in one place.

- ``kernel``: a cached ``@njit`` for functions whose arguments are arrays, scalars and tuples of
  arrays. Such functions load from the on-disk cache in a new process (a few ms instead of a
  compile of 0.3-1 s).
- ``loop``: the hot loop of a kernel, compiled without reference counting (``_nrt=False``). A
  per-state function inlined into a loop binds its ``tables`` argument afresh on every call, and
  numba counts a reference to every array of that tuple each time: two calls with an atomic
  operation per array per state, on counters that every thread shares (pancake-12's rank steps:
  214 ns per state with them, 137 ns without, on one thread). A loop cannot allocate, so its
  kernel allocates the scratch arrays and calls it once per range. Only for vecsearch's own rules,
  which never allocate: code generation binds ``loop`` to ``state_function`` for a user's. A
  ``loop`` keeps its Python entry point: the enumeration modulo symmetry and the database bounds
  run theirs from Python, over blocks of a range.
- ``inner_loop``: a ``loop`` that only kernels call, compiled without a Python entry point
  (numba's ``no_cpython_wrapper``): a family's loops (the templates' ``loop``, as code generation
  binds it). The entry point's wrapper unboxes every argument, tens of arrays in a family's
  tables, once more for each loop (pancake-8's two-bit kernels from empty caches: 4.62 s with it,
  4.49 s without). Called from Python, it raises ``TypeError`` (numba would call a null entry).
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
- ``user_kernel``: an uncached variant, for kernel modules that cannot be written to the cache
  directory.

None but ``checked_function`` has a C wrapper (``no_cfunc_wrapper``): numba makes one for every
function in case it is passed as a first-class function, which only a user's function is.

``NUMBA_DISABLE_JIT=1``: every kernel runs as Python (a debugger, coverage). The kernels the
engine calls (``kernel`` and ``user_kernel``) then return what compiled
code returns to Python: Python numbers, not numpy scalars (``as_compiled_returns``).

``error_model="numpy"`` removes the division-by-zero checks from integer ``//`` and ``%`` in hot
loops; our kernels never divide by zero by construction.

No kernel is a numba ``parallel=True`` one: kernels are serial loops over ranges, which
``engine.runtime.blocks`` runs on several threads (``prange`` loops compiled several times slower,
and numba's simplest threading layer takes no parallel call from two threads at once).

Compiling is made faster, and loading a cached kernel lighter, by patches of numba's compiler
and cache (``vecsearch._numba_patches``, installed at import): each leaves the compiled code as
it was.
"""

import functools

import numpy as np
from numba import config, njit
from numba.core.registry import CPUDispatcher

from vecsearch._numba_patches import install as install_patches

_COMMON = dict(error_model="numpy", nogil=True)
_OURS = dict(_COMMON, no_cfunc_wrapper=True)  # C wrappers are for first-class functions: a user's only


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


class _InnerLoop(CPUDispatcher):
    """The dispatcher of an ``inner_loop``: it has no Python entry point to call."""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.py_func.__qualname__} is a loop that only kernels call (it has no Python entry"
                        " point): call the kernel that runs it")


def inner_loop(function):
    """``function`` compiled as a ``loop`` without a Python entry point (see the module)."""
    if config.DISABLE_JIT:
        return function
    dispatcher = _InnerLoop(py_func=function, locals={}, targetoptions=dict(
        _OURS, nopython=True, boundscheck=None, _nrt=False, no_cpython_wrapper=True))
    dispatcher.enable_caching()
    return dispatcher


kernel = as_compiled_returns(njit(cache=True, **_OURS))
state_function = njit(inline="always", **_OURS)
called = njit(_nrt=True, **_OURS)
loop = njit(cache=True, _nrt=False, **_OURS)
user_kernel = as_compiled_returns(njit(cache=False, **_OURS))


def checked_function(function, argument_types: tuple, cache: bool):
    """``function`` (plain, or a numba dispatcher: its Python function is used) compiled with
    bounds checks for ``argument_types`` (numba types)."""
    return njit(argument_types, boundscheck=True, cache=cache, **_COMMON)(getattr(function, "py_func", function))


install_patches()
