"""Cells of two-bit tables that do not depend on the puzzle: compiled once for all of them.

``retire_cells`` serves the local search (``vecsearch.engine.twobit.search``), ``record_cells``
a distance table built by it (``vecsearch.engine.tables.distance``); ``claim_next``,
``advance_cells`` and ``frontier_blocks`` the enumeration modulo symmetry
(``vecsearch.engine.twobit.classes``); the rest, a partitioned search
(``vecsearch.engine.twobit.segment_tasks``).

The table is an int64 array of 2-bit cells, rank ``32w + i`` in bits ``[2i, 2i + 2)`` of word
``w``. Cells are ``3`` not reached, ``1`` the frontier (the newest layer), ``0`` reached before
it. The next layer starts as a copy with the frontier turned into ``0`` (``retire_frontier``);
children then turn a ``3`` into ``1`` (``claim_ranks``).
"""

import numpy as np

from vecsearch._numba import kernel
from vecsearch.kernels.intrinsics import atomic_and, popcount
from vecsearch.puzzle import signed64

LOW_BITS = np.int64(0x5555555555555555)
FRONTIER_PATTERN = signed64(2 * 0x5555555555555555)  # selects the cells equal to 1 (see ``rank_space_template``)


@kernel
def retire_cells(table, lo, hi, pattern):
    """Turn the cells of words ``[lo, hi)`` that ``pattern`` selects (``(3 - v) * 0x5555...``:
    the cells equal to ``v``) into ``0``; returns how many there were."""
    count = 0
    for word in range(lo, hi):
        x = table[word] ^ pattern
        cells = x & (x >> 1) & LOW_BITS
        if cells != 0:
            table[word] &= ~(cells * 3)
            count += popcount(cells)
    return count


@kernel
def record_cells(table, lo, hi, pattern, distances, depth):
    """``distances[rank] = depth`` for each cell of words ``[lo, hi)`` that ``pattern`` selects
    (see ``retire_cells``)."""
    for word in range(lo, hi):
        x = table[word] ^ pattern
        cells = x & (x >> 1) & LOW_BITS
        while cells != 0:
            low = cells & -cells
            distances[32 * word + (popcount(low - 1) >> 1)] = depth
            cells ^= low


@kernel
def retire_frontier(old, new, lo, hi):
    """Words ``[lo, hi)`` of ``new`` = those of ``old`` with every frontier cell (``01``) turned
    into ``00`` (a loop: no temporaries, so a range of any size takes no memory but the tables)."""
    for word in range(lo, hi):
        x = old[word]
        new[word] = x & ~(x & LOW_BITS & ~((x >> 1) & LOW_BITS))


@kernel
def claim_ranks(table, ranks):
    """Set the unreached cells among ``ranks`` to the frontier."""
    for i in range(ranks.shape[0]):
        word = ranks[i] >> 5
        shift = (ranks[i] & 31) << 1
        if (table[word] >> shift) & 3 == 3:
            table[word] &= ~(np.int64(2) << shift)


@kernel
def claim_offsets(table, base, offsets):
    """``claim_ranks`` of the ranks ``base + offsets`` (routed children, as offsets in their
    owner's range: half the bytes)."""
    for i in range(offsets.shape[0]):
        rank = base + np.int64(offsets[i])
        word = rank >> 5
        shift = (rank & 31) << 1
        if (table[word] >> shift) & 3 == 3:
            table[word] &= ~(np.int64(2) << shift)


@kernel
def frontier_at(table, base, offsets):
    """Whether each of the ranks ``base + offsets`` is in the frontier (its cell is ``1``)."""
    found = np.empty(offsets.shape[0], np.bool_)
    for i in range(offsets.shape[0]):
        rank = base + np.int64(offsets[i])
        found[i] = (table[rank >> 5] >> ((rank & 31) << 1)) & 3 == 1
    return found


@kernel
def claim_next(table, ranks, lo, hi):
    """Set the unreached cells (``3``) among ``ranks[lo:hi]`` to ``2``, the layer being found
    while ``1`` is the frontier; ranges may run in parallel (an atomic and per claim, after a
    plain look: a cell changes only from ``3`` to ``2`` meanwhile)."""
    for i in range(lo, hi):
        word = ranks[i] >> 5
        shift = (ranks[i] & 31) << 1
        if (table[word] >> shift) & 3 == 3:
            atomic_and(table, word, ~(np.int64(1) << shift))


@kernel
def advance_cells(table, lo, hi):
    """Words ``[lo, hi)``: the frontier's cells (``1``) become ``0``, the layer found (``2``) the
    frontier."""
    for word in range(lo, hi):
        x = table[word]
        low = x & LOW_BITS
        high = (x >> 1) & LOW_BITS
        found = high & ~low
        table[word] = (x & ~((low & ~high) * 3) & ~(found << 1)) | found


@kernel
def frontier_blocks(table, lo, hi, most):
    """Word bounds cutting ``[lo, hi)`` into ranges of at most ``most`` (at least 32) frontier
    cells each: ``bounds[0] == lo``, ``bounds[-1] == hi``."""
    bounds = [lo]
    count = 0
    for word in range(lo, hi):
        x = table[word]
        cells = popcount(x & LOW_BITS & ~((x >> 1) & LOW_BITS))
        if count + cells > most:
            bounds.append(word)
            count = 0
        count += cells
    bounds.append(hi)
    return np.array(bounds, np.int64)


@kernel
def frontier_cells(table, lo, hi, kept):
    """``(count, filled)``: the frontier cells of words ``[lo, hi)``, the first ``filled`` of
    whose ranks are written to ``kept`` (as many as it holds)."""
    count = 0
    filled = 0
    for word in range(lo, hi):
        x = table[word]
        cells = x & LOW_BITS & ~((x >> 1) & LOW_BITS)
        while cells != 0:
            low = cells & -cells
            cells ^= low
            if filled < kept.shape[0]:
                kept[filled] = (word << 5) | (popcount(low - 1) >> 1)
                filled += 1
            count += 1
    return count, filled


@kernel
def _bucket(ranks, segment_ranks, out, starts):
    """Counting sort of ``ranks`` by owner (``rank // segment_ranks``) into ``out``; owner
    ``o``'s ranks end up in ``out[starts[o]:starts[o + 1]]``."""
    starts[:] = 0
    for r in ranks:
        starts[r // segment_ranks + 1] += 1
    for o in range(1, starts.shape[0]):
        starts[o] += starts[o - 1]
    at = starts[:-1].copy()
    for r in ranks:
        o = r // segment_ranks
        out[at[o]] = r
        at[o] += 1


def bucket_by_owner(ranks: np.ndarray, segment_ranks: int, segments: int) -> list[np.ndarray]:
    """``ranks`` split by the segment that owns each (segments of ``segment_ranks`` ranks)."""
    out = np.empty_like(ranks)
    starts = np.empty(segments + 1, np.int64)
    _bucket(ranks, segment_ranks, out, starts)
    return [out[starts[o]:starts[o + 1]] for o in range(segments)]
