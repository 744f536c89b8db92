"""The board's symmetries of the Cubic Eight-Puzzle, which map datasets to equivalent ones."""

from __future__ import annotations

from dataclasses import dataclass

from vecsearch.puzzles.cubes.rules import CELLS, EMPTY, ORIENTATIONS, STEPS, Dataset, pack, unpack

# The 8 symmetries of the square map rolls to rolls. The four that exchange the x and y axes
# also exchange which colour faces which axis; relabelling B <-> R with them keeps the start
# orientation WBR fixed. So every dataset is equivalent to one whose start has the empty
# square at cell 0 (corner), 1 (edge) or 4 (centre): three shared balls instead of nine.

_MAPS = ((False, lambda x, y: (x, y)), (False, lambda x, y: (2 - x, y)), (False, lambda x, y: (x, 2 - y)),
         (False, lambda x, y: (2 - x, 2 - y)), (True, lambda x, y: (y, x)), (True, lambda x, y: (2 - y, x)),
         (True, lambda x, y: (y, 2 - x)), (True, lambda x, y: (2 - y, 2 - x)))
_RELABEL = str.maketrans("BR", "RB")


@dataclass(frozen=True)
class Symmetry:
    cells: tuple  # cells[c]: where cell c goes
    swaps_axes: bool
    moves_back: tuple  # moves_back[m]: the move that m is the image of

    def pattern(self, pattern: str) -> str:
        """The image of a pattern (9 letters)."""
        out = [""] * CELLS
        for c, colour in enumerate(pattern):
            out[self.cells[c]] = colour.translate(_RELABEL) if self.swaps_axes else colour
        return "".join(out)

    def state_back(self, state) -> int:
        """The state whose image is ``state``."""
        image = unpack(state)
        orientations = [image[self.cells[c]] for c in range(CELLS)]
        if self.swaps_axes:
            orientations = [o if o == EMPTY else _SWAPPED[o] for o in orientations]
        return pack(orientations)


def _swapped_orientation(code: int) -> int:
    t, x, y = ORIENTATIONS[code].translate(_RELABEL)
    return ORIENTATIONS.index(t + y + x)


_SWAPPED = [_swapped_orientation(o) for o in range(6)]


def _symmetry(swaps: bool, mapping) -> Symmetry:
    cells = tuple(mapping(c % 3, c // 3)[1] * 3 + mapping(c % 3, c // 3)[0] for c in range(CELLS))
    cx, cy = mapping(1, 1)
    image_of = []
    for dx, dy in STEPS:
        x, y = mapping(1 + dx, 1 + dy)
        image_of.append(STEPS.index((x - cx, y - cy)))
    return Symmetry(cells, swaps, tuple(image_of.index(m) for m in range(4)))


SYMMETRIES = tuple(_symmetry(swaps, mapping) for swaps, mapping in _MAPS)
CANONICAL_CELLS = (0, 1, 4)  # corner, edge, centre


def canonical(dataset: Dataset) -> tuple[Symmetry, Dataset]:
    """A symmetry taking the dataset's start to an empty square in ``CANONICAL_CELLS``, and the
    image of the dataset."""
    g = next(g for g in SYMMETRIES if g.cells[dataset.empty] in CANONICAL_CELLS)
    e = g.cells[dataset.empty]
    return g, Dataset(e % 3 + 1, e // 3 + 1, g.pattern(dataset.pattern))
