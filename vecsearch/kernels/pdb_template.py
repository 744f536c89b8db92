"""Kernels of the 0-1 breadth-first enumeration behind pattern databases. Not imported directly.

``vecsearch.engine.pdb`` emits a module per abstract space through ``vecsearch.engine.codegen``:
a header binding the abstraction's ``expand_state`` and ``rank_state`` (see
``layer_template.py``), then this text. ``costs[m]`` is the cost (0 or 1) of move ``m``;
``entries[rank // group]`` receives the depth of the first state of its group reached (the
least distance of the group, as depths never decrease), 255 where none was reached yet.
"""

import numpy as np
from numba import prange

from vecsearch.kernels.intrinsics import atomic_or

UNREACHED = 255


@kernel  # noqa: F821 (bound by the generated header)
def claim_goals(states, tables, bits, entries, group):
    """Claim ``states`` at depth 0; keeps the new ones at the front and returns their number."""
    new = 0
    for i in range(states.shape[0]):
        r = rank_state(states[i], tables)  # noqa: F821
        word = r >> 6
        bit = np.uint64(1) << np.uint64(r & 63)
        if bits[word] & bit == 0:
            bits[word] |= bit
            entries[r // group] = 0
            states[new] = states[i]
            new += 1
    return new


@parallel_kernel  # noqa: F821
def expand_cost(frontier, tables, bits, costs, want, scratch, block, entries, group, depth):
    """Children of ``frontier`` by moves of cost ``want`` whose rank bit was clear: claimed with an
    atomic fetch-or (each exactly once), recorded at ``depth`` and compacted to the front of
    ``scratch`` (``len(frontier) * MAX_MOVES`` rows). Returns ``(generated, new)``."""
    n = frontier.shape[0]
    nblocks = (n + block - 1) // block
    new_counts = np.zeros(nblocks, np.int64)
    generated = np.zeros(nblocks, np.int64)
    for b in prange(nblocks):
        kids = new_states(MAX_MOVES, WIDTH)  # noqa: F821
        moves = np.empty(MAX_MOVES, np.int64)  # noqa: F821
        out = b * block * MAX_MOVES  # noqa: F821
        k = 0
        for i in range(b * block, min(n, (b + 1) * block)):
            c = expand_state(frontier[i], tables, kids, moves)  # noqa: F821
            for j in range(c):
                if costs[moves[j]] != want:
                    continue
                generated[b] += 1
                r = rank_state(kids[j], tables)  # noqa: F821
                word = r >> 6
                bit = np.uint64(1) << np.uint64(r & 63)
                if bits[word] & bit == 0 and atomic_or(bits, word, bit) & bit == 0:
                    if entries[r // group] > depth:
                        entries[r // group] = depth
                    scratch[out + k] = kids[j]
                    k += 1
        new_counts[b] = k
    total = 0
    for b in range(nblocks):
        src = b * block * MAX_MOVES  # noqa: F821
        for j in range(new_counts[b]):
            scratch[total + j] = scratch[src + j]
        total += new_counts[b]
    return generated.sum(), total
