"""The tables of each representation of a permutation puzzle, built from its definition.

- ``coordinate_tables``: move tables per coordinate (``rules`` coordinates form);
- ``pieces_tables``: the changed slots of each move, packed in one word (``rules`` pieces form);
- ``labels_tables``: the same for the labels form (``labels``), with its field layout from
  ``field_layout``, illegal labels per slot and blocks.

``rows`` are the moves of the puzzle's table rows (its moves, then their inverses when the move
set is not closed under inverses).
"""

from __future__ import annotations

import math

import numpy as np

from vecsearch.kernels.ranking import binomial_table, factorial_table
from vecsearch.puzzle import signed64
from vecsearch.puzzles.permutation import arrangement, labels, rules
from vecsearch.puzzles.permutation.definition import Move, Orbit, PermutationDefinition
from vecsearch.puzzles.permutation.layout import Layout

MASKED_ABOVE = 1 << 21  # move-table entries above which an arrangement is stepped by masks, when it can be


def masked(definition: PermutationDefinition, c, rows: int) -> bool:
    """Whether coordinate ``c`` is an arrangement stepped by masks (``arrangement``) instead of a table."""
    orbit = definition.orbits[c.orbit]
    return (c.kind == "arrangement" and c.size * rows > MASKED_ABOVE and orbit.size <= 64
            and len(definition.counts[c.orbit]) <= arrangement.MAX_CLASSES)


def coordinate_tables(definition: PermutationDefinition, layout: Layout, rows, moves: int, rank_bits: int):
    factorials = factorial_table(max([o.size for c in layout.coordinates if c.kind == "permutation"
                                      for o in [definition.orbits[c.orbit]]] or [1]))
    blocks, info, offset, steps, mask_info = [], [], 0, [], []
    for c in layout.coordinates:
        orbit = definition.orbits[c.orbit]
        identity = (tuple(range(orbit.size)), (0,) * orbit.size)
        parts = [m.changes.get(orbit.name, identity) for m in rows]
        permutations = np.array([p for p, _ in parts], np.int64)
        if masked(definition, c, len(rows)):
            mask_info.append(_mask_row(definition.counts[c.orbit], len(rows), steps, permutations.tolist()))
            info.append([c.size, c.weight, 0, c.class_shift, 0, len(mask_info) - 1])
            continue
        out = np.empty((c.classes * c.size, len(rows)), np.int32)
        if c.kind == "permutation":
            rules.permutation_table(orbit.size, int(c.classes == 2), permutations, factorials, out)
        elif c.kind == "arrangement":
            alone = PermutationDefinition("arrangement", [Orbit(orbit.name, orbit.size)], {},
                                          {orbit.name: definition.solved[c.orbit][0]})
            permuted = [Move(f"m{i}", {orbit.name: (p, (0,) * orbit.size)})
                        for i, p in enumerate(permutations.tolist())]
            labels.rank_table(labels_tables(alone, Layout(alone, permuted), permuted, len(rows)), c.size, out)
        else:
            twists = np.array([t for _, t in parts], np.int64)
            rules.orientation_table(orbit.size, orbit.orientations, int(c.classes > 1), permutations, twists, out)
        blocks.append(out.ravel())
        info.append([c.size, c.weight, offset, c.class_shift, (1 << (c.classes - 1).bit_length()) - 1, -1])
        offset += out.size
    scalars = np.array([len(info), rank_bits, moves, len(rows), len(mask_info)], np.int64)
    largest = max([o.size for c in layout.coordinates if masked(definition, c, len(rows))
                   for o in [definition.orbits[c.orbit]]] or [1])
    return rules.CoordinateTables(np.concatenate(blocks or [np.zeros(0, np.int32)]), np.array(info, np.int64),
                                  np.concatenate(steps or [np.zeros(0, np.int64)]),
                                  np.array(mask_info or np.zeros((0, arrangement.MASK_COLUMNS)), np.int64),
                                  binomial_table(largest), scalars)


def _mask_row(counts, rows: int, steps: list, permutations) -> list[int]:
    """The ``mask_info`` row of an arrangement with these label counts (``arrangement``); its
    tables are appended to ``steps``."""
    a = arrangement
    row = [-1] * a.MASK_COLUMNS
    n = sum(counts)
    row[a.MASK_SLOTS], row[a.MASK_LABELS], row[a.MASK_BYTES], row[a.MASK_ROWS] = n, len(counts), (n + 7) // 8, rows
    free, radices, by_bytes = n, [], None
    for v, count in enumerate(counts):
        row[a.MASK_COUNT + v] = count
        radices.append(math.comb(free, count))
        free -= count
        if v == len(counts) - 1:
            continue
        if math.comb(n, count) * rows <= a.COLEX_STEP_ENTRIES:
            moved, masks = a.colex_tables(n, count, permutations)
            row[a.MASK_COLEX_STEPS + v] = sum(map(len, steps))
            steps.append(moved.ravel())
            row[a.MASK_OF + v] = sum(map(len, steps))
            steps.append(masks)
        else:
            if by_bytes is None:
                by_bytes = sum(map(len, steps))
                steps.append(a.step_tables(n, permutations).ravel())
            row[a.MASK_BYTE_STEPS + v] = by_bytes
    weight = 1
    for v in range(len(counts) - 2, -1, -1):
        row[arrangement.MASK_RADIX + v], row[arrangement.MASK_WEIGHT + v] = radices[v], weight
        weight *= radices[v]
    return row


def coordinate_entries(definition: PermutationDefinition, layout: Layout, rows: int) -> int:
    """The move-table entries of the coordinates form (arrangements stepped by masks have none)."""
    return sum(c.classes * c.size for c in layout.coordinates if not masked(definition, c, rows)) * rows


def packed_changes(definition: PermutationDefinition, layout: Layout, move) -> dict:
    """``move.changes`` with the slots of each orbit in its rank order (as the pieces form packs them)."""
    packed = {}
    for orbit, order in zip(definition.orbits, layout.orders, strict=True):
        if orbit.name in move.changes:
            permutation, twist = move.changes[orbit.name]
            position = {slot: i for i, slot in enumerate(order)}
            packed[orbit.name] = (tuple(position[permutation[s]] for s in order), tuple(twist[s] for s in order))
    return packed


def changed_slots(definition: PermutationDefinition, changes) -> list:
    """``(destination, source, twist)`` of the global slots a move's ``changes`` change."""
    slots, start = [], 0
    for orbit in definition.orbits:
        if orbit.name in changes:
            permutation, twist = changes[orbit.name]
            slots += [(start + i, start + p, t) for i, (p, t) in enumerate(zip(permutation, twist, strict=True))
                      if p != i or t]
        start += orbit.size
    return slots


def _change_arrays(changed):
    width = max(1, max(len(slots) for slots in changed))
    dst, src, twist = (np.zeros((len(changed), width), np.int64) for _ in range(3))
    for row, slots in enumerate(changed):
        for j, (d, s, t) in enumerate(slots):
            dst[row, j], src[row, j], twist[row, j] = d, s, t
    return dst, src, twist, np.array([len(s) for s in changed], np.int64)


def pieces_tables(definition: PermutationDefinition, layout: Layout, packed_rows, moves: int, field_bits: int,
                  piece_bits: int):
    """``packed_rows``: each table row's changes, packed (``packed_changes``)."""
    orbits = definition.orbits
    starts = np.cumsum([0] + [o.size for o in orbits[:-1]]).tolist()
    changed = [changed_slots(definition, changes) for changes in packed_rows]
    dst, src, twist, length = _change_arrays(changed)
    keep = np.empty(len(packed_rows), np.int64)
    field = (1 << field_bits) - 1
    for row, slots in enumerate(changed):
        keep[row] = signed64(((1 << 64) - 1) ^ sum(field << (field_bits * d) for d, _, _ in slots))
    orientations = np.array([o.orientations for o in orbits for _ in range(o.size)], np.int64)
    info = np.zeros((len(orbits), 11), np.int64)
    for c in layout.coordinates:
        orbit = orbits[c.orbit]
        row = info[c.orbit]
        row[0:3] = starts[c.orbit], orbit.size, orbit.orientations
        if c.kind == "permutation":
            row[3], row[5], row[7] = c.weight, int(c.classes == 2), c.class_shift
        else:
            row[4], row[6], row[8], row[9] = c.weight, int(c.classes > 1), c.class_shift, c.size
            row[10] = (1 << (c.classes - 1).bit_length()) - 1
    scalars = np.array([len(orientations), field_bits, piece_bits, moves, len(orbits)], np.int64)
    return rules.PiecesTables(dst, src, twist, length, keep, orientations, info,
                              factorial_table(max(o.size for o in orbits)), scalars)


def field_layout(definition: PermutationDefinition):
    """``(piece_bits, field_bits, slot_word, slot_shift, width)`` of the labels form: fields
    never straddle words, and word 0 keeps its top bit clear (a state's first word is never -1)."""
    piece_bits = max(1, max((len(names) - 1).bit_length() for names in definition.label_names))
    field_bits = piece_bits + max((o.orientations - 1).bit_length() for o in definition.orbits)
    slot_word, slot_shift, word, used = [], [], 0, 0
    for _ in range(sum(o.size for o in definition.orbits)):
        room = 63 if word == 0 else 64
        if used + field_bits > room:
            word, used = word + 1, 0
        slot_word.append(word)
        slot_shift.append(used)
        used += field_bits
    return piece_bits, field_bits, np.array(slot_word, np.int64), np.array(slot_shift, np.int64), word + 1


def labels_tables(definition: PermutationDefinition, layout: Layout, rows, moves: int, ranked: bool = True):
    """``ranked``: with the rank's place values (else zeros: the rank does not fit 62 bits)."""
    orbits = definition.orbits
    piece_bits, field_bits, slot_word, slot_shift, width = field_layout(definition)
    starts = np.cumsum([0] + [o.size for o in orbits[:-1]]).tolist()
    slot_orbit = np.array([j for j, o in enumerate(orbits) for _ in range(o.size)], np.int64)
    changed = [changed_slots(definition, m.changes) for m in rows]
    dst, src, twist, length = _change_arrays(changed)
    keep = np.full((len(rows), width), -1, np.int64)
    field = (1 << field_bits) - 1
    for row, slots in enumerate(changed):
        for d, _, _ in slots:
            keep[row, slot_word[d]] &= signed64(((1 << 64) - 1) ^ (field << int(slot_shift[d])))
    mask = lambda labels: sum(1 << v for v in labels)  # noqa: E731
    wild = np.array([mask(definition.wild[j]) for j in slot_orbit], np.int64)
    illegal = np.zeros(len(slot_orbit), np.int64)
    for orbit_name, slots in definition.illegal.items():
        for slot, forbidden in slots.items():
            illegal[starts[definition.orbit_index(orbit_name)] + slot] = mask(forbidden)
    moved = [[starts[definition.orbit_index(o)] + s for o, slots in definition.moved_slots(m).items() for s in slots]
             for m in rows]
    moved_slots = np.zeros((len(rows), max(1, max(map(len, moved)))), np.int64)
    for row, slots in enumerate(moved):
        moved_slots[row, :len(slots)] = slots
    most = max(len(names) for names in definition.label_names)
    block_of = np.zeros((len(orbits), most), np.int64)
    for b, block in enumerate(definition.blocks):
        for orbit_name, members in block.items():
            for v in members:
                block_of[definition.orbit_index(orbit_name), v] |= 1 << b
    block_size = np.array([sum(definition.counts[definition.orbit_index(o)][v] for o, members in block.items()
                               for v in members) for block in definition.blocks] or [0], np.int64)
    info, radix, weight = _orbit_rows(definition, layout if ranked else None, starts, most)
    counts = np.zeros((len(orbits), most), np.int64)
    for j, c in enumerate(definition.counts):
        counts[j, :len(c)] = c
    sizes = [o.size for o in orbits if o.size <= 64 and ranked]
    scalars = np.array([len(slot_orbit), field_bits, piece_bits, moves, len(orbits), width,
                        len(definition.blocks)], np.int64)
    return labels.LabelsTables(
        slot_word, slot_shift, slot_orbit, np.array([orbits[j].orientations for j in slot_orbit], np.int64), wild,
        illegal, np.flatnonzero(illegal).astype(np.int64), dst, src, twist, length, keep, moved_slots,
        np.array(list(map(len, moved)), np.int64), block_of, block_size, info, counts, radix, weight,
        binomial_table(max(sizes, default=1)), factorial_table(min(20, max(sizes, default=1))), scalars)


def _orbit_rows(definition: PermutationDefinition, layout: Layout | None, starts, most):
    """The ``orbits`` rows of the labels tables, and each label's radix and place value within
    its orbit's arrangement coordinate (without ``layout``: no rank, those are left 0 and 1)."""
    info = np.zeros((len(definition.orbits), 13), np.int64)
    radix = np.ones((len(definition.orbits), most), np.int64)
    weight = np.ones((len(definition.orbits), most), np.int64)
    for j, orbit in enumerate(definition.orbits):
        counts = definition.counts[j]
        info[j, :5] = starts[j], orbit.size, orbit.orientations, len(counts), int(max(counts) == 1)
        if layout is None:
            continue
        free = orbit.size
        for v, count in enumerate(counts[:-1]):
            radix[j, v] = math.comb(free, count)
            free -= count
        for v in range(len(counts) - 2, -1, -1):
            weight[j, v] = weight[j, v + 1] * radix[j, v + 1] if v + 1 < len(counts) - 1 else 1
    for c in layout.coordinates if layout is not None else ():
        row = info[c.orbit]
        if c.kind == "orientation":
            row[7], row[8], row[9] = c.weight, int(c.classes > 1), c.size
            row[11], row[12] = c.class_shift, (1 << (c.classes - 1).bit_length()) - 1
        else:
            row[5], row[6], row[10] = c.weight, int(c.classes == 2), c.class_shift
    return info, radix, weight
