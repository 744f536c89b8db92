"""Moves in rank space for one-orbit puzzles in the pieces representation (pancakes, TopSpin, LRX).

The two-bit search asks for the ranks of a rank's children. Unranking to a state and ranking each
child from scratch costs ``n`` divisions and ``n`` Lehmer digits per child. Here, per parent:

- the Lehmer digits come from float reciprocals of the factorials (``ranking.quotient``),
  and the pieces from the list of unused values packed 4 bits each, so
  picking the ``d``-th unused value is a shift, not a scan;
- a move leaves the slots after its last changed slot ``hi`` alone, and their digits (how many
  smaller pieces lie further on) are the parent's, so a child costs O(hi). The moves are visited
  in decreasing ``hi`` so the parent's suffix sums are built once.

Tables ``RankStepTables``: the ``PiecesTables`` and ``step_source`` (rows, n): the slot each
slot ``<= hi`` takes its piece from; ``step_twist`` (rows, n); ``step_high``: ``hi`` per row;
``step_order``: the rows in decreasing ``hi``, the moves' then the inverse moves';
``step_powers``: powers of the orientation count. Orientations
are packed 4 bits per slot here, so at most 16 of them.
"""

from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import FIRST_SIXTEEN, quotient, take_unused
from vecsearch.puzzles.permutation.rules import PIECE_MOVES, PiecesTables


# The pieces tables, then how a move steps a single orbit's rank (built by ``step_tables``).
RankStepTables = NamedTuple("RankStepTables", [*PiecesTables.__annotations__.items(),
                                               *((name, np.ndarray) for name in ("step_source", "step_twist",
                                                                                 "step_high", "step_order",
                                                                                 "step_powers"))])


@state_function
def single_orbit_step(rank, component, tables, ranks, first):
    orbit = tables.orbits[0]
    factorials = tables.factorials
    source = tables.step_source
    twist = tables.step_twist
    high = tables.step_high
    order = tables.step_order
    powers = tables.step_powers
    n = orbit[1]
    k = orbit[2]
    half = orbit[5]
    kept = n - orbit[6] if k > 1 else 0  # slots whose orientation is a digit of the rank (the last may be implied)
    weight = orbit[3]  # of the permutation coordinate: the size of the orientation coordinate
    x = rank
    twists = np.int64(0)
    if k > 1:
        x = rank // weight
        rest = rank - x * weight
        total = np.int64(0)
        for i in range(kept - 1, -1, -1):
            o = rest % k
            rest //= k
            total += o
            twists |= o << (4 * i)
        if kept < n:
            twists |= ((((component >> orbit[8]) & orbit[10]) - total) % k + k) % k << (4 * (n - 1))
    rest = x << half
    unused = FIRST_SIXTEEN
    pieces = np.int64(0)
    digits = np.int64(0)
    digit_sum = np.int64(0)
    for i in range(n):
        d = quotient(rest, factorials[n - 1 - i])
        rest -= d * factorials[n - 1 - i]
        if half == 1 and i == n - 2:  # the dropped digit restores the orbit's parity
            d = ((component >> orbit[7]) - digit_sum) & 1
        digit_sum += d
        value, unused = take_unused(unused, d)
        pieces |= value << (4 * i)
        digits |= d << (4 * i)
    at = n
    suffix = np.int64(0)
    suffix_mask = np.int64(0)
    suffix_twists = np.int64(0)
    count = tables.scalars[PIECE_MOVES]
    for j in range(count):
        row = order[first + j]
        hi = high[row]
        while at > hi + 1:
            at -= 1
            suffix += ((digits >> (4 * at)) & 15) * factorials[n - 1 - at]
            suffix_mask |= np.int64(1) << ((pieces >> (4 * at)) & 15)
            if at < kept:
                suffix_twists += ((twists >> (4 * at)) & 15) * powers[kept - 1 - at]
        full = suffix
        seen = suffix_mask
        orientation = suffix_twists
        for i in range(hi, -1, -1):
            s = source[row, i]
            v = (pieces >> (4 * s)) & 15
            full += popcount(seen & ((np.int64(1) << v) - 1)) * factorials[n - 1 - i]
            seen |= np.int64(1) << v
            if i < kept:
                o = ((twists >> (4 * s)) & 15) + twist[row, i]
                o -= k * (o >= k)
                orientation += o * powers[kept - 1 - i]
        ranks[row - first] = (full >> half) * weight + orientation
    return count


@state_function
def single_orbit_expand_rank(rank, component, tables, ranks):
    return single_orbit_step(rank, component, tables, ranks, 0)


@state_function
def single_orbit_predecessors_rank(rank, component, tables, ranks):
    return single_orbit_step(rank, component, tables, ranks, tables.scalars[PIECE_MOVES])


def step_tables(pieces: PiecesTables, rows, nmoves: int, orbit_size: int, orientations: int) -> RankStepTables:
    """The ``pieces`` tables of a one-orbit puzzle with its steps for ``rows`` (``(permutation,
    twist)`` of the moves, then of the inverse moves if the puzzle needs them)."""
    source = np.zeros((len(rows), orbit_size), np.int64)
    twist = np.zeros((len(rows), orbit_size), np.int64)
    high = np.empty(len(rows), np.int64)
    for row, (permutation, twists) in enumerate(rows):
        high[row] = max(i for i, (p, t) in enumerate(zip(permutation, twists)) if p != i or t)
        source[row], twist[row] = permutation, twists
    order = sorted(range(nmoves), key=lambda r: -high[r]) + sorted(range(nmoves, len(rows)), key=lambda r: -high[r])
    powers = np.array([orientations ** i for i in range(orbit_size + 1)], np.int64)
    return RankStepTables(*pieces, source, twist, high, np.array(order, np.int64), powers)
