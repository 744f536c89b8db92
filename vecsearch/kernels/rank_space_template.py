"""Rank-space kernels: breadth-first search over a two-bit table. Not imported directly.

``vecsearch.engine.codegen`` appends this text to the layer template, so the same header names
are bound (``expand_ranked_state``, ``rank_state``, ...), plus ``unrank_state(rank, component,
tables) -> state`` (None when the puzzle has no unrank; these kernels then never compile) and
``expand_rank_state`` / ``predecessors_rank_state(rank, component, tables, ranks) -> count``
(None: unrank, then expand).

The two-bit table is an int64 array: word ``w`` holds ranks ``32w .. 32w+31``, rank ``r`` in
bits ``[2(r % 32), 2(r % 32) + 2)``. A cell holds the distance mod 3, or 3 for "not reached",
so a fresh table is all ones (-1). ``pattern`` arguments are ``(3 - v) * 0x5555...`` (as
int64): ``word ^ pattern`` turns exactly the cells equal to ``v`` into ``11``. The last word's
cells past ``rank_size`` are masked out by ``last_mask`` (a mask of low cell bits).
"""

import numpy as np
from numba import prange

from vecsearch.kernels.intrinsics import atomic_add, atomic_and, popcount, prefetch

LOW_BITS = 0x5555555555555555  # the low bit of every cell
TWOBIT_BATCH = 256  # children whose words are prefetched together


@state_function  # noqa: F821
def cell_value(table, rank):
    return (table[rank >> 5] >> ((rank & 31) << 1)) & 3


@state_function  # noqa: F821
def cells_matching(table, word, pattern, last_mask):
    """Low-bit mask of the cells of ``table[word]`` that ``pattern`` selects."""
    x = table[word] ^ pattern
    x = x & (x >> 1) & LOW_BITS
    if word == table.shape[0] - 1:
        x &= last_mask
    return x


@state_function  # noqa: F821
def stash_rank(stash, fill, rank):
    """Keep ``rank`` in ``stash`` while it has room (slots handed out atomically)."""
    if fill[0] < stash.shape[0]:
        slot = atomic_add(fill, 0, 1)
        if slot < stash.shape[0]:
            stash[slot] = rank


@state_function  # noqa: F821
def claim_cells(table, ranks, count, newv, stash, fill):
    """Set the unreached cells among ``ranks[:count]`` to ``newv``; each is claimed once."""
    new = 0
    for j in range(count):
        r = ranks[j]
        word = r >> 5
        shift = (r & 31) << 1
        if (table[word] >> shift) & 3 == 3:
            if (atomic_and(table, word, ~((3 ^ newv) << shift)) >> shift) & 3 == 3:
                new += 1
                stash_rank(stash, fill, r)
    return new


@state_function  # noqa: F821
def unrank_then_expand(rank, component, tables, kids, moves, ranks, at):
    state = unrank_state(rank, component, tables)  # noqa: F821
    return expand_ranked_state(state, tables, kids[at:], moves[at:], ranks[at:])  # noqa: F821


@state_function  # noqa: F821
def unrank_then_predecessors(rank, component, tables, kids, moves, ranks, at):
    state = unrank_state(rank, component, tables)  # noqa: F821
    return predecessors_ranked_state(state, tables, kids[at:], moves[at:], ranks[at:])  # noqa: F821


@state_function  # noqa: F821
def rank_space_children(rank, component, tables, kids, moves, ranks, at):
    return expand_rank_state(rank, component, tables, ranks[at:])  # noqa: F821


@state_function  # noqa: F821
def rank_space_predecessors(rank, component, tables, kids, moves, ranks, at):
    return predecessors_rank_state(rank, component, tables, ranks[at:])  # noqa: F821


rank_children = unrank_then_expand if expand_rank_state is None else rank_space_children  # noqa: F821
rank_parents = unrank_then_predecessors if predecessors_rank_state is None else rank_space_predecessors  # noqa: F821


@state_function  # noqa: F821
def rank_neighbours(rank, component, tables, backward, kids, moves, ranks, at):
    """Writes the ranks of the children (``backward``: predecessors) of the state of ``rank`` to
    ``ranks[at:]``; the states land in ``kids[at:]`` only when the puzzle has no rank-space
    expansion. Returns how many."""
    if backward:
        return rank_parents(rank, component, tables, kids, moves, ranks, at)
    return rank_children(rank, component, tables, kids, moves, ranks, at)


@parallel_kernel  # noqa: F821
def twobit_push(table, lo, hi, last_mask, pattern, newv, component, tables, backward, stash, fill, block):
    """Expand the ranks of words ``[lo, hi)`` whose cell ``pattern`` selects (the frontier) and
    set their unreached children to ``newv``. Blocks of ``block`` words run in parallel; the
    children's words are prefetched a batch at a time, then claimed with an atomic and.
    Returns ``(expanded, generated, new)``."""
    nblocks = (hi - lo + block - 1) // block
    expanded = np.zeros(nblocks, np.int64)
    generated = np.zeros(nblocks, np.int64)
    new = np.zeros(nblocks, np.int64)
    for b in prange(nblocks):
        kids = new_states(TWOBIT_BATCH + MAX_MOVES, WIDTH)  # noqa: F821
        moves = np.empty(TWOBIT_BATCH + MAX_MOVES, np.int64)
        ranks = np.empty(TWOBIT_BATCH + MAX_MOVES, np.int64)
        batch = 0
        block_expanded = 0  # counted in locals: no stores to shared cache lines per state
        block_generated = 0
        block_new = 0
        for word in range(lo + b * block, min(hi, lo + (b + 1) * block)):
            cells = cells_matching(table, word, pattern, last_mask)
            while cells != 0:
                low = cells & -cells
                cells ^= low
                rank = (word << 5) | (popcount(low - 1) >> 1)
                c = rank_neighbours(rank, component, tables, backward, kids, moves, ranks, batch)
                for j in range(batch, batch + c):
                    prefetch(table, ranks[j] >> 5)
                batch += c
                block_expanded += 1
                if batch >= TWOBIT_BATCH:
                    block_generated += batch
                    block_new += claim_cells(table, ranks, batch, newv, stash, fill)
                    batch = 0
        expanded[b] = block_expanded
        generated[b] = block_generated + batch
        new[b] = block_new + claim_cells(table, ranks, batch, newv, stash, fill)
    return expanded.sum(), generated.sum(), new.sum()


@state_function  # noqa: F821
def settle_pulled(table, pending, counts, states, ranks, seek, newv, stash, fill):
    """For each of ``pending[:states]`` (unreached ranks, their neighbours' ranks one after the
    other in ``ranks``), set it to ``newv`` if a neighbour's cell is ``seek``. Returns ``(new,
    neighbours looked at)``."""
    new = 0
    looked = 0
    at = 0
    for s in range(states):
        c = counts[s]
        j = 0
        while j < c and cell_value(table, ranks[at + j]) != seek:
            j += 1
        looked += min(j + 1, c)
        if j < c:
            r = pending[s]
            table[r >> 5] &= ~((3 ^ newv) << ((r & 31) << 1))
            new += 1
            stash_rank(stash, fill, r)
        at += c
    return new, looked


@parallel_kernel  # noqa: F821
def twobit_pull(table, lo, hi, last_mask, seek, newv, component, tables, backward, stash, fill, block):
    """Set to ``newv`` every unreached rank of words ``[lo, hi)`` with a neighbour one move
    *before* it (a predecessor; a child when ``backward``) whose cell is ``seek`` (the frontier).
    The neighbours of a batch of unreached ranks are computed and prefetched, then looked at.
    Each block writes only its own words, so plain stores suffice. Returns ``(examined,
    generated, new)``: unreached ranks looked at, neighbours looked at, ranks set."""
    nblocks = (hi - lo + block - 1) // block
    examined = np.zeros(nblocks, np.int64)
    generated = np.zeros(nblocks, np.int64)
    new = np.zeros(nblocks, np.int64)
    for b in prange(nblocks):
        kids = new_states(TWOBIT_BATCH + MAX_MOVES, WIDTH)  # noqa: F821
        moves = np.empty(TWOBIT_BATCH + MAX_MOVES, np.int64)
        ranks = np.empty(TWOBIT_BATCH + MAX_MOVES, np.int64)
        pending = np.empty(TWOBIT_BATCH + 1, np.int64)
        counts = np.empty(TWOBIT_BATCH + 1, np.int64)
        batch = 0
        states = 0
        block_examined = 0
        block_generated = 0
        block_new = 0
        for word in range(lo + b * block, min(hi, lo + (b + 1) * block)):
            cells = cells_matching(table, word, 0, last_mask)  # pattern 0 selects value 3
            while cells != 0:
                low = cells & -cells
                cells ^= low
                rank = (word << 5) | (popcount(low - 1) >> 1)
                c = rank_neighbours(rank, component, tables, not backward, kids, moves, ranks, batch)
                for j in range(batch, batch + c):
                    prefetch(table, ranks[j] >> 5)
                pending[states] = rank
                counts[states] = c
                states += 1
                batch += c
                block_examined += 1
                if batch >= TWOBIT_BATCH or states > TWOBIT_BATCH:
                    n, g = settle_pulled(table, pending, counts, states, ranks, seek, newv, stash, fill)
                    block_new += n
                    block_generated += g
                    batch = 0
                    states = 0
        n, g = settle_pulled(table, pending, counts, states, ranks, seek, newv, stash, fill)
        examined[b] = block_examined
        generated[b] = block_generated + g
        new[b] = block_new + n
    return examined.sum(), generated.sum(), new.sum()


@kernel  # noqa: F821
def unrank_many(ranks, component, tables):
    """The states of ``ranks`` (all in ``component``)."""
    out = new_states(ranks.shape[0], WIDTH)  # noqa: F821
    for i in range(ranks.shape[0]):
        out[i] = unrank_state(ranks[i], component, tables)  # noqa: F821
    return out


@state_function  # noqa: F821
def sorted_contains(values, x):
    lo = 0
    hi = values.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if values[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo < values.shape[0] and values[lo] == x


@parallel_kernel  # noqa: F821
def descend_mod3(table, goal_ranks, starts, tables, component, moves_out, lengths):
    """Shortest paths to the goals by walking down a distance-mod-3 table.

    From a state whose cell is ``v``, a child whose cell is ``(v + 2) % 3`` is one move closer
    (children of a state at distance d lie at d - 1, d or d + 1). Walks until the state is a
    goal (``goal_ranks``, sorted); ``lengths[i]`` is the distance (-1: other component, not
    reached, or deeper than ``moves_out`` is wide) and ``moves_out[i, :length]`` the moves.
    """
    for i in prange(starts.shape[0]):
        kids = new_states(MAX_MOVES, WIDTH)  # noqa: F821
        moves = np.empty(MAX_MOVES, np.int64)
        ranks = np.empty(MAX_MOVES, np.int64)
        lengths[i] = -1
        if component_state(starts[i], tables) != component:  # noqa: F821
            continue
        state = starts[i:i + 1].copy()
        r = rank_state(state[0], tables)  # noqa: F821
        v = cell_value(table, r)
        steps = 0
        while v != 3 and not sorted_contains(goal_ranks, r) and steps < moves_out.shape[1]:
            c = expand_ranked_state(state[0], tables, kids, moves, ranks)  # noqa: F821
            want = (v + 2) % 3
            v = 3
            for j in range(c):
                if cell_value(table, ranks[j]) == want:
                    moves_out[i, steps] = moves[j]
                    state[0] = kids[j]
                    r = ranks[j]
                    v = want
                    steps += 1
                    break
        if v != 3 and sorted_contains(goal_ranks, r):
            lengths[i] = steps
