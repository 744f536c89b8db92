"""The ranks of a state's conjugates under a symmetry group, in bulk: what the engine's
enumeration modulo symmetry (``engine.layered.classes``) asks of a permutation puzzle.

A rank (``layout``'s coordinates: permutations of distinct pieces and orientations) is decoded
into slots, each symmetry's conjugate (``symmetry``) is built slot by slot and ranked again.
Slots are numbered across orbits (orbit ``j``'s slot ``i`` is ``start[j] + i``), and so are
labels. The coordinates form only: its rank is ``layout``'s (the other forms rank otherwise).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from vecsearch._numba import loop, state_function
from vecsearch.engine import map_blocks
from vecsearch.errors import PuzzleDefinitionError

PERMUTATION, ORIENTATION = 0, 1  # coordinate kinds
PERMUTATION_TABLE_ENTRIES = 1 << 24  # an orbit's permutations are conjugated by table up to this many entries


class ConjugateTables(NamedTuple):
    coords: np.ndarray  # (coordinates, 6): orbit, kind, size, classes, weight, class shift
    orbits: np.ndarray  # (orbits, 3): first slot, size, orientations
    factorials: np.ndarray  # 0! .. 20!
    source: np.ndarray  # (symmetries, slots): the slot whose piece lands in each slot
    sign: np.ndarray  # (symmetries,): -1 for a mirror
    rename: np.ndarray  # (symmetries, slots): each label's new label
    offset: np.ndarray  # (symmetries, slots, labels): twist a slot adds to the label it gets, mod k
    perm_at: np.ndarray  # (orbits,): where the orbit's permutation table starts in perm_table, or -1
    perm_table: np.ndarray  # int32: (size, symmetries) per tabled orbit: the conjugates' coordinates, a row per state


def conjugate_tables(puzzle, group) -> ConjugateTables:
    """The tables of ``conjugate_ranks`` for a ``PermutationPuzzle`` in the coordinates form and
    a ``SymmetryGroup`` of its definition."""
    definition = puzzle.definition
    if puzzle.representation != "coordinates" or not definition.distinct:
        raise PuzzleDefinitionError(f"{puzzle.name}: enumeration modulo symmetry takes distinct pieces in the"
                                    f" coordinates form (this puzzle is in the {puzzle.representation} form)")
    starts = np.cumsum([0] + [o.size for o in definition.orbits])
    kinds = {"permutation": PERMUTATION, "orientation": ORIENTATION}
    coords = np.array([(c.orbit, kinds[c.kind], c.size, c.classes, c.weight, c.class_shift)
                       for c in puzzle.layout.coordinates], np.int64)
    orbits = np.array([(starts[j], o.size, o.orientations) for j, o in enumerate(definition.orbits)], np.int64)
    source, rename = (np.empty((group.order, starts[-1]), np.int64) for _ in range(2))
    offset = np.zeros((group.order, starts[-1], max(o.size for o in definition.orbits)), np.int64)
    for g, (element, relabelling) in enumerate(zip(group.elements, group.relabellings, strict=True)):
        for j, (orbit, (perm, twist), (names, shifts)) in enumerate(zip(definition.orbits, element.changes,
                                                                       relabelling, strict=True)):
            at = slice(starts[j], starts[j + 1])
            source[g, at] = np.asarray(perm) + starts[j]
            rename[g, at] = names
            offset[g, at, :orbit.size] = (np.add.outer(twist, shifts)) % orbit.orientations
    sign = np.array([element.sign for element in group.elements], np.int64)
    factorials = np.array([math.factorial(i) for i in range(21)], np.int64)
    return ConjugateTables(coords, orbits, factorials, source, sign, rename, offset,
                           np.full(len(definition.orbits), -1, np.int64), np.zeros(0, np.int32))


def with_permutation_tables(t: ConjugateTables, component: int) -> ConjugateTables:
    """``t`` with a table of the conjugates' permutation coordinate for each orbit whose table
    has at most ``PERMUTATION_TABLE_ENTRIES`` entries (for the states of ``component``)."""
    perm_at, parts, filled = t.perm_at.copy(), [], 0
    for c, (j, kind, size) in enumerate(t.coords[:, :3].tolist()):
        entries = size * t.source.shape[0]
        if kind == PERMUTATION and entries <= PERMUTATION_TABLE_ENTRIES:
            table = np.empty((size, t.source.shape[0]), np.int32)
            map_blocks(lambda lo, hi, j=j, c=c, table=table: permutation_table(t, j, c, component, table,
                                                                               *slot_scratch(t), lo, hi), size, BLOCK)
            perm_at[j], filled = filled, filled + entries
            parts.append(table.ravel())
    return t._replace(perm_at=perm_at, perm_table=np.concatenate([t.perm_table, *parts]))


@state_function
def decode(rank, component, t, pieces, twists):
    """The slots of ``rank`` in ``component``: ``layout.Layout.unrank`` for distinct pieces."""
    for s in range(twists.shape[0]):
        twists[s] = 0
    for c in range(t.coords.shape[0]):
        j, kind, size, classes, weight, class_shift = (t.coords[c, 0], t.coords[c, 1], t.coords[c, 2], t.coords[c, 3],
                                                       t.coords[c, 4], t.coords[c, 5])
        start, n, k = t.orbits[j, 0], t.orbits[j, 1], t.orbits[j, 2]
        x = (rank // weight) % size
        cls = (component >> class_shift) & ((np.int64(1) << _bits(classes - 1)) - 1)
        if kind == PERMUTATION:
            full = 2 * x if classes == 2 else x
            if _unlehmer(full, n, t.factorials, pieces, start) != cls and classes == 2:
                _unlehmer(full + 1, n, t.factorials, pieces, start)
        else:
            last = n - 1 if classes > 1 else n
            total = 0
            for i in range(last - 1, -1, -1):
                d = x % k
                x //= k
                twists[start + i] = d
                total += d
            if classes > 1:
                twists[start + n - 1] = (cls - total) % k


@state_function
def _bits(value):
    n = 0
    while value > 0:
        n += 1
        value >>= 1
    return n


@state_function
def _unlehmer(rank, n, factorials, pieces, start):
    """Writes the permutation of Lehmer rank ``rank`` at ``pieces[start:]``; returns its parity."""
    used = np.int64(0)
    parity = 0
    for i in range(n):
        f = factorials[n - 1 - i]
        d = rank // f
        rank -= d * f
        parity += d
        seen = -1
        for v in range(n):
            if used & (np.int64(1) << v) == 0:
                seen += 1
                if seen == d:
                    pieces[start + i] = v
                    used |= np.int64(1) << v
                    break
    return parity & 1


@state_function
def _lehmer(values, start, n, factorials):
    x = np.int64(0)
    for i in range(n):
        smaller = 0
        for m in range(i + 1, n):
            smaller += values[start + m] < values[start + i]
        x += smaller * factorials[n - 1 - i]
    return x


@state_function
def conjugate_rank(t, g, pieces, twists, values, moved):
    """The rank of the conjugate by symmetry ``g`` of the decoded state ``pieces``, ``twists``
    (``values[c]``: its coordinate ``c``); ``moved``: scratch for the renamed pieces."""
    rank = np.int64(0)
    sign = t.sign[g]
    for c in range(t.coords.shape[0]):
        j, kind, classes, weight = t.coords[c, 0], t.coords[c, 1], t.coords[c, 3], t.coords[c, 4]
        start, n, k = t.orbits[j, 0], t.orbits[j, 1], t.orbits[j, 2]
        x = np.int64(0)
        if kind == PERMUTATION:
            at = t.perm_at[j]
            if at >= 0:
                x = np.int64(t.perm_table[at + values[c] * t.source.shape[0] + g])
            else:
                for s in range(start, start + n):
                    moved[s] = t.rename[g, start + pieces[t.source[g, s]]]
                x = _lehmer(moved, start, n, t.factorials) >> (classes == 2)
        else:
            last = start + (n - 1 if classes > 1 else n)
            for s in range(start, last):
                p = t.source[g, s]
                d = t.offset[g, s, pieces[p]]
                if sign > 0:
                    d += twists[p]
                    d -= k if d >= k else 0
                else:
                    d -= twists[p]
                    d += k if d < 0 else 0
                x = x * k + d
        rank += x * weight
    return rank


BLOCK = 1 << 14  # states a thread takes at a time


@loop
def conjugate_chunk(ranks, lo, hi, component, t, out, pieces, twists, moved, values):
    for i in range(lo, hi):
        decode(ranks[i], component, t, pieces, twists)
        for c in range(t.coords.shape[0]):
            values[c] = (ranks[i] // t.coords[c, 4]) % t.coords[c, 2]
        for g in range(t.source.shape[0]):
            out[i, g] = conjugate_rank(t, g, pieces, twists, values, moved)


def slot_scratch(t: ConjugateTables) -> tuple[np.ndarray, ...]:
    """Three arrays of a slot each (``pieces``, ``twists``, ``moved``): a range's scratch."""
    return tuple(np.empty(t.source.shape[1], np.int64) for _ in range(3))


def conjugate_ranks(ranks, component, t):
    """``out[i, g]``: the rank of the conjugate of ``ranks[i]`` by symmetry ``g``."""
    out = np.empty((len(ranks), t.source.shape[0]), np.int64)
    map_blocks(lambda lo, hi: conjugate_chunk(ranks, lo, hi, component, t, out, *slot_scratch(t),
                                              np.empty(t.coords.shape[0], np.int64)), len(ranks), BLOCK)
    return out


@loop
def permutation_table(t, j, coordinate, component, out, pieces, twists, moved, lo, hi):
    """``out[x, g]`` for ``x`` in ``[lo, hi)``: the permutation coordinate ``coordinate`` (of orbit
    ``j``) of the conjugate by ``g`` of a state whose coordinate is ``x`` (it depends on nothing
    else); ``pieces``, ``twists``, ``moved``: scratch (``slot_scratch``)."""
    weight = t.coords[coordinate, 4]
    start, n = t.orbits[j, 0], t.orbits[j, 1]
    for x in range(lo, hi):
        decode(x * weight, component, t, pieces, twists)
        for g in range(t.source.shape[0]):
            for s in range(start, start + n):
                moved[s] = t.rename[g, start + pieces[t.source[g, s]]]
            out[x, g] = _lehmer(moved, start, n, t.factorials) >> (t.coords[coordinate, 3] == 2)
