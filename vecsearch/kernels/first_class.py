"""A user's compiled functions handed to the kernels as values, cheaply enough to do on every call.

numba passes a compiled function to a kernel as a *first-class function*: the kernel calls it
through its address, with numba's own calling convention (so exceptions pass), and is compiled
once for every function of the same signature, and cached. Passed as a dispatcher, though, the
function is typed and its addresses looked up again on every call of the kernel (0.4 ms for a
tuple of two). Here:

- ``Compiled(dispatcher)`` holds a dispatcher compiled for one signature and its two addresses,
  looked up once; numba types it at once (``CompiledType``, a ``FunctionType``) and unboxes it by
  reading the addresses back;
- ``Typed(items)`` is a tuple whose numba type is worked out when it is made, and given at once
  on every call (a kernel's tables hold arrays, tuples and ``Compiled`` values: 4 us a call in
  all, where typing them afresh took 80 us).

They use numba's first-class function machinery (``numba.experimental.function_type``). With
``NUMBA_DISABLE_JIT=1`` nothing is typed and a ``Compiled`` calls its Python function.
"""

from numba import typeof
from numba.core import cgutils, config, types
from numba.core.typing.typeof import typeof_impl
from numba.experimental.function_type import FunctionModel, _get_jit_address, _get_wrapper_address
from numba.extending import NativeValue, register_model, unbox


class CompiledType(types.FunctionType):
    """The type of a ``Compiled``: a first-class function of its signature."""


register_model(CompiledType)(FunctionModel)


class Compiled:
    """A dispatcher compiled for one signature, with its addresses (numba's cfunc wrapper and
    its own entry point, which passes exceptions on)."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher  # keeps the compiled code alive
        if config.DISABLE_JIT:  # a Python function, called as one (``__call__``)
            return
        signature = dispatcher.nopython_signatures[0]
        self.c_addr = _get_wrapper_address(dispatcher, signature)
        self.jit_addr = _get_jit_address(dispatcher, signature)
        self.numba_type = CompiledType(signature)

    def __call__(self, *args):
        """The function run as Python (kernels call it so when ``NUMBA_DISABLE_JIT=1``)."""
        return self.dispatcher(*args)


@typeof_impl.register(Compiled)
def _typeof_compiled(value, context):
    return value.numba_type


@unbox(CompiledType)
def _unbox_compiled(typ, obj, c):
    function = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    for field in ("c_addr", "jit_addr"):
        address = c.pyapi.object_getattr_string(obj, field)
        setattr(function, field, c.pyapi.long_as_voidptr(address))
        c.pyapi.decref(address)
    function.py_addr = c.builder.ptrtoint(obj, c.context.get_value_type(types.voidptr))
    return NativeValue(function._getvalue())


class Typed(tuple):
    """A tuple numba types at once: its type is worked out when it is made."""

    def __new__(cls, items):
        made = super().__new__(cls, items)
        made.numba_type = None if config.DISABLE_JIT else typeof(tuple(items))
        return made


@typeof_impl.register(Typed)
def _typeof_typed(value, context):
    return value.numba_type
