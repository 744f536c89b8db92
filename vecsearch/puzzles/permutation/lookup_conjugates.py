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
from numba import prange

from vecsearch._numba import loop, parallel_kernel
from vecsearch.kernels.intrinsics import prefetch
from vecsearch.puzzles.permutation.conjugates import ORIENTATION, PERMUTATION, decode

TABLE_ENTRIES = 1 << 24  # entries of one orbit's table (state coordinate x symmetries) this path takes
CHUNK_BITS = 12  # bits of fields one digits lookup reads
CHUNK = 1024  # states a thread takes at a time
AHEAD = 4  # states whose table rows are prefetched before they are read


class LookupTables(NamedTuple):
    orbits: np.ndarray  # (orbits, 13): see ORBIT_FIELDS
    perm: np.ndarray  # int32, flat: per orbit (x, g)
    turned: np.ndarray  # int64, flat: per orbit (y, g): the orientation fields turned
    offsets: np.ndarray  # int64, flat: per orbit (x, g): the offset fields
    digits: np.ndarray  # int64, flat: per orbit (chunk, 2**chunk bits): the coordinate's share


# columns of LookupTables.orbits
(P_WEIGHT, P_SIZE, P_AT, O_WEIGHT, O_SIZE, TURNED_AT, OFFSETS_AT, DIGITS_AT, FIELD_BITS, K, CHUNKS, CHUNK_FIELDS,
 ORIENTED) = range(13)


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
    for j, (start, n, k) in enumerate(t.orbits.tolist()):
        perm = [c for c, row in enumerate(coords) if row[0] == j and row[1] == PERMUTATION]
        twist = [c for c, row in enumerate(coords) if row[0] == j and row[1] == ORIENTATION]
        if not perm or t.perm_at[j] < 0:
            return None
        p = perm[0]
        row = [0] * 13
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
    return LookupTables(np.array(rows, np.int64), t.perm_table, *flat)


@parallel_kernel
def fill_fields(t, j, p, o, component, bits, turned, offsets):
    """``turned[y, g]``: the fields of orientation coordinate ``y`` (of orbit ``j``, coordinate
    ``o``) turned by symmetry ``g``; ``offsets[x, g]``: the offset fields its pieces get when the
    permutation coordinate (``p``) is ``x``."""
    start, n, k = t.orbits[j, 0], t.orbits[j, 1], t.orbits[j, 2]
    symmetries, slots = t.source.shape[0], t.source.shape[1]
    for y in prange(turned.shape[0]):
        pieces = np.empty(slots, np.int64)
        twists = np.empty(slots, np.int64)
        decode(y * t.coords[o, 4], component, t, pieces, twists)
        for g in range(symmetries):
            fields = np.int64(0)
            for s in range(n):
                fields |= ((t.sign[g] * twists[t.source[g, start + s]]) % k) << (s * bits)
            turned[y, g] = fields
    for x in prange(offsets.shape[0]):
        pieces = np.empty(slots, np.int64)
        twists = np.empty(slots, np.int64)
        decode(x * t.coords[p, 4], component, t, pieces, twists)
        for g in range(symmetries):
            fields = np.int64(0)
            for s in range(n):
                fields |= t.offset[g, start + s, pieces[t.source[g, start + s]]] << (s * bits)
            offsets[x, g] = fields


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
            bits, k, chunks = f.orbits[j, FIELD_BITS], f.orbits[j, K], f.orbits[j, CHUNKS]
            chunk_bits = f.orbits[j, CHUNK_FIELDS] * bits
            chunk_mask = (np.int64(1) << chunk_bits) - 1
            ones = np.int64(0)
            for s in range(62 // bits):
                ones |= np.int64(1) << (s * bits)
            lift = ones * ((np.int64(1) << (bits - 1)) - k)
            tops = ones << (bits - 1)
            digits_at, o_weight = f.orbits[j, DIGITS_AT], f.orbits[j, O_WEIGHT]
            for g in range(symmetries):
                fields = f.turned[t_row + g] + f.offsets[o_row + g]
                fields -= (((fields + lift) & tops) >> (bits - 1)) * k
                y2 = np.int64(0)
                for c in range(chunks):
                    y2 += f.digits[digits_at + (c << chunk_bits) + ((fields >> (c * chunk_bits)) & chunk_mask)]
                out[i, g] += f.perm[p_row + g] * weight + y2 * o_weight


@parallel_kernel
def lookup_conjugate_ranks(ranks, f, symmetries):
    """``out[i, g]``: the rank of the conjugate of ``ranks[i]`` by symmetry ``g``, by lookups."""
    n = ranks.shape[0]
    out = np.empty((n, symmetries), np.int64)
    for chunk in prange((n + CHUNK - 1) // CHUNK):
        lookup_chunk(ranks, chunk * CHUNK, min(n, (chunk + 1) * CHUNK), f, out)
    return out
