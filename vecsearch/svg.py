"""Pictures of states and solutions as SVG, for notebooks (``_repr_svg_``, ``_repr_html_``).

A puzzle says how to draw one state by returning a ``Board`` from ``Puzzle.draw(state)``: a grid
of ``Cell``s, each a coloured square with an optional round piece and a label. This module
turns boards into SVG text: one state (``StateView``, from ``Puzzle.show(state)``), or a path
as a strip of boards with the move under each (``solution_svg``). Plain text is escaped; no
dependencies.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

SIZE = 28  # pixels per cell
GAP = 14  # pixels between the boards of a strip
CAPTION = 14  # pixels under a board for its caption
PER_ROW = 8  # boards per row of a strip
MAX_STATES = 64  # states drawn of a long solution (the first ones)


@dataclass(frozen=True)
class Cell:
    """One square: its ``fill`` colour, an optional round ``piece`` of that colour on it, and a
    ``text`` label in the middle (drawn in ``ink``)."""

    fill: str = "#ffffff"
    text: str = ""
    piece: str | None = None
    ink: str = "#000000"


@dataclass(frozen=True)
class Board:
    """``rows`` x ``cols`` cells, row-major from the top-left (None: no cell there), and
    optionally a label left of each row."""

    rows: int
    cols: int
    cells: tuple[Cell | None, ...]
    row_labels: tuple[str, ...] = ()

    def __post_init__(self):
        if len(self.cells) != self.rows * self.cols:
            raise ValueError(f"a {self.rows}x{self.cols} board needs {self.rows * self.cols} cells,"
                             f" got {len(self.cells)}")
        if self.row_labels and len(self.row_labels) != self.rows:
            raise ValueError(f"a board of {self.rows} rows needs {self.rows} row labels, got {len(self.row_labels)}")

    @property
    def margin(self) -> int:
        """Pixels left of the cells for the row labels."""
        return 8 + 7 * max(map(len, self.row_labels)) if self.row_labels else 0

    @property
    def width(self) -> int:
        return self.margin + self.cols * SIZE

    @property
    def height(self) -> int:
        return self.rows * SIZE

    def elements(self, x0: float = 0, y0: float = 0) -> list[str]:
        """The SVG elements of the board with its top-left corner at ``(x0, y0)``."""
        out = [_text(x0 + self.margin - 4, y0 + (r + 0.5) * SIZE, label, anchor="end", size=11)
               for r, label in enumerate(self.row_labels)]
        x0 += self.margin
        for i, cell in enumerate(self.cells):
            if cell is None:
                continue
            x, y = x0 + (i % self.cols) * SIZE, y0 + (i // self.cols) * SIZE
            out.append(f'<rect x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{_attr(cell.fill)}"'
                       f' stroke="#555555" stroke-width="1"/>')
            if cell.piece is not None:
                out.append(f'<circle cx="{x + SIZE / 2}" cy="{y + SIZE / 2}" r="{SIZE * 0.36}"'
                           f' fill="{_attr(cell.piece)}" stroke="#222222" stroke-width="1"/>')
            if cell.text:
                out.append(_text(x + SIZE / 2, y + SIZE / 2, cell.text, ink=cell.ink))
        return out

    def svg(self) -> str:
        return _document(self.width, self.height, self.elements())


def strip_svg(boards, captions) -> str:
    """Boards side by side (``PER_ROW`` to a row), each with a caption under it."""
    boards, captions = list(boards), list(captions)
    if not boards:
        raise ValueError("nothing to draw")
    cell_w = max(b.width for b in boards) + GAP
    cell_h = max(b.height for b in boards) + CAPTION + GAP
    per_row = min(PER_ROW, len(boards))
    elements = []
    for k, (board, caption) in enumerate(zip(boards, captions, strict=True)):
        x, y = (k % per_row) * cell_w, (k // per_row) * cell_h
        elements += board.elements(x, y)
        elements.append(_text(x + board.width / 2, y + board.height + CAPTION / 2 + 1, caption))
    rows = (len(boards) + per_row - 1) // per_row
    return _document(per_row * cell_w - GAP, rows * cell_h - GAP, elements)


def solution_svg(puzzle, states, labels) -> str | None:
    """A path as a strip: the start, then each state with the move that led to it (the first
    ``MAX_STATES`` states); None if the puzzle draws no pictures."""
    shown = list(states[:MAX_STATES])
    boards = [puzzle.draw(s) for s in shown]
    if any(b is None for b in boards):
        return None
    captions = ["start"] + [f"{i}: {label}" for i, label in enumerate(labels[:len(shown) - 1], 1)]
    return strip_svg(boards, captions)


class StateView:
    """One state as notebooks show it: a picture when the puzzle draws one, else its text."""

    def __init__(self, puzzle, state):
        self.puzzle = puzzle
        self.state = state

    def _repr_svg_(self) -> str | None:
        board = self.puzzle.draw(self.state)
        return None if board is None else board.svg()

    def _repr_html_(self) -> str:
        picture = self._repr_svg_()
        text = f"<pre>{html.escape(self.puzzle.format_state(self.state))}</pre>"
        return f"<div>{picture}</div>" if picture is not None else text

    def __repr__(self) -> str:
        return f"<state of {self.puzzle.name}: {self.puzzle.format_state(self.state)!r}>"


def _document(width, height, elements) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
            f' viewBox="0 0 {width} {height}" font-family="sans-serif">' + "".join(elements) + "</svg>")


def _text(x, y, text, *, ink="#000000", anchor="middle", size=None) -> str:
    size = size or (13 if len(text) <= 2 else 9)
    return (f'<text x="{x}" y="{y}" fill="{_attr(ink)}" font-size="{size}" text-anchor="{anchor}"'
            f' dominant-baseline="central">{html.escape(text)}</text>')


def _attr(value: str) -> str:
    return html.escape(value, quote=True)
