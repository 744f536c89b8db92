"""Conjugation by table lookups alone: the fast path of ``conjugates`` for puzzles whose orbits
all have small tables (the 2x2x2's corners: 40,320 permutations, 2,187 orientations).

Per orbit, a conjugate's coordinates follow from the state's without decoding it:

- its **permutation** coordinate is ``perm[x, g]`` (``conjugates.permutation_table``);
- its **orientations** are, slot by slot, the state's orientation in the slot the symmetry takes
  it from (turned backwards by a mirror) plus an offset that depends on the piece there. Both
  parts are kept as *fields* of ``field_bits`` bits per slot in one int64: ``turned[y, g]`` from
  the orientation coordinate ``y``, ``offsets[x, g]`` from the permutation coordinate ``x``.
  Their sum is reduced mod ``k`` in all fields at once (a field at least ``k`` has its top bit
  set once ``2**(field_bits - 1) - k`` is added), and read back as a coordinate by
  ``digits[chunk, fields of the chunk]``: each chunk of up to ``CHUNK_BITS`` bits of fields
  gives its share of the base-``k`` number, the implied last orientation left out.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch._numba import loop, state_function
from vecsearch.engine import map_blocks
from vecsearch.kernels.intrinsics import popcount, prefetch
from vecsearch.puzzles.permutation.conjugates import ORIENTATION, PERMUTATION, decode, slot_scratch

TABLE_ENTRIES = 1 << 24  # entries of one orbit's table (state coordinate x symmetries) this path takes
CHUNK_BITS = 12  # bits of fields one digits lookup reads
MAX_MASKED = 63  # canonical_ranks keeps the symmetries still in the running as bits of an int64
BLOCK = 1 << 14  # states a thread takes at a time
AHEAD = 4  # states whose table rows are prefetched before they are read


class LookupTables(NamedTuple):
    orbits: np.ndarray  # (orbits, 14): the columns named below
    perm: np.ndarray  # int32, flat: per orbit (x, g)
    turned: np.ndarray  # int64, flat: per orbit (y, g): the orientation fields turned
    offsets: np.ndarray  # int64, flat: per orbit (x, g): the offset fields
    digits: np.ndarray  # int64, flat: per orbit (chunk, 2**chunk bits): the coordinate's share
    least: np.ndarray  # int64 (first orbit's permutations,): the least coordinate its conjugates have
    least_by: np.ndarray  # int64 (same): the symmetries giving it, a bit each (none when over 63 symmetries)


# columns of LookupTables.orbits
(P_WEIGHT, P_SIZE, P_AT, O_WEIGHT, O_SIZE, TURNED_AT, OFFSETS_AT, DIGITS_AT, FIELD_BITS, K, CHUNKS, CHUNK_FIELDS,
 ORIENTED, ONES) = range(14)


def field_bits(k: int) -> int:
    """Bits per field: room for a sum of two orientations (< 2k - 1) and a spare top bit."""
    return (2 * k - 2).bit_length() + 1


def lookup_tables(t, component: int) -> LookupTables | None:
    """The tables for ``conjugates.ConjugateTables`` ``t`` (with its permutation tables) in
    ``component``, or None when an orbit's would be too big or its fields overflow 62 bits."""
    symmetries = t.source.shape[0]
    coords = t.coords.tolist()
    rows, turned, offsets, digits = [], [], [], []
    at = {"turned": 0, "offsets": 0, "digits": 0}
    for j, (_, n, k) in enumerate(t.orbits.tolist()):
        perm = [c for c, row in enumerate(coords) if row[0] == j and row[1] == PERMUTATION]
        twist = [c for c, row in enumerate(coords) if row[0] == j and row[1] == ORIENTATION]
        if not perm or t.perm_at[j] < 0:
            return None
        p = perm[0]
        row = [0] * 14
        row[P_WEIGHT], row[P_SIZE], row[P_AT] = coords[p][4], coords[p][2], t.perm_at[j]
        if twist:
            o = twist[0]
            bits = field_bits(k)
            size = coords[o][2]
            if n * bits > 62 or size * symmetries > TABLE_ENTRIES:
                return None
            fields = max(1, CHUNK_BITS // bits)
            chunks = -(-n // fields)
            row[O_WEIGHT], row[O_SIZE], row[FIELD_BITS], row[K] = coords[o][4], size, bits, k
            row[CHUNKS], row[CHUNK_FIELDS], row[ORIENTED] = chunks, fields, 1
            row[ONES] = sum(1 << (s * bits) for s in range(62 // bits))  # a 1 in the lowest bit of each field
            row[TURNED_AT], row[OFFSETS_AT], row[DIGITS_AT] = at["turned"], at["offsets"], at["digits"]
            turned_table = np.empty((size, symmetries), np.int64)
            offsets_table = np.empty((row[P_SIZE], symmetries), np.int64)
            fill_fields(t, np.int64(j), np.int64(p), np.int64(o), np.int64(component), np.int64(bits), turned_table,
                        offsets_table)
            last = n - 1 if coords[o][3] > 1 else n  # slots the coordinate counts (the last one implied)
            digit_table = np.zeros((chunks, 1 << (fields * bits)), np.int64)
            for chunk in range(chunks):
                for value in range(1 << (fields * bits)):
                    share = 0
                    for i in range(fields):
                        slot = chunk * fields + i
                        if slot < last:
                            share += ((value >> (i * bits)) & ((1 << bits) - 1)) * k ** (last - 1 - slot)
                    digit_table[chunk, value] = share
            turned.append(turned_table.ravel())
            offsets.append(offsets_table.ravel())
            digits.append(digit_table.ravel())
            at["turned"] += turned_table.size
            at["offsets"] += offsets_table.size
            at["digits"] += digit_table.size
        rows.append(row)
    flat = [np.concatenate(parts) if parts else np.zeros(0, np.int64) for parts in (turned, offsets, digits)]
    first = t.perm_table[rows[0][P_AT]:rows[0][P_AT] + rows[0][P_SIZE] * symmetries].reshape(-1, symmetries)
    least = first.min(axis=1).astype(np.int64)
    by = np.zeros(len(first), np.int64)
    if symmetries <= MAX_MASKED:
        for g in range(symmetries):
            by |= (first[:, g] == least).astype(np.int64) << g
    return LookupTables(np.array(rows, np.int64), t.perm_table, *flat, least, by)


def fill_fields(t, j, p, o, component, bits, turned, offsets):
    """``turned[y, g]``: the fields of orientation coordinate ``y`` (of orbit ``j``, coordinate
    ``o``) turned by symmetry ``g``; ``offsets[x, g]``: the offset fields its pieces get when the
    permutation coordinate (``p``) is ``x``."""
    map_blocks(lambda lo, hi: turned_fields(t, j, o, component, bits, turned, *slot_scratch(t)[:2], lo, hi),
               len(turned), BLOCK)
    map_blocks(lambda lo, hi: offset_fields(t, j, p, component, bits, offsets, *slot_scratch(t)[:2], lo, hi),
               len(offsets), BLOCK)


@loop
def turned_fields(t, j, o, component, bits, turned, pieces, twists, lo, hi):
    """``fill_fields``' rows ``turned[lo:hi]`` (``pieces``, ``twists``: scratch, a slot each)."""
    start, n, k = t.orbits[j, 0], t.orbits[j, 1], t.orbits[j, 2]
    symmetries = t.source.shape[0]
    for y in range(lo, hi):
        decode(y * t.coords[o, 4], component, t, pieces, twists)
        for g in range(symmetries):
            fields = np.int64(0)
            for s in range(n):
                fields |= ((t.sign[g] * twists[t.source[g, start + s]]) % k) << (s * bits)
            turned[y, g] = fields


@loop
def offset_fields(t, j, p, component, bits, offsets, pieces, twists, lo, hi):
    """``fill_fields``' rows ``offsets[lo:hi]`` (``pieces``, ``twists``: scratch, a slot each)."""
    start, n = t.orbits[j, 0], t.orbits[j, 1]
    symmetries = t.source.shape[0]
    for x in range(lo, hi):
        decode(x * t.coords[p, 4], component, t, pieces, twists)
        for g in range(symmetries):
            fields = np.int64(0)
            for s in range(n):
                fields |= t.offset[g, start + s, pieces[t.source[g, start + s]]] << (s * bits)
            offsets[x, g] = fields


@state_function
def conjugate_fields(f, j, turned_at, offsets_at):
    """Orbit ``j``'s orientations of a conjugate, a field per slot: its turned fields
    (``turned_at``) plus its offset fields (``offsets_at``), reduced mod k in all fields at once."""
    bits, k, ones = f.orbits[j, FIELD_BITS], f.orbits[j, K], f.orbits[j, ONES]
    fields = f.turned[turned_at] + f.offsets[offsets_at]
    return fields - (((fields + ones * ((np.int64(1) << (bits - 1)) - k)) & (ones << (bits - 1))) >> (bits - 1)) * k


@state_function
def fields_coordinate(f, j, fields):
    """Orbit ``j``'s orientation coordinate of its orientations ``fields``."""
    chunk_bits = f.orbits[j, CHUNK_FIELDS] * f.orbits[j, FIELD_BITS]
    y = np.int64(0)
    for c in range(f.orbits[j, CHUNKS]):
        y += f.digits[f.orbits[j, DIGITS_AT] + (c << chunk_bits) + ((fields >> (c * chunk_bits))
                                                                      & ((np.int64(1) << chunk_bits) - 1))]
    return y


@state_function
def turned_coordinate(f, j, turned_at, offsets_at):
    """Orbit ``j``'s orientation coordinate of a conjugate (``conjugate_fields``)."""
    return fields_coordinate(f, j, conjugate_fields(f, j, turned_at, offsets_at))


@loop
def lookup_chunk(ranks, lo, hi, f, out):
    symmetries = out.shape[1]
    for i in range(lo, hi):
        if i + AHEAD < hi:
            ahead = ranks[i + AHEAD]
            for j in range(f.orbits.shape[0]):
                x = (ahead // f.orbits[j, P_WEIGHT]) % f.orbits[j, P_SIZE]
                prefetch(f.perm, f.orbits[j, P_AT] + x * symmetries)
                if f.orbits[j, ORIENTED] != 0:
                    prefetch(f.offsets, f.orbits[j, OFFSETS_AT] + x * symmetries)
                    prefetch(f.offsets, f.orbits[j, OFFSETS_AT] + x * symmetries + symmetries - 1)
                    y = (ahead // f.orbits[j, O_WEIGHT]) % f.orbits[j, O_SIZE]
                    prefetch(f.turned, f.orbits[j, TURNED_AT] + y * symmetries)
        for g in range(symmetries):
            out[i, g] = 0
        r = ranks[i]
        for j in range(f.orbits.shape[0]):
            x = (r // f.orbits[j, P_WEIGHT]) % f.orbits[j, P_SIZE]
            p_row = f.orbits[j, P_AT] + x * symmetries
            weight = f.orbits[j, P_WEIGHT]
            if f.orbits[j, ORIENTED] == 0:
                for g in range(symmetries):
                    out[i, g] += f.perm[p_row + g] * weight
                continue
            y = (r // f.orbits[j, O_WEIGHT]) % f.orbits[j, O_SIZE]
            t_row = f.orbits[j, TURNED_AT] + y * symmetries
            o_row = f.orbits[j, OFFSETS_AT] + x * symmetries
            o_weight = f.orbits[j, O_WEIGHT]
            for g in range(symmetries):
                out[i, g] += f.perm[p_row + g] * weight + turned_coordinate(f, j, t_row + g, o_row + g) * o_weight


def lookup_conjugate_ranks(ranks, f, symmetries):
    """``out[i, g]``: the rank of the conjugate of ``ranks[i]`` by symmetry ``g``, by lookups."""
    out = np.empty((len(ranks), symmetries), np.int64)
    map_blocks(lambda lo, hi: lookup_chunk(ranks, lo, hi, f, out), len(ranks), BLOCK)
    return out


@loop
def canonical_chunk(ranks, lo, hi, f, symmetries, canonical, stabiliser):
    """``canonical[i]``: the least rank among the conjugates of ``ranks[i]``, found coordinate by
    coordinate (most significant first) among the symmetries still giving the least so far;
    ``stabiliser[i]``: how many symmetries give it (as many as fix the state)."""
    y = np.int64(0)
    for i in range(lo, hi):
        r = ranks[i]
        x0 = (r // f.orbits[0, P_WEIGHT]) % f.orbits[0, P_SIZE]
        running = f.least_by[x0]
        rank = f.least[x0] * f.orbits[0, P_WEIGHT]
        for j in range(f.orbits.shape[0]):
            x = (r // f.orbits[j, P_WEIGHT]) % f.orbits[j, P_SIZE]
            for part in range(2):
                if (part == 0 and j == 0) or (part == 1 and f.orbits[j, ORIENTED] == 0):
                    continue
                if part == 1:
                    y = (r // f.orbits[j, O_WEIGHT]) % f.orbits[j, O_SIZE]
                best = np.int64(-1)
                kept = np.int64(0)
                left = running
                while left != 0:
                    g = popcount((left & -left) - 1)
                    left &= left - 1
                    if part == 0:
                        v = np.int64(f.perm[f.orbits[j, P_AT] + x * symmetries + g])
                    else:
                        v = turned_coordinate(f, j, f.orbits[j, TURNED_AT] + y * symmetries + g,
                                              f.orbits[j, OFFSETS_AT] + x * symmetries + g)
                    if best < 0 or v < best:
                        best, kept = v, np.int64(1) << g
                    elif v == best:
                        kept |= np.int64(1) << g
                running = kept
                rank += best * (f.orbits[j, P_WEIGHT] if part == 0 else f.orbits[j, O_WEIGHT])
        canonical[i] = rank
        stabiliser[i] = popcount(running)


def lookup_canonical_ranks(ranks, f, symmetries):
    """``(canonical, stabiliser)`` of ``canonical_chunk`` for every rank (at most 63 symmetries)."""
    canonical = np.empty(len(ranks), np.int64)
    stabiliser = np.empty(len(ranks), np.int64)
    map_blocks(lambda lo, hi: canonical_chunk(ranks, lo, hi, f, symmetries, canonical, stabiliser), len(ranks), BLOCK)
    return canonical, stabiliser
