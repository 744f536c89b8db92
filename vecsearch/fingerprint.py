"""Digests of what a puzzle computes: the code of its functions and what that code reads.

``function_digest(f)`` covers ``f``'s code (bytecode, constants, names, nested functions), its
module and name, and, recursively, every global and closure value the code reads: other
functions (plain or numba), arrays (their bytes, shape and type), numbers, strings and tuples of
them, modules by name. It is what numba compiles into a kernel, so it changes when the kernel
would, and only then: an edited comment, or another function of the same file, leaves it as it
was. ``puzzle_digest(puzzle)`` adds the puzzle's traits and tables (a metric changes its moves).
``source_digest()`` covers vecsearch's own code: what a result saved on disk was computed by.
"""

from __future__ import annotations

import functools
import hashlib
import types
from pathlib import Path

import numpy as np

DIGEST_BYTES = 16
# Marks in a digest's ``seen`` set (else the ids of the functions digested): a value was met that is known by its
# type alone; the digest covers the code of intrinsics (``exact_puzzle_digest``)
_OPAQUE, _EXACT = "a value known by its type alone", "intrinsics by their code"


def function_digest(function) -> str:
    """The hex digest of ``function`` (a plain function or a numba dispatcher)."""
    digest = hashlib.blake2b(digest_size=DIGEST_BYTES)
    _function(digest, function, set())
    return digest.hexdigest()


def puzzle_digest(puzzle) -> str:
    """The hex digest of what ``puzzle`` computes: its class, moves, sizes, tables, and the
    digests of its functions."""
    return _puzzle_digest(puzzle, frozenset())[0]


def exact_puzzle_digest(puzzle) -> str | None:
    """A digest like ``puzzle_digest`` that also covers the code of the numba intrinsics the
    functions call, or None where a value they read is an object it knows only by its type
    (two puzzles could then look alike): what results saved for any later process are named by."""
    digest, exact = _puzzle_digest(puzzle, frozenset({_EXACT}))
    return digest if exact else None


def _puzzle_digest(puzzle, marks: frozenset) -> tuple[str, bool]:
    """The digest, and whether every value in it was known by more than its type."""
    digest = hashlib.blake2b(digest_size=DIGEST_BYTES)
    traits = (type(puzzle).__module__, type(puzzle).__qualname__, puzzle.width, puzzle.max_moves,
              puzzle.max_predecessors, puzzle.reversible, puzzle.rank_size, puzzle.move_names, puzzle.inverse_moves)
    digest.update(repr(traits).encode())
    exact = True
    for name, function in sorted(puzzle.functions.items()):
        digest.update(name.encode())
        if function is not None:
            seen = set(marks)
            _function(digest, function, seen)
            exact = exact and _OPAQUE not in seen
    seen = set(marks)
    _value(digest, (puzzle.tables, puzzle.layout_arrays()), seen)
    return digest.hexdigest(), exact and _OPAQUE not in seen


@functools.cache
def source_digest() -> str:
    """The hex digest of vecsearch's source files and numba's version (read once per process,
    8 ms): results saved on disk by other code are not read as this code's."""
    import numba

    digest = hashlib.blake2b(numba.__version__.encode(), digest_size=DIGEST_BYTES)
    package = Path(__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _function(digest, function, seen: set) -> None:
    plain = getattr(function, "py_func", function)
    if id(plain) in seen:
        return
    seen.add(id(plain))
    digest.update(f"{getattr(plain, '__module__', '')}.{getattr(plain, '__qualname__', '')}".encode())
    code = getattr(plain, "__code__", None)
    if code is None:  # a builtin, an intrinsic: named above
        return
    names = _code(digest, code)
    scope = getattr(plain, "__globals__", {})
    for name in sorted(names):
        if name in scope:
            digest.update(name.encode())
            _value(digest, scope[name], seen)
    for cell in plain.__closure__ or ():
        try:
            _value(digest, cell.cell_contents, seen)
        except ValueError:  # an empty cell
            continue


def _code(digest, code) -> set[str]:
    """Hash ``code`` (and the code nested in it); the global names it reads."""
    digest.update(code.co_code)
    digest.update(repr(code.co_names).encode())
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _code(digest, constant)
        else:
            digest.update(repr(constant).encode())
    return names


def _value(digest, value, seen: set) -> None:
    if isinstance(value, np.ndarray):
        digest.update(f"{value.dtype}{value.shape}".encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, (tuple, list)):
        digest.update(f"{type(value).__name__}{len(value)}".encode())
        for item in value:
            _value(digest, item, seen)
    elif isinstance(value, types.ModuleType):
        digest.update(value.__name__.encode())
    elif callable(value) and (hasattr(value, "py_func") or isinstance(value, types.FunctionType)):
        _function(digest, value, seen)
    elif isinstance(value, (int, float, complex, str, bytes, bool, type(None), np.generic)):
        digest.update(repr(value).encode())
    elif _EXACT in seen and callable(getattr(value, "_defn", None)):  # a numba intrinsic: its definition
        _function(digest, value._defn, seen)
    else:
        digest.update(type(value).__qualname__.encode())
        seen.add(_OPAQUE)
