"""The ranks of a state's conjugates under a symmetry group, in bulk: what the engine's
enumeration modulo symmetry (``engine.classes``) asks of a permutation puzzle.

A rank (``layout``'s coordinates: permutations of distinct pieces and orientations) is decoded
into slots, each symmetry's conjugate (``symmetry``) is built slot by slot and ranked again.
Slots are numbered across orbits (orbit ``j``'s slot ``i`` is ``start[j] + i``), and so are
labels. The coordinates form only: its rank is ``layout``'s (the other forms rank otherwise).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import prange

from vecsearch._numba import parallel_kernel, state_function
from vecsearch.errors import PuzzleDefinitionError

PERMUTATION, ORIENTATION = 0, 1  # coordinate kinds


class ConjugateTables(NamedTuple):
    coords: np.ndarray  # (coordinates, 6): orbit, kind, size, classes, weight, class shift
    orbits: np.ndarray  # (orbits, 3): first slot, size, orientations
    slot_orbit: np.ndarray  # (slots,): the orbit of each slot
    factorials: np.ndarray  # 0! .. 20!
    source: np.ndarray  # (symmetries, slots): the slot whose piece lands in each slot
    spin: np.ndarray  # (symmetries, slots): the twist a slot adds
    sign: np.ndarray  # (symmetries,): -1 for a mirror
    rename: np.ndarray  # (symmetries, slots): each label's new label
    shift: np.ndarray  # (symmetries, slots): each label's twist shift


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
    slot_orbit = np.repeat(np.arange(len(definition.orbits)), [o.size for o in definition.orbits]).astype(np.int64)
    source, spin, rename, shift = (np.empty((group.order, starts[-1]), np.int64) for _ in range(4))
    for g, (element, relabelling) in enumerate(zip(group.elements, group.relabellings)):
        for j, ((perm, twist), (names, shifts)) in enumerate(zip(element.changes, relabelling)):
            at = slice(starts[j], starts[j + 1])
            source[g, at] = np.asarray(perm) + starts[j]
            spin[g, at], rename[g, at], shift[g, at] = twist, names, shifts
    sign = np.array([element.sign for element in group.elements], np.int64)
    factorials = np.array([math.factorial(i) for i in range(21)], np.int64)
    return ConjugateTables(coords, orbits, slot_orbit, factorials, source, spin, sign, rename, shift)


@state_function
def decode(rank, component, t, pieces, twists):
    """The slots of ``rank`` in ``component``: ``layout.Layout.unrank`` for distinct pieces."""
    twists[:] = 0
    for c in range(t.coords.shape[0]):
        j, kind, size, classes, weight, class_shift = t.coords[c]
        start, n, k = t.orbits[j]
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
def encode(t, pieces, twists):
    """The rank of slots: ``layout.Layout.rank`` for distinct pieces."""
    rank = np.int64(0)
    for c in range(t.coords.shape[0]):
        j, kind, size, classes, weight, class_shift = t.coords[c]
        start, n, k = t.orbits[j]
        x = np.int64(0)
        if kind == PERMUTATION:
            for i in range(n):
                smaller = 0
                for m in range(i + 1, n):
                    smaller += pieces[start + m] < pieces[start + i]
                x += smaller * t.factorials[n - 1 - i]
            if classes == 2:
                x >>= 1
        else:
            last = n - 1 if classes > 1 else n
            for i in range(last):
                x = x * k + twists[start + i]
        rank += x * weight
    return rank


@parallel_kernel
def conjugate_ranks(ranks, component, t):
    """``out[i, g]``: the rank of the conjugate of ``ranks[i]`` by symmetry ``g``."""
    n, symmetries, slots = ranks.shape[0], t.source.shape[0], t.source.shape[1]
    out = np.empty((n, symmetries), np.int64)
    for i in prange(n):
        pieces = np.empty(slots, np.int64)
        twists = np.empty(slots, np.int64)
        moved = np.empty(slots, np.int64)
        spun = np.empty(slots, np.int64)
        decode(ranks[i], component, t, pieces, twists)
        for g in range(symmetries):
            sign = t.sign[g]
            for s in range(slots):
                j = t.slot_orbit[s]
                start, k = t.orbits[j, 0], t.orbits[j, 2]
                p = t.source[g, s]
                label = start + pieces[p]
                moved[s] = t.rename[g, label]
                spun[s] = (sign * twists[p] + t.spin[g, s] + t.shift[g, label]) % k
            out[i, g] = encode(t, moved, spun)
    return out


class PuzzleSymmetry:
    """A ``SymmetryGroup`` bound to a puzzle in the coordinates form: what the engine's
    enumeration modulo symmetry takes (``order``, ``conjugate_ranks``).

    Parameters
    ----------
    puzzle : PermutationPuzzle
        The puzzle (coordinates form, distinct pieces).
    group : SymmetryGroup
        Symmetries of its definition and move set.
    """

    def __init__(self, puzzle, group):
        self.puzzle = puzzle
        self.group = group
        self.tables = conjugate_tables(puzzle, group)

    @property
    def order(self) -> int:
        """The group's order."""
        return self.group.order

    def conjugate_ranks(self, ranks: np.ndarray, component: int) -> np.ndarray:
        """``out[i, g]``: the rank of the conjugate of the state of rank ``ranks[i]`` (in
        ``component``) by the group's ``g``-th symmetry."""
        return conjugate_ranks(np.ascontiguousarray(ranks, np.int64), np.int64(component), self.tables)

    def __repr__(self) -> str:
        return f"<PuzzleSymmetry of {self.puzzle.name}: {self.order} symmetries>"
