"""``PermutationPuzzle``: a puzzle made from a ``PermutationDefinition`` (data, no code).

Conventions:

- **Rank** and **component**: ``layout`` (coordinates, parities, orientation sums, and the
  rank order of the slots: the identity, or ``layout.slot_order`` in the pieces form).
- **State**: ``rules`` describes the two representations (the pieces form packs each orbit's
  slots in rank order); ``representation="auto"`` picks
  pieces for one orbit without orientations (pancakes, TopSpin, LRX: their moves in rank space
  are computed fast, and every size runs one compiled family), else
  coordinates when every coordinate's move table is small (fast: a move is a table lookup per
  coordinate), else pieces packed in one 64-bit word.
- **Text**: per orbit, the pieces slot by slot (1-based), then ``/`` and their orientations if
  the orbit has any; several orbits are each preceded by the orbit's name, and orbits left out
  are solved. A text made only of move names is that sequence applied to the solved state.
"""

from __future__ import annotations

import numpy as np

from vecsearch.contract import Moves, Rank, Rules
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.kernels.ranking import factorial_table
from vecsearch.puzzle import Puzzle, signed64, unsigned64
from vecsearch.puzzles.permutation import rank_steps, rules
from vecsearch.puzzles.permutation.definition import PermutationDefinition
from vecsearch.puzzles.permutation.layout import Layout, slot_order
from vecsearch.svg import Board, Cell

COORDINATE_TABLE_ENTRIES = 1 << 23  # move-table entries (int32) allowed for the coordinates form
MAX_RANK = 1 << 62
REPRESENTATIONS = ("auto", "coordinates", "pieces")
FAMILY_MOVES = 64  # move capacity of the compiled kernels: puzzles with up to this many moves share them
SOLVED, ASTRAY = "#c8e6c9", "#ffffff"  # a slot's fill when it holds its solved piece and twist, or not


class PermutationPuzzle(Puzzle):
    """A permutation puzzle: ``PermutationPuzzle(definition, metric="htm")``."""

    def __init__(self, definition: PermutationDefinition, metric: str = "htm", *, name: str | None = None,
                 representation: str = "auto"):
        if representation not in REPRESENTATIONS:
            raise PuzzleDefinitionError(f"representation must be one of {', '.join(REPRESENTATIONS)}")
        self.definition = definition
        self.metric = metric
        self.move_list = definition.move_set(metric)
        if not self.move_list:
            raise PuzzleDefinitionError(f"{definition.name}: no moves")
        self.layout = Layout(definition, self.move_list)
        changes = [m.changes for m in self.move_list]
        reversible = all(definition.inverse(m).changes in changes for m in self.move_list)
        rows = self.move_list if reversible else self.move_list + [definition.inverse(m) for m in self.move_list]
        sizes = [o.size for o in definition.orbits]
        self._starts = np.cumsum([0] + sizes[:-1]).tolist()
        self.piece_bits = max(1, max((n - 1).bit_length() for n in sizes))
        self.field_bits = self.piece_bits + max((o.orientations - 1).bit_length() for o in definition.orbits)
        self.rank_bits = max(1, (self.layout.rank_size - 1).bit_length())
        self.representation = self._choose(representation, len(rows))
        ranked = self.layout.rank_size < MAX_RANK
        if self.representation == "coordinates":
            tables = self._coordinate_tables(rows)
            functions = dict(expand=rules.coord_expand, expand_ranked=rules.coord_expand_ranked,
                             rank=rules.coord_rank, component=rules.coord_component, unrank=rules.coord_unrank,
                             expand_rank=rules.coord_expand_rank,
                             predecessors=None if reversible else rules.coord_predecessors,
                             predecessors_rank=None if reversible else rules.coord_predecessors_rank)
        else:
            orbits = definition.orbits
            self.layout = Layout(definition, self.move_list, [
                slot_order(o.size, [m.changes[o.name] for m in rows if o.name in m.changes]) for o in orbits])
            packed_rows = [self._packed_changes(m) for m in rows]
            tables = self._pieces_tables(packed_rows)
            functions = dict(expand=rules.pieces_expand, rank=rules.pieces_rank if ranked else None,
                             component=rules.pieces_component, unrank=rules.pieces_unrank if ranked else None,
                             predecessors=None if reversible else rules.pieces_predecessors)
            if ranked and len(orbits) == 1 and orbits[0].orientations <= 16:  # fast moves in rank space
                parts = [changes[orbits[0].name] for changes in packed_rows]
                tables = rank_steps.step_tables(tables, parts, len(self.move_list), orbits[0].size,
                                                orbits[0].orientations)
                functions.update(expand_rank=rank_steps.single_orbit_expand_rank,
                                 predecessors_rank=None if reversible else rank_steps.single_orbit_predecessors_rank,
                                 near_rank=rank_steps.single_orbit_near_rank,
                                 near_predecessors_rank=None if reversible
                                 else rank_steps.single_orbit_near_predecessors_rank)
        ranking = {k: functions.pop(k) for k in list(functions) if k not in ("expand", "predecessors", "component")}
        super().__init__(
            name or definition.name, Rules(**functions, reversible=reversible),
            Moves(len(self.move_list), [m.name for m in self.move_list]), tables=tables,
            rank=Rank(**ranking, size=self.layout.rank_size) if ranking.get("rank") else None,
            goal=self.encode(definition.solved),
        )

    def _choose(self, representation: str, rows: int) -> str:
        entries = sum(c.classes * c.size for c in self.layout.coordinates) * rows
        coordinates = entries <= COORDINATE_TABLE_ENTRIES and self.rank_bits + self.layout.component_bits <= 62
        pieces = self.field_bits * sum(o.size for o in self.definition.orbits) <= 64
        if representation == "auto":  # pieces for plain permutations: their rank steps are fast
            plain = len(self.definition.orbits) == 1 and self.definition.orbits[0].orientations == 1
            representation = "coordinates" if coordinates and not (plain and pieces) else "pieces"
        if representation == "coordinates" and not coordinates:
            raise PuzzleDefinitionError(f"{self.definition.name}: its move tables would need {entries:,} entries,"
                                        f" over {COORDINATE_TABLE_ENTRIES:,}; use representation='pieces'")
        if representation == "pieces" and not pieces:
            raise PuzzleDefinitionError(f"{self.definition.name}: its slots need"
                                        f" {self.field_bits * sum(o.size for o in self.definition.orbits)} bits,"
                                        " more than one 64-bit word holds")
        return representation

    @property
    def kernel_label(self) -> str:
        # A family per representation (and for pieces, with or without one-orbit rank steps)
        return f"permutation-{self.representation}"

    @property
    def move_capacity(self) -> int:
        return max(FAMILY_MOVES, super().move_capacity)

    # --- tables -----------------------------------------------------------------------------
    def _coordinate_tables(self, rows):
        factorials = factorial_table(max(o.size for o in self.definition.orbits))
        blocks, info, offset = [], [], 0
        for c in self.layout.coordinates:
            orbit = self.definition.orbits[c.orbit]
            identity = (tuple(range(orbit.size)), (0,) * orbit.size)
            parts = [m.changes.get(orbit.name, identity) for m in rows]
            permutations = np.array([p for p, _ in parts], np.int64)
            out = np.empty((c.classes * c.size, len(rows)), np.int32)
            if c.kind == "permutation":
                rules.permutation_table(orbit.size, int(c.classes == 2), permutations, factorials, out)
            else:
                twists = np.array([t for _, t in parts], np.int64)
                rules.orientation_table(orbit.size, orbit.orientations, int(c.classes > 1), permutations, twists, out)
            blocks.append(out.ravel())
            info.append([c.size, c.weight, offset, c.class_shift, (1 << (c.classes - 1).bit_length()) - 1])
            offset += out.size
        scalars = np.array([len(info), self.rank_bits, len(self.move_list), len(rows)], np.int64)
        return rules.CoordinateTables(np.concatenate(blocks), np.array(info, np.int64), scalars)

    def _packed_changes(self, move) -> dict:
        """``move.changes`` with the slots of each orbit in its rank order (as they are packed)."""
        packed = {}
        for orbit, order in zip(self.definition.orbits, self.layout.orders):
            if orbit.name in move.changes:
                permutation, twist = move.changes[orbit.name]
                position = {slot: i for i, slot in enumerate(order)}
                packed[orbit.name] = (tuple(position[permutation[s]] for s in order), tuple(twist[s] for s in order))
        return packed

    def _pieces_tables(self, rows):
        """``rows``: each move's changes, packed (``_packed_changes``)."""
        orbits = self.definition.orbits
        changed = []
        for changes in rows:
            slots = []
            for orbit, start in zip(orbits, self._starts):
                if orbit.name in changes:
                    permutation, twist = changes[orbit.name]
                    slots += [(start + i, start + p, t) for i, (p, t) in enumerate(zip(permutation, twist))
                              if p != i or t]
            changed.append(slots)
        width = max(len(slots) for slots in changed)
        dst, src, twist = (np.zeros((len(rows), width), np.int64) for _ in range(3))
        keep = np.empty(len(rows), np.int64)
        field = (1 << self.field_bits) - 1
        for row, slots in enumerate(changed):
            for j, (d, s, t) in enumerate(slots):
                dst[row, j], src[row, j], twist[row, j] = d, s, t
            keep[row] = signed64(((1 << 64) - 1) ^ sum(field << (self.field_bits * d) for d, _, _ in slots))
        orientations = np.array([o.orientations for o in orbits for _ in range(o.size)], np.int64)
        info = np.zeros((len(orbits), 11), np.int64)
        for c in self.layout.coordinates:
            orbit = orbits[c.orbit]
            row = info[c.orbit]
            row[0:3] = self._starts[c.orbit], orbit.size, orbit.orientations
            if c.kind == "permutation":
                row[3], row[5], row[7] = c.weight, int(c.classes == 2), c.class_shift
            else:
                row[4], row[6], row[8], row[9] = c.weight, int(c.classes > 1), c.class_shift, c.size
                row[10] = (1 << (c.classes - 1).bit_length()) - 1
        scalars = np.array([len(orientations), self.field_bits, self.piece_bits, len(self.move_list), len(orbits)],
                           np.int64)
        return rules.PiecesTables(dst, src, twist, np.array([len(s) for s in changed], np.int64), keep, orientations,
                                  info, factorial_table(max(o.size for o in orbits)), scalars)

    # --- states in and out ------------------------------------------------------------------
    def encode(self, state) -> int:
        """The packed state of a Python state (one ``(pieces, twists)`` pair per orbit)."""
        if self.representation == "coordinates":
            rank, component = self.layout.rank(state)
            return rank | component << self.rank_bits
        value = 0
        for start, order, (pieces, twists) in zip(self._starts, self.layout.orders, state):
            for i, slot in enumerate(order):
                value |= (pieces[slot] | twists[slot] << self.piece_bits) << (self.field_bits * (start + i))
        return signed64(value)

    def pieces(self, state):
        """The Python state (one ``(pieces, twists)`` pair of tuples per orbit) of a packed state."""
        state = int(state)
        if self.representation == "coordinates":
            return self.layout.unrank(state & ((1 << self.rank_bits) - 1), state >> self.rank_bits)
        value, field, out = unsigned64(state), (1 << self.field_bits) - 1, []
        for orbit, start, order in zip(self.definition.orbits, self._starts, self.layout.orders):
            fields = [0] * orbit.size
            for i, slot in enumerate(order):
                fields[slot] = (value >> (self.field_bits * (start + i))) & field
            out.append((tuple(f & ((1 << self.piece_bits) - 1) for f in fields),
                        tuple(f >> self.piece_bits for f in fields)))
        return tuple(out)

    def draw(self, state) -> Board:
        """One row per orbit, named: the piece (numbered from 1) in each slot, a prime per unit
        of its twist, green where the slot holds its solved piece and twist."""
        orbits = self.definition.orbits
        width = max(orbit.size for orbit in orbits)
        cells = []
        for orbit, (pieces, twists), (home, untwisted) in zip(orbits, self.pieces(state), self.definition.solved):
            for slot in range(width):
                if slot >= orbit.size:
                    cells.append(None)
                    continue
                twist = twists[slot]
                mark = "\u2032" * twist if twist <= 2 else f"+{twist}"
                solved = pieces[slot] == home[slot] and twist == untwisted[slot]
                cells.append(Cell(SOLVED if solved else ASTRAY, f"{pieces[slot] + 1}{mark}"))
        return Board(len(orbits), width, tuple(cells), tuple(orbit.name for orbit in orbits))

    def format_state(self, state) -> str:
        chunks = []
        for orbit, (pieces, twists) in zip(self.definition.orbits, self.pieces(state)):
            text = " ".join(str(p + 1) for p in pieces)
            if orbit.orientations > 1:
                text += " / " + " ".join(map(str, twists))
            chunks.append(text if len(self.definition.orbits) == 1 else f"{orbit.name} {text}")
        return "  ".join(chunks)

    def parse_state(self, text: str):
        tokens = text.split()
        names = {m.name: m for m in self.move_list}
        if tokens and all(t in names for t in tokens):
            state = self.definition.solved
            for token in tokens:
                state = self.definition.apply(state, names[token])
            return self.encode(state)
        if tokens and tokens[0] in names:  # moves from the solved state, one of them unknown
            at = next(i for i, t in enumerate(tokens) if t not in names)
            raise InvalidPuzzleInput(f"token {at + 1} is {tokens[at]!r}; expected a move name ({' '.join(names)})")
        try:
            return self.encode(self._read_orbits(tokens))
        except InvalidPuzzleInput as error:
            orbits = {o.name for o in self.definition.orbits}
            if all(t.isdigit() or t == "/" or t in orbits for t in tokens):
                raise
            raise InvalidPuzzleInput(f"{error.message}, or moves from the solved state (move names:"
                                     f" {' '.join(names)})") from None

    def _read_orbits(self, tokens):
        orbits = self.definition.orbits
        state = list(self.definition.solved)
        index = {o.name: j for j, o in enumerate(orbits)}
        at, seen = 0, set()
        if len(orbits) == 1 and (not tokens or tokens[0] not in index):
            state[0], at = self._read_orbit(orbits[0], tokens, 0)
            seen.add(0)
        while at < len(tokens):
            j = index.get(tokens[at])
            if j is None or j in seen:
                expected = f"orbit {tokens[at]} only once" if j is not None else f"an orbit name ({', '.join(index)})"
                raise InvalidPuzzleInput(f"token {at + 1} is {tokens[at]!r}; expected {expected}")
            seen.add(j)
            state[j], at = self._read_orbit(orbits[j], tokens, at + 1)
        if not seen:
            raise InvalidPuzzleInput(f"empty state; expected {', '.join(index)} followed by their pieces")
        return tuple(state)

    def _read_orbit(self, orbit, tokens, at):
        pieces = _read_numbers(tokens, at, orbit.size, 1, orbit.size, f"{orbit.name} piece")
        if sorted(pieces) != list(range(1, orbit.size + 1)):
            raise InvalidPuzzleInput(f"{orbit.name}: pieces {' '.join(map(str, pieces))} are not 1..{orbit.size}"
                                     " each once")
        at += orbit.size
        twists = [0] * orbit.size
        if orbit.orientations > 1 and at < len(tokens) and tokens[at] == "/":
            twists = _read_numbers(tokens, at + 1, orbit.size, 0, orbit.orientations - 1, f"{orbit.name} orientation")
            at += orbit.size + 1
        return (tuple(p - 1 for p in pieces), tuple(twists)), at


def _read_numbers(tokens, at, count, low, high, what):
    values = []
    for i in range(at, at + count):
        if i >= len(tokens):
            raise InvalidPuzzleInput(f"expected {count} {what} numbers, the text ends after {len(tokens)} tokens")
        token = tokens[i]
        if not token.isdigit() or not low <= int(token) <= high:
            raise InvalidPuzzleInput(f"token {i + 1} is {token!r}; expected a {what} number {low}..{high}")
        values.append(int(token))
    return values

