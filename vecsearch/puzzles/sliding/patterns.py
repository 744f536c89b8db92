"""Pattern abstractions of the sliding puzzles, and their additive pattern databases.

Conventions:

- A **pattern** is a list of k tiles. Its abstract state holds the cell of each pattern tile in
  order, then the blank's cell, 4 bits each: nibble ``i < k`` is the cell of the i-th tile,
  nibble ``k`` the blank's. The other tiles are not told apart.
- **Moves**: the blank travels u, d, l, r. Moves 0..3 swap it with a pattern tile (cost 1);
  moves 4..7 (same directions) move it into a cell of another tile (cost 0, not counted), so the
  databases of disjoint patterns add up to a lower bound of the real distance.
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
from vecsearch.engine.pdb import UNREACHED, Abstraction, cached_array, enumerate_distances
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.nibbles import pack_nibbles
from vecsearch.kernels.ranking import nth_unused
from vecsearch.puzzle import Puzzle, signed64
from vecsearch.puzzles.sliding.board import move_tables

FREE_MOVES = (4, 5, 6, 7)
_ONES = np.int64(0x1111111111111111)
MAX_EXCESS = 15
CELLS, TILES = 0, 1  # entries of PatternTables.size


class PatternTables(NamedTuple):
    """What the pattern rules read: the blank's moves per cell (``board.move_tables``), the
    ``size`` ``[cells, k]`` (indexed by ``CELLS``, ``TILES``) and the Lehmer ``weights`` of the
    k + 1 cells (``partial_weights``)."""

    targets: np.ndarray
    legal: np.ndarray
    size: np.ndarray
    weights: np.ndarray


@state_function
def pattern_expand(state, tables, children, moves):
    """Branch-free: each direction moves the blank; a pattern tile in the target cell (if any)
    takes the blank's cell, and the move is numbered 0..3 if it did, 4..7 if not."""
    targets = tables.targets
    legal = tables.legal
    k = tables.size[TILES]
    b = (state >> (4 * k)) & 15
    j = 0
    for m in range(4):
        t = targets[b, m]
        child = state ^ ((b ^ t) << (4 * k))
        hit = np.int64(0)
        rest = state
        swap = (t ^ b) * _ONES  # cells are read one nibble at a time (see heuristics.manhattan)
        for i in range(k):
            same = np.int64(rest & 15 == t)
            rest >>= 4
            hit |= same
            child ^= swap & (same * (np.int64(15) << (4 * i)))
        children[j] = child
        moves[j] = m + 4 * (1 - hit)
        j += legal[b, m]
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
    """The abstraction of the R x C puzzle that tells apart ``k`` pattern tiles and the blank."""

    def __init__(self, rows: int, cols: int, k: int):
        cells = rows * cols
        weights = partial_weights(cells, k + 1)
        size = int(weights[0]) * cells
        tables = PatternTables(*move_tables(rows, cols), np.array([cells, k], np.int64), weights)
        super().__init__(f"sliding-{rows}x{cols}-pattern-{k}", expand=pattern_expand, max_moves=8, tables=tables,
                         rank=pattern_rank, rank_size=size)
        self.rows, self.cols, self.cells, self.k = rows, cols, cells, k

    @property
    def kernel_label(self) -> str:
        return "sliding_pattern"

    def abstract_state(self, cells_of_tiles, blank_cell: int) -> int:
        value = sum(c << (4 * i) for i, c in enumerate(cells_of_tiles)) | blank_cell << (4 * self.k)
        return signed64(value)


@kernel
def pattern_manhattan(entries, cells, cols, homes, weights):
    """Manhattan distance of the pattern tiles (home cells ``homes``) for every entry."""
    k = homes.shape[0]
    out = np.empty(entries, np.int64)
    for index in range(entries):
        rest = index
        seen = np.int64(0)
        total = 0
        for i in range(k):
            digit = rest // weights[i]
            rest -= digit * weights[i]
            cell = nth_unused(digit, seen, cells)
            seen |= np.int64(1) << cell
            total += abs(cell // cols - homes[i] // cols) + abs(cell % cols - homes[i] % cols)
        out[index] = total
    return out


def database_name(rows: int, cols: int, homes, blank_home: int) -> str:
    return f"sliding-{rows}x{cols}-cells-{'.'.join(map(str, homes))}-blank-{blank_home}"


def pattern_database(rows: int, cols: int, homes, blank_home: int, *, directory=None, on_layer=None):
    """The nibble-packed database of the pattern whose tiles belong at cells ``homes`` (in the
    pattern's tile order) when the blank belongs at ``blank_home``; built once, then loaded.

    Returns ``(packed, facts, seconds, built)`` as ``vecsearch.engine.pdb.cached_array``.
    """
    homes = tuple(int(c) for c in homes)

    def build():
        space = PatternSpace(rows, cols, len(homes))
        goal = np.array([space.abstract_state(homes, blank_home)], dtype=np.int64)
        abstraction = Abstraction(space, goal, FREE_MOVES, group=space.cells - space.k)
        entries, profile = enumerate_distances(abstraction, on_layer=on_layer)
        weights = partial_weights(space.cells, space.k + 1)[:-1] // (space.cells - space.k)
        base = pattern_manhattan(len(entries), space.cells, cols, np.array(homes, np.int64), weights)
        reached = entries != UNREACHED
        excess = entries.astype(np.int64) - base
        if np.any(excess[reached] < 0) or np.any(excess[reached] % 2):
            raise AssertionError("pattern distances below or of another parity than their Manhattan distance")
        halves = np.where(reached, np.minimum(excess // 2, MAX_EXCESS), MAX_EXCESS)
        facts = {
            "entries": len(entries), "abstract_states": profile.total_states, "max_distance": int(entries[reached].max()),
            "max_excess": int(excess[reached].max()), "saturated": int(np.count_nonzero(excess[reached] > 2 * MAX_EXCESS)),
            "unreached": int(np.count_nonzero(~reached)), "build_seconds": round(profile.seconds, 3),
        }
        return pack_nibbles(halves), facts

    return cached_array(database_name(rows, cols, homes, blank_home), build, directory)
