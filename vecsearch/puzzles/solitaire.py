"""Solitaire (POJ 1198, HDU 1401, SPOJ SOLIT): four indistinguishable pieces on an 8x8 board.

Conventions:

- **Squares** are ``(row, col)``, both 1..8 from the top-left; square ``i = 8 * (row-1) + col-1``.
- **State** (narrow): the occupancy mask, bit ``i`` set iff a piece stands on square ``i``
  (exactly four bits). Pieces are indistinguishable, so the mask *is* the canonical,
  order-free configuration. Square (8, 8) is bit 63, so a state may be negative as an int64;
  it is never -1 (that has 64 bits set).
- **Moves**: ``m = 4 * k + d``: the ``k``-th piece (``k = 0..3``, pieces in increasing square
  order) goes in direction ``d`` (0 up, 1 down, 2 left, 3 right). It steps onto the
  neighbouring square if that is empty, else jumps over the piece there onto the square just
  beyond, if that is on the board and empty. Every move is undone by one move (reversible).
  ``move_names`` are ``1U .. 4R`` (piece number, direction); the labels users see name the
  piece by its square: ``"4 5 D"`` is the piece on row 4, column 5 going down (a step, or a
  jump when row 5 holds a piece).
- **Rank**: the colex rank of the 4-subset of squares, ``sum_j C(s_j, j+1)`` over its squares
  ``s_0 < s_1 < s_2 < s_3``, a perfect rank in ``[0, C(64, 4)) = [0, 635376)``. One component:
  every configuration reaches every other.
- **Text**: ``"r1 c1 r2 c2 r3 c3 r4 c4"``, the judge's line: eight integers 1..8, pieces in any
  order; formatted with the squares in increasing order.
- **Problem** ``solitaire``: pairs of such lines until end of file; ``YES`` iff the second
  configuration is reachable from the first in at most 8 moves: one bidirectional search per
  pair with ``max_depth=8`` (balls of radius 4 around each end), all pairs in one kernel call
  (the engine's ``pairs`` method, which ``auto`` picks for such a batch).
"""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.contract import Moves, Rank, Rules
from vecsearch.engine import bidirectional
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.judge import Case, JudgeProblem
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import binomial_table, subset_rank, subset_unrank
from vecsearch.puzzle import Puzzle, signed64, unsigned64
from vecsearch.svg import Board, Cell

SIZE = 8
PIECES = 4
SQUARES = SIZE * SIZE
RANKS = math.comb(SQUARES, PIECES)
WITHIN = 8  # the judge's move budget
DIRECTIONS = "UDLR"
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
MOVE_NAMES = tuple(f"{k + 1}{d}" for k in range(PIECES) for d in DIRECTIONS)
SAMPLE = ("4 4 4 5 5 4 6 5", "2 4 3 3 3 6 4 6")
SQUARE_COLOURS, PIECE_COLOUR = ("#f0f0f0", "#d0d0d0"), "#c0392b"  # picture colours


class SolitaireTables(NamedTuple):
    """What the rules read: the moves per square and direction (``move_tables``), and the
    binomials ``C(n, k)`` for ``k <= PIECES`` of the rank."""

    step_to: np.ndarray
    jump_to: np.ndarray
    step_ok: np.ndarray
    jump_ok: np.ndarray
    binomials: np.ndarray


@state_function
def expand(state, tables, children, moves):
    """Branch-free: every piece tries every direction. The destination is the neighbour when it
    is empty, else the square beyond it; off-board targets point back at the piece's own
    (occupied) square, so the legality flag clears."""
    step_to = tables.step_to
    jump_to = tables.jump_to
    step_ok = tables.step_ok
    jump_ok = tables.jump_ok
    rest = state
    k = 0
    for piece in range(PIECES):
        low = rest & -rest
        rest ^= low
        square = popcount(low - 1)
        for d in range(4):
            n = step_to[square, d]
            j = jump_to[square, d]
            n_full = (state >> n) & 1
            j_full = (state >> j) & 1
            destination = n + n_full * (j - n)
            children[k] = state ^ low ^ (np.int64(1) << destination)
            moves[k] = 4 * piece + d
            k += step_ok[square, d] & ((1 - n_full) | (jump_ok[square, d] & (1 - j_full)))
    return k


@state_function
def rank(state, tables):
    return subset_rank(state, tables.binomials)


@state_function
def unrank(r, component_id, tables):
    return subset_unrank(r, PIECES, SQUARES, tables.binomials)


def move_tables() -> tuple[np.ndarray, ...]:
    """``step_to[square, d]`` / ``jump_to[square, d]``: the square one / two squares away in
    direction ``d`` (the square itself when that is off the board), and ``step_ok`` /
    ``jump_ok``: 1 when it is on the board."""
    step_to, jump_to, step_ok, jump_ok = (np.zeros((SQUARES, 4), np.int64) for _ in range(4))
    for square in range(SQUARES):
        r, c = divmod(square, SIZE)
        for d, (dr, dc) in enumerate(_STEPS):
            for distance, to, ok in ((1, step_to, step_ok), (2, jump_to, jump_ok)):
                rr, cc = r + distance * dr, c + distance * dc
                inside = 0 <= rr < SIZE and 0 <= cc < SIZE
                to[square, d] = rr * SIZE + cc if inside else square
                ok[square, d] = int(inside)
    return step_to, jump_to, step_ok, jump_ok


class SolitairePuzzle(Puzzle):
    """Four indistinguishable pieces on an 8x8 board, steps and single jumps."""

    rules = Rules(expand)
    moves = Moves(4 * PIECES, MOVE_NAMES)
    rank = Rank(rank, RANKS, unrank=unrank)

    def __init__(self):
        binomials = np.ascontiguousarray(binomial_table(SQUARES)[:, :PIECES + 1])
        super().__init__("solitaire", tables=SolitaireTables(*move_tables(), binomials), start=SAMPLE[0],
                         goal=SAMPLE[1])

    def encode(self, squares) -> int:
        """The state of four ``(row, col)`` squares (1-based, any order)."""
        squares = [tuple(int(v) for v in square) for square in squares]
        if len(squares) != PIECES:
            raise InvalidPuzzleInput(f"expected {PIECES} squares, got {len(squares)}")
        for number, (row, col) in enumerate(squares, 1):
            for value, what in ((row, "row"), (col, "column")):
                if not 1 <= value <= SIZE:
                    raise InvalidPuzzleInput(f"piece {number} has {what} {value}; expected 1..{SIZE}")
        return _mask([v for square in squares for v in square])

    def parse_state(self, text: str) -> int:
        tokens = text.split()
        if len(tokens) != 2 * PIECES:
            raise InvalidPuzzleInput(f"expected {2 * PIECES} integers (r1 c1 r2 c2 r3 c3 r4 c4), got {len(tokens)}"
                                     f" token(s) in {text.strip()!r}")
        values = [_COORDINATES.get(token, 0) for token in tokens]
        if 0 in values:
            position = values.index(0)
            what = "column" if position % 2 else "row"
            raise InvalidPuzzleInput(f"token {position + 1} is {tokens[position]!r}; expected a {what} 1..{SIZE}")
        return _mask(values)

    def state(self, value):
        """A state from text, a mask with four bits set, or four ``(row, col)`` squares."""
        if isinstance(value, (int, np.integer)):
            if popcount_of(int(value)) != PIECES:
                raise InvalidPuzzleInput(f"solitaire: mask {int(value):#x} does not have exactly {PIECES} bits set")
            return signed64(unsigned64(int(value)))
        if isinstance(value, (list, tuple)) and len(value) == PIECES and all(
                isinstance(s, (list, tuple)) and len(s) == 2 for s in value):
            return self.encode(value)
        return super().state(value)

    def squares(self, state) -> list[tuple[int, int]]:
        """The occupied squares ``(row, col)``, in increasing order."""
        mask = unsigned64(int(state))
        return [(i // SIZE + 1, i % SIZE + 1) for i in range(SQUARES) if mask >> i & 1]

    def format_state(self, state) -> str:
        return " ".join(f"{r} {c}" for r, c in self.squares(state))

    def board(self, state) -> str:
        """Eight lines of ``.`` (empty) and ``o`` (a piece)."""
        mask = unsigned64(int(state))
        return "\n".join("".join("o" if mask >> (r * SIZE + c) & 1 else "." for c in range(SIZE)) for r in range(SIZE))

    def draw(self, state) -> Board:
        """The pieces on a checkered 8x8 board."""
        mask = unsigned64(int(state))
        return Board(SIZE, SIZE, tuple(Cell(SQUARE_COLOURS[(i // SIZE + i % SIZE) % 2],
                                            piece=PIECE_COLOUR if mask >> i & 1 else None) for i in range(SQUARES)))

    def move_labels(self, states, moves) -> list[str]:
        """``"r c D"``: the moving piece's square and its direction."""
        labels = []
        for state, move in zip(states, moves, strict=False):  # states may end with the state the path reaches
            piece, d = divmod(int(move), 4)
            row, col = self.squares(state)[piece]
            labels.append(f"{row} {col} {DIRECTIONS[d]}")
        return labels

    def format_path(self, states, moves) -> str:
        return ", ".join(self.move_labels(states, moves))


_COORDINATES = {str(v): v for v in range(1, SIZE + 1)}


def _mask(values) -> int:
    """The state of coordinates ``r1 c1 r2 c2 ...`` (each 1..8), refusing a square twice."""
    mask = 0
    for i in range(0, 2 * PIECES, 2):
        bit = 1 << (SIZE * values[i] + values[i + 1] - SIZE - 1)
        if mask & bit:
            first = next(j for j in range(0, i, 2) if values[j:j + 2] == values[i:i + 2]) // 2 + 1
            raise InvalidPuzzleInput(f"pieces {first} and {i // 2 + 1} both stand on row {values[i]},"
                                     f" column {values[i + 1]}")
        mask |= bit
    return signed64(mask)


def popcount_of(value: int) -> int:
    return bin(value & ((1 << 64) - 1)).count("1")


@cache
def solitaire() -> SolitairePuzzle:
    """The puzzle (one shared instance)."""
    return SolitairePuzzle()


def from_name(name: str) -> SolitairePuzzle | None:
    return solitaire() if name == "solitaire" else None


def reachable(first, second, within: int | None = WITHIN):
    """A shortest move sequence (a ``Solution``) from ``first`` to ``second`` if one has at most
    ``within`` moves (``None``: any length), else None. Configurations are judge lines, masks
    or lists of four ``(row, col)``."""
    puzzle = solitaire()
    return bidirectional(puzzle, puzzle.state(first), puzzle.state(second), max_depth=within).solution


class SolitaireJudge(JudgeProblem):
    """Pairs of lines (blank lines are skipped) until end of file; ``YES`` or ``NO`` each."""

    name = "solitaire"
    title = "Solitaire (POJ 1198): pairs of lines r1 c1 .. r4 c4; YES iff reachable within 8 moves"

    def __init__(self):
        self.puzzle = solitaire()

    def read(self, text: str):
        cases: list[Case] = []
        pending = None  # (line number, state) of a first configuration awaiting its partner
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                state = self.puzzle.parse_state(line)
            except InvalidPuzzleInput as error:
                return cases, error.located(line=number, case=len(cases) + 1)
            if pending is None:
                pending = (number, state)
            else:
                cases.append(Case(len(cases) + 1, pending[0], (pending[1], state)))
                pending = None
        if pending is not None:
            error = InvalidPuzzleInput("the input ends after the first configuration; expected a second line"
                                       " of 8 integers (the target)")
            return cases, error.located(line=pending[0], case=len(cases) + 1)
        return cases, None

    max_depth = WITHIN

    def instance(self, data):
        return data

    def output(self, length, moves):
        return "YES" if length >= 0 else "NO"


PUZZLES = {"solitaire": "Solitaire: 4 indistinguishable pieces on 8x8, steps and single jumps (635,376 states)"}
PROBLEMS = {"solitaire": SolitaireJudge}
