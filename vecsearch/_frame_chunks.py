"""CPython's frame stack, its chunks kept for reuse instead of mapped afresh (``install()``).

Since Python 3.11 the frames of Python calls live on a stack that grows by chunks of
``CHUNK`` bytes, each mapped from the system (``mmap``) when a call needs it and unmapped when
the call that needed it returns. A recursion that goes up and down across a chunk's edge, as
numba's compiler does in typing, inlining and copying, maps and unmaps a chunk at every
crossing: compiling ``tests/test_pairs.py``'s kernels made 636,000 of each, and their page
faults took 4.4 of its 32 seconds (``strace -c``).

``install()`` wraps CPython's arena allocator (which maps those chunks, and pymalloc's arenas)
in one that keeps up to ``KEPT`` freed chunks and hands them out again, passing every other
request to the allocator it wraps. Its two functions are compiled (``numba.cfunc``, cached on
disk): CPython calls them with the GIL held, in the middle of a call, where no Python may run.
The wrapped allocator's functions are called through their addresses, held in the same array
as the chunks kept (``kept``), so the compiled code holds no address of this process. The chunks
are the same memory either way; ``vecsearch._numba_patches`` installs it at the first compile.
The wrapped allocator is put back when the interpreter exits (``atexit``, before modules are torn
down: ``kept`` is freed with this module, and CPython frees the chunks of its threads later).
"""

import atexit
import ctypes
import sys

import numpy as np
from llvmlite import ir
from numba import carray, cfunc, types
from numba.core import config
from numba.extending import intrinsic

CHUNK = 16 * 1024  # CPython's DATA_STACK_CHUNK_SIZE
KEPT = 64  # freed chunks kept for reuse (1 MiB)
COUNT, WRAPPED_CTX, WRAPPED_ALLOC, WRAPPED_FREE, FIRST = range(5)  # ``kept``: how many, the wrapped, the chunks


class ArenaAllocator(ctypes.Structure):
    """CPython's ``PyObjectArenaAllocator``."""

    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


@intrinsic
def _call_alloc(typingctx, function, ctx, size):
    """``function(ctx, size)``, ``function`` the address of an arena allocator's ``alloc``."""
    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        called = builder.inttoptr(args[0], ir.FunctionType(word, [word, word]).as_pointer())
        return builder.call(called, [args[1], args[2]])

    return types.intp(function, ctx, size), codegen


@intrinsic
def _call_free(typingctx, function, ctx, address, size):
    """``function(ctx, address, size)``, ``function`` the address of an arena allocator's ``free``."""
    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        called = builder.inttoptr(args[0], ir.FunctionType(ir.VoidType(), [word, word, word]).as_pointer())
        builder.call(called, [args[1], args[2], args[3]])
        return context.get_dummy_value()

    return types.void(function, ctx, address, size), codegen


def alloc(ctx, size):
    """The arena allocator's ``alloc``: a kept chunk if it asks for a chunk and one is kept."""
    kept = carray(ctx, FIRST + KEPT)
    if size == CHUNK and kept[COUNT] > 0:
        kept[COUNT] -= 1
        return kept[FIRST + kept[COUNT]]
    return _call_alloc(kept[WRAPPED_ALLOC], kept[WRAPPED_CTX], size)


def free(ctx, address, size):
    """The arena allocator's ``free``: a chunk is kept while there is room."""
    kept = carray(ctx, FIRST + KEPT)
    if size == CHUNK and kept[COUNT] < KEPT:
        kept[FIRST + kept[COUNT]] = address
        kept[COUNT] += 1
    else:
        _call_free(kept[WRAPPED_FREE], kept[WRAPPED_CTX], address, size)


_installed: dict = {}  # what CPython calls, kept alive for the life of the process


def install() -> bool:
    """Wrap CPython's arena allocator (once). False, and nothing changed, on a Python without one
    on 64-bit words, without a GIL, or with numba's compiler off (``NUMBA_DISABLE_JIT``)."""
    if _installed:
        return True
    api = ctypes.pythonapi
    if config.DISABLE_JIT or not getattr(sys, "_is_gil_enabled", lambda: True)() or sys.maxsize != 2 ** 63 - 1 \
            or not hasattr(api, "PyObject_SetArenaAllocator"):
        return False
    wrapped = ArenaAllocator()
    api.PyObject_GetArenaAllocator(ctypes.byref(wrapped))
    if not wrapped.alloc or not wrapped.free:
        return False
    kept = np.zeros(FIRST + KEPT, np.intp)
    kept[WRAPPED_CTX], kept[WRAPPED_ALLOC], kept[WRAPPED_FREE] = wrapped.ctx or 0, wrapped.alloc, wrapped.free
    functions = (cfunc(types.intp(types.CPointer(types.intp), types.uintp), cache=True)(alloc),
                 cfunc(types.void(types.CPointer(types.intp), types.intp, types.uintp), cache=True)(free))
    allocator = ArenaAllocator(kept.ctypes.data, functions[0].address, functions[1].address)
    _installed.update(kept=kept, functions=functions, allocator=allocator, wrapped=wrapped)
    api.PyObject_SetArenaAllocator(ctypes.byref(allocator))
    atexit.register(api.PyObject_SetArenaAllocator, ctypes.byref(wrapped))
    return True
