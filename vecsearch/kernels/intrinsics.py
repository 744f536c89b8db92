"""LLVM operations numba does not expose: prefetch, atomic read-modify-write, popcount.

Each is a numba ``intrinsic`` and compiles (and caches) like any other njit code.

- ``prefetch(array, index)``: hint the CPU to load ``array[index]``'s cache line. Used to hide the
  latency of random bitset accesses once the bitset is larger than the L3 cache (PERF-NOTES:
  the biggest single lever, 2.1x on the 3x4 sliding puzzle).
- ``atomic_or(array, index, value)``: ``array[index] |= value`` as one atomic read-modify-write on
  a uint64 array; returns the *old* word, so exactly one thread sees a given bit go from 0 to 1.
- ``atomic_and(array, index, value)`` / ``atomic_add(array, index, value)``: the same for ``&=`` and
  ``+=`` on an array of any integer type (value cast to it); both return the old element. The
  two-bit table clears a state's two bits with ``atomic_and``; ``atomic_add`` hands out slots of
  a shared buffer. ``synced_add`` is ``atomic_add`` with sequential consistency, for workers
  that wait for each other (``layer_template.bitset_grow_together``).
- ``popcount(x)``: number of set bits of a 64-bit integer.
- ``cycles()``: the CPU's cycle counter (``rdtsc`` on x86): a few nanoseconds to read, so kernels
  can time their phases per batch of states (``vecsearch.kernels.phases``).
- ``yield_cpu()``: ``sched_yield()`` of the C library: a worker that has waited a while for
  another gives way, in case that other one is waiting for this processor.
- ``borrowed(value)``: ``value`` (an array, or a tuple of arrays and tuples) with no reference
  count attached: handing arrays to a function that is called rather than inlined otherwise
  counts a reference to each (two atomic operations per array per call: 46 ns for four arrays,
  4.6 ns borrowed). Only for arrays that outlive the call (a kernel's arguments, its scratch).
- ``stack_empty(size)``: an int64 array of ``size`` (a constant) elements on the stack of the
  compiled function it ends up in, allocated once per call of that function (at its entry, also
  when the call sits in a loop): scratch with no allocation per state. It must not outlive that
  function (never returned or stored). ``stack_matrix(size, rows, cols)``: the same space seen
  as a C-ordered ``rows x cols`` matrix (``rows * cols <= size``).
- ``repeat_first_row(matrix)``: copy row 0 of a C-ordered matrix into every other row, by
  doubling copies (``memcpy`` of 1, 2, 4... rows: 64 rows of 9 values in a few nanoseconds,
  where a loop over them took hundreds).
- ``to_fixed_tuple(array, n)``: numba's, the first ``n`` elements as a tuple (``n`` a constant).

With ``NUMBA_DISABLE_JIT=1`` (every kernel running as Python: a debugger, coverage) these names
are bound to the same operations in plain Python instead (``python_intrinsics``).
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic
from numba.np.unsafe.ndarray import to_fixed_tuple

__all__ = ("prefetch", "atomic_or", "atomic_and", "atomic_add", "synced_add", "popcount", "cycles", "yield_cpu",
           "stack_empty", "stack_matrix", "repeat_first_row", "borrowed", "to_fixed_tuple")


def _element_pointer(context, builder, array_type, array_value, index):
    array = context.make_array(array_type)(context, builder, array_value)
    return cgutils.get_item_pointer(context, builder, array_type, array, [index])


@intrinsic
def prefetch(typingctx, array, index):
    """Prefetch ``array[index]`` (locality: keep in all caches): for writing too, unless ``array``
    is read-only. A prefetch for writing into a read-only mapping (a table file mapped with
    ``mode="r"``) is worse than none: random reads of a 120 MB file mapped read-only took 10.2 ns
    each with one, 8.4 ns with no prefetch, 4.1 ns with a prefetch for reading (a 2-core VM)."""
    sig = types.void(array, index)
    write = int(array.mutable)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature.args[0], args[0], args[1])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fn_type, "llvm.prefetch.p0")
        # (address, rw: 1 write, 0 read, locality=3 keep, cache type=1 data)
        builder.call(fn, [builder.bitcast(pointer, byte_pointer), i32(write), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def atomic_or(typingctx, array, index, value):
    """Atomically ``array[index] |= value`` (uint64 array); returns the previous word."""
    sig = types.uint64(array, index, types.uint64)

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, signature.args[0], args[0], args[1])
        value = context.cast(builder, args[2], signature.args[2], types.uint64)
        return builder.atomic_rmw("or", pointer, value, "monotonic")

    return sig, codegen


def _atomic(operation, ordering="monotonic"):
    def build(typingctx, array, index, value):
        sig = array.dtype(array, index, array.dtype)

        def codegen(context, builder, signature, args):
            pointer = _element_pointer(context, builder, signature.args[0], args[0], args[1])
            operand = context.cast(builder, args[2], signature.args[2], signature.args[0].dtype)
            return builder.atomic_rmw(operation, pointer, operand, ordering)

        return sig, codegen

    return build


atomic_and = intrinsic(_atomic("and"))
atomic_and.__doc__ = "Atomically ``array[index] &= value``; returns the previous element."
atomic_add = intrinsic(_atomic("add"))
atomic_add.__doc__ = "Atomically ``array[index] += value``; returns the previous element."
synced_add = intrinsic(_atomic("add", "seq_cst"))
synced_add.__doc__ = """``atomic_add``, sequentially consistent: whatever a thread wrote before it is seen by a
thread whose ``synced_add`` (``value`` 0 to read) sees its result. For workers waiting for each
other."""


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a 64-bit integer (returned as int64)."""
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        value = context.cast(builder, args[0], signature.args[0], types.int64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
        return builder.call(fn, [value])

    return sig, codegen


@intrinsic
def cycles(typingctx):
    """The processor's cycle counter (``llvm.readcyclecounter``), as int64."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, []), "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen


@intrinsic
def yield_cpu(typingctx):
    """Let another thread run on this processor (``sched_yield``; returns 0 on success)."""
    sig = types.int32()

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(32), []), "sched_yield")
        return builder.call(fn, [])

    return sig, codegen


@intrinsic
def stack_empty(typingctx, size):
    """An uninitialised int64 array of ``size`` elements (an integer constant) on the stack."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    array_type = types.Array(types.int64, 1, "C")

    def codegen(context, builder, signature, args):
        intp = context.get_value_type(types.intp)
        data = cgutils.alloca_once(builder, context.get_value_type(types.int64), size=size.literal_value)
        array = context.make_array(array_type)(context, builder)
        context.populate_array(array, data=data, shape=[intp(size.literal_value)], strides=[intp(8)],
                               itemsize=intp(8), meminfo=None)
        return array._getvalue()

    return array_type(size), codegen


@intrinsic
def stack_matrix(typingctx, size, rows, cols):
    """An uninitialised C-ordered int64 matrix of ``rows x cols`` in ``size`` elements (an
    integer constant) of the stack."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    array_type = types.Array(types.int64, 2, "C")

    def codegen(context, builder, signature, args):
        intp = context.get_value_type(types.intp)
        data = cgutils.alloca_once(builder, context.get_value_type(types.int64), size=size.literal_value)
        rows_value = context.cast(builder, args[1], signature.args[1], types.intp)
        cols_value = context.cast(builder, args[2], signature.args[2], types.intp)
        array = context.make_array(array_type)(context, builder)
        context.populate_array(array, data=data, shape=[rows_value, cols_value],
                               strides=[builder.mul(cols_value, intp(8)), intp(8)], itemsize=intp(8), meminfo=None)
        return array._getvalue()

    return array_type(size, rows, cols), codegen


@intrinsic
def repeat_first_row(typingctx, matrix):
    if not (isinstance(matrix, types.Array) and matrix.ndim == 2 and matrix.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        rows, cols = cgutils.unpack_tuple(builder, array.shape, 2)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(matrix.dtype)))
        total = builder.mul(builder.mul(rows, cols), itemsize)  # bytes
        data = builder.bitcast(array.data, cgutils.voidptr_t)
        filled = cgutils.alloca_once_value(builder, builder.mul(cols, itemsize))
        check, body, done = (builder.append_basic_block(name) for name in ("check", "copy", "done"))
        builder.branch(check)
        builder.position_at_end(check)
        builder.cbranch(builder.icmp_signed("<", builder.load(filled), total), body, done)
        builder.position_at_end(body)
        now = builder.load(filled)
        rest = builder.sub(total, now)
        chunk = builder.select(builder.icmp_signed("<", now, rest), now, rest)
        cgutils.raw_memcpy(builder, builder.gep(data, [now]), data, chunk, 1)
        builder.store(builder.add(now, chunk), filled)
        builder.branch(check)
        builder.position_at_end(done)
        return context.get_dummy_value()

    return types.none(matrix), codegen


def _borrow(context, builder, typ, value):
    if isinstance(typ, types.Array):
        array = context.make_array(typ)(context, builder, value)
        array.meminfo = cgutils.get_null_value(array.meminfo.type)
        array.parent = cgutils.get_null_value(array.parent.type)
        return array._getvalue()
    if isinstance(typ, types.BaseTuple):
        for i, item in enumerate(typ):
            value = builder.insert_value(value, _borrow(context, builder, item, builder.extract_value(value, i)), i)
    return value


@intrinsic
def borrowed(typingctx, value):
    """``value`` with the reference counts of its arrays detached (see the module docstring)."""

    def codegen(context, builder, signature, args):
        return _borrow(context, builder, signature.args[0], args[0])

    return value(value), codegen


if config.DISABLE_JIT:  # kernels run as Python: the operations above in plain Python
    from vecsearch.kernels import python_intrinsics

    globals().update({name: getattr(python_intrinsics, name) for name in __all__})
