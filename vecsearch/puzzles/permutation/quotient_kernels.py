"""Kernels of ``quotient``: the coordinate values that keep the reference piece at home, and the
quotient's orbits under the symmetries.

The image of a quotient state ``u`` under a symmetry ``g`` (``images``): its coordinates as the
puzzle's (``embed``), its conjugate's (by lookups, ``lookup_conjugates``: per orbit a
permutation table and orientation fields, for all the symmetries at once; else from the
conjugate's rank, ``conjugates``), the rotation ``ρ`` that brings the reference piece home again
with the quotient's permutation value after it (``ref_home``, by the piece's slot, ``ref_slot``,
and twist, ``twist_of``), and the other coordinates turned by ``ρ`` and read as the quotient's
(``home``). ``find_orbits`` takes each state whose orbit is not known yet, finds all its images
and writes every member's table entry: each orbit is numbered and written once, by the thread
that marks its representative first (another thread that found it meanwhile writes nothing), in
``|quotient|`` images in all.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import loop, state_function
from vecsearch.kernels.intrinsics import atomic_add, atomic_or
from vecsearch.puzzles.permutation.conjugates import conjugate_chunk, decode
from vecsearch.puzzles.permutation.lookup_conjugates import (
    OFFSETS_AT,
    P_AT,
    TURNED_AT,
    conjugate_fields,
    fields_coordinate,
)

BLOCK = 1 << 14  # states a thread takes at a time (a call costs tens of microseconds: its arguments typed)

CP, CO, K = range(3)  # ActionTables.ref


class ActionTables(NamedTuple):
    coords: np.ndarray  # (coordinates, 2): the puzzle's size and weight of each
    quotient: np.ndarray  # (coordinates, 2): the quotient's size and weight of each
    embed: np.ndarray  # flat: per coordinate, the puzzle's value of each quotient value
    embed_at: np.ndarray
    home: np.ndarray  # int32, flat: per coordinate (value, rotation): the quotient's value after the rotation
    home_at: np.ndarray  # (-1 where the rotation leaves the reference piece astray; unused for CP's)
    ref: np.ndarray  # the reference orbit's permutation and orientation coordinates (-1: none), k
    orbit_coords: np.ndarray  # (orbits, 2): each orbit's permutation and orientation coordinates (-1: none)
    ref_slot: np.ndarray  # int8, per permutation value: the reference piece's slot (in its orbit)
    twist_of: np.ndarray  # int8 (orientation values, slots): the twist in each slot
    ref_home: np.ndarray  # per permutation value * k + the reference piece's twist: the rotation that takes
    #                       the piece home << 32 | the quotient's permutation value after it
    rmul: np.ndarray  # rotations: a then b
    rinv: np.ndarray
    conj: np.ndarray  # (symmetries, rotations): g⁻¹ r g
    carry: np.ndarray  # (symmetries, symmetries): carry[to, g] = g⁻¹ to, which maps image g to image to


@loop
def coordinate_slots(t, c, component, pieces, twists, held, turned, lo, hi):
    """``pieces[x]``, ``twists[x]`` for ``x`` in ``[lo, hi)``: the pieces and twists in the slots of
    coordinate ``c``'s orbit when the coordinate is ``x`` (the others 0); ``held`` and ``turned``:
    scratch, a slot each."""
    start, size = t.orbits[t.coords[c, 0], 0], t.orbits[t.coords[c, 0], 1]
    for x in range(lo, hi):
        decode(x * t.coords[c, 4], component, t, held, turned)
        for s in range(size):
            pieces[x, s] = held[start + s]
            twists[x, s] = turned[start + s]


@state_function
def rehomed(values, a):
    """``(quotient rank, rotation)``: the position whose puzzle coordinates are ``values``
    turned by the rotation that brings the reference piece home, and that rotation."""
    cp, co = a.ref[CP], a.ref[CO]
    twist = 0
    if co >= 0:
        twist = a.twist_of[values[co], a.ref_slot[values[cp]]]
    both = a.ref_home[values[cp] * a.ref[K] + twist]
    rho = both >> 32
    rotations = a.rinv.shape[0]
    out = (both & 0xFFFFFFFF) * a.quotient[cp, 1]
    for c in range(a.coords.shape[0]):
        if c != cp:
            out += a.home[a.home_at[c] + values[c] * rotations + rho] * a.quotient[c, 1]
    return out, rho


@state_function
def puzzle_values(u, a, values):
    """``values[c]``: the puzzle's coordinate ``c`` of quotient state ``u``."""
    rest = u
    for c in range(a.quotient.shape[0]):
        weight = a.quotient[c, 1]
        v = rest // weight
        rest -= v * weight
        values[c] = a.embed[a.embed_at[c] + v]


class Scratch(NamedTuple):
    """What ``images`` works in (``scratch``): a thread's, made once per range."""

    values: np.ndarray  # (coordinates,)
    conjugated: np.ndarray  # (symmetries, coordinates)
    fields: np.ndarray  # (symmetries,)
    image: np.ndarray  # (symmetries,): find_orbits' images and rotations
    rho: np.ndarray
    one: np.ndarray  # (1,): conjugates.conjugate_chunk's ranks, out and scratch
    conjugate: np.ndarray  # (1, symmetries)
    pieces: np.ndarray  # (slots,)
    twists: np.ndarray
    moved: np.ndarray
    coordinate_values: np.ndarray  # (the conjugate tables' coordinates,)


def scratch(a: ActionTables, t) -> Scratch:
    """A ``Scratch`` for the action tables ``a`` and conjugate tables ``t``."""
    coordinates, order, slots = a.coords.shape[0], a.carry.shape[0], t.source.shape[1]
    return Scratch(*(np.empty(shape, np.int64) for shape in (
        coordinates, (order, coordinates), order, order, order, 1, (1, order), slots, slots, slots,
        t.coords.shape[0])))


@state_function
def images(u, a, f, t, lookups, component, image, rho, work):
    """``image[g]``, ``rho[g]``: quotient state ``u``'s image under symmetry ``g`` and the rotation
    that re-homed it; its conjugates' coordinates by lookups (``lookup_conjugates``: per orbit, a
    permutation table and orientation fields) or from their ranks (``conjugates``). ``work``: a
    ``Scratch``."""
    values, conjugated, fields = work.values, work.conjugated, work.fields
    puzzle_values(u, a, values)
    order = image.shape[0]
    if lookups:
        for j in range(f.orbits.shape[0]):  # the coordinates of all conjugates, orbit by orbit
            cp, co = a.orbit_coords[j, 0], a.orbit_coords[j, 1]
            x = values[cp]
            row = f.orbits[j, P_AT] + x * order
            for g in range(order):
                conjugated[g, cp] = f.perm[row + g]
            if co >= 0:
                turned, offsets = f.orbits[j, TURNED_AT] + values[co] * order, f.orbits[j, OFFSETS_AT] + x * order
                for g in range(order):
                    fields[g] = conjugate_fields(f, j, turned + g, offsets + g)
                for g in range(order):
                    conjugated[g, co] = fields_coordinate(f, j, fields[g])
    else:
        one, conjugate = work.one, work.conjugate
        one[0] = 0
        for c in range(a.coords.shape[0]):
            one[0] += values[c] * a.coords[c, 1]
        conjugate_chunk(one, 0, 1, component, t, conjugate, work.pieces, work.twists, work.moved,
                        work.coordinate_values)
        for g in range(order):
            for c in range(a.coords.shape[0]):
                conjugated[g, c] = (conjugate[0, g] // a.coords[c, 1]) % a.coords[c, 0]
    for g in range(order):
        image[g], rho[g] = rehomed(conjugated[g], a)


@loop
def find_orbits(a, f, t, lookups, component, map_bits, entry, known, chosen, representatives, symmetric, count, work,
                lo, hi):
    """Every quotient state's ``entry``: its orbit << ``map_bits + 1`` | whether symmetries other
    than the identity fix the orbit's representative << ``map_bits`` | the fibre map that carries
    its fibre to the representative's. An orbit is numbered by the thread that marks its
    representative (its least state) in ``chosen`` first: ``representatives[orbit]``, and
    ``symmetric`` lists the orbits whose representative symmetries other than the identity fix
    (``count``: how many of each so far). ``known``: a bit per state whose entry is written, set
    without atomics (a bit lost to another thread's write costs a second look at its orbit, which
    then finds the representative marked and writes nothing). Looks at the states ``[lo, hi)``
    (``work``: a ``Scratch``); ranges may run in parallel."""
    order = a.carry.shape[0]
    one = np.uint64(1)
    image, rho = work.image, work.rho
    for u in range(lo, hi):
        if (known[u >> 6] >> np.uint64(u & 63)) & one:
            continue
        images(u, a, f, t, lookups, component, image, rho, work)
        best, to = image[0], 0
        for g in range(1, order):
            if image[g] < best:
                best, to = image[g], g
        bit = one << np.uint64(best & 63)
        if atomic_or(chosen, best >> 6, bit) & bit:
            continue  # another thread found this orbit
        orbit = atomic_add(count, 0, 1)
        representatives[orbit] = best
        fixing = 0
        for g in range(order):
            if image[g] == best:
                fixing += 1
        head = orbit << 1
        if fixing > 1:
            symmetric[atomic_add(count, 1, 1)] = orbit
            head |= 1
        head <<= map_bits
        back = a.rinv[rho[to]]
        for g in range(order):
            h = a.carry[to, g]
            entry[image[g]] = head | (a.rmul[back, a.conj[h, rho[g]]] * order + h)
            known[image[g] >> 6] |= one << np.uint64(image[g] & 63)


@loop
def images_of(us, a, f, t, lookups, component, image, rho, work, lo, hi):
    """``image[i]``, ``rho[i]`` (each ``(symmetries,)``) for ``i`` in ``[lo, hi)``: ``images`` of
    quotient state ``us[i]`` (``work``: a ``Scratch``)."""
    for i in range(lo, hi):
        images(us[i], a, f, t, lookups, component, image[i], rho[i], work)
