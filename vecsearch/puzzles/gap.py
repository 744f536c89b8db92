"""Gap (POJ 2046): 28 cards in a 4x8 grid, moved one at a time into gaps; a directed puzzle.

Conventions:

- **Cards** ``sv``: suit ``s`` 1..4, value ``v`` 1..7. The aces (``v = 1``) sit in column 1 for
  good after the set-up; the 24 others are *movable*, numbered ``id = 6 * (s - 1) + (v - 2)``
  (0..23; card ``id + 1`` is the next value of the same suit unless ``id % 6 == 5``, a 7).
- **Cells**: the movable squares, columns 2..8 of rows 1..4, numbered ``p = 7 * (row - 1) +
  (column - 2)`` (0..27). Column 1 is not a cell: it holds ace ``r1`` in row ``r``.
- **State** (wide, 2 words): the cell of movable card ``id`` in bits ``[5j, 5j+5)`` of word
  ``id // 12``, ``j = id % 12``. The four cells no card occupies are the gaps (gaps are alike, so
  this is one word pair per position). The top 4 bits of each word are 0.
- **Moves** 0..3: fill the ``k``-th gap, counting the gaps in cell order (row by row, left to
  right). A gap takes the card one above its left neighbour (the suit's 2 next to an ace); a gap
  right of a 7 or of another gap takes nothing. Moves are not reversible and there is no
  predecessor function: a state has up to 4 children but up to 96 parents (the goal's backward
  layers hold 1, 96, 5,440, 232,196 layouts, while a whole forward component rarely passes
  100,000), so a backward side would never be the smaller one for long; searches run forwards
  only (``Puzzle.reversible`` is False), deduplicated in a hash set (no rank).
- **Goal**: row ``r`` holds ``r2 .. r7`` in columns 2..7 and a gap in column 8.
- **Text** (``parse_state`` / ``format_state``): the 28 cells row by row, a card as its two
  digits, a gap as ``--`` (four rows of seven tokens; line breaks optional).
- **Judge format** (POJ 2046): a count, then each layout as 4 lines of 7 cards *before* the
  set-up (aces included, placed in columns 2..8); see ``GapJudge``.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import numpy as np

from vecsearch._numba import state_function
from vecsearch.contract import Moves, Rules
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.judge import Case, JudgeProblem, Lines
from vecsearch.kernels.intrinsics import popcount
from vecsearch.puzzle import Puzzle
from vecsearch.svg import Board, Cell

ROWS, COLUMNS = 4, 7  # movable cells: 4 rows of columns 2..8
CELLS = ROWS * COLUMNS
MOVABLE = 24
PER_WORD = 12
GAP_TOKEN = "--"
SUIT_COLOURS, GAP_COLOUR = ("#fde0dd", "#deebf7", "#e5f5e0", "#fff7bc"), "#555555"  # picture colours
_FIELD_ONES = np.int64(sum(1 << (5 * j) for j in range(PER_WORD)))
_FIELD_HIGHS = np.int64(sum(16 << (5 * j) for j in range(PER_WORD)))
_CELL_MASK = np.int64((1 << CELLS) - 1)


@state_function
def field_index(word, cell):
    """Index of the 5-bit field of ``word`` equal to ``cell``, or -1 (SWAR zero-field test on
    ``word ^ cell * 0b00001..``: the lowest flagged field is exact)."""
    x = word ^ (cell * _FIELD_ONES)
    zero = (x - _FIELD_ONES) & ~x & _FIELD_HIGHS
    if zero == 0:
        return -1
    return popcount((zero & -zero) - 1) // 5


@state_function
def card_at(state, cell):
    """The movable card in ``cell``, or -1 for a gap."""
    j = field_index(state[0], cell)
    if j >= 0:
        return j
    j = field_index(state[1], cell)
    return j + PER_WORD if j >= 0 else -1


@state_function
def gap_mask(state):
    occupied = np.int64(0)
    for w in range(2):
        word = state[w]
        for j in range(PER_WORD):
            occupied |= np.int64(1) << ((word >> (5 * j)) & 31)
    return ~occupied & _CELL_MASK


@state_function
def expand(state, tables, children, moves):
    """One child per live gap: the card after the gap's left neighbour moves into it."""
    gaps = gap_mask(state)
    k = 0
    for m in range(4):
        g = popcount((gaps & -gaps) - 1)
        gaps &= gaps - 1
        column = g % COLUMNS
        if column == 0:
            card = (g // COLUMNS) * 6  # the 2 of the row's suit, right of its ace
        else:
            left = card_at(state, g - 1)
            if left < 0 or left % 6 == 5:
                continue  # right of a gap or of a 7: dead
            card = left + 1
        w = card // PER_WORD
        shift = 5 * (card % PER_WORD)
        children[k, 0] = state[0]
        children[k, 1] = state[1]
        children[k, w] = state[w] ^ ((((state[w] >> shift) & 31) ^ g) << shift)
        moves[k] = m
        k += 1
    return k


def card_id(suit: int, value: int) -> int:
    return 6 * (suit - 1) + (value - 2)


def card_name(card: int) -> str:
    return f"{card // 6 + 1}{card % 6 + 2}"


def pack(cells) -> tuple[int, int]:
    """A state from the 28 cells' movable card ids (row by row), -1 for the gaps."""
    words = [0, 0]
    for cell, card in enumerate(cells):
        if card >= 0:
            words[card // PER_WORD] |= cell << (5 * (card % PER_WORD))
    return tuple(words)


def unpack(state) -> list[int]:
    """The 28 cells' movable card ids (row by row), -1 for the gaps."""
    cells = [-1] * CELLS
    for card in range(MOVABLE):
        cells[(int(state[card // PER_WORD]) >> (5 * (card % PER_WORD))) & 31] = card
    return cells


GOAL_CELLS = [card_id(r + 1, c + 2) if c < 6 else -1 for r in range(ROWS) for c in range(COLUMNS)]
# The default start (``vecsearch bfs gap``): the sample layout whose suits keep to their own
# rows, four independent one-gap rows: 16**4 = 65,536 layouts, the goal 60 moves away.
ROWS_APART = [[10 * s + v for v in (7, 2, 6, 3, 5, 4, 1)] for s in range(1, 5)]
GOAL = pack(GOAL_CELLS)
MOVE_NAMES = ("gap1", "gap2", "gap3", "gap4")


class GapPuzzle(Puzzle):
    """Gap after the set-up: 24 movable cards and 4 gaps (one shared instance: ``gap_puzzle()``)."""

    rules = Rules(expand, width=2, reversible=False)
    moves = Moves(4, MOVE_NAMES)

    def __init__(self):
        super().__init__("gap", goal=GOAL, start=set_up(ROWS_APART))

    def parse_state(self, text: str):
        tokens = text.split()
        if len(tokens) != CELLS:
            raise InvalidPuzzleInput(f"expected {CELLS} cells (4 rows of 7: cards 12..47 without aces,"
                                     f" {GAP_TOKEN} for a gap), got {len(tokens)} tokens")
        cells, seen = [], {}
        for i, token in enumerate(tokens):
            if token == GAP_TOKEN:
                cells.append(-1)
                continue
            card = parse_card(token, aces=False)
            if card in seen:
                raise InvalidPuzzleInput(f"card {token} appears twice (cells {seen[card] + 1} and {i + 1})")
            seen[card] = i
            cells.append(card)
        if len(seen) != MOVABLE:
            raise InvalidPuzzleInput(f"expected {MOVABLE} cards and 4 gaps, got {len(seen)} cards")
        return pack(cells)

    def format_state(self, state) -> str:
        tokens = [GAP_TOKEN if c < 0 else card_name(c) for c in unpack(state)]
        return "\n".join(" ".join(tokens[r * COLUMNS:(r + 1) * COLUMNS]) for r in range(ROWS))

    def board(self, state) -> str:
        """The whole 4x8 grid, aces in column 1."""
        rows = self.format_state(state).splitlines()
        return "\n".join(f"{r + 1}1 {row}" for r, row in enumerate(rows))

    def draw(self, state) -> Board:
        """The 4x8 grid: aces in column 1, each card tinted by its suit, gaps dark."""
        cells = unpack(state)
        grid = []
        for r in range(ROWS):
            grid.append(Cell(SUIT_COLOURS[r], f"{r + 1}1"))
            grid += [Cell(GAP_COLOUR) if c < 0 else Cell(SUIT_COLOURS[c // 6], card_name(c))
                     for c in cells[r * COLUMNS:(r + 1) * COLUMNS]]
        return Board(ROWS, COLUMNS + 1, tuple(grid))

    def describe(self, solution) -> list[str]:
        """Each move of a solution as ``"card 23 to row 2, column 5"``."""
        steps = []
        for before, after in pairwise(solution.states):
            old, new = unpack(before), unpack(after)
            cell = next(c for c in range(CELLS) if old[c] < 0 <= new[c])
            steps.append(f"card {card_name(new[cell])} to row {cell // COLUMNS + 1}, column {cell % COLUMNS + 2}")
        return steps


def parse_card(token: str, *, aces: bool) -> int:
    """A card's movable id, or ``-suit`` for an ace (when ``aces``)."""
    low = 1 if aces else 2
    if len(token) == 2 and token.isdigit() and 1 <= int(token[0]) <= 4 and low <= int(token[1]) <= 7:
        suit, value = int(token[0]), int(token[1])
        return -suit if value == 1 else card_id(suit, value)
    expected = "a card 11..47 (suit 1-4, value 1-7)" if aces else "a card 12..47 (suit 1-4, value 2-7) or --"
    raise InvalidPuzzleInput(f"token {token!r} is not a card; expected {expected}")


@cache
def gap_puzzle() -> GapPuzzle:
    """The puzzle (one shared instance)."""
    return GapPuzzle()


# --- the set-up and the judge format --------------------------------------------------------------

def set_up(rows) -> tuple[int, int]:
    """The state after the set-up of a dealt layout: 4 rows of 7 card numbers (11..47) in
    columns 2..8; the aces leave gaps behind and go to column 1."""
    return pack([card_id(card // 10, card % 10) if card % 10 != 1 else -1 for row in rows for card in row])


class GapJudge(JudgeProblem):
    """A count N, then N layouts of 4 lines of 7 cards (blank lines between them are optional);
    answer: the minimum number of moves after the set-up, or -1."""

    name = "gap"
    title = "Gap (POJ 2046): a count, then layouts of 4 rows of 7 cards"

    def __init__(self):
        self.puzzle = gap_puzzle()

    def read(self, text: str):
        lines = Lines(text)
        cases: list[Case] = []
        try:
            number, tokens = lines.take("the number of layouts")
            if len(tokens) != 1 or not tokens[0].isdigit():
                raise InvalidPuzzleInput(f"expected the number of layouts (one integer >= 0), got {' '.join(tokens)!r}",
                                         line=number)
            count = int(tokens[0])
        except InvalidPuzzleInput as error:
            return cases, error.located(case=1)
        while len(cases) < count or not lines.at_end:
            case = len(cases) + 1
            try:
                if case > count:
                    raise InvalidPuzzleInput(f"more layouts than the count {count} on line {number}", line=lines.line)
                first = lines.line
                cases.append(Case(case, first, read_layout(lines, f"layout {case} of {count}")))
            except InvalidPuzzleInput as error:
                return cases, error.located(case=case)
        return cases, None

    def instance(self, data):
        return set_up(data), None

    def output(self, length, moves):
        return str(length)


def read_layout(lines: Lines, what: str) -> list[list[int]]:
    """Four rows of seven cards, each of the 28 cards once."""
    rows, where = [], {}
    for row in range(1, ROWS + 1):
        number, tokens = lines.take(f"row {row} of {what}")
        if len(tokens) != COLUMNS:
            raise InvalidPuzzleInput(f"row {row} has {len(tokens)} cards; expected {COLUMNS}", line=number)
        for token in tokens:
            try:
                parse_card(token, aces=True)
            except InvalidPuzzleInput as error:
                raise error.located(line=number) from None
            where.setdefault(int(token), []).append((row, number))
        rows.append([int(token) for token in tokens])
    repeated = [(card, seen) for card, seen in where.items() if len(seen) > 1]
    if repeated:
        card, seen = repeated[0]
        missing = [f"{s}{v}" for s in range(1, 5) for v in range(1, 8) if 10 * s + v not in where]
        raise InvalidPuzzleInput(f"card {card} appears {len(seen)} times (rows {', '.join(str(r) for r, _ in seen)});"
                                 f" missing: {', '.join(missing)}", line=seen[1][1])
    return rows


def from_name(name: str) -> GapPuzzle | None:
    return gap_puzzle() if name == "gap" else None


PUZZLES = {"gap": "Gap (POJ 2046) after the set-up: 24 cards, 4 gaps on 4x7; directed (start: sample 3)"}
PROBLEMS = {"gap": GapJudge}
