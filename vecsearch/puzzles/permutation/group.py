"""The group representation of permutation puzzles: the state is its rank in the group the moves
generate (``chain.StabilizerChain``), a perfect rank however few of the arrangements that group
reaches (M24 on 24 points: 244,823,040 of 24!).

**Points**: each orbit's ``(slot, orientation)`` pairs, ``point = first + slot * k + orientation``.
A move sends the piece of slot ``p`` with orientation ``o`` to the slot ``i`` with ``P[i] = p``,
orientation ``o + T[i]``: a permutation of the points. A state is the element ``g`` that carries
each piece's solved point to its point now, so a move makes ``move o g``.

**Moves in rank space** (the state *is* the rank; component 0). With ``g = u_0(y_0) u_1(y_1)
...`` (``chain``), a move ``a_0`` makes ``a_0 g = u_0(z_0) a_1 u_1(y_1) ...`` where ``z_0 =
a_0(y_0)`` and ``a_1 = u_0(z_0)^-1 a_0 u_0(y_0)`` fixes ``b_0``; and so on down the levels. The
child's digits are the positions of the ``z_l``, and each level's step depends only on the
element ``a_l`` handed down and the parent's digit ``y_l``. Those elements are few (at most the
moves times the orbits above, and at most ``|G_l|``), so ``walk_tables`` enumerates them once,
level by level, and a move costs one table entry per level, like a coordinate's move table:
``entry[start[l] + a * size[l] + y]`` holds the child's digit (low 16 bits) and the index of the
next level's element ``a_{l+1}`` (above). Level 0's elements are the table rows (the moves, then
their inverses if the move set lacks them). Consecutive levels are then merged into *blocks*
(``_blocked``: a block's digit is its levels' digits together, its table the walk through them),
so M24's seven levels cost three lookups a move. The parent's block digits are read once, into
two int64 words of ``DIGIT_BITS`` each, so nothing is allocated; four moves are walked at once
(their lookups overlap in the processor).

Tables ``GroupTables``: ``size`` (a block's radix), ``weight`` and ``start`` per block,
``entry`` (int32 when the values fit), ``scalars`` (``LEVELS``: blocks, ``DIGIT_BITS``,
``GROUP_MOVES``, ``NEAR``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from vecsearch._numba import kernel, state_function
from vecsearch.puzzles.permutation.chain import GroupTooLarge, StabilizerChain

LEVELS, DIGIT_BITS, GROUP_MOVES, NEAR = range(4)  # GroupTables.scalars
MAX_ENTRIES = 1 << 27  # table entries (int64, 1 GiB) the group representation may take
BLOCK_ENTRIES = 1 << 20  # entries of one block of merged levels (int32: 4 MiB)
NEAR_MOVES = 4  # children a pull computes first (``group_near_rank``)


class GroupTables(NamedTuple):
    size: np.ndarray
    weight: np.ndarray
    start: np.ndarray
    entry: np.ndarray
    scalars: np.ndarray


def point_offsets(definition) -> list[int]:
    out, at = [], 0
    for orbit in definition.orbits:
        out.append(at)
        at += orbit.size * orbit.orientations
    return out


def point_map(definition, move) -> tuple[int, ...]:
    """The permutation of the points that ``move`` makes."""
    offsets = point_offsets(definition)
    image = list(range(offsets[-1] + definition.orbits[-1].size * definition.orbits[-1].orientations))
    for first, orbit in zip(offsets, definition.orbits, strict=True):
        if orbit.name in move.changes:
            permutation, twist = move.changes[orbit.name]
            k = orbit.orientations
            for i, (p, t) in enumerate(zip(permutation, twist, strict=True)):
                for o in range(k):
                    image[first + p * k + o] = first + i * k + (o + t) % k
    return tuple(image)


class Group:
    """The stabilizer chain of a definition's moves, and states to and from elements."""

    def __init__(self, definition, moves, limit: int):
        self.definition = definition
        self.offsets = point_offsets(definition)
        self.degree = self.offsets[-1] + definition.orbits[-1].size * definition.orbits[-1].orientations
        self.chain = StabilizerChain([point_map(definition, m) for m in moves], self.degree, limit)
        self.point_bits = max(1, (self.degree - 1).bit_length())

    @property
    def fits(self) -> bool:
        """Whether the rank fits 62 bits."""
        return self.chain.order < 1 << 62

    def element(self, state):
        """The element carrying each piece's solved point to its point in ``state``."""
        image = [0] * self.degree
        for first, orbit, (home, home_twists), (pieces, twists) in zip(self.offsets, self.definition.orbits,
                                                                       self.definition.solved, state, strict=True):
            k = orbit.orientations
            where = {piece: slot for slot, piece in enumerate(pieces)}
            for h, (piece, o0) in enumerate(zip(home, home_twists, strict=True)):
                i = where[piece]
                for o in range(k):
                    image[first + h * k + o] = first + i * k + (twists[i] - o0 + o) % k
        return tuple(image)

    def state(self, element):
        out = []
        for first, orbit, (home, home_twists) in zip(self.offsets, self.definition.orbits, self.definition.solved,
                                                     strict=True):
            k = orbit.orientations
            pieces, twists = [0] * orbit.size, [0] * orbit.size
            for h, (piece, o0) in enumerate(zip(home, home_twists, strict=True)):
                i, o = divmod(element[first + h * k + o0] - first, k)
                pieces[i], twists[i] = piece, o
            out.append((tuple(pieces), tuple(twists)))
        return tuple(out)

    def tables(self, rows, moves: int) -> GroupTables:
        """The move walk of each table row (``walk_tables``); ``GroupTooLarge`` past ``MAX_ENTRIES``."""
        chain = self.chain
        levels, degree = len(chain.base), self.degree
        index = np.full((levels, degree), -1, np.int64)
        orbit, forward, inverse, offset = [], [], [], []
        for lv, points in enumerate(chain.orbits):
            offset.append(len(forward))
            for d, y in enumerate(points):
                index[lv, y] = d
                orbit.append(y)
                forward.append(chain.transversals[lv][y][0])
                inverse.append(chain.transversals[lv][y][1])
        size = np.array([len(o) for o in chain.orbits], np.int64)
        bound, count = 0, len(rows)
        for lv in range(levels):  # entries: at most the elements handed down times the orbit
            bound += count * int(size[lv])
            count = min(count * int(size[lv]), chain.order // math.prod(len(o) for o in chain.orbits[:lv + 1]))
        if bound > MAX_ENTRIES:
            raise GroupTooLarge(f"its move tables would need up to {bound:,} entries")
        entry, start = np.zeros(bound, np.int64), np.zeros(levels, np.int64)
        used = walk_tables(np.array([point_map(self.definition, m) for m in rows], np.int64), size,
                           np.array(orbit, np.int64), index, np.array(forward, np.int64), np.array(inverse, np.int64),
                           np.array(offset, np.int64), entry, start)
        ends = np.append(start[1:], used)
        steps = [entry[a:b].reshape(-1, int(n)) for a, b, n in zip(start, ends, size, strict=True)]
        return _blocked(steps, size, np.array(chain.weights, np.int64), moves)


def group_of(definition, moves, rows, limit: int):
    """``(group, tables)`` for the group of ``moves`` (table ``rows``: the moves, then their
    inverses if needed) if it has at most ``limit`` elements and its tables fit, else None."""
    if not definition.distinct or definition.constrained:
        return None
    try:
        group = Group(definition, moves, limit)
        return (group, group.tables(rows, len(moves))) if group.fits else None
    except GroupTooLarge:
        return None


def _blocked(steps, size, weight, moves: int) -> GroupTables:
    """Tables whose levels are merged into blocks, from the last level up, while a block's
    table (elements reaching it, times its digits) stays within ``BLOCK_ENTRIES`` and its digit
    within 16 bits: a move then costs one entry per block. ``steps[l]``: level ``l``'s entries
    as ``(elements, size)``."""
    blocks, end = [], len(steps)
    while end > 0:
        first, radix = end - 1, int(size[end - 1])
        while first > 0 and radix * size[first - 1] < 1 << 16 \
                and steps[first - 1].shape[0] * radix * size[first - 1] <= BLOCK_ENTRIES:
            first -= 1
            radix *= int(size[first])
        blocks.append((first, end))
        end = first
    blocks.reverse()
    tables, starts, radices, weights = [], [], [], []
    for first, end in blocks:
        radix = int(np.prod(size[first:end]))
        element = np.repeat(np.arange(steps[first].shape[0]), radix)
        digit = np.tile(np.arange(radix), steps[first].shape[0])
        child = np.zeros_like(digit)
        for lv in range(first, end):  # walk each (element, block digit) through the block's levels
            place = int(np.prod(size[lv + 1:end]))
            e = steps[lv][element, (digit // place) % size[lv]]
            child += (e & 0xFFFF) * place
            element = e >> 16
        starts.append(sum(len(t) for t in tables))
        tables.append((element << 16) | child)
        radices.append(radix)
        weights.append(int(weight[end - 1]))
    entry = np.concatenate(tables)
    entry = entry.astype(np.int32 if entry.max() < 1 << 31 else np.int64)
    bits = max(1, (max(radices) - 1).bit_length())
    if len(blocks) > 2 * (64 // bits):
        raise GroupTooLarge(f"its {len(blocks)} blocks of levels do not fit two words of digits")
    scalars = np.array([len(blocks), bits, moves, min(NEAR_MOVES, moves)], np.int64)
    return GroupTables(np.array(radices, np.int64), np.array(weights, np.int64), np.array(starts, np.int64), entry,
                       scalars)


# --- kernels ---------------------------------------------------------------------------------
@kernel
def walk_tables(moves, size, orbit, index, forward, inverse, offset, entry, start):
    """Fill ``entry`` (see the module conventions): level by level, the distinct elements ``a``
    that a move leaves to that level, interned in a hash table of their point maps."""
    levels = size.shape[0]
    degree = moves.shape[1]
    current = moves.copy()
    for lv in range(levels):
        count = current.shape[0]
        room = 1
        while room < 2 * count * size[lv] + 2:
            room *= 2
        slots = np.full(room, -1, np.int64)
        found = np.empty((count * size[lv], degree), np.int64)
        made = 0
        for i in range(count):
            for d in range(size[lv]):
                z = current[i, orbit[offset[lv] + d]]
                dz = index[lv, z]
                h = np.int64(0)
                for x in range(degree):  # a' = u(z)^-1 a u(y): it fixes the base points so far
                    found[made, x] = inverse[offset[lv] + dz, current[i, forward[offset[lv] + d, x]]]
                    h = (h ^ found[made, x]) * np.int64(0x100000001B3)
                slot = h & (room - 1)
                while slots[slot] >= 0:
                    j = slots[slot]
                    same = True
                    for x in range(degree):
                        if found[j, x] != found[made, x]:
                            same = False
                            break
                    if same:
                        break
                    slot = (slot + 1) & (room - 1)
                if slots[slot] < 0:
                    slots[slot] = made
                    made += 1
                entry[start[lv] + i * size[lv] + d] = (slots[slot] << 16) | dz
        if lv + 1 < levels:
            start[lv + 1] = start[lv] + count * size[lv]
            current = found[:made].copy()
    return start[levels - 1] + current.shape[0] * size[levels - 1]


@state_function
def digit_at(low, high, lv, bits):
    per = 64 // bits
    word = low if lv < per else high
    return (word >> ((lv % per) * bits)) & ((np.int64(1) << bits) - 1)


@state_function
def group_steps(rank, tables, ranks, first_row, count):
    """The ranks after the moves of table rows ``first_row ..`` (``count`` of them): the
    parent's digits, then per move one ``entry`` per level (the child's digit and the element
    handed on to the next level)."""
    levels = tables.scalars[LEVELS]
    bits = tables.scalars[DIGIT_BITS]
    per = 64 // bits
    low = np.int64(0)
    high = np.int64(0)
    rest = rank
    for lv in range(levels - 1, -1, -1):
        size = tables.size[lv]
        q = rest // size
        digit = rest - q * size
        rest = q
        if lv < per:
            low |= digit << (lv * bits)
        else:
            high |= digit << ((lv - per) * bits)
    for m in range(0, count, 4):  # four moves at a time: their table walks overlap in the processor
        a0 = first_row + m
        a1 = a0 + 1 if m + 1 < count else a0
        a2 = a0 + 2 if m + 2 < count else a0
        a3 = a0 + 3 if m + 3 < count else a0
        r0 = np.int64(0)
        r1 = np.int64(0)
        r2 = np.int64(0)
        r3 = np.int64(0)
        for lv in range(levels):
            size = tables.size[lv]
            weight = tables.weight[lv]
            at = tables.start[lv] + digit_at(low, high, lv, bits)
            e0 = tables.entry[at + a0 * size]
            e1 = tables.entry[at + a1 * size]
            e2 = tables.entry[at + a2 * size]
            e3 = tables.entry[at + a3 * size]
            r0 += (e0 & 0xFFFF) * weight
            r1 += (e1 & 0xFFFF) * weight
            r2 += (e2 & 0xFFFF) * weight
            r3 += (e3 & 0xFFFF) * weight
            a0 = e0 >> 16
            a1 = e1 >> 16
            a2 = e2 >> 16
            a3 = e3 >> 16
        ranks[m] = r0
        if m + 1 < count:
            ranks[m + 1] = r1
        if m + 2 < count:
            ranks[m + 2] = r2
        if m + 3 < count:
            ranks[m + 3] = r3
    return count


@state_function
def group_expand_rank(rank, component, tables, ranks, memory):
    return group_steps(rank, tables, ranks, 0, tables.scalars[GROUP_MOVES])


@state_function
def group_predecessors_rank(rank, component, tables, ranks, memory):
    return group_steps(rank, tables, ranks, tables.scalars[GROUP_MOVES], tables.scalars[GROUP_MOVES])


@state_function
def group_near_rank(rank, component, tables, ranks, memory):
    return group_steps(rank, tables, ranks, 0, tables.scalars[NEAR])


@state_function
def group_near_predecessors_rank(rank, component, tables, ranks, memory):
    return group_steps(rank, tables, ranks, tables.scalars[GROUP_MOVES], tables.scalars[NEAR])


@state_function
def group_expand(state, tables, children, moves):
    count = group_steps(state, tables, children, 0, tables.scalars[GROUP_MOVES])
    for m in range(count):
        moves[m] = m
    return count


@state_function
def group_predecessors(state, tables, children, moves):
    count = group_steps(state, tables, children, tables.scalars[GROUP_MOVES], tables.scalars[GROUP_MOVES])
    for m in range(count):
        moves[m] = m
    return count


@state_function
def group_rank(state, tables):
    return state


@state_function
def group_unrank(rank, component, tables):
    return rank
