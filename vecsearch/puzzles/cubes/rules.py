"""Rules and encoding of the Cubic Eight-Puzzle (POJ 3131): eight cubes rolling on a 3x3 board.

Conventions:

- **Cells** ``i = 3 * (y - 1) + (x - 1)`` for the square in column ``x`` and row ``y`` (1..3, ``x``
  left to right, ``y`` top to bottom): row-major from the top-left.
- **Colours** ``W = 0``, ``B = 1``, ``R = 2``. A cube's **orientation** is which colour faces each
  axis, ``(top, x, y)``; opposite faces share a colour. Codes 0..5 list the permutations in
  lexicographic order: ``0 WBR, 1 WRB, 2 BWR, 3 BRW, 4 RWB, 5 RBW``, so the top colour is
  ``code >> 1``. Every cube starts as ``WBR`` (code 0).
- **State** (narrow, 31 bits): cell ``i`` holds its cube's orientation code in bits ``[3i, 3i+3)``,
  the empty cell holds 7; bits ``[27, 31)`` repeat the empty cell's index (so that moves need
  no search for it).
- **Moves**: 0 ``u``, 1 ``d``, 2 ``l``, 3 ``r``: the direction the *rolled cube* travels into the
  empty square (``u``: the cube below the empty square rolls up). Rolling along ``x`` (``l``,
  ``r``) swaps the top and x colours; along ``y`` (``u``, ``d``) the top and y colours. Moves are
  reversible: ``u``/``d`` and ``l``/``r`` undo each other.
- **Component**: the number of cubes whose orientation parity (as a permutation of ``WBR``)
  differs from the colour ``(x + y) mod 2`` of their square. A roll flips both for the cube
  that moves, so the count never changes: 9 classes (0..8 such cubes), each connected. All
  cubes ``WBR`` with the empty square on a corner or the centre is class 4, on an edge class 3.
- **Rank** in ``[0, 9 * 6**8)``: ``empty * 6**8 + sum(o_c * 6**c)`` over the cubes in cells
  ``c < 8``, where the cube in cell 8 (when cell 8 is not empty) takes the empty cell's weight
  ``6**empty``. Perfect over all 15,116,544 encodings.
- **Text**: the 9 cells row-major, each a three-letter orientation ``top x y`` (``WBR``) or
  ``E`` for the empty square, separated by blanks (line breaks allowed).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.errors import InvalidPuzzleInput

COLOURS = "WBR"
ORIENTATIONS = tuple("".join(p) for p in itertools.permutations(COLOURS))  # code -> "WBR", ...
EMPTY = 7
MOVE_NAMES = ("u", "d", "l", "r")
STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0))  # (dx, dy) the rolled cube travels, per move
CELLS = 9
POW6 = 6 ** np.arange(9, dtype=np.int64)
RANK_SIZE = 9 * 6 ** 8
EMPTY_SHIFT = 27


class CubesTables(NamedTuple):
    """What the rules read (built by ``rule_tables``)."""

    source: np.ndarray
    legal: np.ndarray
    roll: np.ndarray
    digits: np.ndarray
    pow6: np.ndarray
    odd: np.ndarray


@state_function
def empty_cell(state):
    return (state >> EMPTY_SHIFT) & 15


@state_function
def expand(state, tables, children, moves):
    """Branch-free: every move is written, illegal ones (no cube on that side) not counted."""
    source = tables.source
    legal = tables.legal
    roll = tables.roll
    e = empty_cell(state)
    k = 0
    for m in range(4):
        n = source[e, m]
        o = (state >> (3 * n)) & 7
        rolled = roll[m, o]
        children[k] = state ^ ((rolled ^ EMPTY) << (3 * e)) ^ ((o ^ EMPTY) << (3 * n)) ^ ((e ^ n) << EMPTY_SHIFT)
        moves[k] = m
        k += legal[e, m]
    return k


@state_function
def rank(state, tables):
    """Three table lookups for the digits of cells 0..7 (the empty cell counts 0), plus the
    cube of cell 8 at the empty cell's weight."""
    digits = tables.digits
    pow6 = tables.pow6
    e = empty_cell(state)
    low = digits[0, state & 511] + digits[1, (state >> 9) & 511] + digits[2, (state >> 18) & 63]
    return e * 1679616 + low + digits[3, (state >> 24) & 7] * pow6[e]


@state_function
def component(state, tables):
    odd = tables.odd
    count = np.int64(0)
    for c in range(CELLS):
        count += odd[(state >> (3 * c)) & 7] ^ (c & 1)
    return count - (empty_cell(state) & 1)  # the empty cell (odd[EMPTY] = 0) counted its colour


def _parity(perm: str) -> int:
    p = [COLOURS.index(ch) for ch in perm]
    return sum(1 for i in range(3) for j in range(i + 1, 3) if p[i] > p[j]) & 1


def rule_tables() -> CubesTables:
    """``source[e, m]``: the cell whose cube rolls into empty cell ``e`` by move ``m`` (``e``
    itself when there is none); ``legal[e, m]``; ``roll[m, o]``: orientation after the roll;
    ``digits``: base-6 digit sums per 3-cell chunk for the rank; powers of 6; ``odd[o]``: the
    parity of orientation ``o`` (0 for the empty code)."""
    source = np.zeros((CELLS, 4), np.int64)
    legal = np.zeros((CELLS, 4), np.int64)
    for e in range(CELLS):
        x, y = e % 3, e // 3
        for m, (dx, dy) in enumerate(STEPS):
            nx, ny = x - dx, y - dy  # the cube comes from the side opposite its travel
            inside = 0 <= nx < 3 and 0 <= ny < 3
            source[e, m] = ny * 3 + nx if inside else e
            legal[e, m] = int(inside)
    roll = np.zeros((4, 8), np.int64)
    for m in range(4):
        for o, (t, xc, yc) in enumerate(ORIENTATIONS):
            rolled = (yc + xc + t) if m < 2 else (xc + t + yc)  # along y: swap top, y; along x: top, x
            roll[m, o] = ORIENTATIONS.index(rolled)
        roll[m, EMPTY] = EMPTY  # the empty "cube" of an illegal move stays empty
    digits = np.zeros((4, 512), np.int64)
    for chunk, cells in enumerate(((0, 1, 2), (3, 4, 5), (6, 7))):
        for bits in range(1 << (3 * len(cells))):
            codes = [(bits >> (3 * j)) & 7 for j in range(len(cells))]
            digits[chunk, bits] = sum((o if o < 6 else 0) * 6 ** c for o, c in zip(codes, cells, strict=True))
    digits[3, :6] = np.arange(6)
    odd = np.zeros(8, np.int64)
    odd[:6] = [_parity(p) for p in ORIENTATIONS]
    return CubesTables(source, legal, roll, digits, POW6.copy(), odd)


def pack(cells) -> int:
    """A state from 9 orientation codes (row-major), ``EMPTY`` for the empty square."""
    cells = list(cells)
    e = cells.index(EMPTY)
    return sum(int(o) << (3 * i) for i, o in enumerate(cells)) | (e << EMPTY_SHIFT)


def unpack(state) -> list[int]:
    """The 9 orientation codes of a state (``EMPTY`` for the empty square)."""
    return [(int(state) >> (3 * i)) & 7 for i in range(CELLS)]


def start_cells(empty: int) -> list[int]:
    """Every cube in the start orientation ``WBR``, the empty square at cell ``empty``."""
    return [EMPTY if c == empty else 0 for c in range(CELLS)]



# --- datasets: a start (all cubes WBR, empty at x y) and a pattern of top colours -------------
JUDGE_LIMIT = 30  # POJ 3131 asks for the fewest rolls up to 30


@dataclass(frozen=True)
class Dataset:
    """One POJ 3131 dataset: the empty square ``(x, y)`` (1..3) of the start, where every cube
    is ``WBR``, and the goal ``pattern``: 9 top colours row-major, ``E`` where the empty square
    must be."""

    x: int
    y: int
    pattern: str

    @property
    def empty(self) -> int:
        return 3 * (self.y - 1) + (self.x - 1)

    def instance(self) -> tuple:
        """``(start, goals)`` for the engine: the start state and the goal set of the pattern."""
        return start_state(self.x, self.y), goal_states(self.pattern)


def start_state(x: int, y: int) -> int:
    return pack(start_cells(3 * (y - 1) + (x - 1)))


def goal_states(pattern: str) -> np.ndarray:
    """The 256 states whose top colours show ``pattern`` (9 letters W/B/R/E, blanks ignored):
    each cube has the two orientations with that top colour."""
    cells = pattern.replace(" ", "").replace("\n", "")
    if len(cells) != CELLS or set(cells) - set("WBRE") or cells.count("E") != 1:
        raise InvalidPuzzleInput(f"pattern {pattern!r}: expected 9 of W, B, R, E with exactly one E")
    states = np.array([cells.index("E") << EMPTY_SHIFT], dtype=np.int64)
    for c, colour in enumerate(cells):
        codes = [EMPTY] if colour == "E" else [2 * COLOURS.index(colour), 2 * COLOURS.index(colour) + 1]
        states = (states[:, None] | (np.array(codes, dtype=np.int64) << (3 * c))[None, :]).ravel()
    return states
