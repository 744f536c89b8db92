"""Reading a permutation puzzle's pattern databases (numba): the bound of a state, and of a node's children at once.

``ProjectionTables`` holds what a lookup reads (``pruning.projection_tables`` builds it). In the
labels and pieces forms a lookup ranks the state's projection straight from the fine state: each
slot's field (label and twist) becomes its coarse label and twist by one lookup (``project``),
and each kept orbit (a *segment*) adds its part of the coset space's rank (``segment_rank``,
``labels.labels_rank``'s); a state in the coordinates form is first unranked into the labels
form's words (``coordinates_projection_bound``), or, when ``pruning.coordinate_terms`` made its
*terms*, ranked as a sum of table lookups by one or two of its coordinates (``terms_index``).

The bound is the largest sum over the additive groups of lookups (``largest_sum``); a node's
children are bounded lookup by lookup, their reads prefetched together (``staged_bounds``). The
bounds that kernels call are compiled apart (``loop``), without reference counting.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import kernel, loop, state_function
from vecsearch.kernels.intrinsics import popcount, prefetch
from vecsearch.kernels.nibbles import nibble
from vecsearch.kernels.ranking import lehmer_digit
from vecsearch.kernels.state_words import word_of
from vecsearch.puzzles.permutation import labels


class RankTables(NamedTuple):
    """The arrays of a ``labels.LabelsTables`` that ``labels_unrank_word`` reads."""

    slot_word: np.ndarray
    slot_shift: np.ndarray
    wild: np.ndarray
    orbits: np.ndarray
    counts: np.ndarray
    arrangement_radix: np.ndarray
    arrangement_weight: np.ndarray
    binomials: np.ndarray
    factorials: np.ndarray
    scalars: np.ndarray


class ProjectionTables(NamedTuple):
    """What ``projection_bound`` reads, arrays only (parallel kernels take no nested tuples).

    The fine state's fields: ``slot_word``, ``slot_shift``; ``scalars`` (indexed by
    ``FIELD_BITS`` .. ``PROJECTIONS``). Lookup ``p`` (a database read directly, or through a
    symmetric conjugate: ``symmetric_lookups``) ranks the *segments* (its coset space's orbits,
    in order) ``first_segment[p] .. first_segment[p + 1] - 1`` and reads its database from
    ``offsets[p]``; segment ``g``: ``segments[g]`` (columns ``SEGMENT_*``), ``reads[g, i]``: the
    fine slot its slot ``i`` is read from, ``project[g, i, field]``: the coarse label (low byte)
    and twist (above) that fine field gives there, ``label_weight[g, v]``: the place value of its
    label ``v``'s digit (an arrangement). ``binomials``, ``factorials``; the databases one after
    another (``entries``, two a byte: ``pack_entries``); the fine puzzle's
    ``RankTables`` (``fine_*``, to unrank a coordinates-form state). In the coordinates form
    (``coordinate_terms``): ``coordinates[c]`` (columns ``COORDINATE_*``), projection ``p``'s
    terms ``term_first[p] .. term_first[p + 1] - 1``, term ``t``: ``terms[t]`` (columns
    ``TERM_*``), its values in ``term_values`` from its offset; empty in the other forms.
    ``adds[p]``: lookup ``p`` adds to the one before (an additive group: ``largest_sum``)."""

    slot_word: np.ndarray
    slot_shift: np.ndarray
    scalars: np.ndarray
    first_segment: np.ndarray
    segments: np.ndarray
    reads: np.ndarray
    project: np.ndarray
    label_weight: np.ndarray
    binomials: np.ndarray
    factorials: np.ndarray
    offsets: np.ndarray
    entries: np.ndarray
    fine_slot_word: np.ndarray
    fine_slot_shift: np.ndarray
    fine_wild: np.ndarray
    fine_orbits: np.ndarray
    fine_counts: np.ndarray
    fine_arrangement_radix: np.ndarray
    fine_arrangement_weight: np.ndarray
    fine_binomials: np.ndarray
    fine_factorials: np.ndarray
    fine_scalars: np.ndarray
    coordinates: np.ndarray
    term_first: np.ndarray
    terms: np.ndarray
    term_values: np.ndarray
    adds: np.ndarray


FIELD_BITS, FINE_WIDTH, RANK_BITS, PROJECTIONS = range(4)  # ProjectionTables.scalars
COORDINATE_WEIGHT, COORDINATE_SIZE, COORDINATE_SHIFT, COORDINATE_MASK = range(4)  # ProjectionTables.coordinates
TERM_FIRST, TERM_SECOND, TERM_SPAN, TERM_OFFSET = range(4)  # ProjectionTables.terms columns
SUM_SHIFT = 56  # staged_bounds: a child's index below, its group's sum so far above
INDEX_MASK = (np.int64(1) << SUM_SHIFT) - 1
(SEGMENT_SIZE, SEGMENT_DISTINCT, SEGMENT_LABELS, SEGMENT_HALVED, SEGMENT_ARRANGEMENT_WEIGHT, SEGMENT_K,
 SEGMENT_ORIENTATION_WEIGHT, SEGMENT_DROPPED, SEGMENT_WILD, SEGMENT_SHARED) = range(10)  # ProjectionTables.segments


@state_function
def segment_rank(words, slot_word, slot_shift, reads, project, info, label_weight, binomials, factorials, mask):
    """One segment's part of its coset space's rank (``labels.labels_rank``'s, from the fine
    state): ``info`` is its row of ``segments``, ``reads``, ``project`` and ``label_weight`` its
    rows. (Arrays are passed one by one: a call taking the whole tables cost 5 us a state.)"""
    n = info[SEGMENT_SIZE]
    k = info[SEGMENT_K]
    wild = info[SEGMENT_WILD]
    rank = np.int64(0)
    twists = np.int64(0)
    if info[SEGMENT_DISTINCT]:
        seen = np.int64(0)
        for i in range(n):
            s = reads[i]
            value = project[i, (word_of(words, slot_word[s]) >> slot_shift[s]) & mask]
            v = value & 255
            rank += lehmer_digit(v, seen) * factorials[n - 1 - i]
            seen |= np.int64(1) << v
            if not (wild >> v) & 1:
                twists = twists * k + (value >> 8)
        rank >>= info[SEGMENT_HALVED]
    elif info[SEGMENT_SHARED] >= 0:  # one piece of each label but one (a window): one pass
        shared = info[SEGMENT_SHARED]
        last = info[SEGMENT_LABELS] - 1
        seen = np.int64(0)  # the labels of one piece met so far
        met = np.int64(0)  # the pieces of the shared label met so far
        for i in range(n):
            s = reads[i]
            value = project[i, (word_of(words, slot_word[s]) >> slot_shift[s]) & mask]
            v = value & 255
            if v == shared:
                met += 1
                if v != last:  # its places among the slots the smaller labels leave free, colex
                    rank += binomials[i - popcount(seen & ((np.int64(1) << v) - 1)), met] * label_weight[v]
            else:
                if v != last:  # its place among the free slots
                    below = popcount(seen & ((np.int64(1) << v) - 1)) + (met if shared < v else 0)
                    rank += (i - below) * label_weight[v]
                seen |= np.int64(1) << v
            if not (wild >> v) & 1:
                twists = twists * k + (value >> 8)
    else:
        for i in range(n):
            s = reads[i]
            value = project[i, (word_of(words, slot_word[s]) >> slot_shift[s]) & mask]
            if not (wild >> (value & 255)) & 1:
                twists = twists * k + (value >> 8)
        for v in range(info[SEGMENT_LABELS] - 1):
            digit = np.int64(0)
            free = 0
            taken = 0
            for i in range(n):
                s = reads[i]
                label = project[i, (word_of(words, slot_word[s]) >> slot_shift[s]) & mask] & 255
                if label == v:
                    taken += 1
                    digit += binomials[free, taken]
                free += label >= v
            rank += digit * label_weight[v]
    rank *= info[SEGMENT_ARRANGEMENT_WEIGHT]
    if info[SEGMENT_ORIENTATION_WEIGHT]:
        if info[SEGMENT_DROPPED]:
            twists //= k
        rank += twists * info[SEGMENT_ORIENTATION_WEIGHT]
    return rank


@state_function
def projection_index(words, tables, p):
    """Where lookup ``p`` reads the database entry of the state whose words are ``words`` (a
    scalar or a row, read by ``word_of``): its offset plus its coset space's rank."""
    mask = (np.int64(1) << tables.scalars[FIELD_BITS]) - 1
    rank = tables.offsets[p]
    for g in range(tables.first_segment[p], tables.first_segment[p + 1]):
        rank += segment_rank(words, tables.slot_word, tables.slot_shift, tables.reads[g], tables.project[g],
                             tables.segments[g], tables.label_weight[g], tables.binomials, tables.factorials, mask)
    return rank


@state_function
def largest_sum(state, tables, index_of):
    """The largest sum of an additive group's database entries (lookup ``p`` adds to the one
    before when ``tables.adds[p]``), each entry read where ``index_of(state, tables, p)`` says."""
    h = np.int64(0)
    total = np.int64(0)
    for p in range(tables.scalars[PROJECTIONS]):
        value = nibble(tables.entries, index_of(state, tables, p))
        total = total + value if tables.adds[p] else value
        if total > h:
            h = total
    return h


@state_function
def projections_bound(words, tables):
    """``largest_sum`` of the state whose words are ``words``."""
    return largest_sum(words, tables, projection_index)


@loop
def projection_bound(state, tables):
    """``projections_bound`` of a state in the labels or pieces form (compiled apart, without
    reference counting: called from counting kernels, it would count a reference to every array
    of ``tables`` at every read)."""
    return projections_bound(state, tables)


@state_function
def staged_bounds(kids, first, count, tables, limit, bounds, indices, index_of):
    """The bounds of ``kids[first:first + count]`` into ``bounds`` (``largest_sum``'s), lookup by
    lookup: each child still within ``limit`` has its entry's index computed (``index_of``) and
    prefetched, then all of them read, so the reads of a node's children wait for memory
    together; a child above ``limit`` looks up no further (``Heuristic.children``). ``indices``
    holds each child's index, its group's sum so far above ``SUM_SHIFT``."""
    entries = tables.entries
    for j in range(first, first + count):
        bounds[j] = 0
    for p in range(tables.scalars[PROJECTIONS]):
        adds = tables.adds[p]
        for j in range(first, first + count):
            if bounds[j] <= limit:
                at = index_of(kids[j], tables, p)
                indices[j] = at | ((indices[j] >> SUM_SHIFT) << SUM_SHIFT if adds else 0)
                prefetch(entries, at >> 1)
        for j in range(first, first + count):
            if bounds[j] <= limit:
                at = indices[j] & INDEX_MASK
                total = (indices[j] >> SUM_SHIFT) + nibble(entries, at)
                indices[j] = at | total << SUM_SHIFT
                if total > bounds[j]:
                    bounds[j] = total


@loop
def projection_children(parent, info, kids, first, count, tables, limit, bounds, infos):
    """``staged_bounds`` of children in the labels or pieces form (``infos``: their scratch)."""
    staged_bounds(kids, first, count, tables, limit, bounds, infos, projection_index)


@state_function
def coordinates_projection_bound(state, tables):
    """``projections_bound`` of a state in the coordinates form, unranked into the labels form."""
    rank_bits = tables.scalars[RANK_BITS]
    rank = state & ((np.int64(1) << rank_bits) - 1)
    component = state >> rank_bits
    width = tables.scalars[FINE_WIDTH]
    words = np.empty(width, np.int64)
    fine = RankTables(tables.fine_slot_word, tables.fine_slot_shift, tables.fine_wild, tables.fine_orbits,
                      tables.fine_counts, tables.fine_arrangement_radix, tables.fine_arrangement_weight,
                      tables.fine_binomials, tables.fine_factorials, tables.fine_scalars)
    for w in range(width):
        words[w] = labels.labels_unrank_word(rank, component, fine, w)
    return projections_bound(words, tables)


@state_function
def coordinate_value(rank, component, coordinates, c):
    """Coordinate ``c``'s value with its class (parity or orientation sum) in front: ``class *
    size + digit``."""
    size = coordinates[c, COORDINATE_SIZE]
    cls = (component >> coordinates[c, COORDINATE_SHIFT]) & coordinates[c, COORDINATE_MASK]
    return cls * size + (rank // coordinates[c, COORDINATE_WEIGHT]) % size


@state_function
def terms_index(state, tables, p):
    """Where lookup ``p`` reads the database entry of a state in the coordinates form, from its
    coordinates: the projection's rank is a sum of *terms*, one table lookup by one or two
    coordinates' values."""
    rank_bits = tables.scalars[RANK_BITS]
    rank = state & ((np.int64(1) << rank_bits) - 1)
    component = state >> rank_bits
    coordinates = tables.coordinates
    terms = tables.terms
    at = tables.offsets[p]
    for t in range(tables.term_first[p], tables.term_first[p + 1]):
        index = terms[t, TERM_OFFSET] + coordinate_value(rank, component, coordinates, terms[t, TERM_FIRST]) \
            * terms[t, TERM_SPAN]
        second = terms[t, TERM_SECOND]
        if second >= 0:
            index += coordinate_value(rank, component, coordinates, second)
        at += tables.term_values[index]
    return at


@loop
def coordinates_terms_bound(state, tables):
    """``largest_sum`` of a state in the coordinates form, read from its coordinates
    (``terms_index``; compiled apart, as ``projection_bound``)."""
    return largest_sum(state, tables, terms_index)


@loop
def terms_children(parent, info, kids, first, count, tables, limit, bounds, infos):
    """``staged_bounds`` of children in the coordinates form, read from their coordinates."""
    staged_bounds(kids, first, count, tables, limit, bounds, infos, terms_index)


@kernel
def segment_values(ranks, components, tables, g):
    """``segment_rank`` of segment ``g`` for the fine states (coordinates form) of ``ranks`` in
    ``components``."""
    mask = (np.int64(1) << tables.scalars[FIELD_BITS]) - 1
    fine = RankTables(tables.fine_slot_word, tables.fine_slot_shift, tables.fine_wild, tables.fine_orbits,
                      tables.fine_counts, tables.fine_arrangement_radix, tables.fine_arrangement_weight,
                      tables.fine_binomials, tables.fine_factorials, tables.fine_scalars)
    words = np.empty(tables.scalars[FINE_WIDTH], np.int64)
    out = np.empty(ranks.shape[0], np.int64)
    for i in range(ranks.shape[0]):
        for w in range(words.shape[0]):
            words[w] = labels.labels_unrank_word(ranks[i], components[i], fine, w)
        out[i] = segment_rank(words, tables.slot_word, tables.slot_shift, tables.reads[g], tables.project[g],
                              tables.segments[g], tables.label_weight[g], tables.binomials, tables.factorials, mask)
    return out


BOUNDS = {"labels": projection_bound, "pieces": projection_bound, "coordinates": coordinates_projection_bound}
