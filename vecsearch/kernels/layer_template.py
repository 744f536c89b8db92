"""Layer kernels, written once for every puzzle. Not imported directly.

``vecsearch.engine.codegen`` emits a module per puzzle: a header that binds the puzzle's
per-state functions and the state-shape helpers under fixed names, followed by this text. The
kernels then call the puzzle's functions as module globals, which numba inlines and (for puzzles
defined in an importable file) caches on disk.

Names the header provides:
  WIDTH, MAX_MOVES                      int constants (words per state, room for moves per state:
                                        the puzzle's max_moves rounded up, see codegen.move_capacity)
  expand_state(s, tables, kids, moves)  -> number of children written to kids/moves
  predecessors_state(...)               same contract, states one move *before* s
  rank_state(s, tables)                 -> perfect rank within the component of s
  component_state(s, tables)            -> invariant class of s (0 when the puzzle has none)
  expand_ranked_state(s, tables, kids, moves, ranks), predecessors_ranked_state(...)
                                        children and their ranks; None: expand, then rank each
  empty_at, hash_at, equal_at, copy_at, new_states   states addressed as (array, index) pairs;
                                        value forms too (see vecsearch.kernels.state_words)
  kernel, parallel_kernel, state_function   numba decorators (cached, or uncached for user code)

Layers are int64 arrays: 1-D of states (WIDTH == 1) or 2-D ``(n, WIDTH)``. Bitsets are uint64
arrays indexed by rank. Hash tables are layers of power-of-two length whose empty slots have
first word -1.
"""

import numpy as np
from numba import prange

from vecsearch.kernels.intrinsics import atomic_or, prefetch

PREFETCH_BATCH = 256


@state_function  # noqa: F821
def expand_then_rank(state, tables, kids, moves, ranks):
    c = expand_state(state, tables, kids, moves)
    for j in range(c):
        ranks[j] = rank_state(kids[j], tables)
    return c


@state_function  # noqa: F821
def predecessors_then_rank(state, tables, kids, moves, ranks):
    c = predecessors_state(state, tables, kids, moves)
    for j in range(c):
        ranks[j] = rank_state(kids[j], tables)
    return c


if expand_ranked_state is None:  # noqa: F821
    expand_ranked_state = expand_then_rank
if predecessors_ranked_state is None:  # noqa: F821
    predecessors_ranked_state = predecessors_then_rank


@parallel_kernel  # noqa: F821 (bound by the generated header)
def expand_claim(frontier, tables, backward, bits, other, check_other, scratch, block):
    """Expand ``frontier`` and keep the children whose rank bit was clear in ``bits``.

    Blocks of ``block`` frontier states run in parallel; each generates its children in batches,
    prefetches their bitset words, then claims them with an atomic fetch-or, so every state is
    claimed exactly once. New states land in ``scratch`` (``len(frontier) * MAX_MOVES`` rows),
    compacted to its front. ``meets`` counts new states whose bit is set in ``other``.
    Returns ``(generated, new, meets)``.
    """
    n = frontier.shape[0]
    nblocks = (n + block - 1) // block
    new_counts = np.zeros(nblocks, np.int64)
    generated = np.zeros(nblocks, np.int64)
    meets = np.zeros(nblocks, np.int64)
    for b in prange(nblocks):
        kids = new_states(PREFETCH_BATCH + MAX_MOVES, WIDTH)
        moves = np.empty(PREFETCH_BATCH + MAX_MOVES, np.int64)
        ranks = np.empty(PREFETCH_BATCH + MAX_MOVES, np.int64)
        out = b * block * MAX_MOVES
        i = b * block
        end = min(n, i + block)
        k = 0
        while i < end:
            batch = 0
            while i < end and batch < PREFETCH_BATCH:
                if backward:
                    c = predecessors_ranked_state(frontier[i], tables, kids[batch:], moves[batch:], ranks[batch:])
                else:
                    c = expand_ranked_state(frontier[i], tables, kids[batch:], moves[batch:], ranks[batch:])
                for j in range(batch, batch + c):
                    prefetch(bits, ranks[j] >> 6)
                batch += c
                i += 1
            generated[b] += batch
            for j in range(batch):
                r = ranks[j]
                word = r >> 6
                bit = np.uint64(1) << np.uint64(r & 63)
                if bits[word] & bit == 0 and atomic_or(bits, word, bit) & bit == 0:
                    copy_at(scratch, out + k, kids, j)
                    k += 1
                    if check_other and other[word] & bit != 0:
                        meets[b] += 1
        new_counts[b] = k
    total = 0
    for b in range(nblocks):
        src = b * block * MAX_MOVES
        if src != total:
            for j in range(new_counts[b]):
                copy_at(scratch, total + j, scratch, src + j)
        total += new_counts[b]
    return generated.sum(), total, meets.sum()


@parallel_kernel  # noqa: F821
def expand_all(frontier, tables, backward, scratch, block):
    """Write every child of ``frontier`` to the front of ``scratch``; returns their number."""
    n = frontier.shape[0]
    nblocks = (n + block - 1) // block
    counts = np.zeros(nblocks, np.int64)
    for b in prange(nblocks):
        moves = np.empty(MAX_MOVES, np.int64)
        out = b * block * MAX_MOVES
        for i in range(b * block, min(n, (b + 1) * block)):
            kids = scratch[out + counts[b]:]
            if backward:
                counts[b] += predecessors_state(frontier[i], tables, kids, moves)
            else:
                counts[b] += expand_state(frontier[i], tables, kids, moves)
    total = 0
    for b in range(nblocks):
        src = b * block * MAX_MOVES
        if src != total:
            for j in range(counts[b]):
                copy_at(scratch, total + j, scratch, src + j)
        total += counts[b]
    return total


@kernel  # noqa: F821
def bitset_grow(buffer, lo, hi, tables, backward, bits, other, check_other, max_layers, small, stats):
    """Grow up to ``max_layers`` layers after the frontier ``buffer[lo:hi]``, serially and in
    place: each new layer lands right after the previous one. For small frontiers, where a
    round trip to Python per layer costs more than the layer itself.

    Stops before a frontier of ``small`` states or more, or one whose children might not fit in
    ``buffer``; after a layer that is empty or meets ``other``. ``stats[k]`` gets layer k's
    (children generated, new states, meetings). Returns the number of layers grown.
    """
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    ranks = np.empty(MAX_MOVES, np.int64)
    grown = 0
    while grown < max_layers and hi - lo < small and hi + (hi - lo) * MAX_MOVES <= buffer.shape[0]:
        out = hi
        generated = 0
        meets = 0
        for i in range(lo, hi):
            if backward:
                c = predecessors_ranked_state(buffer[i], tables, kids, moves, ranks)
            else:
                c = expand_ranked_state(buffer[i], tables, kids, moves, ranks)
            generated += c
            for j in range(c):
                r = ranks[j]
                word = r >> 6
                bit = np.uint64(1) << np.uint64(r & 63)
                if bits[word] & bit == 0:
                    bits[word] |= bit
                    copy_at(buffer, out, kids, j)
                    out += 1
                    if check_other and other[word] & bit != 0:
                        meets += 1
        stats[grown, 0] = generated
        stats[grown, 1] = out - hi
        stats[grown, 2] = meets
        grown += 1
        lo, hi = hi, out
        if lo == hi or meets > 0:
            break
    return grown


@kernel  # noqa: F821
def hash_grow(buffer, lo, hi, tables, backward, keys, count, other, check_other, max_layers, small, stats):
    """``bitset_grow`` for a hash table ``keys`` holding ``count`` states; also stops before a
    layer whose children could fill the table past half."""
    moves = np.empty(MAX_MOVES, np.int64)
    half = keys.shape[0] // 2
    grown = 0
    while (grown < max_layers and hi - lo < small and hi + (hi - lo) * MAX_MOVES <= buffer.shape[0]
           and count + (hi - lo) * MAX_MOVES <= half):
        out = hi
        for i in range(lo, hi):
            if backward:
                out += predecessors_state(buffer[i], tables, buffer[out:], moves)
            else:
                out += expand_state(buffer[i], tables, buffer[out:], moves)
        new, meets = hash_claim(buffer[hi:out], out - hi, keys, other, check_other)
        count += new
        stats[grown, 0] = out - hi
        stats[grown, 1] = new
        stats[grown, 2] = meets
        grown += 1
        lo, hi = hi, hi + new
        if new == 0 or meets > 0:
            break
    return grown


@kernel  # noqa: F821
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
            states[new] = states[i]
            new += 1
    return new


@kernel  # noqa: F821
def clear_ranks(states, tables, bits):
    """Clear the rank bits of ``states`` (returns a bitset to all-zero after a search)."""
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)
        bits[r >> 6] &= ~(np.uint64(1) << np.uint64(r & 63))


@kernel  # noqa: F821
def first_in_bits(states, tables, bits):
    """Index of the first state whose rank bit is set, or -1."""
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)
        if bits[r >> 6] & (np.uint64(1) << np.uint64(r & 63)) != 0:
            return i
    return -1


@state_function  # noqa: F821
def hash_insert_from(keys, slot, states, i):
    """Insert ``states[i]`` into the table ``keys``, probing from ``slot``; True if it was not
    there. (The insert sits inside the probe loop: a slot-finding loop followed by a second
    test compiled 4x slower for wide states.)"""
    mask = keys.shape[0] - 1
    while True:
        if empty_at(keys, slot):
            copy_at(keys, slot, states, i)
            return True
        if equal_at(keys, slot, states, i):
            return False
        slot = (slot + 1) & mask


@state_function  # noqa: F821
def hash_insert(keys, states, i):
    return hash_insert_from(keys, hash_at(states, i) & (keys.shape[0] - 1), states, i)


@state_function  # noqa: F821
def hash_contains(keys, states, i):
    """Whether ``states[i]`` is in the table ``keys``."""
    mask = keys.shape[0] - 1
    slot = hash_at(states, i) & mask
    while True:
        if empty_at(keys, slot):
            return False
        if equal_at(keys, slot, states, i):
            return True
        slot = (slot + 1) & mask


@kernel  # noqa: F821
def hash_claim(states, count, keys, other, check_other):
    """Insert ``states[:count]`` into the table ``keys`` (kept at most half full by the caller).

    States go in batches: hash a batch and prefetch its home slots, then insert (1.5x once the
    table outgrows the L2 cache). New states are compacted to the front of ``states``;
    ``meets`` counts new states present in the table ``other``. Returns ``(new, meets)``.
    """
    mask = keys.shape[0] - 1
    words = keys.reshape(-1)
    slots = np.empty(PREFETCH_BATCH, np.int64)
    new = 0
    meets = 0
    for lo in range(0, count, PREFETCH_BATCH):
        hi = min(count, lo + PREFETCH_BATCH)
        for i in range(lo, hi):
            slot = hash_at(states, i) & mask
            slots[i - lo] = slot
            prefetch(words, slot * WIDTH)
        for i in range(lo, hi):
            if hash_insert_from(keys, slots[i - lo], states, i):
                if check_other and hash_contains(other, states, i):
                    meets += 1
                copy_at(states, new, states, i)
                new += 1
    return new, meets


@kernel  # noqa: F821
def hash_rehash(old, new):
    """Insert every key of the table ``old`` into the empty table ``new``."""
    for i in range(old.shape[0]):
        if not empty_at(old, i):
            hash_insert(new, old, i)


@kernel  # noqa: F821
def first_in_hash(states, keys):
    """Index of the first state present in the table ``keys``, or -1."""
    for i in range(states.shape[0]):
        if hash_contains(keys, states, i):
            return i
    return -1


@kernel  # noqa: F821
def neighbours(states, tables, backward):
    """Children (or predecessors) of ``states[0]`` and their move indices."""
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    if backward:
        c = predecessors_state(states[0], tables, kids, moves)
    else:
        c = expand_state(states[0], tables, kids, moves)
    return kids[:c].copy(), moves[:c].copy()


@kernel  # noqa: F821
def find_member(layer, candidates):
    """Index of the first candidate that occurs in ``layer``, or -1 (a linear scan)."""
    for i in range(layer.shape[0]):
        for j in range(candidates.shape[0]):
            if equal_at(layer, i, candidates, j):
                return j
    return -1


@kernel  # noqa: F821
def find_parent(layer, tables, target):
    """Index of a state in ``layer`` with a move to ``target[0]``, or -1 (for puzzles without
    a predecessor function)."""
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    for i in range(layer.shape[0]):
        c = expand_state(layer[i], tables, kids, moves)
        for j in range(c):
            if equal_at(kids, j, target, 0):
                return i
    return -1


@kernel  # noqa: F821
def components(states, tables):
    """Component (invariant class) of every state."""
    out = np.empty(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        out[i] = component_state(states[i], tables)
    return out


@kernel  # noqa: F821
def ranks(states, tables):
    """Rank of every state."""
    out = np.empty(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        out[i] = rank_state(states[i], tables)
    return out


@kernel  # noqa: F821
def record_distances(layer, tables, distances, depth):
    """``distances[rank(s)] = depth`` for every state of the layer."""
    for i in range(layer.shape[0]):
        distances[rank_state(layer[i], tables)] = depth


@kernel  # noqa: F821
def nearest_in_table(layer, tables, distances, unknown):
    """Index of the state of ``layer`` with the smallest known distance, and that distance;
    ``(-1, unknown)`` when the table knows none of them."""
    best = -1
    best_distance = unknown
    for i in range(layer.shape[0]):
        d = distances[rank_state(layer[i], tables)]
        if d < best_distance:
            best = i
            best_distance = d
    return best, best_distance


@parallel_kernel  # noqa: F821
def descend(distances, unknown, starts, tables, component, moves_out, lengths):
    """Shortest paths to the goal by walking down a distance table.

    ``distances[rank]`` is the distance to the goal (``unknown`` where not reached) for states
    of ``component``. For each start, ``lengths[i]`` is its distance (-1: other component or not
    reached) and ``moves_out[i, :length]`` the moves of one shortest path (at each step, the
    first move in move order that goes one step closer).
    """
    for i in prange(starts.shape[0]):
        kids = new_states(MAX_MOVES, WIDTH)
        moves = np.empty(MAX_MOVES, np.int64)
        lengths[i] = -1
        if component_state(starts[i], tables) != component:
            continue
        d = distances[rank_state(starts[i], tables)]
        if d == unknown or d > moves_out.shape[1]:
            continue
        lengths[i] = d
        state = starts[i:i + 1].copy()
        for step in range(d):
            c = expand_state(state[0], tables, kids, moves)
            for j in range(c):
                if distances[rank_state(kids[j], tables)] == d - 1 - step:
                    moves_out[i, step] = moves[j]
                    state[0] = kids[j]
                    break
