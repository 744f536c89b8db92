"""Layer kernels: expansion against a visited set, paths (distance tables: ``distance_template``).

An ordinary module written once for every puzzle: the roles it calls (``expand_state``,
``rank_state``, ``WIDTH``, ``new_states``, ...) are declared in ``vecsearch.kernels.roles``, and
``vecsearch.engine.runtime.codegen`` binds them per puzzle family by replacing that one import.

Heavy loops are serial ``*_range`` kernels over a contiguous part of their input, which
``vecsearch.engine.runtime.blocks`` runs over blocks on several threads; ranges that run at once write
to disjoint places (or claim bits atomically).

Layers are int64 arrays: 1-D of states (WIDTH == 1) or 2-D ``(n, WIDTH)``. Bitsets are uint64
arrays indexed by rank. Hash sets: ``hash_template``.
"""

import numpy as np

from vecsearch.kernels.intrinsics import atomic_add, atomic_or, cycles, prefetch, synced_add, yield_cpu
from vecsearch.kernels.phases import CLAIM, COMPACT, EXPAND, RANK, add_cycles
from vecsearch.kernels.roles import (
    HAS_PREDECESSORS,
    MAX_MOVES,
    WIDTH,
    component_state,
    copy_at,
    equal_at,
    expand_ranked_state,
    expand_state,
    is_goal_state,
    kernel,
    less_at,
    loop,
    new_states,
    predecessors_ranked_state,
    predecessors_state,
    rank_state,
    state_function,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("expand_claim_range", "bitset_grow", "bitset_grow_together", "claim_ranks", "clear_ranks", "least_in_bits",
           "neighbours", "find_member", "find_parent", "least_goal", "components", "ranks")

PREFETCH_BATCH = 256
SPINS = 2000  # checks (a few microseconds) a waiting worker makes before it yields its processor
BATCH_ROOM = PREFETCH_BATCH + MAX_MOVES  # children a batch may hold


@state_function
def expand_then_rank(state, tables, kids, moves, ranks):
    c = expand_state(state, tables, kids, moves)
    for j in range(c):
        ranks[j] = rank_state(kids[j], tables)
    return c


@state_function
def predecessors_then_rank(state, tables, kids, moves, ranks):
    c = predecessors_state(state, tables, kids, moves)
    for j in range(c):
        ranks[j] = rank_state(kids[j], tables)
    return c


RANK_APART = expand_ranked_state is None  # the family ranks each child from scratch: time it as its own phase
if expand_ranked_state is None:
    expand_ranked_state = expand_then_rank
if predecessors_ranked_state is None:
    predecessors_ranked_state = predecessors_then_rank


@state_function
def next_states(state, tables, backward, kids, moves):
    """Children of ``state`` (``backward``: predecessors). Families whose predecessors are
    their children compile only the first branch."""
    if backward and HAS_PREDECESSORS:
        return predecessors_state(state, tables, kids, moves)
    return expand_state(state, tables, kids, moves)


@state_function
def next_ranked(state, tables, backward, kids, moves, ranks):
    """``next_states`` with each child's rank in ``ranks``."""
    if backward and HAS_PREDECESSORS:
        return predecessors_ranked_state(state, tables, kids, moves, ranks)
    return expand_ranked_state(state, tables, kids, moves, ranks)


@kernel
def expand_claim_range(frontier, lo, hi, tables, backward, bits, other, check_other, clock, dest, fill):
    """Expand ``frontier[lo:hi]`` and keep the children whose rank bit was clear in ``bits``.

    Children are generated in batches whose bitset words are prefetched, then claimed with an
    atomic fetch-or, so that ranges running in parallel claim every state exactly once. Each
    batch's new states go to ``dest``, at slots taken from ``fill[0]`` with an atomic add (so
    ranges write the next layer side by side); ``meets`` counts those whose bit is set in
    ``other``; ``clock`` gets the cycles of the phases (``vecsearch.kernels.phases``).
    Returns ``(generated, meets)``.
    """
    spent = np.zeros(clock.shape[0], np.int64)
    kids, moves, ranks, candidates = claim_scratch()
    done = expand_claim_loop(frontier, lo, hi, tables, backward, bits, other, check_other, spent, dest, fill, kids,
                             moves, ranks, candidates)
    add_cycles(clock, spent)
    return done


@state_function
def claim_scratch():
    """The arrays ``expand_claim_loop``'s batches fill: ``kids``, ``moves``, ``ranks`` and
    ``candidates``."""
    return (new_states(BATCH_ROOM, WIDTH), np.empty(BATCH_ROOM, np.int64), np.empty(BATCH_ROOM, np.int64),
            np.empty(BATCH_ROOM, np.int64))


@state_function
def produce(frontier, i, hi, tables, backward, bits, kids, moves, ranks):
    """The children of ``frontier[i:]`` up to a batch (about ``PREFETCH_BATCH``), their ranks,
    their bitset words prefetched. Returns ``(children, the next i, cycles spent ranking them
    one by one)``."""
    batch = 0
    while i < hi and batch < PREFETCH_BATCH:
        if RANK_APART:
            batch += next_states(frontier[i], tables, backward, kids[batch:], moves[batch:])
        else:
            c = next_ranked(frontier[i], tables, backward, kids[batch:], moves[batch:], ranks[batch:])
            for j in range(batch, batch + c):
                prefetch(bits, ranks[j] >> 6)
            batch += c
        i += 1
    ranking = cycles()
    if RANK_APART:
        for j in range(batch):
            ranks[j] = rank_state(kids[j], tables)
            prefetch(bits, ranks[j] >> 6)
    return batch, i, cycles() - ranking if RANK_APART else 0


@state_function
def claim_batch(kids, ranks, batch, bits, other, check_other, candidates):
    """Claim the children ``kids[:batch]`` whose bit is clear, moving them to the front of
    ``kids``; the ones whose bit looks clear are gathered without a branch (unpredictable)
    first. Returns ``(new, meets)``."""
    looks = 0
    for j in range(batch):
        r = ranks[j]
        candidates[looks] = j
        looks += bits[r >> 6] & (np.uint64(1) << np.uint64(r & 63)) == 0
    k = 0
    meets = 0
    for c in range(looks):
        j = candidates[c]
        r = ranks[j]
        word = r >> 6
        bit = np.uint64(1) << np.uint64(r & 63)
        if atomic_or(bits, word, bit) & bit == 0:
            copy_at(kids, k, kids, j)
            k += 1
            if check_other and other[word] & bit != 0:
                meets += 1
    return k, meets


@loop
def expand_claim_loop(frontier, lo, hi, tables, backward, bits, other, check_other, spent, dest, fill, kids, moves,
                      ranks, candidates):
    """``expand_claim_range``'s loop, given its scratch arrays."""
    generated = 0
    meets = 0
    i = lo
    while i < hi:
        began = cycles()
        batch, i, ranked = produce(frontier, i, hi, tables, backward, bits, kids, moves, ranks)
        produced = cycles()
        k, m = claim_batch(kids, ranks, batch, bits, other, check_other, candidates)
        claimed = cycles()
        slot = atomic_add(fill, 0, k)
        for j in range(k):
            copy_at(dest, slot + j, kids, j)
        generated += batch
        meets += m
        spent[EXPAND] += produced - began - ranked
        spent[RANK] += ranked
        spent[CLAIM] += claimed - produced
        spent[COMPACT] += cycles() - claimed
    return generated, meets


@kernel
def bitset_grow(buffer, lo, hi, tables, backward, bits, other, check_other, clock, max_layers, small, stride, stats):
    """Grow up to ``max_layers`` layers after the frontier ``buffer[lo:hi]``, serially and in
    place: each new layer lands right after the previous one. For small frontiers, where a
    round trip to Python per layer costs more than the layer itself.

    Stops before a frontier of ``small`` states or more, or one whose children (at most
    ``stride`` per state) might not fit in ``buffer``; after a layer that is empty or meets
    ``other``. ``stats[k]`` gets layer k's (children generated, new states, meetings). Returns
    the number of layers grown. Each layer is one ``expand_claim_range`` call (compiled once).
    """
    grown = 0
    fill = np.empty(1, np.int64)
    while grown < max_layers and hi - lo < small and hi + (hi - lo) * stride <= buffer.shape[0]:
        fill[0] = hi
        generated, meets = expand_claim_range(buffer, lo, hi, tables, backward, bits, other, check_other, clock,
                                              buffer, fill)
        new = fill[0] - hi
        stats[grown, 0] = generated
        stats[grown, 1] = new
        stats[grown, 2] = meets
        grown += 1
        lo, hi = hi, fill[0]
        if new == 0 or meets > 0:
            break
    return grown


@state_function
def wait_for_all(sync, slot, arrivals):
    """Arrive at ``sync[slot]``, then wait until ``arrivals`` have: spinning at first, then giving
    way to other threads (a worker whose processor is busy with another program may be waiting
    for this one's)."""
    synced_add(sync, slot, 1)
    spins = 0
    while synced_add(sync, slot, 0) < arrivals:
        spins += 1
        if spins > SPINS:
            yield_cpu()


@kernel
def bitset_grow_together(w, workers, buffer, lo, hi, tables, backward, bits, other, check_other, clock, max_layers,
                         stats, sync):
    """Worker ``w`` of ``workers`` growing layers together, each on its own thread: ``bitset_grow``
    without its limits (``buffer`` holds every state the search can still reach). Each layer's
    frontier is cut into ``workers`` parts; new states go side by side to ``buffer`` at slots
    taken from ``sync[0]`` (start: ``hi``); after each layer the workers wait for each other twice
    (``sync[1]``, ``sync[2]`` count arrivals): once the layer is done, and once each has read where
    it ends (before that, nobody writes the next one). They stop together, so every worker must
    run. ``stats`` (zeros, flat: 3 per layer) gets ``bitset_grow``'s."""
    spent = np.zeros(clock.shape[0], np.int64)
    kids, moves, ranks, candidates = claim_scratch()
    grown = 0
    while grown < max_layers:
        n = hi - lo
        generated, meets = expand_claim_loop(buffer, lo + n * w // workers, lo + n * (w + 1) // workers, tables,
                                             backward, bits, other, check_other, spent, buffer, sync, kids, moves,
                                             ranks, candidates)
        synced_add(stats, 3 * grown, generated)
        synced_add(stats, 3 * grown + 2, meets)
        wait_for_all(sync, 1, workers * (grown + 1))  # the layer is done
        top = synced_add(sync, 0, 0)
        meets = synced_add(stats, 3 * grown + 2, 0)
        wait_for_all(sync, 2, workers * (grown + 1))  # and everyone knows where it ends
        stats[3 * grown + 1] = top - hi
        grown += 1
        lo, hi = hi, top
        if hi == lo or meets > 0:
            break
    add_cycles(clock, spent)
    return grown


@kernel
def claim_ranks(states, tables, bits):
    """Set the rank bits of ``states``; keeps the first copy of each state not yet in ``bits``
    at the front of ``states`` and returns how many there are."""
    new = 0
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)
        word = r >> 6
        bit = np.uint64(1) << np.uint64(r & 63)
        if bits[word] & bit == 0:
            bits[word] |= bit
            copy_at(states, new, states, i)
            new += 1
    return new


@kernel
def clear_ranks(states, tables, bits):
    """Clear the rank bits of ``states`` (returns a bitset to all-zero after a search)."""
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)
        bits[r >> 6] &= ~(np.uint64(1) << np.uint64(r & 63))


@kernel
def least_in_bits(states, tables, bits):
    """Index of the least state (``less_at``) whose rank bit is set, or -1: the same one
    whatever the order of ``states`` (a layer's order depends on the threads that made it)."""
    best = -1
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)
        if bits[r >> 6] & (np.uint64(1) << np.uint64(r & 63)) != 0 and (best < 0 or less_at(states, i, states, best)):
            best = i
    return best


@kernel
def neighbours(states, tables, backward):
    """Children (or predecessors) of ``states[0]`` and their move indices."""
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    c = next_states(states[0], tables, backward, kids, moves)
    return kids[:c].copy(), moves[:c].copy()


@kernel
def find_member(layer, candidates):
    """Index of the first candidate that occurs in ``layer``, or -1 (a linear scan)."""
    best = candidates.shape[0]
    for i in range(layer.shape[0]):
        for j in range(best):
            if equal_at(layer, i, candidates, j):
                best = j
                break
        if best == 0:
            break
    return best if best < candidates.shape[0] else -1


@kernel
def find_parent(layer, tables, target):
    """Index of the least state (``less_at``) in ``layer`` with a move to ``target[0]``, or -1
    (for puzzles without a predecessor function)."""
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    best = -1
    for i in range(layer.shape[0]):
        if best >= 0 and not less_at(layer, i, layer, best):
            continue
        c = expand_state(layer[i], tables, kids, moves)
        for j in range(c):
            if equal_at(kids, j, target, 0):
                best = i
                break
    return best


@kernel
def least_goal(states, tables):
    """Index of the least state (``less_at``) the goal condition accepts (``is_goal_state``), or -1."""
    best = -1
    for i in range(states.shape[0]):
        if (best < 0 or less_at(states, i, states, best)) and is_goal_state(states[i], tables):
            best = i
    return best


@kernel
def components(states, tables):
    """Component (invariant class) of every state."""
    out = np.empty(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        out[i] = component_state(states[i], tables)
    return out


@kernel
def ranks(states, tables):
    """Rank of every state."""
    out = np.empty(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        out[i] = rank_state(states[i], tables)
    return out
