"""The rank of a permutation puzzle: its coordinates, and the order its slots are read in.

- **Coordinates**: a mixed-radix number, most significant first: for each orbit in order, its
  permutation, then (orientations > 1) its orientations. A permutation coordinate of distinct
  pieces is the Lehmer rank of the pieces read in the orbit's *rank order*, the first slot most
  significant, halved when every move permutes the orbit evenly (the parity is then fixed). An
  *arrangement* coordinate (identical pieces) is ``multiset_rank`` of the labels: for each label
  but the last, the colex rank of its slots among the slots the smaller labels leave free, as a
  mixed-radix number (the smallest label most significant): a perfect rank in ``[0,
  multinomial)``. An orientation coordinate is the base-k number of the orientations in the same
  order, over the slots whose label's orientation is not ignored, without the last one when every
  move keeps the orientation sum mod k and none is ignored (the last is then implied).
- **Component**: the fixed parities and orientation sums, packed as bit fields in coordinate
  order. The rank is perfect within a component: every rank is one state of it.
- **Rank order** (``slot_order``): the identity, or, for the pieces form's moves in rank space,
  the slots that the moves with the fewest changed slots change *last*. A move that changes
  only the last ``k`` slots of that order changes only the last ``k`` Lehmer digits, so its
  children lie within ``k!`` ranks of their parent (``rank_steps``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vecsearch.puzzles.permutation.definition import PermutationDefinition


@dataclass(frozen=True)
class Coordinate:
    orbit: int  # index in definition.orbits
    kind: str  # "permutation" (distinct pieces), "arrangement" (identical pieces) or "orientation"
    size: int  # values within one class
    classes: int  # 2: parity fixed; k: orientation sum fixed; 1: neither
    weight: int  # place value in the rank
    class_shift: int  # bit position of its class in the component


def slot_order(size: int, parts) -> tuple[int, ...]:
    """An orbit's slots in rank order for the moves' ``(permutation, twist)`` parts: the moves
    taken from the fewest changed slots to the most, each one's slots not yet placed go to the
    last free places (lower slots later); slots no move changes come first. The prefix
    reversals of pancakes come out reversed: the top pancake is the last digit."""
    order = [None] * size
    free = size
    moved = ([i for i, (p, t) in enumerate(zip(*part, strict=True)) if p != i or t] for part in parts)
    for changed in sorted(moved, key=len):
        for slot in changed:
            if slot not in order:
                free -= 1
                order[free] = slot
    unchanged = [slot for slot in range(size) if slot not in order]
    return tuple(unchanged + order[free:])


class Layout:
    """The coordinates of a definition under a move set, and the rank they make; ``orders``
    gives each orbit's rank order (default: the slots in order)."""

    def __init__(self, definition: PermutationDefinition, moves, orders=None):
        self.definition = definition
        self.orders = tuple(orders or (tuple(range(o.size)) for o in definition.orbits))
        raw = []
        for j, orbit in enumerate(definition.orbits):
            parts = [m.changes[orbit.name] for m in moves if orbit.name in m.changes]
            counts, wild = definition.counts[j], definition.wild[j]
            if max(counts) == 1:
                even = orbit.size >= 2 and all(_parity(p) == 0 for p, _ in parts)
                raw.append((j, "permutation", math.factorial(orbit.size) >> even, 2 if even else 1))
            else:
                raw.append((j, "arrangement", multinomial(counts), 1))
            k = orbit.orientations
            twisted = orbit.size - sum(counts[v] for v in wild)
            if k > 1 and twisted:
                kept = not wild and all(sum(t) % k == 0 for _, t in parts)
                raw.append((j, "orientation", k ** (twisted - kept), k if kept else 1))
        self.rank_size = math.prod(size for _, _, size, _ in raw)
        self.coordinates, weight, shift = [], self.rank_size, 0
        for j, kind, size, classes in raw:
            weight //= size
            self.coordinates.append(Coordinate(j, kind, size, classes, weight, shift))
            shift += (classes - 1).bit_length()
        self.component_bits = shift

    def rank(self, state) -> tuple[int, int]:
        """``(rank, component)`` of a Python state."""
        rank = component = 0
        for c in self.coordinates:
            order = self.orders[c.orbit]
            pieces, twists = ([values[s] for s in order] for values in state[c.orbit])
            if c.kind == "permutation":
                full = _lehmer(pieces)
                x, cls = full >> (c.classes == 2), _parity(pieces)
            elif c.kind == "arrangement":
                x, cls = multiset_rank(pieces, self.definition.counts[c.orbit]), 0
            else:
                k = self.definition.orbits[c.orbit].orientations
                twists = [t for p, t in zip(pieces, twists, strict=True) if p not in self.definition.wild[c.orbit]]
                digits = twists[:-1] if c.classes > 1 else twists
                x, cls = _base(digits, k), sum(twists) % k
            rank += x * c.weight
            component |= (cls if c.classes > 1 else 0) << c.class_shift
        return rank, component

    def unrank(self, rank: int, component: int):
        """The Python state of ``rank`` in ``component``."""
        state = [[tuple(range(o.size)), (0,) * o.size] for o in self.definition.orbits]
        for c in self.coordinates:  # the pieces come before their orientations
            n = self.definition.orbits[c.orbit].size
            order = self.orders[c.orbit]
            x = (rank // c.weight) % c.size
            cls = (component >> c.class_shift) & ((1 << (c.classes - 1).bit_length()) - 1)
            if c.kind == "permutation":
                values = _unlehmer(2 * x if c.classes == 2 else x, n)
                if c.classes == 2 and _parity(values) != cls:
                    values = _unlehmer(2 * x + 1, n)
                part = 0
            elif c.kind == "arrangement":
                values, part = multiset_unrank(x, self.definition.counts[c.orbit]), 0
            else:
                k = self.definition.orbits[c.orbit].orientations
                wild = self.definition.wild[c.orbit]
                twisted = [i for i, slot in enumerate(order) if state[c.orbit][0][slot] not in wild]
                digits = _digits(x, k, len(twisted) - (c.classes > 1))
                if c.classes > 1:
                    digits.append((cls - sum(digits)) % k)
                values = [0] * n
                for i, d in zip(twisted, digits, strict=True):
                    values[i] = d
                part = 1
            placed = [0] * n
            for i, slot in enumerate(order):
                placed[slot] = values[i]
            state[c.orbit][part] = tuple(placed)
        return tuple(tuple(pair) for pair in state)


def multinomial(counts) -> int:
    """The number of arrangements of pieces with these multiplicities."""
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)


def multiset_rank(values, counts) -> int:
    """The rank of an arrangement of labels ``0 .. len(counts)-1`` (``counts[v]`` of label ``v``):
    for each label but the last, the colex rank of its positions among those that the smaller
    labels leave free (``sum C(free position, j + 1)`` over its ``j``-th position), as a
    mixed-radix number whose digit for label ``v`` has radix ``C(free places, counts[v])``."""
    rank, free = 0, len(values)
    for v in range(len(counts) - 1):
        places = [i for i, w in enumerate(w for w in values if w >= v) if w == v]
        rank = rank * math.comb(free, counts[v]) + sum(math.comb(p, j + 1) for j, p in enumerate(places))
        free -= counts[v]
    return rank


def multiset_unrank(rank: int, counts) -> tuple[int, ...]:
    """The arrangement whose ``multiset_rank`` is ``rank``."""
    radices, free = [], sum(counts)
    for v in range(len(counts) - 1):
        radices.append((free, counts[v]))
        free -= counts[v]
    digits = []
    for free, count in reversed(radices):
        rank, digit = divmod(rank, math.comb(free, count))
        digits.append(digit)
    values = [-1] * sum(counts)
    for v, digit in enumerate(reversed(digits)):
        free_slots = [i for i, w in enumerate(values) if w < 0]
        top = len(free_slots) - 1
        for j in range(counts[v], 0, -1):  # the colex unrank: the largest position first
            while math.comb(top, j) > digit:
                top -= 1
            digit -= math.comb(top, j)
            values[free_slots[top]] = v
            top -= 1
    return tuple(len(counts) - 1 if w < 0 else w for w in values)


def _lehmer(values) -> int:
    n, rank = len(values), 0
    for i, v in enumerate(values):
        rank += sum(1 for w in values[i + 1:] if w < v) * math.factorial(n - 1 - i)
    return rank


def _unlehmer(rank: int, n: int) -> tuple[int, ...]:
    left, out = list(range(n)), []
    for i in range(n):
        d, rank = divmod(rank, math.factorial(n - 1 - i))
        out.append(left.pop(d))
    return tuple(out)


def _parity(values) -> int:
    return sum(1 for i in range(len(values)) for j in range(i + 1, len(values)) if values[j] < values[i]) & 1


def _base(digits, k) -> int:
    value = 0
    for d in digits:
        value = value * k + d
    return value


def _digits(value: int, k: int, count: int) -> list[int]:
    out = []
    for _ in range(count):
        value, d = divmod(value, k)
        out.append(d)
    return out[::-1]
