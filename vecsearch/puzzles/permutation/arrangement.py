"""Arrangement coordinates too large for a move table, stepped by bit masks (coordinates form).

An arrangement of identical pieces (``layout.multiset_rank``) over ``n <= 64`` slots with at
most ``MAX_CLASSES`` labels is, label by label, the *mask* of the slots holding it. A move moves
each label's mask: by a table of the label's own colex coordinate among all ``n`` slots (a
coordinate no move mixes with the others: ``C(n, pieces)`` rows) and a table of the mask of each
value, when that table is small; else by permuting the mask's bits (``permute``: one lookup per
byte in a table of the move's images of that byte's bits). The child's digit of a label is the
colex rank of its moved mask among the slots the smaller labels leave free
(``ranking.subset_rank_among``; for the first label, the coordinate itself). So a child costs a
few lookups and a loop over the pieces of the labels after the first, and a parent is unranked
once (``masks``): the 4x4x4's centres with the U and D ones told apart, 51,482,970
arrangements, whose own move table would need 1.85 billion entries.

Tables (fields of ``rules.CoordinateTables``): ``mask_steps`` (flat int64: at a label's
``MASK_BYTE_STEPS + v``, ``[row, byte, value]`` the mask a move's table row makes of a byte's
bits; at its ``MASK_COLEX_STEPS + v``, ``[y, row]`` the colex coordinate ``y`` becomes; at its
``MASK_OF + v``, ``[y]`` the mask of ``y``; -1: not tabled), ``mask_info`` (one row per such
coordinate: ``MASK_SLOTS``, ``MASK_LABELS``, ``MASK_BYTES``, ``MASK_ROWS``, then per label its
pieces, its digit's radix and place value within the coordinate, and the offsets above) and
``binomials``.
"""

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import subset_rank, subset_rank_among

MAX_CLASSES = 5  # labels of a computed arrangement: masks of the first four are held in registers
COLEX_STEP_ENTRIES = 1 << 22  # a label's colex coordinate is tabled when its table stays this small
MASK_SLOTS, MASK_LABELS, MASK_BYTES, MASK_ROWS, MASK_COUNT = 0, 1, 2, 3, 4
MASK_RADIX = MASK_COUNT + MAX_CLASSES
MASK_WEIGHT = MASK_RADIX + MAX_CLASSES
MASK_BYTE_STEPS = MASK_WEIGHT + MAX_CLASSES
MASK_COLEX_STEPS = MASK_BYTE_STEPS + MAX_CLASSES
MASK_OF = MASK_COLEX_STEPS + MAX_CLASSES
MASK_COLUMNS = MASK_OF + MAX_CLASSES


def colex_tables(size: int, count: int, rows) -> tuple[np.ndarray, np.ndarray]:
    """``([y, row], [y])``: the colex coordinate of ``count`` pieces among ``size`` slots after
    each row's permutation, and the mask of each coordinate ``y``."""
    import itertools
    import math

    masks = np.zeros(math.comb(size, count), np.uint64)
    for y, chosen in enumerate(sorted(itertools.combinations(range(size), count), key=lambda c: c[::-1])):
        masks[y] = sum(1 << s for s in chosen)
    index = {int(m): y for y, m in enumerate(masks)}
    bytes_ = step_tables(size, rows).view(np.uint64)
    out = np.zeros((len(masks), len(rows)), np.int64)
    for r in range(len(rows)):
        moved = np.zeros(len(masks), np.uint64)
        for b in range(bytes_.shape[1]):
            moved |= bytes_[r, b, (masks >> np.uint64(8 * b)) & np.uint64(255)]
        out[:, r] = [index[int(m)] for m in moved]
    return out, masks.view(np.int64)


def step_tables(size: int, rows) -> np.ndarray:
    """``[row, byte, value]``: the mask of the slots that the bits of ``value`` (slots ``8 * byte
    ..``) go to under each row's permutation (slot ``i`` receives the piece of slot ``p[i]``)."""
    nbytes = (size + 7) // 8
    out = np.zeros((len(rows), nbytes, 256), np.uint64)
    for r, permutation in enumerate(rows):
        goes = [0] * size
        for i, p in enumerate(permutation):
            goes[p] = i
        for b in range(nbytes):
            for value in range(256):
                out[r, b, value] = sum(1 << goes[8 * b + j] for j in range(8) if value >> j & 1 and 8 * b + j < size)
    return out.view(np.int64)


@state_function
def permute(mask, steps, base, nbytes):
    """The mask after the move whose table starts at ``steps[base]`` (indexed unsigned, as the
    tables are here: numba then leaves out the fix-up of a negative index, 5.3 -> 4.9 ns a child of
    the 4x4x4's centres)."""
    out = np.int64(0)
    for b in range(nbytes):
        out |= steps[np.uint64(base + b * 256 + ((mask >> (8 * b)) & 255))]
    return out


@state_function
def masks(x, info, steps, binomials):
    """The masks of the labels but the last (up to four; the others 0) of arrangement ``x``."""
    m0 = np.int64(0)
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    taken = np.int64(0)
    n = info[MASK_SLOTS]
    for v in range(info[MASK_LABELS] - 1):
        digit = (x // info[MASK_WEIGHT + v]) % info[MASK_RADIX + v]
        if v == 0 and info[MASK_OF] >= 0:  # the first label's digit is its own coordinate: tabled
            taken = m0 = steps[info[MASK_OF] + digit]
            continue
        c = info[MASK_COUNT + v]
        r = n - popcount(taken) - 1  # the colex unrank among the free slots: down from the highest
        s = n - 1
        while (taken >> s) & 1:
            s -= 1
        mask = np.int64(0)
        while c > 0:
            if binomials[r, c] <= digit:
                digit -= binomials[r, c]
                mask |= np.int64(1) << s
                c -= 1
            r -= 1
            s -= 1
            while s >= 0 and (taken >> s) & 1:
                s -= 1
        taken |= mask
        if v == 0:
            m0 = mask
        elif v == 1:
            m1 = mask
        elif v == 2:
            m2 = mask
        else:
            m3 = mask
    return m0, m1, m2, m3


@state_function
def moved_mask(mask, colex, info, steps, v, row):
    """Label ``v``'s mask (``mask``, colex coordinate ``colex``) after the move of table row ``row``."""
    at = info[MASK_COLEX_STEPS + v]
    if at >= 0:
        return steps[np.uint64(info[MASK_OF + v] + steps[np.uint64(at + colex * info[MASK_ROWS] + row)])]
    return permute(mask, steps, info[MASK_BYTE_STEPS + v] + row * info[MASK_BYTES] * 256, info[MASK_BYTES])


@state_function
def arrangement_steps(x, info, steps, binomials, first_row, count, ranks, weight):
    """Add ``weight`` times each child's arrangement (rows ``first_row ..``) to ``ranks``."""
    held = masks(x, info, steps, binomials)
    first = (x // info[MASK_WEIGHT]) % info[MASK_RADIX]  # the first label's coordinate is its digit
    colex = (first, subset_rank(held[1], binomials), subset_rank(held[2], binomials),
             subset_rank(held[3], binomials))  # each label's own coordinate among all the slots
    labels = info[MASK_LABELS] - 1
    at0 = info[MASK_COLEX_STEPS]
    for m in range(count):
        row = first_row + m
        if at0 >= 0:  # the first label's digit is its own coordinate
            y = steps[at0 + colex[0] * info[MASK_ROWS] + row]
            taken = steps[info[MASK_OF] + y]
        else:
            taken = moved_mask(held[0], colex[0], info, steps, 0, row)
            y = subset_rank(taken, binomials)
        child = y * info[MASK_WEIGHT]
        for v in range(1, labels):
            moved = moved_mask(held[v], colex[v], info, steps, v, row)
            child += subset_rank_among(moved, taken, binomials) * info[MASK_WEIGHT + v]
            taken |= moved
        ranks[m] += child * weight
