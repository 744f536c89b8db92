"""``SlidingPuzzle``: the R x C sliding-tile puzzle (rules in ``rules``), its text in and out.

Heuristics (``heuristics``): ``pdb`` (additive pattern databases, the default; on the 8-puzzle
IDA* with them takes half the time of ``linear-conflict``; on the 4x4 the 7-8 partition once
built, else 6-6-3), ``pdb78`` and ``pdb663`` (the 4x4's partitions by name), ``linear-conflict``,
``manhattan``.
"""

from __future__ import annotations

from dataclasses import replace

from vecsearch.contract import Moves, Rank, Rules
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.kernels.ranking import factorial_table
from vecsearch.puzzle import TWO_BIT_RANKS, Puzzle
from vecsearch.puzzles.sliding.board import (
    BLANK_TOKENS,
    INVERSE_MOVES,
    MOVE_NAMES,
    NAME,
    check_size,
    goal_order,
    pack_tokens,
    unpack_tiles,
)
from vecsearch.puzzles.sliding.rules import (
    component,
    expand,
    expand_rank,
    expand_ranked,
    near_rank,
    rank,
    rule_tables,
    unrank,
)
from vecsearch.svg import Board, Cell

TILE, BLANK = "#f3dfb6", "#9e9e9e"  # picture colours


class SlidingPuzzle(Puzzle):
    """The R x C sliding-tile puzzle."""

    rules = Rules(expand, component=component)
    moves = Moves(4, MOVE_NAMES, INVERSE_MOVES)
    rank = Rank(rank, unrank=unrank, expand_ranked=expand_ranked, expand_rank=expand_rank,
                near_rank=near_rank)

    def __init__(self, rows: int, cols: int):
        check_size(rows, cols)
        self.rows, self.cols, self.cells = rows, cols, rows * cols
        goal = " ".join(str(t) if t else "x" for t in goal_order(self.cells))
        size = int(factorial_table(self.cells)[self.cells]) // 2
        super().__init__(f"sliding-{rows}x{cols}", rank=replace(SlidingPuzzle.rank, size=size),
                         tables=rule_tables(rows, cols), goal=goal)

    @property
    def prefers_two_bit(self) -> bool:
        return self.rank_size >= TWO_BIT_RANKS  # its expand_rank unranks first: below that, layers are faster

    @property
    def kernel_label(self) -> str:
        return "sliding"  # one compiled kernel module serves every size

    @property
    def heuristic_names(self) -> tuple[str, ...]:
        partitions = ("pdb78", "pdb663") if (self.rows, self.cols) == (4, 4) else ()
        return ("pdb", *partitions, "linear-conflict", "manhattan")

    def make_heuristic(self, goals, name, **options):
        """``pdb`` takes ``partition`` (lists of tiles), ``reflect``, ``directory`` and ``progress``
        (a bar while databases are built) options; ``pdb78`` and ``pdb663`` all but ``partition``."""
        from vecsearch.puzzles.sliding.heuristics import make_heuristic

        return make_heuristic(self, goals, name, **options)

    def parse_state(self, text: str, *, blank_tokens=BLANK_TOKENS):
        tokens = text.split()
        if len(tokens) != self.cells:
            raise InvalidPuzzleInput(f"expected {self.cells} tokens for {self.name}, got {len(tokens)}")
        return self.encode(tokens, blank_tokens=blank_tokens)

    def encode(self, tokens, *, blank_tokens=BLANK_TOKENS) -> int:
        """Pack cell tokens (row-major; tile numbers and one blank token) into a state."""
        return pack_tokens(tokens, self.cells, blank_tokens)

    def tiles(self, state) -> list[int]:
        """Cell contents row-major, 0 for the blank."""
        return unpack_tiles(state, self.cells)

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


_cache: dict[tuple[int, int], SlidingPuzzle] = {}


def sliding(rows: int, cols: int) -> SlidingPuzzle:
    """The ``rows`` x ``cols`` puzzle (one shared instance per size)."""
    if (rows, cols) not in _cache:
        _cache[rows, cols] = SlidingPuzzle(rows, cols)
    return _cache[rows, cols]


def from_name(name: str) -> SlidingPuzzle | None:
    match = NAME.match(name)
    return sliding(int(match[1]), int(match[2])) if match else None
