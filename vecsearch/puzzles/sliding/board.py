"""The board of the sliding-tile puzzles: geometry, goal conventions and packing (no numba).

Conventions:

- **Cells** are numbered row-major, ``i = row * C + col``, from the top-left.
- **State** (narrow): cell ``i`` holds its tile number (1 .. R*C-1) in bits ``[4i, 4i+4)``;
  the blank holds 0. A 4x4 state uses all 64 bits.
- **Moves**: 0 ``u``, 1 ``d``, 2 ``l``, 3 ``r``: the direction the *blank* travels.
  u and d undo each other, as do l and r.
- **Text**: the ``N`` cells row-major, separated by blanks, ``x`` (or ``0``) for the blank.
- **Goals**: ``default`` is the tiles in order with the blank last; ``korf`` the blank first,
  then the tiles in order (Korf's 15-puzzle instances).
"""

from __future__ import annotations

import re

import numpy as np

from vecsearch.errors import InvalidPuzzleInput
from vecsearch.puzzle import signed64, unsigned64

MOVE_NAMES = ("u", "d", "l", "r")
INVERSE_MOVES = (1, 0, 3, 2)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (row, column) step of the blank, per move
NAME = re.compile(r"sliding-(\d+)x(\d+)$")
BLANK_TOKENS = ("x", "X", "0")
GOAL_CONVENTIONS = {"default": "tiles 1..N-1 row by row, blank last", "korf": "blank first, then tiles 1..N-1"}


def check_size(rows: int, cols: int) -> None:
    if rows < 2 or cols < 2 or rows * cols > 16:
        raise InvalidPuzzleInput(f"sliding-{rows}x{cols}: need R, C >= 2 and R*C <= 16")


def goal_order(cells: int, convention: str = "default") -> list[int]:
    """The goal's cell contents row-major (0: the blank) under a ``GOAL_CONVENTIONS`` name."""
    return list(range(1, cells)) + [0] if convention == "default" else list(range(cells))


def move_tables(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``target[cell, move]``: the cell the blank moves to (the cell itself when the move leaves
    the board), and ``legal[cell, move]``: 1 or 0."""
    target = np.zeros((rows * cols, 4), dtype=np.int64)
    legal = np.zeros((rows * cols, 4), dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for m, (dr, dc) in enumerate(STEPS):
            inside = 0 <= r + dr < rows and 0 <= c + dc < cols
            target[cell, m] = (r + dr) * cols + c + dc if inside else cell
            legal[cell, m] = int(inside)
    return target, legal


def pack_tokens(tokens, cells: int, blank_tokens=BLANK_TOKENS) -> int:
    """Pack cell tokens (row-major; tile numbers and one blank token) into a state."""
    seen = {}
    value = 0
    for cell, token in enumerate(tokens):
        token = str(token)
        if token in blank_tokens:
            tile = 0
        elif token.isdigit() and 1 <= int(token) < cells:
            tile = int(token)
        else:
            expected = f"a tile 1..{cells - 1} or {'/'.join(dict.fromkeys(t.lower() for t in blank_tokens))}"
            raise InvalidPuzzleInput(f"token {cell + 1} is {token!r}; expected {expected}")
        if tile in seen:
            what = "blank" if tile == 0 else f"tile {tile}"
            raise InvalidPuzzleInput(f"{what} appears twice (tokens {seen[tile] + 1} and {cell + 1})")
        seen[tile] = cell
        value |= tile << (4 * cell)
    return signed64(value)


def unpack_tiles(state, cells: int) -> list[int]:
    """Cell contents row-major, 0 for the blank."""
    value = unsigned64(int(state))
    return [(value >> (4 * i)) & 15 for i in range(cells)]
