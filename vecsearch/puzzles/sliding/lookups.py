"""The additive pattern-database heuristic of the sliding puzzles, evaluated whole or updated.

``additive_pdb(state, tables)``: the Manhattan distance plus twice the larger of two sums of
stored excess (the patterns as they are, and looked up on the board mirrored about its
diagonal, when ``tables.size[MIRRORED]``). Tables: ``PatternDatabaseTables`` (made by
``heuristics.pdb_tables``).

``additive_pdb_update(parent, info, child, tables)``: the same bound for ``child``, a child of
``parent`` whose ``info`` it was given, and the child's ``info`` (the role
``heuristic_update_state`` of ``vecsearch.kernels.roles``). A move changes one tile's cell, so
only that tile's Manhattan term and the entry of the one pattern holding it (one in each
orientation) are looked up again: the other entries come from ``info``, which packs the
Manhattan distance (bits 0..15) and each pattern's entry, as it is (bits ``16 + 4p``) and
mirrored (bits ``32 + 4p``). ``info < 0`` (a root) or more than ``TRACKED`` patterns: computed
whole.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.nibbles import nibble
from vecsearch.puzzles.sliding.rules import cell_of

CELLS, ROWS, COLS, MIRRORED = 0, 1, 2, 3  # entries of the tables' ``size``
MIRROR_CELLS, MIRROR_TILES, TURN, UNMIRROR_TILES, PATTERN_OF = 0, 1, 2, 3, 4  # rows of ``maps``
NO_PATTERN = 15
TRACKED = 4  # patterns whose entries fit in ``info``
MD_MASK = (1 << 16) - 1


class PatternDatabaseTables(NamedTuple):
    """The goal's Manhattan table ``md[tile, cell]``, ``home[tile]`` and ``size`` (``[cells,
    rows, cols, mirrored]``, indexed by ``CELLS`` .. ``MIRRORED``); the patterns: their tiles,
    sizes, Lehmer weights, offsets into the nibble-``packed`` databases (one file per partition
    beside the patterns' own, memory-mapped: loading copies nothing), and ``maps``: rows
    ``MIRROR_CELLS``, ``MIRROR_TILES`` (the mirror's cell and tile maps), ``TURN`` (the board
    symmetry that brings the goal's patterns to their canonical cells), ``UNMIRROR_TILES`` (the
    inverse tile map) and ``PATTERN_OF`` (each tile's pattern, ``NO_PATTERN`` if none)."""

    md: np.ndarray
    home: np.ndarray
    size: np.ndarray
    patterns: np.ndarray
    sizes: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray
    packed: np.ndarray
    maps: np.ndarray


@state_function
def pattern_excess(where, tables):
    """Sum over the patterns of their stored excess; ``where`` holds each tile's cell (tile t in
    bits 4t..4t+3)."""
    patterns = tables.patterns
    sizes = tables.sizes
    weights = tables.weights
    offsets = tables.offsets
    packed = tables.packed
    total = np.int64(0)
    for p in range(patterns.shape[0]):
        seen = np.int64(0)
        index = np.int64(0)
        for i in range(sizes[p]):
            cell = (where >> (4 * patterns[p, i])) & 15
            index += (cell - popcount(seen & ((np.int64(1) << cell) - 1))) * weights[p, i]
            seen |= np.int64(1) << cell
        total += nibble(packed, offsets[p] + index)
    return total


@state_function
def additive_pdb(state, tables):
    md = tables.md
    cells = tables.size[CELLS]
    maps = tables.maps
    where = np.int64(0)
    h = np.int64(0)
    rest = state
    for c in range(cells):
        tile = rest & 15
        rest >>= 4
        where |= maps[TURN, c] << (4 * tile)
        h += md[tile, c]
    excess = pattern_excess(where, tables)
    if tables.size[MIRRORED]:
        mirrored = np.int64(0)
        rest = where
        for tile in range(1, cells):
            rest >>= 4
            mirrored |= maps[MIRROR_CELLS, rest & 15] << (4 * maps[MIRROR_TILES, tile])
        excess = max(excess, pattern_excess(mirrored, tables))
    return h + 2 * excess


@state_function
def pattern_entry(state, p, mirror, tables):
    """The stored excess of pattern ``p`` in ``state`` (on the mirrored board if ``mirror``),
    its tiles' cells found in the packed state directly."""
    maps = tables.maps
    weights = tables.weights
    seen = np.int64(0)
    index = np.int64(0)
    for i in range(tables.sizes[p]):
        tile = tables.patterns[p, i]
        if mirror:
            tile = maps[UNMIRROR_TILES, tile]
        cell = maps[TURN, cell_of(state, tile)]
        if mirror:
            cell = maps[MIRROR_CELLS, cell]
        index += (cell - popcount(seen & ((np.int64(1) << cell) - 1))) * weights[p, i]
        seen |= np.int64(1) << cell
    return nibble(tables.packed, tables.offsets[p] + index)


@state_function
def bound_of(info, tables):
    """The bound that ``info`` describes."""
    regular = np.int64(0)
    mirrored = np.int64(0)
    for p in range(tables.patterns.shape[0]):
        regular += (info >> (16 + 4 * p)) & 15
        mirrored += (info >> (32 + 4 * p)) & 15
    return (info & MD_MASK) + 2 * max(regular, mirrored)


@state_function
def additive_pdb_update(parent, info, child, tables):
    count = tables.patterns.shape[0]
    if count > TRACKED:
        return additive_pdb(child, tables), np.int64(0)
    mirror = tables.size[MIRRORED]
    if info < 0:
        md = np.int64(0)
        rest = child
        for c in range(tables.size[CELLS]):
            md += tables.md[rest & 15, c]
            rest >>= 4
        info = md
        for p in range(count):
            info |= pattern_entry(child, p, False, tables) << (16 + 4 * p)
            if mirror:
                info |= pattern_entry(child, p, True, tables) << (32 + 4 * p)
        return bound_of(info, tables), info
    came = cell_of(parent, 0)  # the moved tile's new cell: the blank's old one
    left = cell_of(child, 0)
    tile = (child >> (4 * came)) & 15
    info += tables.md[tile, came] - tables.md[tile, left]
    p = tables.maps[PATTERN_OF, tile]
    if p != NO_PATTERN:
        shift = 16 + 4 * p
        info = (info & ~(np.int64(15) << shift)) | (pattern_entry(child, p, False, tables) << shift)
    if mirror:
        q = tables.maps[PATTERN_OF, tables.maps[MIRROR_TILES, tile]]
        if q != NO_PATTERN:
            shift = 32 + 4 * q
            info = (info & ~(np.int64(15) << shift)) | (pattern_entry(child, q, True, tables) << shift)
    return bound_of(info, tables), info
