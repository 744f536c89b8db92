"""Pattern abstractions of the sliding puzzles, and their additive pattern databases.

Conventions:

- A **pattern** is a list of k tiles. Its abstract state holds the cell of each pattern tile in
  order, then a cell of the blank's **region**, 4 bits each: nibble ``i < k`` is the cell of the
  i-th tile, nibble ``k`` the lowest cell of the region. The other tiles are not told apart: the
  blank moves through them for free, so it may be anywhere in the region, the cells outside the
  pattern connected to it. The abstraction keeps the region, not the blank's cell: one state per
  (placement of the tiles, region), all its moves cost 1 and a plain breadth-first search gives
  the distances (the 0-1 search over blank cells it replaces would take 4.15 G states for an
  8-tile pattern of the 4x4, with many rounds of free moves per layer; there are 1.43 G
  (placement, region) states; a 6-tile database: 57.7 M states in 12.2 s before, 11.8 M in
  1.4 s now, the same entries).
- **Moves**: ``4 i + m`` moves tile ``i`` into a cell of the region (``m``: the direction the
  blank travels, u, d, l, r, as in ``board``); the tile's old cell joins the new region.
  Distances are counted in pattern-tile moves only, so the databases of disjoint patterns add
  up to a lower bound of the real distance.
- **Rank**: the Lehmer rank of the k+1 distinct cells, digit ``d_i`` = cell_i minus the earlier
  cells below it, weight ``(N-1-i)! / (N-1-k)!``; ``rank_size = N! / (N-k-1)!``. The blank's digit
  has weight 1 and N-k values, so ``rank // (N-k)`` ranks the tile cells alone: the **entry**.
- **Entry value** (4 bits): ``(d - m) / 2``, where ``d`` is the least number of pattern-tile moves
  that bring the pattern home (blank anywhere) and ``m`` the pattern tiles' Manhattan distance.
  Each pattern-tile move changes ``m`` by exactly one, so ``d - m`` is even and never negative;
  values above 15 are stored as 15, which keeps the bound admissible.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import kernel, state_function
from vecsearch.contract import Rank, Rules
from vecsearch.engine import UNREACHED, Abstraction, cached_array, enumerate_distances, layer_progress, map_blocks
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import nth_unused
from vecsearch.puzzle import Puzzle, signed64
from vecsearch.puzzles.sliding.board import move_tables

MAX_EXCESS = 15
MAX_PATTERN = 8  # tiles per pattern (an 8-tile 4x4 database has 519 million entries)
CELLS, TILES = 0, 1  # entries of PatternTables.size
BOARD, NOT_FIRST, NOT_LAST = 0, 1, 2  # entries of PatternTables.masks


class PatternTables(NamedTuple):
    """What the pattern rules read: the blank's moves per cell (``board.move_tables``), the
    ``size`` ``[cells, k]`` (indexed by ``CELLS``, ``TILES``), the Lehmer
    ``weights`` of the k + 1 cells (``partial_weights``), cell ``masks``: the board, the board
    without its first column, without its last (indexed by ``BOARD`` .. ``NOT_LAST``), and
    ``regions[16 * free + cell]``: the cells of the mask ``free`` connected to ``cell`` in it
    (``region_table``: one lookup instead of a flood fill per child, 30% faster builds)."""

    targets: np.ndarray
    legal: np.ndarray
    size: np.ndarray
    weights: np.ndarray
    masks: np.ndarray
    regions: np.ndarray


@state_function
def region_of(seed, free, masks, cols):
    """The cells of ``free`` (a mask) connected to the cells ``seed`` (a mask within it)."""
    region = seed
    while True:
        grown = (region | ((region << 1) & masks[NOT_FIRST]) | ((region >> 1) & masks[NOT_LAST]) | (region << cols)
                 | (region >> cols)) & free
        if grown == region:
            return region
        region = grown


@kernel
def region_table(cells, masks, cols):
    """``PatternTables.regions`` of a board of ``cells`` cells."""
    out = np.zeros((1 << cells) * 16, np.uint16)
    for free in range(1 << cells):
        for cell in range(cells):
            if (free >> cell) & 1:
                out[free * 16 + cell] = region_of(np.int64(1) << cell, np.int64(free), masks, cols)
    return out


@state_function
def lowest_cell(mask):
    return popcount((mask & -mask) - 1)


@state_function
def region_expand(state, tables, children, moves):
    """Every pattern tile next to the blank's region moves into it; the child's region is the
    one around the tile's old cell."""
    targets = tables.targets
    legal = tables.legal
    masks = tables.masks
    regions = tables.regions
    k = tables.size[TILES]
    occupied = np.int64(0)
    owner = np.int64(0)
    rest = state
    for i in range(k):
        cell = rest & 15
        rest >>= 4
        occupied |= np.int64(1) << cell
        owner |= np.int64(i) << (4 * cell)
    free = masks[BOARD] & ~occupied
    region = np.int64(regions[16 * free + (rest & 15)])
    blank_field = np.int64(15) << (4 * k)
    j = 0
    left = region
    while left:
        low = left & -left
        left ^= low
        empty = lowest_cell(low)
        for m in range(4):
            t = targets[empty, m]
            if legal[empty, m] and (occupied >> t) & 1:
                i = (owner >> (4 * t)) & 15
                after = np.int64(regions[16 * ((free ^ low) | (np.int64(1) << t)) + t])
                child = state ^ ((t ^ empty) << (4 * i))
                children[j] = (child & ~blank_field) | (lowest_cell(after) << (4 * k))
                moves[j] = 4 * i + m
                j += 1
    return j


@state_function
def pattern_rank(state, tables):
    k = tables.size[TILES]
    weights = tables.weights
    seen = np.int64(0)
    rank = np.int64(0)
    rest = state
    for i in range(k + 1):
        cell = rest & 15
        rest >>= 4
        rank += (cell - popcount(seen & ((np.int64(1) << cell) - 1))) * weights[i]
        seen |= np.int64(1) << cell
    return rank


def partial_weights(cells: int, count: int) -> np.ndarray:
    """Lehmer weights of ``count`` distinct cells out of ``cells``: ``(cells-1-i)! / (cells-count)!``."""
    weights = np.ones(count, dtype=np.int64)
    for i in range(count - 2, -1, -1):
        weights[i] = weights[i + 1] * (cells - 1 - i)
    return weights


class PatternSpace(Puzzle):
    """The abstraction of the R x C puzzle that tells apart ``k`` pattern tiles and the blank's
    region."""

    def __init__(self, rows: int, cols: int, k: int):
        cells = rows * cols
        weights = partial_weights(cells, k + 1)
        size = int(weights[0]) * cells
        board = (1 << cells) - 1
        first = sum(1 << (r * cols) for r in range(rows))
        masks = np.array([board, board & ~first, board & ~(first << (cols - 1))], np.int64)
        tables = PatternTables(*move_tables(rows, cols), np.array([cells, k], np.int64), weights, masks,
                               region_table(cells, masks, cols))
        super().__init__(f"sliding-{rows}x{cols}-pattern-{k}", Rules(region_expand), 4 * k,
                         rank=Rank(pattern_rank, size), tables=tables)
        self.rows, self.cols, self.cells, self.k = rows, cols, cells, k

    @property
    def kernel_label(self) -> str:
        return "sliding_pattern"

    @property
    def move_capacity(self) -> int:
        return 4 * MAX_PATTERN  # one compiled module for every pattern size

    def abstract_state(self, cells_of_tiles, blank_cell: int) -> int:
        """The state of the tiles at ``cells_of_tiles`` with the blank at ``blank_cell``."""
        occupied = sum(1 << c for c in cells_of_tiles)
        region, grown = 0, 1 << blank_cell
        while grown != region:
            region = grown
            grown |= sum(1 << int(self.tables.targets[c, m]) for c in range(self.cells) if region >> c & 1
                         for m in range(4))
            grown &= ~occupied
        lowest = (region & -region).bit_length() - 1
        return signed64(sum(c << (4 * i) for i, c in enumerate(cells_of_tiles)) | lowest << (4 * self.k))


@state_function
def first_free(seen, start):
    """The least cell from ``start`` on that is not in the mask ``seen``."""
    cell = start
    while (seen >> cell) & 1:
        cell += 1
    return cell


@kernel
def excess_range(entries, lo, hi, cells, cols, homes, weights, out, facts):
    """Pack the halved excess over the Manhattan distance of the entries ``2 lo .. 2 hi`` into the
    bytes ``out[lo:hi]`` (``MAX_EXCESS`` where unreached or above); ``facts``: the largest
    distance, the largest excess, how many saturated, unreached, and below or of another parity
    than their Manhattan distance (none, if the search is right).

    The tiles' cells are unranked once, then advanced like an odometer in entry order (the last
    tile's cell moves to the next free cell; a carry resets the cells after it), with the
    Manhattan distance of every prefix of the tiles kept."""
    k = homes.shape[0]
    md = np.empty((k, cells), np.int64)
    for i in range(k):
        for c in range(cells):
            md[i, c] = abs(c // cols - homes[i] // cols) + abs(c % cols - homes[i] % cols)
    cell = np.empty(k, np.int64)
    digit = np.empty(k, np.int64)
    partial = np.zeros(k + 1, np.int64)
    rest = 2 * lo
    seen = np.int64(0)
    for i in range(k):
        digit[i] = rest // weights[i]
        rest -= digit[i] * weights[i]
        cell[i] = nth_unused(digit[i], seen, cells)
        seen |= np.int64(1) << cell[i]
        partial[i + 1] = partial[i] + md[i, cell[i]]
    for index in range(2 * lo, 2 * hi):
        value = MAX_EXCESS
        if index < entries.shape[0] and entries[index] == UNREACHED:
            facts[3] += 1
        elif index < entries.shape[0]:
            distance = np.int64(entries[index])
            excess = distance - partial[k]
            facts[0] = max(facts[0], distance)
            facts[1] = max(facts[1], excess)
            facts[2] += excess > 2 * MAX_EXCESS
            facts[4] += excess < 0 or excess % 2 != 0
            value = min(excess // 2, MAX_EXCESS)
        if index & 1:
            out[index >> 1] |= value << 4
        else:
            out[index >> 1] = value
        i = k - 1  # the next entry: the odometer advances
        while i >= 0:
            seen ^= np.int64(1) << cell[i]
            digit[i] += 1
            if digit[i] < cells - i:
                cell[i] = first_free(seen, cell[i] + 1)
                seen |= np.int64(1) << cell[i]
                partial[i + 1] = partial[i] + md[i, cell[i]]
                break
            digit[i] = 0
            i -= 1
        for j in range(i + 1, k):  # after a carry: the least free cells
            cell[j] = first_free(seen, 0)
            seen |= np.int64(1) << cell[j]
            partial[j + 1] = partial[j] + md[j, cell[j]]


def packed_excess(entries: np.ndarray, cells: int, cols: int, homes) -> tuple[np.ndarray, dict]:
    """The nibble-packed database of the distances ``entries`` of the pattern at ``homes``, on
    several threads, and facts about it."""
    k = len(homes)
    weights = partial_weights(cells, k + 1)[:-1] // (cells - k)
    out = np.empty((len(entries) + 1) // 2, np.uint8)
    fixed = (cells, cols, np.array(homes, np.int64), weights, out)
    parts = map_blocks(lambda lo, hi: _excess_block(entries, lo, hi, fixed), len(out), 1 << 20)
    largest, most, saturated, unreached, wrong = np.array(parts).T
    if wrong.sum():
        raise AssertionError("pattern distances below or of another parity than their Manhattan distance")
    return out, {"entries": len(entries), "max_distance": int(largest.max()), "max_excess": int(most.max()),
                 "saturated": int(saturated.sum()), "unreached": int(unreached.sum())}


def _excess_block(entries, lo, hi, fixed):
    facts = np.zeros(5, np.int64)
    excess_range(entries, lo, hi, *fixed, facts)
    return facts


def database_name(rows: int, cols: int, homes, blank_home: int) -> str:
    return f"sliding-{rows}x{cols}-cells-{'.'.join(map(str, homes))}-blank-{blank_home}"


def pattern_database(rows: int, cols: int, homes, blank_home: int, *, directory=None, on_layer=None, max_memory=None,
                     progress=False):
    """The nibble-packed database of the pattern whose tiles belong at cells ``homes`` (in the
    pattern's tile order) when the blank belongs at ``blank_home``; built once (under
    ``max_memory``; with a progress bar if ``progress``), then loaded.

    Returns ``(packed, facts, seconds, built)`` as ``vecsearch.engine.cached_array``.
    """
    homes = tuple(int(c) for c in homes)
    name = database_name(rows, cols, homes, blank_home)

    def build():
        space = PatternSpace(rows, cols, len(homes))
        goal = np.array([space.abstract_state(homes, blank_home)], dtype=np.int64)
        abstraction = Abstraction(space, goal, group=space.cells - space.k)
        with layer_progress(progress, on_layer, f"pattern database {len(homes)} tiles") as callback:
            entries, profile = enumerate_distances(abstraction, on_layer=callback, max_memory=max_memory)
        packed, facts = packed_excess(entries, space.cells, cols, homes)
        del entries
        facts.update(abstract_states=profile.total_states, build_seconds=round(profile.seconds, 3))
        return packed, facts

    return cached_array(name, build, directory)
