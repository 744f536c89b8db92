"""Rank-space kernels: breadth-first search over a two-bit table.

An ordinary module; its roles (``unrank_state``, ``expand_rank_state``, ...) are declared in
``vecsearch.kernels.roles`` and bound per family by ``vecsearch.engine.runtime.codegen``, in the same
generated module as ``layer_template`` (whose ``expand_ranked_state`` default it uses).
``expand_rank_state`` / ``predecessors_rank_state`` bound to None: unrank, then expand. As in
``layer_template``, each ``*_range`` kernel is a serial loop that ``vecsearch.engine.runtime.blocks``
runs over blocks on several threads.

The two-bit table is an int64 array: word ``w`` holds ranks ``32w .. 32w+31``, rank ``r`` in
bits ``[2(r % 32), 2(r % 32) + 2)``. A cell holds the distance mod 3, or 3 for "not reached",
so a fresh table is all ones (-1). ``pattern`` arguments are ``(3 - v) * 0x5555...`` (as
int64): ``word ^ pattern`` turns exactly the cells equal to ``v`` into ``11``. The last word's
cells past ``rank_size`` are masked out by ``last_mask`` (a mask of low cell bits).
"""

import numpy as np

from vecsearch.contract import RANK_MEMORY
from vecsearch.engine.runtime.layer_template import RANK_APART, next_ranked, next_states
from vecsearch.kernels.intrinsics import atomic_add, atomic_and, cycles, popcount, prefetch
from vecsearch.kernels.phases import CLAIM, EXPAND, SCAN, UNRANK, add_cycles
from vecsearch.kernels.roles import (
    HAS_PREDECESSORS,
    MAX_MOVES,
    WIDTH,
    expand_rank_state,
    is_goal_state,
    kernel,
    loop,
    near_predecessors_rank_state,
    near_rank_state,
    new_states,
    predecessors_rank_state,
    rank_state,
    state_function,
    unrank_state,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("twobit_range", "goal_ranks_range", "unrank_many", "neighbour_ranks")

LOW_BITS = 0x5555555555555555  # the low bit of every cell
# Ranks a batch takes: about 512 neighbours prefetched together, and at least 64 ranks, since a family's capacity
# may be far above its members' moves (the pieces families' 64: a pancake's 11 or 12 flips). 16 ranks a batch took
# pancake-12 in 10.7 s against 10.2-10.4 s for 64 to 256, pancake-13 in 165.4 s against 160.1 s for 64; the 2x2x2
# with every face turning, the same (0.90-0.96 s)
TWOBIT_STATES = max(64, 512 // MAX_MOVES)
FIRST_LOOK = 4  # a pull looks at (and prefetches) this many neighbours of every rank before the others
TWOBIT_ROOM = TWOBIT_STATES + 32  # ranks a batch may hold: whole words until it holds TWOBIT_STATES


@state_function
def cell_value(table, rank):
    return (table[rank >> 5] >> ((rank & 31) << 1)) & 3


@state_function
def cells_matching(table, word, pattern, last_mask):
    """Low-bit mask of the cells of ``table[word]`` that ``pattern`` selects."""
    x = table[word] ^ pattern
    x = x & (x >> 1) & LOW_BITS
    if word == table.shape[0] - 1:
        x &= last_mask
    return x


@state_function
def stash_rank(stash, fill, rank):
    """Keep ``rank`` in ``stash`` while it has room (slots handed out atomically)."""
    if fill[0] < stash.shape[0]:
        slot = atomic_add(fill, 0, 1)
        if slot < stash.shape[0]:
            stash[slot] = rank


@state_function
def claim_cells(table, ranks, count, newv, stash, fill, candidates):
    """Set the unreached cells among ``ranks[:count]`` to ``newv``; each is claimed once. The
    ranks whose cell looks unreached are gathered first, without a branch (most cells are
    reached, unpredictably), then claimed one by one with an atomic and."""
    looks = 0
    for j in range(count):
        r = ranks[j]
        candidates[looks] = r
        looks += (table[r >> 5] >> ((r & 31) << 1)) & 3 == 3
    new = 0
    for j in range(looks):
        r = candidates[j]
        shift = (r & 31) << 1
        if (atomic_and(table, r >> 5, ~((3 ^ newv) << shift)) >> shift) & 3 == 3:
            new += 1
            stash_rank(stash, fill, r)
    return new


@state_function
def unrank_then_expand(rank, component, tables, backward, kids, moves, ranks, at, memory):
    state = unrank_state(rank, component, tables)
    return next_ranked(state, tables, backward, kids[at:], moves[at:], ranks[at:])


@state_function
def rank_steps(rank, component, tables, backward, ranks, memory):
    """The ranks of the children (``backward``: predecessors) of the state of ``rank``, computed
    in rank space (``memory``: a thread's, see ``contract.RANK_MEMORY``); returns how many."""
    if backward and HAS_PREDECESSORS:
        return predecessors_rank_state(rank, component, tables, ranks, memory)
    return expand_rank_state(rank, component, tables, ranks, memory)


@state_function
def no_near(rank, component, tables, ranks, memory):
    return 0


HAS_NEAR = near_rank_state is not None  # the family finds some neighbours without unranking
if near_rank_state is None:
    near_rank_state = no_near
if near_predecessors_rank_state is None:
    near_predecessors_rank_state = no_near


@state_function
def near_steps(rank, component, tables, backward, ranks, memory):
    """``rank_steps`` for the neighbours the family finds without unranking (maybe none)."""
    if backward and HAS_PREDECESSORS:
        return near_predecessors_rank_state(rank, component, tables, ranks, memory)
    return near_rank_state(rank, component, tables, ranks, memory)


@state_function
def rank_space_neighbours(rank, component, tables, backward, kids, moves, ranks, at, memory):
    return rank_steps(rank, component, tables, backward, ranks[at:], memory)


@state_function
def unrank_all(pending, taken, component, tables, states):
    for i in range(taken):
        states[i] = unrank_state(pending[i], component, tables)


@state_function
def expand_unranked(pending, states, i, component, tables, backward, kids, moves, ranks, memory):
    return next_ranked(states[i], tables, backward, kids, moves, ranks)


@state_function
def leave_ranked(pending, taken, component, tables, states):
    pass


@state_function
def expand_in_rank_space(pending, states, i, component, tables, backward, kids, moves, ranks, memory):
    return rank_steps(pending[i], component, tables, backward, ranks, memory)


# A family that ranks each child from scratch and has no rank-space moves keeps a batch's children as states, and a
# pull ranks them only as it looks at them: the first FIRST_LOOK of each rank, then the others of the ranks not yet
# settled (``pull_batch``)
LAZY_RANKS = RANK_APART and expand_rank_state is None
if expand_rank_state is None:
    rank_neighbours = unrank_then_expand
    unrank_batch, expand_batch_member = unrank_all, expand_unranked
else:
    rank_neighbours = rank_space_neighbours
    unrank_batch, expand_batch_member = leave_ranked, expand_in_rank_space
"""``rank_neighbours(rank, component, tables, backward, kids, moves, ranks, at, memory)`` writes
the ranks of the children (``backward``: predecessors) of the state of ``rank`` to ``ranks[at:]``
(the states to ``kids[at:]`` only when the family has no rank-space moves) and returns how many."""


@state_function
def settle_pulled(read, write, pending, counts, starts, states, ranks, seek, newv, stash, fill, first, last):
    """For each of ``pending[:states]`` (unreached ranks; neighbour ``j`` of rank ``s`` at
    ``ranks[starts[s] + j]``, ``j < counts[s]``), set it to ``newv`` in ``write`` if one of its
    neighbours ``first .. last-1`` is in the frontier (cell ``seek`` of ``read``, which may be
    ``write``); the others move to the front of ``pending`` (with their ``counts`` and
    ``starts``). Returns ``(new, neighbours looked at, ranks left)``."""
    new = 0
    looked = 0
    left = 0
    for s in range(states):
        c = counts[s]
        at = starts[s]
        end = min(c, last)
        j = first
        while j < end and cell_value(read, ranks[at + j]) != seek:
            j += 1
        looked += min(j + 1, end) - first if end > first else 0
        r = pending[s]
        if j < end:
            write[r >> 5] &= ~((3 ^ newv) << ((r & 31) << 1))
            new += 1
            stash_rank(stash, fill, r)
        else:
            pending[left] = r
            counts[left] = c
            starts[left] = at
            left += 1
    return new, looked, left


@state_function
def pull_batch(read, write, pending, counts, starts, states, ranks, seek, newv, stash, fill, kids, tables):
    """Settle a pull batch whose neighbours' ranks are in place, the first ``FIRST_LOOK`` of each
    rank prefetched (``LAZY_RANKS``: only those ranked, the neighbours being in ``kids``): those
    first, then, for the ranks left, the rest (ranked and prefetched now). Returns ``(new,
    looked, left)``."""
    new, looked, left = settle_pulled(read, write, pending, counts, starts, states, ranks, seek, newv, stash, fill,
                                      0, FIRST_LOOK)
    for s in range(left):
        for j in range(starts[s] + FIRST_LOOK, starts[s] + counts[s]):
            if LAZY_RANKS:
                ranks[j] = rank_state(kids[j], tables)
            prefetch(read, ranks[j] >> 5)
    more, looked_more, left = settle_pulled(read, write, pending, counts, starts, left, ranks, seek, newv, stash,
                                            fill, FIRST_LOOK, MAX_MOVES)
    return new + more, looked + looked_more, left


@state_function
def pull_near(read, write, pending, counts, starts, taken, component, tables, backward, ranks, seek, newv, stash,
              fill, spent, memory):
    """Settle the unreached ranks ``pending[:taken]`` that a near neighbour (``near_steps``)
    proves reached, as ``settle_pulled``; returns ``(new, looked, left)``."""
    began = cycles()
    at = 0
    for i in range(taken):
        c = near_steps(pending[i], component, tables, backward, ranks[at:], memory)
        for j in range(at, at + c):
            prefetch(read, ranks[j] >> 5)
        counts[i] = c
        starts[i] = at
        at += c
    found = cycles()
    settled = settle_pulled(read, write, pending, counts, starts, taken, ranks, seek, newv, stash, fill, 0,
                            MAX_MOVES)
    spent[EXPAND] += found - began
    spent[CLAIM] += cycles() - found
    return settled


@state_function
def next_selected_word(table, word, hi, select):
    """The first word from ``word`` on (below ``hi``; ``hi`` if none) with a cell ``select`` (a
    pattern) picks, the last word's cells past the rank space included. Skips eight words per
    test, indexed unsigned: no negative-index fix-up, so the eight loads and tests vectorise (a
    sparse layer's scan ran 4x faster than word by word)."""
    while word + 8 <= hi:
        base = np.uint64(word)
        found = np.int64(0)
        for j in range(8):
            x = table[base + np.uint64(j)] ^ select
            found |= x & (x >> 1)
        if found & LOW_BITS != 0:
            break
        word += 8
    while word < hi:
        x = table[word] ^ select
        if x & (x >> 1) & LOW_BITS != 0:
            break
        word += 1
    return word


@state_function
def take_cells(table, word, hi, select, last_mask, retire, pending):
    """Take the ranks of the cells ``select`` (a pattern) picks from whole words of ``table``,
    from ``word`` on (below ``hi``), into ``pending`` until it holds ``TWOBIT_STATES``; with
    ``retire``, those cells become ``0`` (one atomic and per word). Returns ``(taken, next
    word)``."""
    taken = 0
    while word < hi and taken < TWOBIT_STATES:
        word = next_selected_word(table, word, hi, select)
        if word == hi:
            break
        cells = cells_matching(table, word, select, last_mask)
        if retire and cells != 0:
            atomic_and(table, word, ~(cells * 3))
        while cells != 0:
            low = cells & -cells
            cells ^= low
            pending[taken] = (word << 5) | (popcount(low - 1) >> 1)
            taken += 1
        word += 1
    return taken, word


@state_function
def batch_neighbours(table, pending, taken, states, component, tables, backward, kids, moves, ranks, counts, starts,
                     look, memory):
    """The neighbours' ranks of the batch ``pending[:taken]`` (unranked to ``states`` if the
    family needs states): those of rank ``i`` at ``ranks[starts[i]:][:counts[i]]``, the words of
    the first ``look`` of each prefetched from ``table``. Returns how many in all.
    ``LAZY_RANKS``: the neighbours are in ``kids`` at the same places, and only the first ``look``
    of each are ranked."""
    at = 0
    for i in range(taken):
        if LAZY_RANKS:
            c = next_states(states[i], tables, backward, kids[at:], moves)
            for j in range(at, at + min(c, look)):
                ranks[j] = rank_state(kids[j], tables)
        else:
            c = expand_batch_member(pending, states, i, component, tables, backward, kids, moves, ranks[at:], memory)
        for j in range(at, at + min(c, look)):
            prefetch(table, ranks[j] >> 5)
        counts[i] = c
        starts[i] = at
        at += c
    return at


@kernel
def twobit_range(table, lo, hi, pull, last_mask, value, newv, retire, component, tables, backward, stash, fill,
                 clock, listed):
    """One layer of the two-bit search over the words ``[lo, hi)``, or (``listed`` not empty: a
    push whose whole frontier is listed) over the ranks ``listed[lo:hi]``; ranges may run in
    parallel.

    - push (``pull`` False): expand the ranks whose cell ``value`` (a pattern) selects, the
      frontier, and set their unreached children to ``newv``, claimed with an atomic and; with
      ``retire``, the frontier's cells of a word become ``0`` as the word is taken (one atomic
      and per word: children claimed meanwhile by other ranges are unreached cells, never these);
    - pull: set to ``newv`` every unreached rank with a neighbour one move *before* it (a
      predecessor; a child when ``backward``) whose cell is ``value`` (the frontier's); a range
      writes only its own words, so plain stores suffice.

    A batch takes whole words until it holds ``TWOBIT_STATES`` ranks (scan), unranks them all
    (unless the family steps in rank space), computes their neighbours' ranks and prefetches
    their words (expand), then claims (push) or looks (pull); ``clock`` gets each phase's cycles.
    One kernel for both methods, so the puzzle's rules are compiled once. Returns ``(expanded,
    generated, new)``: ranks expanded (push) or unreached ranks looked at (pull), neighbours
    generated or looked at, ranks set."""
    spent = np.zeros(clock.shape[0], np.int64)
    pending, counts, starts, states, kids, moves, ranks, memory = batch_scratch()
    done = twobit_loop(table, lo, hi, pull, last_mask, value, newv, retire, component, tables, backward, stash, fill,
                       listed, spent, pending, counts, starts, states, kids, moves, ranks, memory,
                       np.empty(TWOBIT_ROOM * MAX_MOVES, np.int64))
    add_cycles(clock, spent)
    return done


@state_function
def batch_scratch():
    """The arrays a loop's batches fill: ``pending``, ``counts``, ``starts``, ``states``, ``kids``
    (a state's, or with ``LAZY_RANKS`` the batch's), ``moves`` and ``ranks``, and the loop's
    ``memory`` for the rank-space roles (holding no rank)."""
    return (np.empty(TWOBIT_ROOM, np.int64), np.empty(TWOBIT_ROOM, np.int64), np.empty(TWOBIT_ROOM, np.int64),
            new_states(TWOBIT_ROOM, WIDTH), new_states(TWOBIT_ROOM * MAX_MOVES if LAZY_RANKS else MAX_MOVES, WIDTH),
            np.empty(MAX_MOVES, np.int64),
            np.empty(TWOBIT_ROOM * MAX_MOVES, np.int64), np.full(RANK_MEMORY, -1, np.int64))


@loop
def twobit_loop(table, lo, hi, pull, last_mask, value, newv, retire, component, tables, backward, stash, fill, listed,
                spent, pending, counts, starts, states, kids, moves, ranks, memory, candidates):
    """``twobit_range``'s loop, given its scratch arrays."""
    select = 0 if pull else value  # pattern 0 selects the unreached cells (value 3)
    direction = backward != pull
    expanded = 0
    generated = 0
    new = 0
    word = lo
    while word < hi:
        began = cycles()
        taken = 0
        while listed.shape[0] and word < hi and taken < TWOBIT_STATES:
            r = listed[word]
            if retire:
                atomic_and(table, r >> 5, ~(3 << ((r & 31) << 1)))
            pending[taken] = r
            taken += 1
            word += 1
        if not listed.shape[0]:
            taken, word = take_cells(table, word, hi, select, last_mask, retire, pending)
        expanded += taken
        scanned = cycles()
        spent[SCAN] += scanned - began
        if pull and HAS_NEAR:
            n, g, taken = pull_near(table, table, pending, counts, starts, taken, component, tables, direction, ranks,
                                    value, newv, stash, fill, spent, memory)
            new += n
            generated += g
            scanned = cycles()
        unrank_batch(pending, taken, component, tables, states)
        unranked = cycles()
        # a pull prefetches (LAZY_RANKS: ranks) the first FIRST_LOOK neighbours of each rank; but the ranks its near
        # neighbours left look at the far ones: all prefetched at once, the near ones being cached (pancake-12's pull
        # of its layer 12: 3.24 s -> 3.16 s)
        at = batch_neighbours(table, pending, taken, states, component, tables, direction, kids, moves, ranks, counts,
                              starts, FIRST_LOOK if pull and (LAZY_RANKS or not HAS_NEAR) else MAX_MOVES, memory)
        stepped = cycles()
        if pull:
            n, g, _ = pull_batch(table, table, pending, counts, starts, taken, ranks, value, newv, stash, fill, kids,
                                 tables)
        else:
            n, g = claim_cells(table, ranks, at, newv, stash, fill, candidates), at
        spent[UNRANK] += unranked - scanned
        spent[EXPAND] += stepped - unranked
        spent[CLAIM] += cycles() - stepped
        generated += g
        new += n
    return expanded, generated, new


@kernel
def goal_ranks_range(lo, hi, component, tables, out):
    """The ranks in ``[lo, hi)`` whose state the goal condition accepts (``is_goal_state``), in
    ``out``; returns how many."""
    count = 0
    for r in range(lo, hi):
        if is_goal_state(unrank_state(r, component, tables), tables):
            out[count] = r
            count += 1
    return count


@kernel
def unrank_many(ranks, component, tables):
    """The states of ``ranks`` (all in ``component``)."""
    out = new_states(ranks.shape[0], WIDTH)
    for i in range(ranks.shape[0]):
        out[i] = unrank_state(ranks[i], component, tables)
    return out


@kernel
def neighbour_ranks(ranks, component, tables, backward, near):
    """The ranks of the children (``backward``: predecessors) of the states of ``ranks``, in turn,
    as a search's thread finds them (``rank_neighbours``, with one memory), or with ``near``
    only those it finds without unranking (``near_steps``: maybe none): for the tests to hold the
    family's rank-space moves against unrank, expand, rank, in its cached module. Returns the
    children's ranks, those of ``ranks[i]`` at ``[starts[i], starts[i + 1])``, and ``starts``."""
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    out = np.empty(ranks.shape[0] * MAX_MOVES, np.int64)
    starts = np.zeros(ranks.shape[0] + 1, np.int64)
    memory = np.full(RANK_MEMORY, -1, np.int64)
    for i in range(ranks.shape[0]):
        at = starts[i]
        if near:
            count = near_steps(ranks[i], component, tables, backward, out[at:], memory)
        else:
            count = rank_neighbours(ranks[i], component, tables, backward, kids, moves, out[at:], 0, memory)
        starts[i + 1] = at + count
    return out[:starts[-1]].copy(), starts
