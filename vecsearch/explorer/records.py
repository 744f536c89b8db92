"""What an answer says about states: their ids and records, and samples of a layer.

A state's id is its packed words in decimal (comma-separated when the state is wide); its record
is ``{"text", "board", "depths"}``: the puzzle's text for it, its picture
(``Pictures.board``) and its depth on each side of the explorer (-1: on none of that side's
layers).
"""

from __future__ import annotations

import numpy as np


class Records:
    """The records of the states an answer names, by id."""

    def __init__(self, explorer):
        self.explorer = explorer
        self.found: dict[str, dict] = {}

    def add(self, states: np.ndarray) -> list[str]:
        """The ids of ``states`` (a layer array), their records made where new."""
        ids = [state_id(row) for row in states]
        self.explorer.shown.update(ids)
        new = [i for i, sid in enumerate(ids) if sid not in self.found]
        if new:
            explorer = self.explorer
            depths = explorer.depths(states[new])
            for i, row in zip(new, depths, strict=True):
                state = plain_state(states[i])
                self.found[ids[i]] = {"text": explorer.puzzle.format_state(state),
                                      "board": explorer.pictures.board(state), "depths": row.tolist()}
        return ids


def state_id(row) -> str:
    """A state's id: its words in decimal, comma-separated."""
    return str(int(row)) if np.ndim(row) == 0 else ",".join(str(int(w)) for w in row)


def plain_state(row):
    """A layer's row as the puzzle's methods take a state: an int, or a tuple of ints."""
    return int(row) if np.ndim(row) == 0 else tuple(int(w) for w in row)


def sample_positions(size: int, count: int) -> np.ndarray:
    """``min(size, count)`` positions spread evenly over ``range(size)``, the first included."""
    count = max(0, min(int(size), int(count)))
    return (np.arange(count, dtype=np.int64) * size) // max(count, 1)


