"""Sliding-tile puzzles ``sliding-RxC`` (R, C >= 2, R*C <= 16); Eight (POJ 1077) is ``sliding-3x3``.

Conventions:

- **Cells** are numbered row-major, ``i = row * C + col``, from the top-left.
- **State** (narrow): cell ``i`` holds its tile number (1 .. R*C-1) in bits ``[4i, 4i+4)``;
  the blank holds 0. A 4x4 state uses all 64 bits.
- **Moves**: 0 ``u``, 1 ``d``, 2 ``l``, 3 ``r``: the direction the *blank* travels.
- **Component**: ``(parity of the N-cell permutation, blank = 0) + row(b) + col(b)) mod 2`` for
  the blank at cell ``b``, ``N = R*C``. A move swaps the blank with a neighbour: it flips the
  permutation's parity and the colour of the blank's square, so the sum never changes. The
  two components are the two halves of the ``N!`` arrangements.
- **Rank** (within a component), in ``[0, N!/2)``: an odd arrangement is first replaced by its
  *even twin*, the same arrangement with tiles 1 and 2 exchanged (twins share the blank's cell,
  so they lie in different components); the rank is the twin's Lehmer rank (cells row-major,
  blank = 0) divided by two, which drops the one Lehmer digit an even permutation fixes.
- **Text**: the ``N`` cells row-major, separated by blanks, ``x`` (or ``0``) for the blank.
  The goal is the tiles in order with the blank last.
- **Inverse moves**: u and d undo each other, as do l and r.
- **Heuristics** (``sliding_heuristics``): ``pdb`` (additive pattern databases, the default; on
  the 8-puzzle IDA* with them takes half the time of ``linear-conflict``), ``linear-conflict``,
  ``manhattan``.
"""

from __future__ import annotations

import re

import numpy as np

from vecsearch._numba import kernel, state_function
from vecsearch.engine.solve import solve_many
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.judge import Answer, JudgeProblem, line_cases
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import factorial_table, half_unrank
from vecsearch.puzzle import Puzzle, signed64, unsigned64
from vecsearch.svg import Board, Cell

MOVE_NAMES = ("u", "d", "l", "r")
INVERSE_MOVES = (1, 0, 3, 2)
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
NAME = re.compile(r"sliding-(\d+)x(\d+)$")
TILE, BLANK = "#f3dfb6", "#9e9e9e"  # picture colours


_ONES = np.int64(0x1111111111111111)
_HIGHS = np.int64(signed64(0x8888888888888888))


@state_function
def cell_of(state, tile):
    """Cell holding ``tile`` (0: the blank): the lowest nibble equal to it, found without a
    loop by the SWAR zero-nibble test on ``state ^ (tile * 0x11..1)``."""
    x = state ^ (tile * _ONES)
    zero_nibbles = (x - _ONES) & ~x & _HIGHS
    return popcount((zero_nibbles & -zero_nibbles) - 1) >> 2


@state_function
def blank_cell(state):
    return cell_of(state, 0)


@state_function
def expand(state, tables, children, moves):
    """Branch-free: all four moves are computed; illegal ones (whose table entry points back at
    the blank, moving tile 0) are written but not counted."""
    targets = tables[0]
    legal = tables[1]
    b = blank_cell(state)
    k = 0
    for m in range(4):
        t = targets[b, m]
        tile = (state >> (4 * t)) & 15
        children[k] = state ^ (tile << (4 * t)) ^ (tile << (4 * b))
        moves[k] = m
        k += legal[b, m]
    return k


@state_function
def lehmer(state, cells, factorials):
    """Lehmer rank of the N-cell permutation (blank = 0), its parity, and its digits packed
    4 bits per cell."""
    seen = np.int64(0)
    digits = np.int64(0)
    full_rank = np.int64(0)
    parity = np.int64(0)
    for i in range(cells - 1):
        value = (state >> (4 * i)) & 15
        digit = value - popcount(seen & ((np.int64(1) << value) - 1))
        digits |= digit << (4 * i)
        full_rank += digit * factorials[cells - 1 - i]
        parity += digit
        seen |= np.int64(1) << value
    return full_rank, parity & 1, digits


@state_function
def rank(state, tables):
    """Half the Lehmer rank of the even twin: an odd arrangement is ranked as itself with tiles
    1 and 2 exchanged (same blank cell, so distinct within a component), which moves the
    Lehmer rank by one factorial weight. Branch-free."""
    cells = tables[2][0]
    factorials = tables[3]
    full_rank, odd, _ = lehmer(state, cells, factorials)
    c1 = cell_of(state, 1)
    c2 = cell_of(state, 2)
    one_first = np.int64(c1 < c2)
    shift = one_first * factorials[cells - 1 - c1] - (1 - one_first) * factorials[cells - 1 - c2]
    return (full_rank + odd * shift) >> 1


@state_function
def expand_ranked(state, tables, children, moves, ranks):
    """``expand`` plus each child's ``rank``, derived from the parent's Lehmer digits.

    A move exchanges the blank with the tile at another cell: positions ``lo < hi`` swap their
    values ``a`` and ``c``. Only the digits of ``lo``, ``hi`` and the positions between them
    change: ``d'_lo = d_hi + #mid(<c) + [a<c]``, ``d'_hi = d_lo - #mid(<a) - [c<a]``, and a
    middle digit gains ``[a<v] - [c<v]``. The parity flips with every move.
    """
    targets = tables[0]
    legal = tables[1]
    cells = tables[2][0]
    factorials = tables[3]
    full_rank, parity, digits = lehmer(state, cells, factorials)
    child_odd = 1 - parity
    b = blank_cell(state)
    c1 = cell_of(state, 1)
    c2 = cell_of(state, 2)
    k = 0
    for m in range(4):
        t = targets[b, m]
        tile = (state >> (4 * t)) & 15
        lo = min(b, t)
        hi = max(b, t)
        a = (state >> (4 * lo)) & 15
        c = (state >> (4 * hi)) & 15
        d_lo = (digits >> (4 * lo)) & 15
        d_hi = (digits >> (4 * hi)) & 15
        below_a = np.int64(0)
        below_c = np.int64(0)
        delta = np.int64(0)
        for j in range(lo + 1, hi):
            v = (state >> (4 * j)) & 15
            below_a += v < a
            below_c += v < c
            delta += (np.int64(a < v) - np.int64(c < v)) * factorials[cells - 1 - j]
        delta += (d_hi + below_c + (a < c) - d_lo) * factorials[cells - 1 - lo]
        delta += (d_lo - below_a - (c < a) - d_hi) * factorials[cells - 1 - hi]
        child_c1 = b if tile == 1 else c1
        child_c2 = b if tile == 2 else c2
        one_first = np.int64(child_c1 < child_c2)
        shift = one_first * factorials[cells - 1 - child_c1] - (1 - one_first) * factorials[cells - 1 - child_c2]
        children[k] = state ^ (tile << (4 * t)) ^ (tile << (4 * b))
        moves[k] = m
        ranks[k] = (full_rank + delta + child_odd * shift) >> 1
        k += legal[b, m]
    return k


@state_function
def blank_colour(b, tables):
    cols = tables[2][1]
    return (b // cols + b % cols) & 1


@state_function
def component(state, tables):
    cells = tables[2][0]
    _, parity, _ = lehmer(state, cells, tables[3])
    return (parity + blank_colour(blank_cell(state), tables)) & 1


@state_function
def unrank(r, component_id, tables):
    cells = tables[2][0]
    even = half_unrank(r, 0, cells, 4, tables[3])
    if blank_colour(blank_cell(even), tables) == component_id:
        return even
    return even ^ (np.int64(3) << (4 * cell_of(even, 1))) ^ (np.int64(3) << (4 * cell_of(even, 2)))


def move_tables(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``target[cell, move]``: the cell the blank moves to (the cell itself when the move leaves
    the board), and ``legal[cell, move]``: 1 or 0."""
    target = np.zeros((rows * cols, 4), dtype=np.int64)
    legal = np.zeros((rows * cols, 4), dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for m, (dr, dc) in enumerate(_STEPS):
            inside = 0 <= r + dr < rows and 0 <= c + dc < cols
            target[cell, m] = (r + dr) * cols + c + dc if inside else cell
            legal[cell, m] = int(inside)
    return target, legal


class SlidingPuzzle(Puzzle):
    """The R x C sliding-tile puzzle."""

    def __init__(self, rows: int, cols: int):
        if rows < 2 or cols < 2 or rows * cols > 16:
            raise InvalidPuzzleInput(f"sliding-{rows}x{cols}: need R, C >= 2 and R*C <= 16")
        self.rows, self.cols, self.cells = rows, cols, rows * cols
        tables = (*move_tables(rows, cols), np.array([self.cells, cols], np.int64), factorial_table(self.cells))
        goal = " ".join([str(t) for t in range(1, self.cells)] + ["x"])
        super().__init__(
            f"sliding-{rows}x{cols}", expand=expand, expand_ranked=expand_ranked, max_moves=4, tables=tables, rank=rank,
            rank_size=_factorial(self.cells) // 2, component=component, unrank=unrank,
            move_names=MOVE_NAMES, goal=goal, inverse_moves=INVERSE_MOVES,
        )

    @property
    def kernel_label(self) -> str:
        return "sliding"  # one compiled kernel module serves every size

    @property
    def heuristic_names(self) -> tuple[str, ...]:
        return ("pdb", "linear-conflict", "manhattan")

    def make_heuristic(self, goals, name, **options):
        """``pdb`` takes ``partition`` (lists of tiles), ``reflect`` and ``directory`` options."""
        from vecsearch.puzzles.sliding_heuristics import make_heuristic

        return make_heuristic(self, goals, name, **options)

    def parse_state(self, text: str, *, blank_tokens=("x", "X", "0")):
        tokens = text.split()
        if len(tokens) != self.cells:
            raise InvalidPuzzleInput(f"expected {self.cells} tokens for {self.name}, got {len(tokens)}")
        return self.encode(tokens, blank_tokens=blank_tokens)

    def encode(self, tokens, *, blank_tokens=("x", "X", "0")) -> int:
        """Pack cell tokens (row-major; tile numbers and one blank token) into a state."""
        seen = {}
        value = 0
        for cell, token in enumerate(tokens):
            token = str(token)
            if token in blank_tokens:
                tile = 0
            elif token.isdigit() and 1 <= int(token) < self.cells:
                tile = int(token)
            else:
                expected = f"a tile 1..{self.cells - 1} or {'/'.join(dict.fromkeys(t.lower() for t in blank_tokens))}"
                raise InvalidPuzzleInput(f"token {cell + 1} is {token!r}; expected {expected}")
            if tile in seen:
                what = "blank" if tile == 0 else f"tile {tile}"
                raise InvalidPuzzleInput(f"{what} appears twice (tokens {seen[tile] + 1} and {cell + 1})")
            seen[tile] = cell
            value |= tile << (4 * cell)
        return signed64(value)

    def tiles(self, state) -> list[int]:
        """Cell contents row-major, 0 for the blank."""
        value = unsigned64(int(state))
        return [(value >> (4 * i)) & 15 for i in range(self.cells)]

    def format_state(self, state) -> str:
        return " ".join(str(t) if t else "x" for t in self.tiles(state))

    def format_moves(self, moves) -> str:
        return "".join(MOVE_NAMES[m] for m in moves)

    def board(self, state) -> str:
        """The state as R lines of C cells."""
        width = len(str(self.cells - 1))
        cells = [str(t).rjust(width) if t else "x".rjust(width) for t in self.tiles(state)]
        return "\n".join(" ".join(cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows))

    def draw(self, state) -> Board:
        """Numbered tiles; the blank is grey."""
        return Board(self.rows, self.cols, tuple(Cell(TILE, str(t)) if t else Cell(BLANK) for t in self.tiles(state)))


def _factorial(n: int) -> int:
    return int(factorial_table(n)[n])


_cache: dict[tuple[int, int], SlidingPuzzle] = {}


def sliding(rows: int, cols: int) -> SlidingPuzzle:
    """The ``rows`` x ``cols`` puzzle (one shared instance per size)."""
    if (rows, cols) not in _cache:
        _cache[rows, cols] = SlidingPuzzle(rows, cols)
    return _cache[rows, cols]


def from_name(name: str) -> SlidingPuzzle | None:
    match = NAME.match(name)
    return sliding(int(match[1]), int(match[2])) if match else None


@kernel
def encode_rows(values, counts, letter, zero_is_blank, states, ok):
    """Pack rows of tile tokens (``letter`` or, if ``zero_is_blank``, 0 for the blank) into
    states; ``ok[i]`` is False where row ``i`` is not one of each tile and one blank."""
    cells = values.shape[1]
    for i in range(values.shape[0]):
        seen = 0
        state = 0
        valid = counts[i] == cells
        for cell in range(cells):
            v = values[i, cell]
            if v == letter or (v == 0 and zero_is_blank):
                v = 0
            elif v <= 0 or v >= cells:
                valid = False
                v = 0
            seen |= 1 << v
            state |= v << (4 * cell)
        states[i] = state
        ok[i] = valid and seen == (1 << cells) - 1


class SlidingJudge(JudgeProblem):
    """One puzzle per line (R*C tokens, any whitespace); answer: a shortest move string of
    ``u d l r`` (the blank's direction), or ``unsolvable``. Eight (POJ 1077) is the 3x3 case.

    Goal conventions: ``default`` (tiles 1..N-1 row by row, then the blank) and ``korf`` (the
    blank first, then 1..N-1: Korf's 15-puzzle instances)."""

    goal_conventions = {"default": "tiles 1..N-1 row by row, blank last", "korf": "blank first, then tiles 1..N-1"}

    def __init__(self, name: str, rows: int, cols: int, blank_tokens=("x",), goal: str = "default"):
        self.name = name
        self.puzzle = sliding(rows, cols)
        self.title = f"{rows}x{cols} sliding puzzle, one per line ({self.puzzle.cells} tokens, blank {'/'.join(blank_tokens)})"
        self.blank_tokens = blank_tokens
        self.goal = goal

    def with_goal(self, name: str) -> "SlidingJudge":
        if name not in self.goal_conventions:
            super().with_goal(name)
        return SlidingJudge(self.name, self.puzzle.rows, self.puzzle.cols, self.blank_tokens, name)

    def goal_state(self) -> int:
        cells = self.puzzle.cells
        order = list(range(1, cells)) + [0] if self.goal == "default" else list(range(cells))
        return self.puzzle.encode(order)

    def read(self, text: str):
        return line_cases(text, lambda line: self.puzzle.parse_state(line, blank_tokens=self.blank_tokens))

    def answer(self, cases):
        if not cases:
            return []
        found = solve_many(self.puzzle, [case.data for case in cases], self.goal_state())
        return [Answer(found.formatted(i) if found.lengths[i] >= 0 else "unsolvable") for i in range(len(cases))]

    def instance(self, data):
        return data, self.goal_state()

    def output(self, length, moves):
        return self.puzzle.format_moves(moves) if length >= 0 else "unsolvable"

    def batch_instances(self, data: bytes):
        """All lines read in one pass (``kernels.text``) and checked in bulk; only the lines that
        fail are read again one by one, for their message. A bad line does not stop the rest."""
        from vecsearch.engine.batch import Instances
        from vecsearch.kernels.text import token_lines

        cells = self.puzzle.cells
        letter = 1 << 20  # what a letter blank reads as
        values, counts, lines = token_lines(data, cells, {t: letter for t in self.blank_tokens if not t.isdigit()})
        states = np.empty(len(values), np.int64)
        ok = np.empty(len(values), np.bool_)
        encode_rows(values, counts, letter, "0" in self.blank_tokens, states, ok)
        numbers = np.arange(1, len(states) + 1)
        errors = []
        if not ok.all():
            text = data.decode("utf-8", errors="replace").splitlines()
            for row in np.flatnonzero(~ok).tolist():
                try:
                    self.puzzle.parse_state(text[lines[row] - 1], blank_tokens=self.blank_tokens)
                    message = "unreadable line"
                except InvalidPuzzleInput as error:
                    message = str(error.located(line=int(lines[row]), case=int(numbers[row])))
                errors.append((int(numbers[row]), message))
        goal = np.array([self.goal_state()], np.int64)
        return Instances(numbers[ok], states[ok], goal), errors

    def batch_output(self, lengths, moves):
        """The move strings (or ``unsolvable``) of a chunk, built in bulk."""
        from vecsearch.kernels.text import move_lines

        return move_lines(lengths, moves, "".join(MOVE_NAMES), "unsolvable")


PUZZLES = {"sliding-RxC": "R x C sliding-tile puzzle (R, C >= 2, R*C <= 16), e.g. sliding-3x3, sliding-4x4;"
                          " also a problem: `vecsearch solve sliding-4x4 [--goal korf]`, one puzzle per line"}
PROBLEMS = {"eight": lambda: SlidingJudge("eight", 3, 3)}


def problem_from_name(name: str) -> SlidingJudge | None:
    """``sliding-RxC`` as a problem: one puzzle per line, blank ``x`` or ``0``; IDA* with pattern
    databases for the 4x4, distance tables or bidirectional search below."""
    puzzle = from_name(name)
    return None if puzzle is None else SlidingJudge(name, puzzle.rows, puzzle.cols, blank_tokens=("x", "0"))
