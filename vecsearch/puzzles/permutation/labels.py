"""The labels representation of permutation puzzles: every puzzle the text format describes.

Identical pieces, ignored orientations, illegal states, blocks, and any number of slots: a slot
holds a *label* (``definition`` conventions) and an orientation, so a state says what a user
can tell apart and nothing more.

**State**: ``FIELD_BITS`` per slot, the label in the low ``PIECE_BITS`` and the orientation
above; slot ``s`` (all orbits' slots in order) lies in word ``slot_word[s]`` at bit
``slot_shift[s]``. One word (narrow) or several (wide): fields never straddle two words, and
word 0 leaves room so that it is never -1. The same rules serve both widths
(``state_words.word_of``).

**Moves**: a move rewrites the slots it changes (``dst``, ``src``, ``twist`` per table row; the
other bits are kept by ``keep``); a label whose orientation is ignored keeps twist 0. A child
with a label where ``illegal`` forbids it is not made, and neither is a child whose move would
move some but not all of a block's pieces (``moved`` slots of the row, ``block_of`` each
label's blocks as a bit mask, ``block_size``); an illegal state has no children at all, so a
two-bit search's pull never claims one.

**Rank** (``layout``): per orbit, its arrangement (the Lehmer rank of distinct pieces, halved
when the parity is fixed; ``multiset_rank`` of identical ones: per label but the last, the
colex rank of its slots among those the smaller labels leave free) times its weight, plus its
orientations (base k over the slots whose orientation counts, the last dropped when the sum is
fixed) times theirs. Ranked orbits have at most 64 slots. Component: the fixed parities and
orientation sums, as in ``rules``.

Tables ``LabelsTables``; ``orbits`` columns (``ORBIT_*``): first slot, size, orientations,
labels, distinct (Lehmer) or not, arrangement weight, halved, orientation weight, sum dropped,
orientation coordinate size, parity class shift, sum class shift, sum class mask.
``arrangement_radix[j, v]`` and ``arrangement_weight[j, v]``: the radix and place value of label
``v``'s digit within orbit ``j``'s arrangement coordinate. Rows ``moves .. 2*moves-1`` hold the
inverse moves when the move set is not closed under inverses.
"""

from typing import NamedTuple

import numpy as np

from vecsearch._numba import kernel, state_function
from vecsearch.kernels.intrinsics import popcount
from vecsearch.kernels.ranking import lehmer_digit, nth_unused
from vecsearch.kernels.state_words import or_word, put_word, word_of

SLOTS, FIELD_BITS, PIECE_BITS, MOVES, ORBITS, WIDTH, BLOCKS = range(7)  # LabelsTables.scalars
BYTE_ONES = np.int64(0x0101010101010101)
(ORBIT_FIRST, ORBIT_SIZE, ORBIT_K, ORBIT_LABELS, ORBIT_DISTINCT, ORBIT_ARRANGEMENT_WEIGHT, ORBIT_HALVED,
 ORBIT_ORIENTATION_WEIGHT, ORBIT_DROPPED, ORBIT_ORIENTATION_SIZE, ORBIT_PARITY_SHIFT, ORBIT_SUM_SHIFT,
 ORBIT_SUM_MASK) = range(13)


class LabelsTables(NamedTuple):
    slot_word: np.ndarray
    slot_shift: np.ndarray
    slot_orbit: np.ndarray
    orientations: np.ndarray
    wild: np.ndarray
    illegal: np.ndarray
    illegal_slots: np.ndarray
    dst: np.ndarray
    src: np.ndarray
    twist: np.ndarray
    length: np.ndarray
    keep: np.ndarray
    moved: np.ndarray
    moved_length: np.ndarray
    block_of: np.ndarray
    block_size: np.ndarray
    orbits: np.ndarray
    counts: np.ndarray
    arrangement_radix: np.ndarray
    arrangement_weight: np.ndarray
    binomials: np.ndarray
    factorials: np.ndarray
    scalars: np.ndarray


@state_function
def field_at(state, tables, s):
    """The field (label and orientation) of slot ``s``."""
    mask = (np.int64(1) << tables.scalars[FIELD_BITS]) - 1
    return (word_of(state, tables.slot_word[s]) >> tables.slot_shift[s]) & mask


@state_function
def label_at(state, tables, s):
    return field_at(state, tables, s) & ((np.int64(1) << tables.scalars[PIECE_BITS]) - 1)


@state_function
def is_legal(state, tables):
    """Whether no slot holds a label it may not hold."""
    for i in range(tables.illegal_slots.shape[0]):
        s = tables.illegal_slots[i]
        if (tables.illegal[s] >> label_at(state, tables, s)) & 1:
            return False
    return True


@state_function
def keeps_blocks(state, tables, row):
    """Whether the move of table row ``row`` moves each block's pieces all or not at all."""
    for b in range(tables.scalars[BLOCKS]):
        moving = 0
        for j in range(tables.moved_length[row]):
            s = tables.moved[row, j]
            moving += (tables.block_of[tables.slot_orbit[s], label_at(state, tables, s)] >> b) & 1
        if moving != 0 and moving != tables.block_size[b]:
            return False
    return True


@state_function
def labels_children(state, tables, children, moves, first_row):
    scalars = tables.scalars
    if tables.illegal_slots.shape[0] and not is_legal(state, tables):
        return 0
    piece_bits = scalars[PIECE_BITS]
    piece_mask = (np.int64(1) << piece_bits) - 1
    count = 0
    for m in range(scalars[MOVES]):
        row = np.uint64(first_row + m)  # indices cast unsigned: no fix-up of a negative index in the loop
        if scalars[BLOCKS] and not keeps_blocks(state, tables, row):
            continue
        for w in range(scalars[WIDTH]):
            put_word(children, count, w, word_of(state, w) & tables.keep[row, w])
        legal = True
        for j in range(tables.length[row]):
            d = np.uint64(tables.dst[row, j])
            f = field_at(state, tables, tables.src[row, j])
            label = f & piece_mask
            if (tables.illegal[d] >> label) & 1:
                legal = False
                break
            o = f >> piece_bits
            if not (tables.wild[d] >> label) & 1:
                o += tables.twist[row, j]
                k = tables.orientations[d]
                o -= k * (o >= k)
            or_word(children, count, tables.slot_word[d], (label | (o << piece_bits)) << tables.slot_shift[d])
        if legal:
            moves[count] = m
            count += 1
    return count


@state_function
def labels_expand(state, tables, children, moves):
    return labels_children(state, tables, children, moves, 0)


@state_function
def labels_predecessors(state, tables, children, moves):
    return labels_children(state, tables, children, moves, tables.scalars[MOVES])


# --- rank ------------------------------------------------------------------------------------
@state_function
def arrangement_rank(state, tables, j):
    """The arrangement coordinate of orbit ``j`` (before halving)."""
    info = tables.orbits[j]
    first = info[ORBIT_FIRST]
    n = info[ORBIT_SIZE]
    rank = np.int64(0)
    if info[ORBIT_DISTINCT]:
        seen = np.int64(0)
        for i in range(n):
            v = label_at(state, tables, first + i)
            rank += lehmer_digit(v, seen) * tables.factorials[n - 1 - i]
            seen |= np.int64(1) << v
        return rank
    binomials = tables.binomials
    labels = info[ORBIT_LABELS]
    if labels <= 8:  # one pass (``one_pass_term``)
        free = np.int64(0)
        taken = np.int64(0)
        weights = tables.arrangement_weight[j]
        for i in range(n):
            term, taken, free = one_pass_term(label_at(state, tables, first + i), labels, taken, free, binomials,
                                              weights)
            rank += term
        return rank
    for v in range(labels - 1):
        digit = np.int64(0)
        free = 0
        taken = 0
        for i in range(n):
            label = label_at(state, tables, first + i)
            if label == v:
                taken += 1
                digit += binomials[free, taken]
            free += label >= v
        rank += digit * tables.arrangement_weight[j, v]
    return rank


@state_function
def one_pass_term(label, labels, taken, free, binomials, weights):
    """The next slot's term of an arrangement ranked in one pass (at most 8 labels): per label, a
    byte of ``taken`` counts its slots so far and a byte of ``free`` the slots so far it may take.
    Returns ``(term, taken, free)`` after the slot, which holds ``label``."""
    shift = 8 * label
    count = ((taken >> shift) & 255) + 1
    term = binomials[(free >> shift) & 255, count] * weights[label] if label < labels - 1 else np.int64(0)
    return (term, taken + (np.int64(1) << shift),
            free + (BYTE_ONES & (((np.int64(1) << shift) << 8) - 1)))  # a free slot for the labels up to this one


@state_function
def orientation_rank(state, tables, j):
    """The base-k number of orbit ``j``'s counted orientations (all of them: before dropping)."""
    info = tables.orbits[j]
    k = info[ORBIT_K]
    piece_bits = tables.scalars[PIECE_BITS]
    piece_mask = (np.int64(1) << piece_bits) - 1
    x = np.int64(0)
    for i in range(info[ORBIT_SIZE]):
        s = info[ORBIT_FIRST] + i
        f = field_at(state, tables, s)
        if not (tables.wild[s] >> (f & piece_mask)) & 1:
            x = x * k + (f >> piece_bits)
    return x


@state_function
def labels_rank(state, tables):
    rank = np.int64(0)
    for j in range(tables.scalars[ORBITS]):
        info = tables.orbits[j]
        if info[ORBIT_DISTINCT] or info[ORBIT_LABELS] > 8 or tables.scalars[WIDTH] > 1:
            rank += (arrangement_rank(state, tables, j) >> info[ORBIT_HALVED]) * info[ORBIT_ARRANGEMENT_WEIGHT]
            x = orientation_rank(state, tables, j) if info[ORBIT_ORIENTATION_SIZE] > 1 else 0
        else:
            arrangement, x = multiset_rank_once(state, tables, j)
            rank += (arrangement >> info[ORBIT_HALVED]) * info[ORBIT_ARRANGEMENT_WEIGHT]
        if info[ORBIT_ORIENTATION_SIZE] > 1:
            if info[ORBIT_DROPPED]:
                x //= info[ORBIT_K]
            rank += x * info[ORBIT_ORIENTATION_WEIGHT]
    return rank


@state_function
def multiset_rank_once(state, tables, j):
    """``arrangement_rank`` and ``orientation_rank`` of orbit ``j`` of identical pieces (at most
    eight labels) of a narrow state, in one pass over its slots."""
    info = tables.orbits[j]
    first = info[ORBIT_FIRST]
    labels = info[ORBIT_LABELS]
    k = info[ORBIT_K]
    piece_bits = tables.scalars[PIECE_BITS]
    field_bits = tables.scalars[FIELD_BITS]
    piece_mask = (np.int64(1) << piece_bits) - 1
    field_mask = (np.int64(1) << field_bits) - 1
    binomials = tables.binomials
    weights = tables.arrangement_weight[j]
    wild = tables.wild[first]
    rank = np.int64(0)
    x = np.int64(0)
    free = np.int64(0)
    taken = np.int64(0)
    fields = word_of(state, 0) >> tables.slot_shift[first]  # a narrow state: the orbit's fields one after another
    for _ in range(info[ORBIT_SIZE]):
        f = fields & field_mask
        fields >>= field_bits
        label = f & piece_mask
        term, taken, free = one_pass_term(label, labels, taken, free, binomials, weights)
        rank += term
        if not (wild >> label) & 1:
            x = x * k + (f >> piece_bits)
    return rank, x


@state_function
def labels_component(state, tables):
    component = np.int64(0)
    for j in range(tables.scalars[ORBITS]):
        info = tables.orbits[j]
        if info[ORBIT_HALVED]:
            parity = np.int64(0)
            seen = np.int64(0)
            for i in range(info[ORBIT_SIZE]):
                v = label_at(state, tables, info[ORBIT_FIRST] + i)
                parity += lehmer_digit(v, seen)
                seen |= np.int64(1) << v
            component |= (parity & 1) << info[ORBIT_PARITY_SHIFT]
        if info[ORBIT_DROPPED]:
            total = np.int64(0)
            for i in range(info[ORBIT_SIZE]):
                total += field_at(state, tables, info[ORBIT_FIRST] + i) >> tables.scalars[PIECE_BITS]
            component |= (total % info[ORBIT_K]) << info[ORBIT_SUM_SHIFT]
    return component


@state_function
def place(out, tables, s, w, value):
    """``out`` with ``value`` in slot ``s``'s field if that slot lies in word ``w``."""
    if tables.slot_word[s] == w:
        out |= value << tables.slot_shift[s]
    return out


@state_function
def labels_unrank_word(rank, component, tables, w):
    """Word ``w`` of the state of ``rank`` in ``component`` (a row of every word: ``labels_unrank_wide``,
    for kernels that may allocate)."""
    piece_bits = tables.scalars[PIECE_BITS]
    out = np.int64(0)
    for j in range(tables.scalars[ORBITS]):
        info = tables.orbits[j]
        first = info[ORBIT_FIRST]
        n = info[ORBIT_SIZE]
        x = rank // info[ORBIT_ARRANGEMENT_WEIGHT]
        taken = np.int64(0)  # slots given a label (distinct pieces: labels given)
        wild = np.int64(0)  # slots whose orientation is ignored
        if info[ORBIT_DISTINCT]:
            x = (x % (tables.factorials[n] >> info[ORBIT_HALVED])) << info[ORBIT_HALVED]
            digits = np.int64(0)
            for i in range(n):
                weight = tables.factorials[n - 1 - i]
                d = x // weight
                x -= d * weight
                if info[ORBIT_HALVED] and i == n - 2:  # the dropped digit restores the parity
                    d = ((component >> info[ORBIT_PARITY_SHIFT]) - digits) & 1
                digits += d
                v = nth_unused(d, taken, n)
                taken |= np.int64(1) << v
                out = place(out, tables, first + i, w, v)
                wild |= ((tables.wild[first + i] >> v) & 1) << i
        else:
            last = info[ORBIT_LABELS] - 1
            for v in range(last):
                digit = (x // tables.arrangement_weight[j, v]) % tables.arrangement_radix[j, v]
                top = n - popcount(taken) - 1  # the largest free place
                chosen = np.int64(0)
                for c in range(tables.counts[j, v], 0, -1):  # colex unrank, the largest place first
                    while tables.binomials[top, c] > digit:
                        top -= 1
                    digit -= tables.binomials[top, c]
                    i = nth_unused(top, taken, n)
                    chosen |= np.int64(1) << i
                    out = place(out, tables, first + i, w, v)
                    wild |= ((tables.wild[first + i] >> v) & 1) << i
                    top -= 1
                taken |= chosen
            for i in range(n):
                if (taken >> i) & 1 == 0:
                    out = place(out, tables, first + i, w, last)
                    wild |= ((tables.wild[first + i] >> last) & 1) << i
        if info[ORBIT_ORIENTATION_SIZE] > 1:
            k = info[ORBIT_K]
            x = (rank // info[ORBIT_ORIENTATION_WEIGHT]) % info[ORBIT_ORIENTATION_SIZE]
            end = n
            total = np.int64(0)
            if info[ORBIT_DROPPED]:
                end = n - 1
            for i in range(end - 1, -1, -1):
                if (wild >> i) & 1 == 0:
                    o = x % k
                    x //= k
                    total += o
                    out = place(out, tables, first + i, w, o << piece_bits)
            if info[ORBIT_DROPPED]:
                o = ((((component >> info[ORBIT_SUM_SHIFT]) & info[ORBIT_SUM_MASK]) - total) % k + k) % k
                out = place(out, tables, first + n - 1, w, o << piece_bits)
    return out


@state_function
def labels_unrank(rank, component, tables):
    return labels_unrank_word(rank, component, tables, 0)


@state_function
def labels_unrank_wide(rank, component, tables):
    state = np.empty(tables.scalars[WIDTH], np.int64)
    for w in range(state.shape[0]):
        state[w] = labels_unrank_word(rank, component, tables, w)
    return state


@kernel
def rank_table(tables, size, out):
    """``out[x, m]``: the rank after move ``m`` of the state of rank ``x`` (component 0), for the
    ranks ``x < size`` of a puzzle without illegal states or blocks: the move table of a
    coordinate (``tables`` describe one orbit's labels alone, as ``width`` words)."""
    moves = np.empty(out.shape[1], np.int64)
    children = np.empty((out.shape[1], tables.scalars[WIDTH]), np.int64)
    for x in range(size):
        state = labels_unrank_wide(x, 0, tables)
        for m in range(labels_expand(state, tables, children, moves)):
            out[x, moves[m]] = labels_rank(children[m], tables)
