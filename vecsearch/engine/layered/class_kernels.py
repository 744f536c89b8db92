"""Kernels of the enumeration modulo symmetry: by least conjugates (``engine.layered.classes``) and
through a quotient's orbits and fibres (``engine.layered.fibres``). The ``lo, hi`` ones are serial
loops over a range of their input, run over blocks on several threads (``engine.runtime.blocks``)."""

import numpy as np

from vecsearch._numba import kernel, loop, state_function
from vecsearch.kernels.intrinsics import atomic_add, atomic_or, popcount, prefetch

AHEAD = 8  # ranks whose bitset words are prefetched before they are claimed
CLAIM_BLOCK = 1 << 16  # canonical ranks a thread takes at a time
BLOCK = 1 << 13  # frontier orbits a thread takes at a time (a call costs tens of microseconds: its arguments typed)


@loop
def claim_classes(canonical, bits, new, lo, hi):
    """``new[i]`` for ``i`` in ``[lo, hi)``: 1 when ``canonical[i]``'s bit in ``bits`` was clear
    and this ``i`` set it (one per class among these, the others 0)."""
    for i in range(lo, hi):
        if i + AHEAD < hi:
            prefetch(bits, canonical[i + AHEAD] >> 6)
        bit = np.uint64(1) << np.uint64(canonical[i] & 63)
        new[i] = (atomic_or(bits, canonical[i] >> 6, bit) & bit) == 0


# --- through a quotient: masks of fibre elements (uint64), fibre maps by number ---------------
@state_function
def mapped(mask, maps, row):
    """The fibre elements of ``mask`` sent through fibre map ``row`` (``maps[row, r]``: the image
    of element ``r``), bit by bit, or through the elements it lacks when they are fewer (a map
    is a permutation: the image of the complement is the complement of the image)."""
    one = np.uint64(1)
    every = (one << np.uint64(maps.shape[1])) - one
    flip = popcount(mask) * 2 > maps.shape[1]
    rest = every ^ mask if flip else mask
    out = np.uint64(0)
    while rest != 0:
        low = rest & ~(rest - one)
        out |= one << np.uint64(maps[row, popcount(low - one)])
        rest ^= low
    return every ^ out if flip else out


@state_function
def closed(mask, orbit, maps, stabiliser_at, stabiliser_maps):
    """``mask`` with its images under the stabiliser of ``orbit``'s representative."""
    out = mask
    for i in range(stabiliser_at[orbit], stabiliser_at[orbit + 1]):
        out |= mapped(mask, maps, stabiliser_maps[i])
    return out


@state_function
def arrive(state, mask, entry, map_bits, maps, stabiliser_at, stabiliser_maps, visited, arrived, found, count):
    """Fibre elements ``mask`` of quotient state ``state`` reached: its ``entry`` (orbit <<
    ``map_bits + 1`` | whether the orbit's representative has a stabiliser beyond the identity <<
    ``map_bits`` | fibre map) takes them to the representative's fibre; those not visited before
    are marked in ``visited`` and ``arrived``, and an orbit that had none arrived yet is appended
    to ``found`` (``count[0]``: its length)."""
    e = np.int64(entry[state])
    orbit = e >> (map_bits + 1)
    mask = mapped(mask, maps, e & ((np.int64(1) << map_bits) - 1))
    if (e >> map_bits) & 1:
        mask = closed(mask, orbit, maps, stabiliser_at, stabiliser_maps)
    if visited[orbit] & mask == mask:
        return
    new = mask & ~atomic_or(visited, orbit, mask)
    if new != 0 and atomic_or(arrived, orbit, new) == 0:
        found[atomic_add(count, 0, 1)] = orbit


@kernel
def settle_fibres(states, masks, entry, map_bits, maps, stabiliser_at, stabiliser_maps, visited, arrived, found,
                  count):
    """``arrive`` for each of ``states`` with its ``masks`` (the starts)."""
    for i in range(states.shape[0]):
        arrive(states[i], masks[i], entry, map_bits, maps, stabiliser_at, stabiliser_maps, visited, arrived, found,
               count)


@loop
def expand_fibres(frontier, masks, coords, steps, move_maps, entry, map_bits, maps, stabiliser_at, stabiliser_maps,
                  visited, arrived, found, count, children, lo, hi):
    """The children of quotient states ``frontier[lo:hi]`` (representatives) with fibre elements
    ``masks``: every move's quotient state (``steps``, a table per coordinate) with the mask sent
    through the move's fibre map, ``arrive``d (``children``: scratch, a slot per move)."""
    moves = move_maps.shape[0]
    for i in range(lo, hi):
        for m in range(moves):
            children[m] = 0
        rest = frontier[i]
        for c in range(coords.shape[0]):
            weight = coords[c, 1]
            value = rest // weight
            rest -= value * weight
            row = coords[c, 2] + value * moves
            for m in range(moves):
                children[m] += steps[row + m] * weight
        for m in range(moves):
            prefetch(entry, children[m])
        mask = masks[i]
        for m in range(moves):
            moved = mask if move_maps[m] == 0 else mapped(mask, maps, move_maps[m])
            arrive(children[m], moved, entry, map_bits, maps, stabiliser_at, stabiliser_maps, visited, arrived,
                   found, count)


@kernel
def count_fibres(orbits, masks, order, maps, stabiliser_at, stabiliser_maps):
    """``(classes, positions)`` of fibre elements ``masks`` of the representatives of ``orbits``:
    each element stands for ``order / |stabiliser|`` positions; the classes are its stabiliser's
    orbits among them."""
    classes, positions = 0, 0
    one = np.uint64(1)
    for i in range(orbits.shape[0]):
        o, mask = orbits[i], masks[i]
        fixing = 1 + stabiliser_at[o + 1] - stabiliser_at[o]
        positions += popcount(mask) * (order // fixing)
        if fixing == 1:
            classes += popcount(mask)
            continue
        rest = mask
        while rest != 0:
            low = rest & ~(rest - one)
            r = popcount(low - one)
            rest ^= low
            least = True
            for s in range(stabiliser_at[o], stabiliser_at[o + 1]):
                least = least and maps[stabiliser_maps[s], r] >= r
            if least:
                classes += 1
    return classes, positions
