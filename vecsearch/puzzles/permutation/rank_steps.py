"""Moves in rank space for one-orbit puzzles in the pieces representation (pancakes, TopSpin, LRX).

The two-bit search asks for the ranks of a rank's children. The orbit's slots are packed in rank
order (``layout.slot_order``), so a move that changes only the positions ``>= a`` changes only
the last ``k = n - a`` Lehmer digits: with ``full`` the Lehmer rank (before halving), the child's
``full`` is the parent's with ``full mod k!`` (the *remainder*: the order of the last ``k``
pieces among themselves) replaced by the remainder after the move. Its children lie within
``k!`` ranks of a parent, so a pancake's small flips land in cache lines the search just read.

- **Tabled moves** (the moves with the smallest ``k`` while ``TABLE_ENTRIES`` allow):
  ``step_values[step_at[row] + x]`` is the remainder after the move of a remainder ``x``: one
  lookup per child, nothing unranked. The smallest of them (``k <= span``, while ``span!`` times
  their number stays within their own budget) are read together: row ``full mod span!`` of
  ``step_deltas`` holds each one's change of ``full``, side by side.
- **Computed moves**: the parent's pieces are unranked once (its Lehmer digits a few at a time,
  ``ranking.chunked_digits``), and the new remainder is ranked from the moved pieces: ``O(k)``.
  A move that reverses the positions ``>= a`` (a pancake's flip) needs no ranking: the moved
  piece's digit is how many of the pieces it now follows are smaller, which the parent's digits
  give at once. The computed reversals from the first ``SUMMED`` positions (a pancake's largest
  flips) are summed together, in one pass over the positions (``reversal_sums``): pancake-13's
  flips of 11, 12 and 13 in one loop, not three (its 12 children in 47 ns a state, not 64, with
  the digits below; pancake-13 enumerated in 169-180 s, not 200-210).
- **Orientations** (at most 16): the base-k digits of the positions ``>= a`` are rewritten likewise.
- **Memory**: the kernels hand each thread's calls one ``memory`` (``contract.RANK_MEMORY``
  words), and a thread steps ranks in increasing order, so a rank usually shares its first
  Lehmer digits with the one before. The digits above the first chunk are found again only when
  they change (``ranking.remembered_digits``), the pieces are taken again only from the first
  position whose digit changed (``ranking.remembered_take``), and the summed reversals keep their
  partial sums per position (a slot of ``SUM_WORDS`` per half), adding again only the terms of
  the changed positions. Over consecutive ranks (CPU time, on a busy machine):
  pancake-12 55 ns a state, not 65; pancake-13 67, not 84.

Tables ``RankStepTables``: the ``PiecesTables`` and the table rows (the moves, then the inverse
moves if the puzzle needs them), each half by increasing ``k`` (the tabled rows first):
``step_rows`` (the row of each), ``step_first`` (``a``), ``step_at`` (offset in ``step_values``, or
-1: computed), ``step_source`` (the position each position takes its piece from) and
``step_twist``; ``step_reversal`` (1: the move reverses the positions ``>= a``, turning none);
``step_tabled``: tabled rows per half; ``step_deltas`` (``span!``, columns) and
``step_together`` (per half: its first column and how many rows; ``[2]``: ``span``);
``step_powers``: powers of the orientation count; ``step_chunk_size`` and ``step_chunk_digits``:
``ranking.digit_chunks`` of a Lehmer rank of ``n`` pieces; ``step_summed``: 1 for each computed
reversal from a position ``a < SUMMED`` that ``reversal_sums`` sums (the others, or all when a
memory has no room, are computed as any move); ``step_sums``, per half: which ``a`` it sums, a
bit each (in the memory's slot ``SLOTS + half * SUM_WORDS``).
"""

import math
from typing import NamedTuple

import numpy as np

from vecsearch._numba import kernel, state_function
from vecsearch.contract import RANK_MEMORY
from vecsearch.kernels.intrinsics import popcount, prefetch
from vecsearch.kernels.ranking import (
    MAX_PACKED,
    NIBBLE_LOW_BITS,
    REMEMBERED_TAKE,
    digit_chunks,
    remembered_digits,
    remembered_take,
)
from vecsearch.puzzles.permutation.rules import PIECE_MOVES, PiecesTables

TABLE_ENTRIES = 1 << 22  # remainders tabled (int32, 16 MiB): pancake-N, flips of up to 10. Built when a puzzle is
# made, also for a one-line solve: pancake-13's flip of 11 (160 MiB, 1.5 s) stays computed
# The changes read together (int32): pancake-N, flips of up to 8 (1.1 MiB, about a core's L2). Those of up to 9
# (11 MiB) enumerated pancake-12 12% slower (14.9 s against 13.1 s), pancake-13 3-6% slower (210 s against
# 203, 235 against 220: most in the pull of its layer 13); those of up to 7, 4% slower.
DELTA_ENTRIES = 1 << 19
# A thread's consecutive ranks read a tabled move's remainders in increasing order: each read prefetches the
# remainder VALUES_AHEAD further on (pancake-12 13.0-13.2 s -> 12.7 s, pancake-13 213 s -> 198 s in process; 256
# ahead as good, 1024 less; prefetching the rows of the changes read together too was slower)
VALUES_AHEAD = 64
# What a memory (see the module) holds, by word: the last rank's digits above the first chunk
# (``ranking.remembered_digits``), the pieces last unranked (``ranking.remembered_take``), then a slot per half
# for its summed reversals (``reversal_sums``: a word of digits, then SUMMED sums before each position and in all).
HIGH, PIECES = 0, 2
SLOTS = PIECES + REMEMBERED_TAKE
# The computed reversals summed together: those from the first SUMMED positions, each at the index of its first
# position, a constant count so that the pass's loop over them unrolls (a pancake-13 state's children: 51 ns,
# summed reversal by reversal 64, over as many sums as it has 62), in the slot of its half, whose place is a
# constant too (read from the tables: 59 ns, each index checked for wrapping). Four: every computed flip of a
# stack of up to 14 pancakes (those of 11 and more), whose two-bit table fits a machine; a stack of 15 or 16
# computes its flips from positions 4 and 5 one by one. Six sums took a pancake-13 state's children 62-64 ns
# against 59-60 (one thread, 1 in 4 ranks), pancake-12's two-bit search 13.2 s against 12.95 s (medians of 3)
SUMMED = 4
SUM_WORDS = 1 + (MAX_PACKED + 1) * SUMMED

# The pieces tables, then how a move steps a single orbit's rank (built by ``step_tables``).
RankStepTables = NamedTuple("RankStepTables", [*PiecesTables.__annotations__.items(),
                                               *((name, np.ndarray) for name in (
                                                   "step_rows", "step_first", "step_at", "step_source",
                                                   "step_twist", "step_reversal", "step_values", "step_tabled",
                                                   "step_deltas", "step_together", "step_powers",
                                                   "step_chunk_size", "step_chunk_digits", "step_summed",
                                                   "step_sums"))])


@state_function
def moved_remainder(pieces, source, a, n, factorials):
    """The Lehmer rank of the positions ``a..n-1`` after a move whose position ``i`` takes the
    piece of position ``source[i]``, from the parent's ``pieces`` (4 bits each, position ``i`` at
    bits ``4i``)."""
    seen = np.int64(0)
    low = np.int64(0)
    for i in range(n - 1, a - 1, -1):
        v = (pieces >> (4 * source[i])) & 15
        low += popcount(seen & ((np.int64(1) << v) - 1)) * factorials[n - 1 - i]
        seen |= np.int64(1) << v
    return low


@state_function
def reversal_sums(pieces, digits, n, factorials, memory, slot, summed):
    """The remainders after the reversals of the positions ``a..n-1`` for each ``a < SUMMED``
    whose bit is set in ``summed``, into ``memory`` from ``slot`` on (the one of ``a`` at ``slot + 1
    + SUMMED * n + a``), unless the slot holds those of ``digits`` already. Such a reversal puts
    position ``q``'s piece ``p`` where it follows the pieces of ``a..q-1``, of which as many are
    smaller as the pieces before ``q`` (``p`` less the parent's Lehmer digit ``q``) less those
    before ``a``: one pass over the positions adds each reversal's term, keeping the sums before
    each position, so that only the positions from the first whose digit changed since the slot's
    rank are added again."""
    start = 0
    if memory[slot] >= 0:
        changed = digits ^ memory[slot]
        if changed == 0:
            return
        start = popcount((changed & -changed) - 1) >> 2
    partial = slot + 1  # the sums before position q: SUMMED words from partial + SUMMED * q
    if start == 0:
        for a in range(SUMMED):
            memory[partial + a] = 0
    for q in range(start, n):
        p = (pieces >> (4 * q)) & 15
        below = (np.int64(1) << p) - 1
        smaller = p - ((digits >> (4 * q)) & 15)  # the smaller pieces before q
        at = partial + SUMMED * q
        before = np.int64(0)  # the pieces before a, a bit each
        for a in range(SUMMED):
            low = memory[at + a]
            if (summed >> a) & 1 and q >= a:
                low += (smaller - popcount(before & below)) * factorials[q - a]
            memory[at + SUMMED + a] = low
            before |= np.int64(1) << ((pieces >> (4 * a)) & 15)
    memory[slot] = digits


@state_function
def single_orbit_step(rank, component, tables, ranks, first, near, memory):
    """The ranks after the rows ``first ..`` (the moves, or the inverse moves) from ``rank``: all
    of them, in move order, or (``near``) only the tabled rows', packed; returns how many.
    ``memory`` (see the module) keeps the unranking of the ranks stepped before. The indices made
    of what the tables hold are cast unsigned (they are never negative): numba then leaves out
    the fix-up of a negative index (pancake-13's children: 50 -> 45 ns a state)."""
    orbit = tables.orbits[0]
    factorials = tables.factorials
    n = orbit[1]
    k = orbit[2]
    half = orbit[5]
    kept = n - orbit[6] if k > 1 else 0  # positions whose orientation is a digit of the rank
    weight = orbit[3]  # of the permutation coordinate: the size of the orientation coordinate
    x = rank
    twists = np.int64(0)
    orientation = np.int64(0)
    if k > 1:
        x = rank // weight
        orientation = rank - x * weight
        rest = orientation
        total = np.int64(0)
        for i in range(kept - 1, -1, -1):
            o = rest % k
            rest //= k
            total += o
            twists |= o << (4 * i)
        if kept < n:
            twists |= ((((component >> orbit[8]) & orbit[10]) - total) % k + k) % k << (4 * (n - 1))
    full = x << half
    digits = remembered_digits(full, tables.step_chunk_size, tables.step_chunk_digits, memory, HIGH)
    if half == 1:  # the dropped digit (weight 1) restores the orbit's parity
        d = ((component >> orbit[7]) - popcount(digits & NIBBLE_LOW_BITS)) & 1
        full += d
        digits |= d << (4 * (n - 2))
    pieces = np.int64(-1)  # unranked at the first computed row
    position = n  # the remainder of the positions >= position so far
    remainder = np.int64(0)
    h = 0 if first == 0 else 1
    count = tables.step_tabled[h] if near else tables.scalars[PIECE_MOVES]
    together = tables.step_together[2 * h + 1]
    if together:  # the smallest moves' changes, side by side
        block = factorials[tables.step_together[4]]
        if block == tables.step_chunk_size[0] and half == 0:  # the first digit chunk: what remembered_digits left
            remainder = full - memory[HIGH]
        else:
            remainder = full % block  # not from the digits: no chain of additions
        position = n - tables.step_together[4]
        deltas = tables.step_deltas[np.uint64(remainder)]
        column = tables.step_together[2 * h]
        for j in range(together):
            to = j if near else tables.step_rows[first + j] - first
            ranks[np.uint64(to)] = (full + deltas[np.uint64(column + j)]) >> half
    for j in range(together, count):
        at = first + j
        a = tables.step_first[at]
        while position > a:
            position -= 1
            remainder += ((digits >> (4 * position)) & 15) * factorials[n - 1 - position]
        offset = tables.step_at[at]
        if offset >= 0:
            moved = np.int64(tables.step_values[np.uint64(offset + remainder)])
            prefetch(tables.step_values, offset + min(remainder + VALUES_AHEAD, factorials[n - a] - 1))
        else:
            if pieces < 0:
                pieces, _ = remembered_take(digits, n, memory, PIECES)
                if tables.step_sums[h]:
                    reversal_sums(pieces, digits, n, factorials, memory, SLOTS + h * SUM_WORDS, tables.step_sums[h])
            if tables.step_summed[at]:
                moved = memory[np.uint64(SLOTS + h * SUM_WORDS + 1 + SUMMED * n + a)]
            else:
                moved = moved_remainder(pieces, tables.step_source[at], a, n, factorials)
        child = ((full - remainder + moved) >> half) * weight
        if a < kept:
            child += moved_twists(twists, orientation, tables, at, a, kept, k)
        elif k > 1:
            child += orientation
        ranks[np.uint64(j if near else tables.step_rows[at] - first)] = child
    return count


@state_function
def moved_twists(twists, orientation, tables, at, a, kept, k):
    """The orientation coordinate after the move at ``at`` (in step order): its digits of
    positions ``>= a`` (``twists``: the parent's, 4 bits each) rewritten."""
    powers = tables.step_powers
    low = np.int64(0)
    for i in range(a, kept):
        o = ((twists >> (4 * tables.step_source[at, i])) & 15) + tables.step_twist[at, i]
        o -= k * (o >= k)
        low += o * powers[kept - 1 - i]
    span = powers[kept - a]
    return orientation - orientation % span + low


@state_function
def single_orbit_expand_rank(rank, component, tables, ranks, memory):
    return single_orbit_step(rank, component, tables, ranks, 0, False, memory)


@state_function
def single_orbit_predecessors_rank(rank, component, tables, ranks, memory):
    return single_orbit_step(rank, component, tables, ranks, tables.scalars[PIECE_MOVES], False, memory)


@state_function
def single_orbit_near_rank(rank, component, tables, ranks, memory):
    return single_orbit_step(rank, component, tables, ranks, 0, True, memory)


@state_function
def single_orbit_near_predecessors_rank(rank, component, tables, ranks, memory):
    return single_orbit_step(rank, component, tables, ranks, tables.scalars[PIECE_MOVES], True, memory)


@kernel
def remainder_table(source, a, n, factorials, out):
    """``out[x]``: the remainder (see the module) after a move (``source``, changing positions
    ``>= a`` only) of the remainder ``x``, for every ``x`` in ``[0, (n-a)!)``. Remainders count the
    arrangements of the last ``n - a`` pieces in lexicographic order, so they are visited by
    stepping an arrangement (4 bits a piece) to the next one (the pieces before ``a`` do not
    count)."""
    pieces = np.int64(0)
    for i in range(a, n):
        pieces |= np.int64(i - a) << (4 * i)
    for x in range(out.shape[0]):
        out[x] = moved_remainder(pieces, source, a, n, factorials)
        i = n - 2  # the next arrangement: the last ascent, its successor from the tail, the tail reversed
        while i >= a and nibble(pieces, i) > nibble(pieces, i + 1):
            i -= 1
        if i < a:
            break
        j = n - 1
        while nibble(pieces, j) < nibble(pieces, i):
            j -= 1
        pieces = swap_nibbles(pieces, i, j)
        lo, hi = i + 1, n - 1
        while lo < hi:
            pieces = swap_nibbles(pieces, lo, hi)
            lo += 1
            hi -= 1


@state_function
def nibble(packed, i):
    return (packed >> (4 * i)) & 15


@state_function
def swap_nibbles(packed, i, j):
    x = (nibble(packed, i) ^ nibble(packed, j)) & 15
    return packed ^ (x << (4 * i)) ^ (x << (4 * j))


def step_tables(pieces: PiecesTables, rows, nmoves: int, orbit_size: int, orientations: int) -> RankStepTables:
    """The ``pieces`` tables of a one-orbit puzzle with its steps for ``rows`` (``(permutation,
    twist)`` of the moves, then of the inverse moves if the puzzle needs them, in rank order)."""
    n = orbit_size
    first = [min(i for i, (p, t) in enumerate(zip(*row, strict=True)) if p != i or t) for row in rows]
    tabled, entries = set(), 0
    for row in sorted(range(len(rows)), key=lambda r: -first[r]):  # the smallest remainders first
        entries += math.factorial(n - first[row])
        if entries > TABLE_ENTRIES:
            break
        tabled.add(row)
    order = [row for half in (range(nmoves), range(nmoves, len(rows)))
             for row in sorted(half, key=lambda r: (r not in tabled, -first[r]))]
    at = np.full(len(rows), -1, np.int64)
    values, offset = [], 0
    for j, row in enumerate(order):
        if row in tabled:
            out = np.empty(math.factorial(n - first[row]), np.int32)
            remainder_table(np.array(rows[row][0], np.int64), first[row], n, pieces.factorials, out)
            at[j], offset = offset, offset + len(out)
            values.append(out)
    halves = [sum(row in tabled for row in order[:nmoves]), sum(row in tabled for row in order[nmoves:])]
    deltas, together = _together(values, [n - first[r] for r in order], halves, nmoves, orientations, DELTA_ENTRIES)
    reversal = [all(p == first[r] + n - 1 - i for i, p in enumerate(rows[r][0][first[r]:], first[r]))
                and not any(rows[r][1]) for r in order]
    summed, sums = _reversal_sums(at, reversal, [first[r] for r in order], nmoves, n)
    powers = np.array([orientations ** i for i in range(n + 1)], np.int64)
    chunk_size, chunk_digits = digit_chunks(list(range(n, 1, -1)))
    return RankStepTables(*pieces, np.array(order, np.int64), np.array([first[r] for r in order], np.int64), at,
                          np.array([rows[r][0] for r in order], np.int64).reshape(len(rows), n),
                          np.array([rows[r][1] for r in order], np.int64).reshape(len(rows), n),
                          np.array(reversal, np.int64), np.concatenate(values or [np.zeros(0, np.int32)]),
                          np.array(halves, np.int64), deltas, together, powers, chunk_size, chunk_digits, summed, sums)


def _reversal_sums(at, reversal, firsts, nmoves, n):
    """``step_summed`` and ``step_sums`` (see the module) of the rows in step order (``at``: their
    remainders' offsets, -1: computed; ``reversal``; ``firsts``: their ``a``), each half's while a
    memory has room for its slot."""
    summed = np.zeros(len(at), np.int64)
    sums = np.zeros(2, np.int64)
    for h, rows in enumerate((range(nmoves), range(nmoves, len(at)))):
        chosen = [j for j in rows if at[j] < 0 and reversal[j] and firsts[j] < SUMMED]
        if SLOTS + (h + 1) * SUM_WORDS <= RANK_MEMORY:
            summed[chosen] = 1
            sums[h] = sum(1 << firsts[j] for j in chosen)
    return summed, sums


def _together(values, sizes, halves, nmoves, orientations, budget):
    """``step_deltas`` and ``step_together`` (see the module) from the remainder ``values`` of the
    tabled rows (in step order, ``sizes``: their ``k``), at most ``budget`` changes; none for orbits
    with orientations."""
    starts = (0, nmoves)
    tabled = [sizes[j] for h in (0, 1) for j in range(starts[h], starts[h] + halves[h])]
    best = (0, (0, 0))
    for span in sorted(set(tabled)):  # the next row's remainder is then longer: its digits are not read yet
        rows = tuple(sum(1 for j in range(starts[h], starts[h] + halves[h]) if sizes[j] <= span) for h in (0, 1))
        if sum(rows) >= 2 and math.factorial(span) * sum(rows) <= budget and orientations == 1:
            best = (span, rows)
    span, rows = best
    deltas = np.zeros((math.factorial(span) if span else 1, sum(rows)), np.int32)
    remainders = np.arange(len(deltas))
    tables = iter(values)
    column = 0
    for h in (0, 1):
        for j in range(starts[h], starts[h] + halves[h]):
            table = next(tables)
            if j - starts[h] < rows[h]:
                low = remainders % math.factorial(sizes[j])
                deltas[:, column] = table[low] - low
                column += 1
    return deltas, np.array([0, rows[0], rows[0], rows[1], span], np.int64)
