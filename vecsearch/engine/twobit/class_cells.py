"""Two-bit tables of classes: a cell per rank, marked only at the canonical representatives of
classes under a symmetry group (what ``symmetry.canonical_ranks`` says: the least rank among a
state's conjugates), for the two-bit enumeration modulo symmetry, in one process
(``vecsearch.engine.twobit.classes``) or partitioned (``vecsearch.engine.twobit.segment_tasks``).

The cells mean what they mean in a partitioned table (``segment_cells``: ``1`` the frontier,
``0`` reached before, ``3`` not reached); a rank that is not canonical stays ``3``. A layer
expands its frontier's representatives block by block (``frontier_blocks``: at most
``BLOCK_CELLS`` frontier cells a block, so their children fit one buffer), keeps the children
not marked (``frontier_children_range``, with no range of its own: every such child is written
out), and brings each to its canonical rank; those are the classes the layer may reach. A
layer's counts are read from its cells (``count_layer``): its classes are its frontier cells,
its positions the sum of the group's order over each representative's stabiliser.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vecsearch.engine.twobit.segment_cells import FRONTIER_PATTERN, frontier_blocks, frontier_cells

BLOCK_CELLS = 1 << 14  # frontier cells a block holds at most (conjugated without lookups: order x 8 bytes a child)


@dataclass
class LayerCount:
    """A layer's classes, positions, and the least ``keep`` of its representatives (sorted)."""

    classes: int = 0
    positions: int = 0
    kept: list = field(default_factory=list)
    bounds: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))  # its frontier blocks' word bounds

    def representatives(self) -> np.ndarray:
        return np.concatenate(self.kept) if self.kept else np.empty(0, np.int64)


def frontier_bounds(table, lo: int, hi: int) -> np.ndarray:
    """Word bounds cutting ``[lo, hi)`` into blocks of at most ``BLOCK_CELLS`` frontier cells."""
    return frontier_blocks(table, lo, hi, BLOCK_CELLS)


def count_layer(table, lo: int, hi: int, symmetry, component: int, keep: int) -> LayerCount:
    """The counts of the frontier cells of words ``[lo, hi)`` (``LayerCount``), and the bounds of
    their blocks (to expand them next)."""
    count = LayerCount(bounds=frontier_bounds(table, lo, hi))
    buffer = np.empty(BLOCK_CELLS, np.int64)
    kept = 0
    for a, b in zip(count.bounds[:-1], count.bounds[1:], strict=True):
        cells, _ = frontier_cells(table, a, b, buffer)
        if not cells:
            continue
        ranks = buffer[:cells]
        _, fixing = symmetry.canonical_ranks(ranks, component)
        count.classes += int(cells)
        count.positions += int((symmetry.order // fixing).sum())
        if kept < keep:
            count.kept.append(ranks[:keep - kept].copy())
            kept += len(count.kept[-1])
    return count


def frontier_children(expand, old, new, a: int, b: int, last_mask: int, component: int, tables,
                      max_children: int) -> np.ndarray:
    """The children of the frontier cells of words ``[a, b)`` of ``old`` (a block: at most
    ``BLOCK_CELLS`` of them) that ``old`` does not mark (``expand``: the family's
    ``frontier_children_range``; ``new`` is not written)."""
    out = np.empty(BLOCK_CELLS * max_children, np.int64)
    _, _, written = expand(old, new, a, b, FRONTIER_PATTERN, last_mask, component, tables, False, 0, 0, out, old,
                           True)
    return out[:written]
