"""A Game on the Chessboard (CEOI 1999, HOJ 1736): swap neighbouring stones on a 4x4 board.

Conventions:

- **Fields** are ``[R, C]``, both 1..4 from the top-left; field ``i = 4 * (R-1) + C-1``.
- **State** (narrow): the 16-bit mask of the black stones, bit ``i`` set iff field ``i`` holds
  a black stone (``1``); the other fields hold white stones (``0``).
- **Moves**: the 24 swaps of side-adjacent fields. Moves 0..11 swap ``[R, C]`` with
  ``[R, C+1]`` (rows top to bottom, then columns left to right), moves 12..23 swap ``[R, C]``
  with ``[R+1, C]`` (same order). A move is named as the judge prints it, ``"R1 C1 R2 C2"``.
  Swapping two stones of one colour changes nothing, so those self-loops are not generated:
  a state has one child per black-white neighbour pair. Every move is its own inverse.
- **Component**: the number of black stones (popcount), which no swap changes.
- **Rank** (within a component of ``k`` black stones): the colex rank of the ``k``-subset of
  fields, in ``[0, C(16, k))``, looked up in a table of all 65,536 masks; ``rank_size`` is the
  largest, ``C(16, 8) = 12870``.
- **Text**: four rows of four characters ``0``/``1``, top row first, separated by blanks or
  newlines: ``"1111 0000 1110 0010"``.
- **Problem** ``chessboard``: cases of a start and a final position (four lines each, an empty
  line between them and between cases) until end of file; the answer is the minimum number
  of moves ``k`` and ``k`` lines ``R1 C1 R2 C2`` in the order played, or ``-1`` when the
  stone counts differ (the reason goes to standard error). All cases are searched in one kernel
  call (the engine's ``pairs`` method, which ``auto`` picks for such a batch).
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
from vecsearch.kernels.ranking import binomial_table, subset_unrank
from vecsearch.puzzle import Puzzle
from vecsearch.svg import Board, Cell

SIZE = 4
FIELDS = SIZE * SIZE
SWAPS = tuple(((r, c), (r, c + 1)) for r in range(SIZE) for c in range(SIZE - 1)) + tuple(
    ((r, c), (r + 1, c)) for r in range(SIZE - 1) for c in range(SIZE))
MOVE_NAMES = tuple(f"{a[0] + 1} {a[1] + 1} {b[0] + 1} {b[1] + 1}" for a, b in SWAPS)
SAMPLE = ("1111 0000 1110 0010", "1010 0101 1010 0101")
SQUARE_COLOURS = ("#e8d9b5", "#b58863")  # picture: light, dark squares
STONE_COLOURS = ("#ffffff", "#000000")  # picture: stone 0 (white), 1 (black)


class ChessboardTables(NamedTuple):
    """What the rules read: the two fields of each swap, the binomials ``C(n, k)`` and the rank
    of every mask (``rank_table``)."""

    pairs: np.ndarray
    binomials: np.ndarray
    ranks: np.ndarray


@state_function
def expand(state, tables, children, moves):
    """Branch-free: all 24 swaps are written; a swap counts when its two stones differ."""
    pairs = tables.pairs
    k = 0
    for m in range(pairs.shape[0]):
        a = pairs[m, 0]
        b = pairs[m, 1]
        children[k] = state ^ ((np.int64(1) << a) | (np.int64(1) << b))
        moves[k] = m
        k += ((state >> a) ^ (state >> b)) & 1
    return k


@state_function
def component(state, tables):
    return popcount(state)


@state_function
def rank(state, tables):
    return tables.ranks[state]


def rank_table(binomials: np.ndarray) -> np.ndarray:
    """The colex rank of every 16-bit mask among the masks of its popcount (one lookup per rank
    instead of a loop over the stones)."""
    masks = np.arange(1 << FIELDS, dtype=np.int64)
    ranks = np.zeros(1 << FIELDS, dtype=np.int64)
    seen = np.zeros(1 << FIELDS, dtype=np.int64)
    for field in range(FIELDS):
        bit = (masks >> field) & 1
        seen += bit
        ranks += bit * binomials[field, seen]
    return ranks


@state_function
def unrank(r, component_id, tables):
    return subset_unrank(r, component_id, FIELDS, tables.binomials)


class ChessboardPuzzle(Puzzle):
    """Black and white stones on a 4x4 board; a move swaps two side-adjacent stones."""

    rules = Rules(expand, component=component)
    moves = Moves(len(SWAPS), MOVE_NAMES)
    rank = Rank(rank, math.comb(FIELDS, FIELDS // 2), unrank=unrank)

    def __init__(self):
        pairs = np.array([[a[0] * SIZE + a[1], b[0] * SIZE + b[1]] for a, b in SWAPS], np.int64)
        binomials = binomial_table(FIELDS)
        tables = ChessboardTables(pairs, binomials, rank_table(binomials))
        super().__init__("chessboard", tables=tables, start=SAMPLE[0], goal=SAMPLE[1])

    def parse_rows(self, rows) -> int:
        """The state of four row strings, top row first."""
        if len(rows) != SIZE:
            raise InvalidPuzzleInput(f"expected {SIZE} rows of {SIZE} characters 0/1, got {len(rows)} row(s)")
        mask = 0
        for r, row in enumerate(rows):
            try:
                mask |= row_bits(row) << (SIZE * r)
            except InvalidPuzzleInput as error:
                raise InvalidPuzzleInput(f"row {r + 1}: {error.message}") from None
        return mask

    def parse_state(self, text: str) -> int:
        return self.parse_rows(text.split())

    def state(self, value):
        """A state from text (four rows of 0/1) or a 16-bit mask."""
        if isinstance(value, (int, np.integer)) and not 0 <= int(value) < 1 << FIELDS:
            raise InvalidPuzzleInput(f"chessboard: mask {int(value)} is not a 16-bit mask")
        return super().state(value)

    def rows(self, state) -> list[str]:
        state = int(state)
        return ["".join(str(state >> (r * SIZE + c) & 1) for c in range(SIZE)) for r in range(SIZE)]

    def format_state(self, state) -> str:
        return " ".join(self.rows(state))

    def board(self, state) -> str:
        """The position as the judge writes it: four lines of 0/1."""
        return "\n".join(self.rows(state))

    def draw(self, state) -> Board:
        """Black and white stones on a checkered board."""
        cells = [Cell(SQUARE_COLOURS[(i // SIZE + i % SIZE) % 2], piece=STONE_COLOURS[int(state) >> i & 1])
                 for i in range(FIELDS)]
        return Board(SIZE, SIZE, tuple(cells))

    def format_moves(self, moves) -> str:
        return "\n".join(self.move_names[m] for m in moves)


@cache
def chessboard() -> ChessboardPuzzle:
    """The puzzle (one shared instance)."""
    return ChessboardPuzzle()


def from_name(name: str) -> ChessboardPuzzle | None:
    return chessboard() if name == "chessboard" else None


def black_stones(state) -> int:
    return bin(int(state)).count("1")


def shortest(start, final):
    """A shortest swap sequence (a ``Solution``) from ``start`` to ``final``, or None when they
    hold different numbers of black stones. Positions are text or 16-bit masks."""
    puzzle = chessboard()
    return bidirectional(puzzle, puzzle.state(start), puzzle.state(final)).solution


class ChessboardJudge(JudgeProblem):
    """Positions of four rows, two to a case; the empty lines between positions are expected but
    not required."""

    name = "chessboard"
    title = "A Game on the Chessboard (CEOI 1999): start and final 4x4 0/1 positions; shortest swap list"

    def __init__(self):
        self.puzzle = chessboard()

    def read(self, text: str):
        cases: list[Case] = []
        positions: list[int] = []  # the start position of the current case, once read
        rows = mask = 0  # rows read so far of the current position, and their bits
        first_row = case_line = 0  # lines where the current position and case begin

        def fail(message, line):
            return cases, InvalidPuzzleInput(message).located(line=line, case=len(cases) + 1)

        lines = text.splitlines()
        for number, line in enumerate(lines + [""], 1):  # a final "" ends the last position
            line = line.strip()
            which = "final" if positions else "start"
            if not line:
                if rows:
                    where = "at the end of the input" if number > len(lines) else f"before the empty line {number}"
                    return fail(f"the {which} position has only {rows} row(s) (from line {first_row}) {where};"
                                f" expected {SIZE} rows of {SIZE} characters 0/1", number - 1)
                continue
            try:
                bits = row_bits(line)
            except InvalidPuzzleInput as error:
                return fail(f"{which} position, row {rows + 1}: {error.message}", number)
            if not rows:
                first_row = number
                case_line = case_line if positions else number
            mask |= bits << (SIZE * rows)
            rows += 1
            if rows == SIZE:
                positions.append(mask)
                rows = mask = 0
                if len(positions) == 2:
                    cases.append(Case(len(cases) + 1, case_line, tuple(positions)))
                    positions = []
        if positions:
            return fail("the input ends after the start position; expected an empty line and the final position"
                        f" ({SIZE} rows of {SIZE} characters 0/1)", case_line)
        return cases, None

    def instance(self, data):
        return data

    def output(self, length, moves):
        return "\n".join([str(length), *(MOVE_NAMES[m] for m in moves)]) if length >= 0 else "-1"

    def notes(self, instances, lengths, method):
        """Why an answer is -1: the two positions hold different numbers of black stones."""
        notes = {}
        for i in np.flatnonzero(lengths < 0).tolist():
            case, start, final = int(instances.ids[i]), int(instances.starts[i]), int(instances.goal_of(i, None)[0])
            notes[case] = (f"case {case}: the start has {black_stones(start)} black stones and the final position"
                           f" {black_stones(final)}; a swap never changes the count, so it is unreachable")
        return notes


def row_bits(row: str) -> int:
    """Bits of one row (column 1 in bit 0); raises naming the bad character or length."""
    if len(row) == SIZE and not row.strip("01"):
        return int(row[::-1], 2)
    if len(row) != SIZE:
        raise InvalidPuzzleInput(f"{row!r} has {len(row)} characters; expected {SIZE} characters 0/1")
    for c, char in enumerate(row):
        if char not in "01":
            raise InvalidPuzzleInput(f"{row!r} has {char!r} at column {c + 1}; expected 0 or 1")
    return int(row[::-1], 2)


PUZZLES = {"chessboard": "A Game on the Chessboard: 4x4 black/white stones, swap side-adjacent stones (C(16,k) states)"}
PROBLEMS = {"chessboard": ChessboardJudge}
