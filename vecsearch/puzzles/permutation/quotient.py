"""Positions as a quotient state and a rotation: the fast way to enumerate modulo symmetry, when
the rotations allow it.

Notation: products read left to right, ``a b`` is ``a`` then ``b`` (moves, rotations and
symmetries alike, as ``definition`` composes moves); a state ``s`` turned by ``b`` is ``s b``.
``S`` is the symmetry group (``symmetry.SymmetryGroup``; a symmetry ``g`` maps ``s`` to its
conjugate ``g⁻¹ s g``) and ``R`` its rotations (the elements that are not mirrors).

**When.** The rotations are positions of the puzzle (each is a product of moves: the all-faces
2x2x2, where ``U D'`` turns the whole cube) and act *simply transitively* on the placements
(slot, orientation) of the pieces of one orbit: the 24 rotations of a cube on its corners' 8 x 3
placements. ``find`` picks that orbit and a slot of it; its solved piece is the **reference
piece**.

**The quotient and the fibres.** Every position is then ``s = t r`` for exactly one rotation
``r`` and one state ``t`` with the reference piece at home (``t = s r⁻¹``: turn the puzzle so
that it is home). The states ``t`` are the **quotient** (the 2x2x2 with one corner fixed:
3,674,160 of the all-faces cube's 88,179,840 positions), ranked by the coordinates of the
puzzle's own rank, those of the reference piece's orbit renumbered over the values that keep the
piece at home; the ``|R|`` positions ``t r`` of one ``t`` are its **fibre**, a set of them a bit
mask over ``R``.

- **Moves.** ``t r m = t m' r`` with ``m' = r m r⁻¹``, again a move (the move set is closed
  under the symmetries), and ``t m' = t' ρ⁻¹`` where ``ρ`` brings the reference piece home again.
  So every move ``m'`` takes ``t`` to ``t' = t m' ρ`` (one table entry per coordinate: the
  quotient's moves) and every fibre element ``r`` to ``ρ⁻¹ r``, whatever ``t``.
- **Symmetries.** ``g⁻¹ (t r) g = (g⁻¹ t g)(g⁻¹ r g)`` and ``g⁻¹ t g = t' ρ⁻¹`` with ``t'`` its
  re-homed conjugate: ``S`` acts on the quotient (``t ↦ t'``), and carries the fibre of ``t`` to
  that of ``t'`` by the **fibre map** ``r ↦ ρ⁻¹ (g⁻¹ r g)``. A fibre map is a pair ``(a, g)``,
  ``r ↦ a (g⁻¹ r g)``, numbered ``a * |S| + g`` (``a`` an index into ``R``, ``g`` into ``S``);
  map 0 is the identity.
- **Classes.** A class (a position and its conjugates) is one orbit of the quotient under ``S``
  and, in the fibre of the orbit's representative ``t*``, one orbit of ``t*``'s stabiliser
  (the symmetries that map ``t*`` to itself, acting by their fibre maps). Its positions are
  ``|S| / |stabiliser|`` per fibre element. The engine's search over the quotient's orbits and
  their fibres (``engine.layered.fibres``) reads the ``Quotient``'s tables and ``orbits``.

Conditions checked (else ``find`` says why, and the engine searches classes by conjugates):
distinct pieces in the coordinates form (``symmetry.PuzzleSymmetry``'s), at most ``MAX_FIBRE``
rotations, every rotation a product of moves, an orbit of simply transitive placements.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch.engine import map_blocks
from vecsearch.puzzles.permutation import quotient_kernels, tables
from vecsearch.puzzles.permutation.conjugates import ORIENTATION, PERMUTATION, slot_scratch
from vecsearch.puzzles.permutation.definition import Move
from vecsearch.puzzles.permutation.lookup_conjugates import LookupTables

MAX_FIBRE = 63  # rotations a fibre mask holds (bits of a uint64)


class QuotientTables(NamedTuple):
    """What the engine's search over the quotient reads."""

    coords: np.ndarray  # (coordinates, 3): size, weight, offset into steps
    steps: np.ndarray  # int32, flat: per coordinate (value, move): the value after the quotient's move
    move_maps: np.ndarray  # (moves,): the fibre map of each move (r -> ρ⁻¹ r)
    maps: np.ndarray  # int8 (|R| |S|, |R|): fibre map m sends fibre element r to maps[m, r]


class OrbitTable(NamedTuple):
    """The quotient's orbits under the symmetries: what the engine's search claims."""

    entry: np.ndarray  # (quotient size,): orbit << map_bits + 1 | whether the representative's stabiliser
    #                    holds more than the identity << map_bits | the fibre map to its fibre
    map_bits: int
    representatives: np.ndarray  # (orbits,): the quotient state of each orbit's representative (its least)
    stabiliser_at: np.ndarray  # (orbits + 1,): where each orbit's stabiliser maps start in stabiliser_maps
    stabiliser_maps: np.ndarray  # the fibre maps of each representative's stabiliser, the identity left out


class Quotient:
    """The quotient of a ``PuzzleSymmetry``'s puzzle by its rotations, in one component (see the
    module's docstring). Made by ``find``."""

    def __init__(self, bound, component: int, orbit: int, slot: int, rotations: list[int]):
        """``bound``'s quotient in ``component``: the piece of ``orbit``'s ``slot`` is the reference
        piece, ``rotations`` the indices of the group's rotations (the identity first)."""
        puzzle, group = bound.puzzle, bound.group
        definition = puzzle.definition
        self.bound, self.component = bound, component
        self.orbit, self.slot = orbit, slot
        self.order, self.fibre = group.order, len(rotations)
        self.rotations = [group.elements[i] for i in rotations]
        self.smul, self.sinv = group.multiplication()
        position = np.full(group.order, -1, np.int64)  # an element's index among the rotations
        position[rotations] = np.arange(len(rotations))
        self.rmul = position[self.smul[np.ix_(rotations, rotations)]]
        self.rinv = position[self.sinv[rotations]]
        self.conj = position[self.smul[self.smul[self.sinv][:, rotations], np.arange(group.order)[:, None]]]  # g⁻¹ r g
        maps = self.rmul[:, self.conj]  # maps[a, g, r] = a (g⁻¹ r g)
        self.maps = maps.reshape(self.fibre * self.order, self.fibre).astype(np.int8)
        k = definition.orbits[orbit].orientations
        pieces, twists = definition.solved[orbit]
        self.label, self.home_twist = pieces[slot], twists[slot]
        self.rehome = np.empty(definition.orbits[orbit].size * k, np.int64)  # placement -> rotation taking it home
        for index, r in enumerate(self.rotations):
            perm, twist = r.changes[orbit]
            self.rehome[perm[slot] * k + (self.home_twist - twist[slot]) % k] = index
        self._coordinates(puzzle, component)
        self.size = int(np.prod(self.tables.coords[:, 0]))
        self.action = self._action()

    # --- the quotient's rank: the puzzle's coordinates, the reference piece's left out -----
    def _coordinates(self, puzzle, component: int) -> None:
        """The quotient's coordinates (``embed``, ``restrict``: its values as the puzzle's and
        back), the rotations' tables on the puzzle's (``turns``), and the quotient's moves."""
        definition, layout = puzzle.definition, puzzle.layout
        conjugates = self.bound.tables
        coordinates = layout.coordinates
        self.ref_coordinates = [-1, -1]  # the reference orbit's permutation and orientation coordinates
        self.slots = [None, None]  # per value of each: the pieces in the orbit's slots, the twists
        embed, restrict = [], []
        for c, coordinate in enumerate(coordinates):
            values = np.arange(coordinate.size, dtype=np.int64)
            if coordinate.orbit == self.orbit:
                kind = PERMUTATION if coordinate.kind == "permutation" else ORIENTATION
                self.ref_coordinates[kind] = c
                pieces, twists = (np.empty((coordinate.size, definition.orbits[self.orbit].size), np.int8)
                                  for _ in range(2))
                map_blocks(lambda lo, hi, c=c, pieces=pieces, twists=twists: quotient_kernels.coordinate_slots(
                    conjugates, c, component, pieces, twists, *slot_scratch(conjugates)[:2], lo, hi),
                           coordinate.size, quotient_kernels.BLOCK)
                self.slots[kind] = pieces if kind == PERMUTATION else twists
                at_home = self.label if kind == PERMUTATION else self.home_twist
                values = np.flatnonzero(self.slots[kind][:, self.slot] == at_home).astype(np.int64)
            back = np.full(coordinate.size, -1, np.int64)
            back[values] = np.arange(len(values))
            embed.append(values)
            restrict.append(back)
        self.embed, self.restrict = embed, restrict
        self.puzzle_weights = np.array([c.weight for c in coordinates], np.int64)
        sizes = [len(values) for values in embed]
        weights = [int(np.prod(sizes[c + 1:])) for c in range(len(sizes))]
        rows = puzzle.tables.coordinates
        stride, moves = int(puzzle.tables.scalars[3]), len(puzzle.move_list)
        turned = tables.coordinate_tables(definition, layout, [as_move(definition, r) for r in self.rotations],
                                          self.fibre, puzzle.rank_bits)
        self.turns = []  # per coordinate (value, rotation): the value after the rotation
        self.move_rotation = np.array([self._rehoming(m) for m in puzzle.move_list], np.int64)
        steps, offsets = [], []
        for c, coordinate in enumerate(coordinates):
            cls = (component >> int(rows[c, 3])) & int(rows[c, 4])
            start = int(rows[c, 2]) + cls * coordinate.size * stride
            table = puzzle.tables.moves[start:start + coordinate.size * stride].reshape(coordinate.size, stride)
            turn_rows = turned.coordinates[c]
            turn_start = int(turn_rows[2]) + cls * coordinate.size * self.fibre
            turn = turned.moves[turn_start:turn_start + coordinate.size * self.fibre].reshape(coordinate.size, -1)
            self.turns.append(turn)
            after = turn[table[embed[c], :moves], self.move_rotation[None, :]]
            step = restrict[c][after]
            assert (step >= 0).all(), "a move of the quotient left the reference piece astray"
            offsets.append(sum(map(len, steps)))
            steps.append(step.astype(np.int32).ravel())
        coords = np.array([[size, weight, offset] for size, weight, offset in zip(sizes, weights, offsets,
                                                                                   strict=True)], np.int64)
        move_maps = self.rinv[self.move_rotation] * self.order  # (ρ⁻¹, identity)
        self.tables = QuotientTables(coords, np.concatenate(steps), move_maps, self.maps)

    def _rehoming(self, move) -> int:
        """The rotation that brings the reference piece home after ``move`` from home."""
        k = self.bound.puzzle.definition.orbits[self.orbit].orientations
        name = self.bound.puzzle.definition.orbits[self.orbit].name
        if name not in move.changes:
            return 0
        perm, twist = move.changes[name]
        to = perm.index(self.slot)
        return int(self.rehome[to * k + (self.home_twist + twist[to]) % k])

    # --- positions to and from (quotient rank, rotation) -----------------------------------
    def split(self, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(t, r)``: the quotient rank and the rotation of each position (puzzle ``rank``:
        position ``t`` then rotation ``r``)."""
        layout, definition = self.bound.puzzle.layout, self.bound.puzzle.definition
        k = definition.orbits[self.orbit].orientations
        quotients, rotations = [], []
        for rank in np.asarray(ranks, np.int64).tolist():
            pieces, twists = layout.unrank(rank, self.component)[self.orbit]
            at = pieces.index(self.label)
            rho = int(self.rehome[at * k + twists[at]])
            values = [(rank // int(w)) % c.size for w, c in zip(self.puzzle_weights, layout.coordinates, strict=True)]
            home = [self.turns[c][values[c], rho] for c in range(len(values))]
            quotients.append(sum(int(self.restrict[c][x]) * int(w) for c, (x, w) in
                                 enumerate(zip(home, self.tables.coords[:, 1], strict=True))))
            rotations.append(int(self.rinv[rho]))
        return np.array(quotients, np.int64), np.array(rotations, np.int64)

    def join(self, quotients: np.ndarray, rotations: np.ndarray) -> np.ndarray:
        """The puzzle ranks of positions ``quotients[i]`` then rotation ``rotations[i]``."""
        ranks = np.zeros(len(quotients), np.int64)
        for c, (size, weight, _) in enumerate(self.tables.coords.tolist()):
            values = self.embed[c][(quotients // weight) % size]
            ranks += self.turns[c][values, rotations] * self.puzzle_weights[c]
        return ranks

    # --- the orbits of the quotient under the symmetries ---------------------------------------
    def orbits(self) -> OrbitTable:
        """The quotient's orbits, their representatives and stabilisers (``quotient_kernels``:
        each orbit's images found once, by the symmetries' conjugates re-homed)."""
        lookups, conjugates = self.bound.conjugation(self.component)
        entry = np.empty(self.size, np.int64)
        known, chosen = np.zeros((self.size + 63) // 64, np.uint64), np.zeros((self.size + 63) // 64, np.uint64)
        representatives, symmetric = np.empty(self.size, np.int64), np.empty(self.size, np.int64)  # at most
        count = np.zeros(2, np.int64)
        map_bits = max(1, (self.fibre * self.order - 1).bit_length())
        fixed = (self.action, lookups or _NO_LOOKUPS, conjugates, lookups is not None, self.component)
        found = (map_bits, entry, known, chosen, representatives, symmetric, count)
        map_blocks(lambda lo, hi: quotient_kernels.find_orbits(*fixed, *found, quotient_kernels.scratch(
            self.action, conjugates), lo, hi), self.size, quotient_kernels.BLOCK)
        representatives, symmetric = representatives[:count[0]], np.sort(symmetric[:count[1]])
        at = np.zeros(len(representatives) + 1, np.int64)
        maps = np.zeros(0, np.int64)
        if len(symmetric):
            us = representatives[symmetric]
            images, rho = (np.empty((len(us), self.order), np.int64) for _ in range(2))
            map_blocks(lambda lo, hi: quotient_kernels.images_of(us, *fixed, images, rho, quotient_kernels.scratch(
                self.action, conjugates), lo, hi), len(us), quotient_kernels.BLOCK)
            fixing = images == us[:, None]
            fixing[:, 0] = False  # the identity's map is the identity
            rows, g = np.nonzero(fixing)
            maps = self.rinv[rho[rows, g]] * self.order + g
            np.add.at(at, symmetric[rows] + 1, 1)
            np.cumsum(at, out=at)
        return OrbitTable(entry, map_bits, representatives, at, maps.astype(np.int64))

    def _action(self) -> quotient_kernels.ActionTables:
        """The tables of ``quotient_kernels.images``."""
        definition = self.bound.puzzle.definition
        orbit = definition.orbits[self.orbit]
        layout = self.bound.puzzle.layout
        cp, co = self.ref_coordinates
        ref_slot = np.argmax(self.slots[PERMUTATION] == self.label, axis=1).astype(np.int8)
        twist_of = self.slots[ORIENTATION] if co >= 0 else np.zeros((1, orbit.size), np.int8)
        sizes = np.array([c.size for c in layout.coordinates], np.int64)
        homes = [restrict[turn].astype(np.int32).ravel() if c != cp else np.zeros(0, np.int32)  # (ref_home's)
                 for c, (turn, restrict) in enumerate(zip(self.turns, self.restrict, strict=True))]
        home_at = np.cumsum([0] + [len(h) for h in homes[:-1]]).astype(np.int64)
        embed_at = np.cumsum([0] + [len(e) for e in self.embed[:-1]]).astype(np.int64)
        ref = np.array([cp, co, orbit.orientations], np.int64)
        orbit_coords = np.full((len(definition.orbits), 2), -1, np.int64)
        for c, coordinate in enumerate(layout.coordinates):
            orbit_coords[coordinate.orbit, int(coordinate.kind != "permutation")] = c
        k = orbit.orientations
        places = ref_slot.astype(np.int64)[:, None] * k + np.arange(k)  # (permutation value, twist)
        rho = self.rehome[places]
        ref_home = rho << 32 | self.restrict[cp][self.turns[cp][np.arange(len(ref_slot))[:, None], rho]]
        return quotient_kernels.ActionTables(
            np.stack([sizes, self.puzzle_weights], axis=1), self.tables.coords[:, :2].copy(),
            np.concatenate(self.embed), embed_at, np.concatenate(homes), home_at, ref, orbit_coords, ref_slot,
            twist_of, ref_home.ravel(), self.rmul, self.rinv, self.conj, self.smul[self.sinv].T.copy())

    def __repr__(self) -> str:
        name = self.bound.puzzle.definition.orbits[self.orbit].name
        return (f"<Quotient of {self.bound.puzzle.name}: {self.size:,} states ({name} slot {self.slot + 1} at home),"
                f" fibres of {self.fibre} rotations, {self.order} symmetries>")


_NO_LOOKUPS = LookupTables(np.zeros((0, 14), np.int64), np.zeros(0, np.int32), *(np.zeros(0, np.int64),) * 5)


def as_move(definition, element) -> Move:
    """A rotation (a ``symmetry.Symmetry`` of sign +1) as a move."""
    return Move(element.name, {o.name: pair for o, pair in zip(definition.orbits, element.changes, strict=True)})


def find(bound, component: int) -> tuple[Quotient | None, str]:
    """The quotient of ``bound`` (a ``PuzzleSymmetry``) in ``component`` and a line saying which
    reference piece it fixes, or None and why there is none (see the module's docstring)."""
    puzzle, group = bound.puzzle, bound.group
    definition = puzzle.definition
    rotations = [i for i, g in enumerate(group.elements) if g.sign == 1]
    if len(rotations) == 1:
        return None, "no rotations"
    if len(rotations) > MAX_FIBRE:
        return None, f"{len(rotations)} rotations, more than a fibre holds ({MAX_FIBRE})"
    for i in rotations[1:]:
        g = group.elements[i]
        if not puzzle.reaches(definition.apply(definition.solved, as_move(definition, g))):
            return None, f"the rotation {g.name} is not a product of moves"
    for j, orbit in enumerate(definition.orbits):
        if orbit.size * orbit.orientations != len(rotations):
            continue
        for slot in range(orbit.size):
            placements = set()
            for i in rotations:
                perm, twist = group.elements[i].changes[j]
                placements.add((perm[slot], twist[slot]))  # what the rotation brings to the slot
            if len(placements) == len(rotations):
                quotient = Quotient(bound, component, j, slot, rotations)
                return quotient, (f"quotient: {orbit.name} slot {slot + 1} at home, {quotient.size:,} states,"
                                  f" fibres of {len(rotations)} rotations")
    return None, "no orbit whose placements the rotations permute simply transitively"


