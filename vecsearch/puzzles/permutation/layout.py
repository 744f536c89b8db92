"""The rank of a permutation puzzle: its coordinates, and the order its slots are read in.

- **Coordinates**: a mixed-radix number, most significant first: for each orbit in order, its
  permutation, then (orientations > 1) its orientations. A permutation coordinate is the Lehmer
  rank of the pieces read in the orbit's *rank order*, the first slot most significant, halved
  when every move permutes the orbit evenly (the parity is then fixed); an orientation
  coordinate is the base-k number of the orientations in the same order, without the last one
  when every move keeps the orientation sum mod k (it is then implied).
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
    kind: str  # "permutation" or "orientation"
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
    for changed in sorted(([i for i, (p, t) in enumerate(zip(*part)) if p != i or t] for part in parts), key=len):
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
            even = orbit.size >= 2 and all(_parity(p) == 0 for p, _ in parts)
            raw.append((j, "permutation", math.factorial(orbit.size) >> even, 2 if even else 1))
            k = orbit.orientations
            if k > 1:
                kept = all(sum(t) % k == 0 for _, t in parts)
                raw.append((j, "orientation", k ** (orbit.size - kept), k if kept else 1))
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
            else:
                k = self.definition.orbits[c.orbit].orientations
                digits = twists[:-1] if c.classes > 1 else twists
                x, cls = _base(digits, k), sum(twists) % k
            rank += x * c.weight
            component |= (cls if c.classes > 1 else 0) << c.class_shift
        return rank, component

    def unrank(self, rank: int, component: int):
        """The Python state of ``rank`` in ``component``."""
        state = [[tuple(range(o.size)), (0,) * o.size] for o in self.definition.orbits]
        for c in self.coordinates:
            n = self.definition.orbits[c.orbit].size
            x = (rank // c.weight) % c.size
            cls = (component >> c.class_shift) & ((1 << (c.classes - 1).bit_length()) - 1)
            if c.kind == "permutation":
                values = _unlehmer(2 * x if c.classes == 2 else x, n)
                if c.classes == 2 and _parity(values) != cls:
                    values = _unlehmer(2 * x + 1, n)
                part = 0
            else:
                k = self.definition.orbits[c.orbit].orientations
                values = _digits(x, k, n - (c.classes > 1))
                if c.classes > 1:
                    values.append((cls - sum(values)) % k)
                part = 1
            placed = [0] * n
            for i, slot in enumerate(self.orders[c.orbit]):
                placed[slot] = values[i]
            state[c.orbit][part] = tuple(placed)
        return tuple(tuple(pair) for pair in state)


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
