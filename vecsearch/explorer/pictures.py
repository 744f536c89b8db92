"""States as pictures the page can draw: a board's cells as indices into a palette of cell SVG.

A puzzle draws a state as a ``vecsearch.svg.Board``; the page must show thousands of them, so
each distinct cell (colour, piece, label) is drawn once, by ``vecsearch.svg`` itself, as a
snippet of SVG with its corner at the origin, and a board is sent as its geometry and one palette
index per cell. The page places snippet ``k`` of cell ``i`` at ``(margin + (i % cols) * SIZE,
(i // cols) * SIZE)``: the same picture ``Board.svg()`` makes.
"""

from __future__ import annotations

from vecsearch.svg import SIZE, Board

NO_CELL = -1  # a board position without a cell


class Pictures:
    """The palette of cell snippets drawn so far (it only grows), and boards as JSON."""

    cell_size = SIZE

    def __init__(self, puzzle):
        self.puzzle = puzzle
        self.palette: list[str] = []
        self._index: dict = {}

    def board(self, state) -> dict | None:
        """``state``'s picture: ``{"w", "h", "m", "c", "cells", "labels"}`` (width, height,
        margin left of the cells, columns, a palette index per cell, the row labels' SVG), or
        None when the puzzle draws no pictures."""
        board = self.puzzle.draw(state)
        if board is None:
            return None
        labels = ""
        if board.row_labels:
            labels = "".join(Board(board.rows, board.cols, (None,) * len(board.cells), board.row_labels).elements())
        return {"w": board.width, "h": board.height, "m": board.margin, "c": board.cols,
                "cells": [self._cell(cell) for cell in board.cells], "labels": labels}

    def _cell(self, cell) -> int:
        if cell is None:
            return NO_CELL
        if cell not in self._index:
            self._index[cell] = len(self.palette)
            self.palette.append("".join(Board(1, 1, (cell,)).elements()))
        return self._index[cell]

    def since(self, known: int) -> dict:
        """The palette entries a page that holds the first ``known`` lacks."""
        known = max(0, min(int(known), len(self.palette)))
        return {"start": known, "entries": self.palette[known:]}
