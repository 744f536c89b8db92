"""Hash-set kernels: visited sets of whole states, for puzzles without a compact rank.

An ordinary module bound per family by ``vecsearch.engine.runtime.codegen``, like ``layer_template``
(see there for layers and ranges). A hash table is a layer of power-of-two length whose empty
slots have first word -1; ``vecsearch.engine.runtime.visited.HashVisited`` keeps it at most half full.
"""

import numpy as np

from vecsearch.engine.runtime.layer_template import PREFETCH_BATCH, next_states
from vecsearch.kernels.intrinsics import cycles, prefetch
from vecsearch.kernels.phases import CLAIM, EXPAND, add_cycles
from vecsearch.kernels.roles import (
    MAX_MOVES,
    WIDTH,
    copy_at,
    empty_at,
    equal_at,
    hash_at,
    kernel,
    less_at,
    state_function,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("expand_all_range", "hash_grow", "hash_claim", "hash_rehash", "least_in_hash")


@kernel
def expand_all_range(frontier, lo, hi, tables, backward, scratch, out):
    """Write every child of ``frontier[lo:hi]`` to ``scratch[out:]``; returns their number."""
    moves = np.empty(MAX_MOVES, np.int64)
    count = 0
    for i in range(lo, hi):
        count += next_states(frontier[i], tables, backward, scratch[out + count:], moves)
    return count


@kernel
def hash_grow(buffer, lo, hi, tables, backward, keys, count, other, check_other, clock, max_layers, small, stride,
              stats):
    """``bitset_grow`` for a hash table ``keys`` holding ``count`` states; also stops before a
    layer whose children could fill the table past half."""
    spent = np.zeros(clock.shape[0], np.int64)
    half = keys.shape[0] // 2
    grown = 0
    while (grown < max_layers and hi - lo < small and hi + (hi - lo) * stride <= buffer.shape[0]
           and count + (hi - lo) * stride <= half):
        began = cycles()
        out = hi + expand_all_range(buffer, lo, hi, tables, backward, buffer, hi)
        expanded = cycles()
        new, meets = hash_claim(buffer[hi:out], out - hi, keys, other, check_other)
        spent[EXPAND] += expanded - began
        spent[CLAIM] += cycles() - expanded
        count += new
        stats[grown, 0] = out - hi
        stats[grown, 1] = new
        stats[grown, 2] = meets
        grown += 1
        lo, hi = hi, hi + new
        if new == 0 or meets > 0:
            break
    add_cycles(clock, spent)
    return grown


@state_function
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


@state_function
def hash_insert(keys, states, i):
    return hash_insert_from(keys, hash_at(states, i) & (keys.shape[0] - 1), states, i)


@state_function
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


@kernel
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


@kernel
def hash_rehash(old, new):
    """Insert every key of the table ``old`` into the empty table ``new``."""
    for i in range(old.shape[0]):
        if not empty_at(old, i):
            hash_insert(new, old, i)


@kernel
def least_in_hash(states, keys):
    """Index of the least state (``less_at``) present in the table ``keys``, or -1."""
    best = -1
    for i in range(states.shape[0]):
        if (best < 0 or less_at(states, i, states, best)) and hash_contains(keys, states, i):
            best = i
    return best
