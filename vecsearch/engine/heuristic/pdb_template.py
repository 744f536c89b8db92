"""Kernels of the 0-1 breadth-first enumeration behind pattern databases.

An ordinary module; ``vecsearch.engine.heuristic.pdb`` binds its roles (``expand_state``, ``rank_state``,
declared in ``vecsearch.kernels.roles``) to an abstraction's through ``vecsearch.engine.runtime.codegen``.
``costs[m]`` is the cost (0 or 1) of move ``m``; ``entries[rank // group]`` receives the depth of
the first state of its group reached (the least distance of the group, as depths never
decrease), 255 where none was reached yet.
"""

import numpy as np

from vecsearch.kernels.intrinsics import atomic_or, prefetch
from vecsearch.kernels.roles import MAX_MOVES, WIDTH, copy_at, expand_state, kernel, new_states, rank_state

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("claim_goals", "expand_cost_range")

PREFETCH_BATCH = 256  # children ranked and prefetched together

UNREACHED = 255


@kernel
def claim_goals(states, tables, bits, entries, group):
    """Claim ``states`` at depth 0; keeps the new ones at the front and returns their number."""
    new = 0
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)
        word = r >> 6
        bit = np.uint64(1) << np.uint64(r & 63)
        if bits[word] & bit == 0:
            bits[word] |= bit
            entries[r // group] = 0
            copy_at(states, new, states, i)
            new += 1
    return new


@kernel
def expand_cost_range(frontier, lo, hi, tables, bits, costs, want, entries, group, depth, scratch, out):
    """Children of ``frontier[lo:hi]`` by moves of cost ``want`` whose rank bit was clear:
    claimed with an atomic fetch-or (each exactly once, ranges may run in parallel), recorded at
    ``depth`` and written to ``scratch[out:]``. Children are ranked a batch at a time and their
    bitset words and entries prefetched before they are claimed. Returns ``(generated, new)``."""
    kids = new_states(PREFETCH_BATCH + MAX_MOVES, WIDTH)
    moves = np.empty(PREFETCH_BATCH + MAX_MOVES, np.int64)
    ranks = np.empty(PREFETCH_BATCH + MAX_MOVES, np.int64)
    generated = 0
    k = 0
    i = lo
    while i < hi:
        batch = 0
        while i < hi and batch < PREFETCH_BATCH:
            c = expand_state(frontier[i], tables, kids[batch:], moves[batch:])
            i += 1
            for j in range(batch, batch + c):
                if costs[moves[j]] == want:
                    r = rank_state(kids[j], tables)
                    prefetch(bits, r >> 6)
                    prefetch(entries, r // group)
                    copy_at(kids, batch, kids, j)
                    ranks[batch] = r
                    batch += 1
        generated += batch
        for j in range(batch):
            r = ranks[j]
            word = r >> 6
            bit = np.uint64(1) << np.uint64(r & 63)
            if bits[word] & bit == 0 and atomic_or(bits, word, bit) & bit == 0:
                if entries[r // group] > depth:
                    entries[r // group] = depth
                copy_at(scratch, out + k, kids, j)
                k += 1
    return generated, k
