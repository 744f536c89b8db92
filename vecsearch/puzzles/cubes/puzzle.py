"""``CubicPuzzle``: the Cubic Eight-Puzzle's state space (rules in ``rules``), its text in and out."""

from __future__ import annotations

from functools import cache

from vecsearch.contract import Moves, Rank, Rules
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.puzzle import Puzzle
from vecsearch.puzzles.cubes.rules import (
    CELLS,
    COLOURS,
    EMPTY,
    MOVE_NAMES,
    ORIENTATIONS,
    RANK_SIZE,
    component,
    expand,
    pack,
    rank,
    rule_tables,
    start_cells,
    unpack,
)
from vecsearch.svg import Board, Cell

FACE_COLOURS, EMPTY_COLOUR = ("#ffffff", "#1f5fbf", "#d62728"), "#9e9e9e"  # picture: W, B, R tops; empty


class CubicPuzzle(Puzzle):
    """The Cubic Eight-Puzzle's state space (one shared instance: ``cubic_puzzle()``)."""

    rules = Rules(expand, component=component)
    moves = Moves(4, MOVE_NAMES, (1, 0, 3, 2))
    rank = Rank(rank, RANK_SIZE)

    def __init__(self):
        super().__init__("cubes", tables=rule_tables(), start=pack(start_cells(4)))

    def parse_state(self, text: str) -> int:
        tokens = text.split()
        if len(tokens) != CELLS:
            raise InvalidPuzzleInput(f"expected {CELLS} cells (orientations like WBR, and one E),"
                                     f" got {len(tokens)} tokens")
        cells = []
        for i, token in enumerate(tokens):
            if token.upper() == "E":
                cells.append(EMPTY)
            elif token.upper() in ORIENTATIONS:
                cells.append(ORIENTATIONS.index(token.upper()))
            else:
                raise InvalidPuzzleInput(f"cell {i + 1} is {token!r}; expected an orientation"
                                         f" ({', '.join(ORIENTATIONS)}: top, x, y colours) or E")
        empties = [i + 1 for i, o in enumerate(cells) if o == EMPTY]
        if len(empties) != 1:
            raise InvalidPuzzleInput(f"expected exactly one E (the empty square), got {len(empties)}"
                                     + (f" (cells {', '.join(map(str, empties))})" if empties else ""))
        return pack(cells)

    def format_state(self, state) -> str:
        return " ".join("E" if o == EMPTY else ORIENTATIONS[o] for o in unpack(state))

    def board(self, state) -> str:
        """Three lines of three cells (orientations, E for the empty square)."""
        cells = self.format_state(state).split()
        return "\n".join(" ".join(f"{c:<3}" for c in cells[r * 3:r * 3 + 3]).rstrip() for r in range(3))

    def tops(self, state) -> str:
        """The top colours as the judge writes a pattern: three rows of ``W B R E``."""
        cells = ["E" if o == EMPTY else COLOURS[o >> 1] for o in unpack(state)]
        return "\n".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))

    def format_moves(self, moves) -> str:
        return "".join(MOVE_NAMES[m] for m in moves)

    def draw(self, state) -> Board:
        """Each cube in its top colour, labelled with its orientation; the empty square grey."""
        cells = [Cell(EMPTY_COLOUR) if o == EMPTY else
                 Cell(FACE_COLOURS[o >> 1], ORIENTATIONS[o], ink="#000000" if o >> 1 == 0 else "#ffffff")
                 for o in unpack(state)]
        return Board(3, 3, tuple(cells))


@cache
def cubic_puzzle() -> CubicPuzzle:
    """The puzzle (one shared instance)."""
    return CubicPuzzle()


def from_name(name: str) -> CubicPuzzle | None:
    return cubic_puzzle() if name == "cubes" else None
