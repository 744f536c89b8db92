"""Per-state rules of the sliding-tile puzzles (layout: ``board``), and their tables.

Conventions (beyond ``board``'s):

- **Component**: ``(parity of the N-cell permutation, blank = 0) + row(b) + col(b)) mod 2`` for
  the blank at cell ``b``, ``N = R*C``. A move swaps the blank with a neighbour: it flips the
  permutation's parity and the colour of the blank's square, so the sum never changes. The
  two components are the two halves of the ``N!`` arrangements.
- **Rank** (within a component), in ``[0, N!/2)``: an odd arrangement is first replaced by its
  *even twin*, the same arrangement with tiles 1 and 2 exchanged (twins share the blank's cell,
  so they lie in different components); the rank is the twin's Lehmer rank (cells row-major,
  blank = 0) divided by two, which drops the one Lehmer digit an even permutation fixes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import factorial_table, half_unrank_digits
from vecsearch.puzzle import signed64
from vecsearch.puzzles.sliding.board import move_tables

CELLS, ROWS, COLS = 0, 1, 2  # entries of SlidingTables.size


class SlidingTables(NamedTuple):
    """What the rules read: the blank's moves per cell (``board.move_tables``), the board's
    ``size`` (``[cells, rows, cols]``, indexed by ``CELLS``, ``ROWS``, ``COLS``) and the
    factorials ``0! .. N!``."""

    targets: np.ndarray
    legal: np.ndarray
    size: np.ndarray
    factorials: np.ndarray


def rule_tables(rows: int, cols: int) -> SlidingTables:
    cells = rows * cols
    return SlidingTables(*move_tables(rows, cols), np.array([cells, rows, cols], np.int64), factorial_table(cells))


_ONES = np.int64(0x1111111111111111)
_HIGHS = np.int64(signed64(0x8888888888888888))


@state_function
def cell_of(state, tile):
    """Cell holding ``tile`` (0: the blank): the lowest nibble equal to it, found without a
    loop by the SWAR zero-nibble test on ``state ^ (tile * 0x11..1)``."""
    x = state ^ (tile * _ONES)
    zero_nibbles = (x - _ONES) & ~x & _HIGHS
    return popcount((zero_nibbles & -zero_nibbles) - 1) >> 2


@state_function
def blank_cell(state):
    return cell_of(state, 0)


@state_function
def expand(state, tables, children, moves):
    """Branch-free: all four moves are computed; illegal ones (whose table entry points back at
    the blank, moving tile 0) are written but not counted."""
    targets = tables.targets
    legal = tables.legal
    b = blank_cell(state)
    k = 0
    for m in range(4):
        t = targets[b, m]
        tile = (state >> (4 * t)) & 15
        children[k] = state ^ (tile << (4 * t)) ^ (tile << (4 * b))
        moves[k] = m
        k += legal[b, m]
    return k


@state_function
def lehmer(state, cells, factorials):
    """Lehmer rank of the N-cell permutation (blank = 0), its parity, and its digits packed
    4 bits per cell."""
    seen = np.int64(0)
    digits = np.int64(0)
    full_rank = np.int64(0)
    parity = np.int64(0)
    for i in range(cells - 1):
        value = (state >> (4 * i)) & 15
        digit = value - popcount(seen & ((np.int64(1) << value) - 1))
        digits |= digit << (4 * i)
        full_rank += digit * factorials[cells - 1 - i]
        parity += digit
        seen |= np.int64(1) << value
    return full_rank, parity & 1, digits


@state_function
def rank(state, tables):
    """Half the Lehmer rank of the even twin: an odd arrangement is ranked as itself with tiles
    1 and 2 exchanged (same blank cell, so distinct within a component), which moves the
    Lehmer rank by one factorial weight. Branch-free."""
    cells = tables.size[CELLS]
    factorials = tables.factorials
    full_rank, odd, _ = lehmer(state, cells, factorials)
    c1 = cell_of(state, 1)
    c2 = cell_of(state, 2)
    one_first = np.int64(c1 < c2)
    shift = one_first * factorials[cells - 1 - c1] - (1 - one_first) * factorials[cells - 1 - c2]
    return (full_rank + odd * shift) >> 1


@state_function
def child_ranks(state, full_rank, parity, digits, tables, ranks):
    """The ranks of ``state``'s children, in ``expand``'s order, from the state's Lehmer rank,
    parity and digits (``lehmer``).

    A move exchanges the blank with the tile at another cell: positions ``lo < hi`` swap their
    values ``a`` and ``c``. Only the digits of ``lo``, ``hi`` and the positions between them
    change: ``d'_lo = d_hi + #mid(<c) + [a<c]``, ``d'_hi = d_lo - #mid(<a) - [c<a]``, and a
    middle digit gains ``[a<v] - [c<v]``. The parity flips with every move.
    """
    targets = tables.targets
    legal = tables.legal
    cells = tables.size[CELLS]
    factorials = tables.factorials
    child_odd = 1 - parity
    b = blank_cell(state)
    c1 = cell_of(state, 1)
    c2 = cell_of(state, 2)
    k = 0
    for m in range(4):
        t = targets[b, m]
        tile = (state >> (4 * t)) & 15
        lo = min(b, t)
        hi = max(b, t)
        a = (state >> (4 * lo)) & 15
        c = (state >> (4 * hi)) & 15
        d_lo = (digits >> (4 * lo)) & 15
        d_hi = (digits >> (4 * hi)) & 15
        below_a = np.int64(0)
        below_c = np.int64(0)
        delta = np.int64(0)
        for j in range(lo + 1, hi):
            v = (state >> (4 * j)) & 15
            below_a += v < a
            below_c += v < c
            delta += (np.int64(a < v) - np.int64(c < v)) * factorials[cells - 1 - j]
        delta += (d_hi + below_c + (a < c) - d_lo) * factorials[cells - 1 - lo]
        delta += (d_lo - below_a - (c < a) - d_hi) * factorials[cells - 1 - hi]
        child_c1 = b if tile == 1 else c1
        child_c2 = b if tile == 2 else c2
        one_first = np.int64(child_c1 < child_c2)
        shift = one_first * factorials[cells - 1 - child_c1] - (1 - one_first) * factorials[cells - 1 - child_c2]
        ranks[k] = (full_rank + delta + child_odd * shift) >> 1
        k += legal[b, m]
    return k


@state_function
def expand_ranked(state, tables, children, moves, ranks):
    """``expand`` plus each child's ``rank``, derived from the parent's Lehmer digits."""
    full_rank, parity, digits = lehmer(state, tables.size[CELLS], tables.factorials)
    child_ranks(state, full_rank, parity, digits, tables, ranks)
    return expand(state, tables, children, moves)


@state_function
def expand_rank(r, component_id, tables, ranks):
    """The children's ranks of the state of rank ``r``, whose Lehmer digits come out of
    unranking it (``unrank_digits``): no second pass over the cells."""
    state, full_rank, parity, digits = unrank_digits(r, component_id, tables)
    return child_ranks(state, full_rank, parity, digits, tables, ranks)


@state_function
def blank_colour(b, tables):
    cols = tables.size[COLS]
    return (b // cols + b % cols) & 1


@state_function
def component(state, tables):
    cells = tables.size[CELLS]
    _, parity, _ = lehmer(state, cells, tables.factorials)
    return (parity + blank_colour(blank_cell(state), tables)) & 1


@state_function
def unrank_digits(r, component_id, tables):
    """The state of rank ``r`` in ``component_id``, with its Lehmer rank, parity and digits.

    The even twin's digits come from unranking; the odd twin (tiles 1 and 2 exchanged) differs
    in one digit, the earlier of their cells': one more when tile 1 comes first (2 now precedes
    1), one fewer when tile 2 does."""
    cells = tables.size[CELLS]
    factorials = tables.factorials
    even, digits = half_unrank_digits(r, 0, cells, 4, factorials)
    full_rank = 2 * r + ((digits >> (4 * (cells - 2))) & 1)
    if blank_colour(blank_cell(even), tables) == component_id:
        return even, full_rank, np.int64(0), digits
    c1 = cell_of(even, 1)
    c2 = cell_of(even, 2)
    first = min(c1, c2)
    step = np.int64(1) if c1 < c2 else np.int64(-1)
    odd = even ^ (np.int64(3) << (4 * c1)) ^ (np.int64(3) << (4 * c2))
    return odd, full_rank + step * factorials[cells - 1 - first], np.int64(1), digits + (step << (4 * first))


@state_function
def unrank(r, component_id, tables):
    state, _, _, _ = unrank_digits(r, component_id, tables)
    return state
