"""Per-state rules of the sliding-tile puzzles (layout: ``board``), and their tables.

Conventions (beyond ``board``'s):

- **Component**: ``(parity of the N-cell permutation, blank = 0) + row(b) + col(b)) mod 2`` for
  the blank at cell ``b``, ``N = R*C``. A move swaps the blank with a neighbour: it flips the
  permutation's parity and the colour of the blank's square, so the sum never changes. The
  two components are the two halves of the ``N!`` arrangements.
- **Reading order**: the rank reads the cells in lines of ``L`` cells: row by row (``L = C``),
  but a board of two rows column by column (``L = 2``; its ranks are those of its transpose). A
  move along a line keeps the order of the tiles read; a move across lines makes one tile jump
  over ``L - 1`` others. On lines of two, that is a swap of neighbours, which the Lehmer digits
  alone tell (the 2x7's first 47 layers: 21.8 s of rank steps by rows, 11.5 s by columns, though
  more of its moves jump); on 3x4, reading by columns (jumps over two tiles, but more of them)
  was slower than by rows.
- **Tile sequence**: the ``N - 1`` tiles in reading order, the blank's place ``b`` (its index in
  reading order) skipped. Its parity is the cells' permutation's in reading order plus ``b``, so
  within a component it is fixed by ``b`` (``cell_parity``).
- **Rank** (within a component), in ``[0, N!/2)``: ``b * (N-1)!/2`` plus half the Lehmer rank of
  the tile sequence (tiles ``1..N-1`` as ``0..N-2``): the sequence's parity fixes its digit of
  weight ``1!``, so halving drops it. A move along a line leaves the sequence as it is, so a
  child's rank is its parent's plus or minus ``(N-1)!/2``; a move across makes one tile jump over
  ``L - 1`` others, so only those ``L`` digits change (``child_ranks``); with lines of two, two
  neighbours swap, which the digits alone tell (``swap_child_ranks``: no tile is unranked).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import (
    MAX_PACKED,
    NIBBLE_LOW_BITS,
    chunked_digits,
    digit_chunks,
    factorial_table,
    half_unrank_digits,
    parity_tail,
    remembered_digits,
    remembered_take,
)
from vecsearch.puzzle import signed64
from vecsearch.puzzles.sliding.board import move_tables

CELLS, ROWS, COLS, LINE = 0, 1, 2, 3  # entries of SlidingTables.size
MAX_LINE = 5  # L: the columns of a board of three rows or more (R * C <= 16), or 2
ALONG, BACK, FORTH = 0, 1, 2  # a move along a line, or across it to the line before, or after (jumps)


class SlidingTables(NamedTuple):
    """What the rules read: the blank's moves per cell (``board.move_tables``); the board's
    ``size`` (``[cells, rows, cols, line]``, indexed by ``CELLS``, ``ROWS``, ``COLS``, ``LINE``);
    the cell at each place of the reading order (``reading``) and the place of each cell
    (``places``); the blank's moves per place (``read_targets``, ``read_legal``, as places, in
    ``expand``'s order of moves) and what each move is to the reading order (``jumps``:
    ``ALONG``, ``BACK``, ``FORTH``); the parity of the tile sequence in component 0 per place of
    the blank (``cell_parity``); the factorials ``0! .. N!``; and the ``ranking.digit_chunks`` of
    a half rank of the tile sequence (its Lehmer digits but the last two)."""

    targets: np.ndarray
    legal: np.ndarray
    size: np.ndarray
    reading: np.ndarray
    places: np.ndarray
    read_targets: np.ndarray
    read_legal: np.ndarray
    jumps: np.ndarray
    cell_parity: np.ndarray
    factorials: np.ndarray
    chunk_size: np.ndarray
    chunk_digits: np.ndarray


def rule_tables(rows: int, cols: int) -> SlidingTables:
    cells = rows * cols
    tiles = cells - 1
    targets, legal = move_tables(rows, cols)
    by_columns = rows == 2 < cols
    line = rows if by_columns else cols
    reading = np.array([(i % rows) * cols + i // rows if by_columns else i for i in range(cells)], np.int64)
    places = np.argsort(reading)
    read_targets = places[targets[reading]]
    read_legal = legal[reading].copy()
    steps = {-1: ALONG, 1: ALONG, -line: BACK, line: FORTH}
    jumps = np.array([next(steps[int(read_targets[i, m] - i)] for i in range(cells) if read_legal[i, m])
                      for m in range(4)], np.int64)
    inversions = sum(reading[i] > reading[j] for i in range(cells) for j in range(i + 1, cells))
    cell_parity = np.array([(inversions + reading[i] // cols + reading[i] % cols + i) & 1 for i in range(cells)],
                           np.int64)
    return SlidingTables(targets, legal, np.array([cells, rows, cols, line], np.int64), reading, places, read_targets,
                         read_legal, jumps, cell_parity, factorial_table(cells),
                         *digit_chunks([tiles - i for i in range(tiles - 2)]))


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
def gathered(state, source, tables):
    """The state whose cell ``i`` holds what cell ``source[i]`` of ``state`` holds (the state
    itself when the board is read row by row)."""
    if tables.size[LINE] == tables.size[COLS]:
        return state
    out = np.int64(0)
    for i in range(MAX_PACKED):  # a constant trip count, so the loop unrolls
        if i >= tables.size[CELLS]:
            break
        out |= ((state >> (4 * source[i])) & 15) << (4 * i)
    return out


@state_function
def in_reading_order(state, tables):
    """The state's cells in reading order."""
    return gathered(state, tables.reading, tables)


@state_function
def from_reading_order(read, tables):
    """``in_reading_order`` undone."""
    return gathered(read, tables.places, tables)


@state_function
def lehmer(state, cells, factorials):
    """Lehmer rank of the N-cell permutation (blank = 0), its parity, and its digits packed
    4 bits per cell."""
    seen = np.int64(0)
    digits = np.int64(0)
    full_rank = np.int64(0)
    parity = np.int64(0)
    for i in range(MAX_PACKED - 1):  # a constant trip count, so the loop unrolls (see ranking)
        if i >= cells - 1:
            break
        value = (state >> (4 * i)) & 15
        digit = value - popcount(seen & ((np.int64(1) << value) - 1))
        digits |= digit << (4 * i)
        full_rank += digit * factorials[cells - 1 - i]
        parity += digit
        seen |= np.int64(1) << value
    return full_rank, parity & 1, digits


@state_function
def tile_sequence(read, b, tiles):
    """The tile sequence (tiles ``1..N-1`` as ``0..N-2``, 4 bits each) of a state in reading
    order whose blank is at place ``b``."""
    low = read & ((np.int64(1) << (4 * b)) - 1)
    high = ((read >> (4 * b)) >> 4) << (4 * b)  # two shifts: one by 64 would be undefined
    return (low | high) - (_ONES & ((np.int64(1) << (4 * tiles)) - 1))


@state_function
def rank(state, tables):
    cells = tables.size[CELLS]
    factorials = tables.factorials
    read = in_reading_order(state, tables)
    b = blank_cell(read)
    full_rank, _, _ = lehmer(tile_sequence(read, b, cells - 1), cells - 1, factorials)
    return b * (factorials[cells - 1] >> 1) + (full_rank >> 1)


@state_function
def child_ranks(b, sequence, full_rank, digits, tables, ranks):
    """The ranks of the children, in ``expand``'s order, of a state read row by row whose blank
    is at cell ``b`` and whose tile sequence has Lehmer rank ``full_rank`` and ``digits``
    (``lehmer``).

    Left and right keep the sequence. Up (down) takes the tile at sequence position ``p`` (``q``)
    over the ``C - 1`` tiles after (before) it, to position ``q`` (``p``), ``q = p + C - 1``.
    Up: a jumped tile ``y`` gains ``[x < y]`` (``x``, the jumping tile, is now after it) and
    shifts one place forward; ``x`` loses the jumped tiles smaller than it. Down: the reverse.
    The indices are cast unsigned (never negative): numba leaves out the fix-up of a negative
    index (sliding-3x4 enumerated in 5.0 s instead of 5.3 s).
    """
    targets = tables.targets
    legal = tables.legal
    cols = tables.size[COLS]
    tiles = tables.size[CELLS] - 1
    factorials = tables.factorials
    block = factorials[tiles] >> 1  # ranks per blank cell
    k = 0
    for m in range(4):
        if legal[np.uint64(b), m]:
            t = targets[np.uint64(b), m]
            full = full_rank
            if m < 2:
                up = m == 0
                p = t if up else b  # the first sequence position of the jump
                q = p + cols - 1  # the last
                x = (sequence >> (4 * (p if up else q))) & 15
                d_x = (digits >> (4 * (p if up else q))) & 15
                smaller = np.int64(0)
                first = p + 1 if up else p
                for jumped in range(MAX_LINE - 1):  # a constant trip count, so the loop unrolls
                    if jumped >= cols - 1:
                        break
                    j = first + jumped
                    y = (sequence >> (4 * j)) & 15
                    d_y = (digits >> (4 * j)) & 15
                    smaller += y < x
                    moved = j - 1 if up else j + 1
                    gained = np.int64(x < y) if up else -np.int64(x < y)
                    full += (d_y + gained) * factorials[np.uint64(tiles - 1 - moved)]
                    full -= d_y * factorials[np.uint64(tiles - 1 - j)]
                full -= d_x * factorials[np.uint64(tiles - 1 - (p if up else q))]
                full += (d_x - smaller if up else d_x + smaller) * factorials[np.uint64(tiles - 1 - (q if up else p))]
            ranks[k] = t * block + (full >> 1)
            k += 1
    return k


@state_function
def swap_child_ranks(b, full_rank, digits, tables, ranks):
    """``child_ranks`` for lines of two cells (read by rows or by columns), from the digits alone:
    a move across lines swaps the tiles at sequence positions ``p`` and ``p + 1``, and of two
    neighbours the first is the larger exactly when its Lehmer digit is. Swapped, ``a b`` (digits
    ``d_a``, ``d_b``) become ``b a`` with digits ``d_b + [a < b]`` and ``d_a - [b < a]``."""
    targets = tables.read_targets
    legal = tables.read_legal
    tiles = tables.size[CELLS] - 1
    factorials = tables.factorials
    block = factorials[tiles] >> 1
    k = 0
    for m in range(4):
        if legal[b, m]:
            t = targets[b, m]
            full = full_rank
            if tables.jumps[m] != ALONG:
                p = min(t, b)
                d_a = (digits >> (4 * p)) & 15
                d_b = (digits >> (4 * p + 4)) & 15
                rising = np.int64(d_a <= d_b)  # [a < b]; [b < a] is 1 - rising
                full += (d_b + rising - d_a) * factorials[tiles - 1 - p]
                full += (d_a - (1 - rising) - d_b) * factorials[tiles - 2 - p]
            ranks[k] = t * block + (full >> 1)
            k += 1
    return k


@state_function
def expand_ranked(state, tables, children, moves, ranks):
    """``expand`` plus each child's ``rank``, from the parent's tile sequence and its digits."""
    tiles = tables.size[CELLS] - 1
    read = in_reading_order(state, tables)
    b = blank_cell(read)
    sequence = tile_sequence(read, b, tiles)
    full_rank, _, digits = lehmer(sequence, tiles, tables.factorials)
    if tables.size[LINE] == 2:
        swap_child_ranks(b, full_rank, digits, tables, ranks)
    else:
        child_ranks(b, sequence, full_rank, digits, tables, ranks)
    return expand(state, tables, children, moves)


@state_function
def expand_rank(r, component_id, tables, ranks, memory):
    """The children's ranks of the state of rank ``r``: the blank's place and the sequence's
    digits come out of unranking it (redone only from the first digit that differs from the rank
    unranked before, in ``memory``: ``ranking.remembered_digits`` at word 0, then
    ``ranking.remembered_take``, which lines of two skip), no state is built."""
    b, parity, half = blank_and_parity(r, component_id, tables)
    tiles = tables.size[CELLS] - 1
    digits = remembered_digits(half, tables.chunk_size, tables.chunk_digits, memory, 0)
    if tables.size[LINE] == 2:
        last = (parity - popcount(digits & NIBBLE_LOW_BITS)) & 1  # the digit that restores the parity
        return swap_child_ranks(b, 2 * half + last, digits | last << (4 * (tiles - 2)), tables, ranks)
    packed, unused = remembered_take(digits, tiles - 2, memory, 2)
    sequence, digits = parity_tail(packed, unused, digits, parity, tiles, 4)
    return child_ranks(b, sequence, 2 * half + ((digits >> (4 * (tiles - 2))) & 1), digits, tables, ranks)


@state_function
def near_rank(r, component_id, tables, ranks, memory):
    """The ranks of the children by moves along a line: the blank's place changes, the tile
    sequence does not, so nothing is unranked."""
    block = tables.factorials[tables.size[CELLS] - 1] >> 1
    b = r // block
    k = 0
    for m in range(4):
        if tables.jumps[m] == ALONG and tables.read_legal[b, m]:
            ranks[k] = r + (tables.read_targets[b, m] - b) * block
            k += 1
    return k


@state_function
def component(state, tables):
    cells = tables.size[CELLS]
    _, parity, _ = lehmer(state, cells, tables.factorials)
    b = blank_cell(state)
    cols = tables.size[COLS]
    return (parity + b // cols + b % cols) & 1


@state_function
def blank_and_parity(r, component_id, tables):
    """The blank's place of rank ``r`` in ``component_id``, the parity of its tile sequence, and
    the sequence's half rank."""
    block = tables.factorials[tables.size[CELLS] - 1] >> 1
    b = r // block
    return b, (component_id + tables.cell_parity[b]) & 1, r - b * block


@state_function
def unrank(r, component_id, tables):
    b, parity, half = blank_and_parity(r, component_id, tables)
    digits = chunked_digits(half, tables.chunk_size, tables.chunk_digits)
    sequence, _ = half_unrank_digits(digits, parity, tables.size[CELLS] - 1, 4)
    tiles = sequence + (_ONES & ((np.int64(1) << (4 * (tables.size[CELLS] - 1))) - 1))
    low = tiles & ((np.int64(1) << (4 * b)) - 1)
    return from_reading_order(low | ((tiles >> (4 * b)) << (4 * b)) << 4, tables)
