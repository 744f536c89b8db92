"""Hash-set kernels: visited sets of whole states, for puzzles without a compact rank.

An ordinary module bound per family by ``vecsearch.engine.runtime.codegen``, like ``layer_template``
(see there for layers and ranges). A hash table ``keys`` is a one-dimensional int64 array of
power-of-two length whose empty slots hold -1; ``vecsearch.engine.runtime.visited.HashVisited``
keeps it at most half full.

- A narrow state (one word) is its own key.
- A wide state (``WIDTH`` words) is kept in a *store*, a layer of states in the order they were
  taken (``store[i]``, ``i < stored``), and its key is ``tag << INDEX_BITS | i``: ``tag``, bits of
  its hash above those that choose its slot, rules out almost every other state without reading
  the store. A slot takes 8 bytes rather than ``8 * WIDTH`` (the megaminx's 64): a table at most
  half full costs 16 to 64 bytes a state on top of the state itself, not 128 to 512.
"""

import numpy as np

from vecsearch.engine.runtime.layer_template import PREFETCH_BATCH, next_states
from vecsearch.kernels.intrinsics import cycles, prefetch
from vecsearch.kernels.phases import CLAIM, EXPAND, add_cycles
from vecsearch.kernels.roles import (
    MAX_MOVES,
    WIDTH,
    copy_at,
    equal_at,
    hash_at,
    kernel,
    less_at,
    state_function,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("expand_all_range", "hash_grow", "hash_claim", "hash_rehash", "least_in_hash")

INDEXED = WIDTH > 1  # wide states: keys index a store of the states
INDEX_BITS = 40  # a key's low bits: the state's index in the store (up to 2^40 states)
INDEX_MASK = (1 << INDEX_BITS) - 1
TAG_BITS = 23  # the bits of the hash above the index: a key stays positive, never -1 (empty)


@kernel
def expand_all_range(frontier, lo, hi, tables, backward, scratch, out):
    """Write every child of ``frontier[lo:hi]`` to ``scratch[out:]``; returns their number."""
    moves = np.empty(MAX_MOVES, np.int64)
    count = 0
    for i in range(lo, hi):
        count += next_states(frontier[i], tables, backward, scratch[out + count:], moves)
    return count


@kernel
def hash_grow(buffer, lo, hi, tables, backward, keys, store, count, other, other_store, check_other, clock,
              max_layers, small, stride, stats):
    """``bitset_grow`` for a hash table ``keys`` holding ``count`` states (wide ones in
    ``store``); also stops before a layer whose children could fill the table past half."""
    spent = np.zeros(clock.shape[0], np.int64)
    half = keys.shape[0] // 2
    grown = 0
    while (grown < max_layers and hi - lo < small and hi + (hi - lo) * stride <= buffer.shape[0]
           and count + (hi - lo) * stride <= half):
        began = cycles()
        out = hi + expand_all_range(buffer, lo, hi, tables, backward, buffer, hi)
        expanded = cycles()
        new, meets = hash_claim(buffer[hi:out], out - hi, keys, store, count, other, other_store, check_other)
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
def key_tag(h):
    """The tag of a wide state of hash ``h``, shifted into place in its key."""
    return ((h >> INDEX_BITS) & ((1 << TAG_BITS) - 1)) << INDEX_BITS


@state_function
def key_holds(key, tag, store, states, i):
    """Whether ``key`` (a slot's, not empty) is the key of ``states[i]``, whose tag is ``tag``."""
    if INDEXED:
        return key & ~INDEX_MASK == tag and equal_at(store, key & INDEX_MASK, states, i)
    return key == states[i]


@state_function
def hash_insert_from(keys, store, stored, h, states, i):
    """Insert ``states[i]`` (hash ``h``) into the table ``keys`` (a wide state into ``store`` at
    ``stored``), probing from its slot; True if it was not there. (The insert sits inside the
    probe loop: a slot-finding loop followed by a second test compiled 4x slower for wide
    states.)"""
    mask = keys.shape[0] - 1
    slot = h & mask
    tag = key_tag(h)
    while True:
        key = keys[slot]
        if key == -1:
            if INDEXED:
                copy_at(store, stored, states, i)
                keys[slot] = tag | stored
            else:
                keys[slot] = states[i]
            return True
        if key_holds(key, tag, store, states, i):
            return False
        slot = (slot + 1) & mask


@state_function
def hash_contains(keys, store, states, i):
    """Whether ``states[i]`` is in the table ``keys`` (its wide states in ``store``)."""
    mask = keys.shape[0] - 1
    h = hash_at(states, i)
    slot = h & mask
    tag = key_tag(h)
    while True:
        key = keys[slot]
        if key == -1:
            return False
        if key_holds(key, tag, store, states, i):
            return True
        slot = (slot + 1) & mask


@kernel
def hash_claim(states, count, keys, store, stored, other, other_store, check_other):
    """Insert ``states[:count]`` into the table ``keys`` (kept at most half full by the caller;
    wide states into ``store`` from ``stored`` on).

    States go in batches: hash a batch and prefetch its home slots, then insert (1.5x once the
    table outgrows the L2 cache). New states are compacted to the front of ``states``;
    ``meets`` counts new states present in the table ``other`` (its states in ``other_store``).
    Returns ``(new, meets)``.
    """
    mask = keys.shape[0] - 1
    hashes = np.empty(PREFETCH_BATCH, np.int64)
    new = 0
    meets = 0
    for lo in range(0, count, PREFETCH_BATCH):
        hi = min(count, lo + PREFETCH_BATCH)
        for i in range(lo, hi):
            h = hash_at(states, i)
            hashes[i - lo] = h
            prefetch(keys, h & mask)
        for i in range(lo, hi):
            if hash_insert_from(keys, store, stored + new, hashes[i - lo], states, i):
                if check_other and hash_contains(other, other_store, states, i):
                    meets += 1
                copy_at(states, new, states, i)
                new += 1
    return new, meets


@kernel
def hash_rehash(old, new, store, stored):
    """Insert every key of the table ``old`` into the empty table ``new`` (wide states: the keys
    of ``store[:stored]``, read in order)."""
    mask = new.shape[0] - 1
    if INDEXED:
        for j in range(stored):
            h = hash_at(store, j)
            place_key(new, h & mask, key_tag(h) | j)
    else:
        for i in range(old.shape[0]):
            if old[i] != -1:
                place_key(new, hash_at(old, i) & mask, old[i])


@state_function
def place_key(keys, slot, key):
    """Put ``key`` in the first empty slot from ``slot`` on (its state is not in the table)."""
    mask = keys.shape[0] - 1
    while keys[slot] != -1:
        slot = (slot + 1) & mask
    keys[slot] = key


@kernel
def least_in_hash(states, keys, store):
    """Index of the least state (``less_at``) present in the table ``keys``, or -1."""
    best = -1
    for i in range(states.shape[0]):
        if (best < 0 or less_at(states, i, states, best)) and hash_contains(keys, store, states, i):
            best = i
    return best
