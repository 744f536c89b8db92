"""``PermutationPuzzle``: a puzzle made from a ``PermutationDefinition`` (data, no code).

Conventions:

- **Rank** and **component**: ``layout`` (coordinates, parities, orientation sums, and the
  rank order of the slots: the identity, or ``layout.slot_order`` in the pieces form).
- **State**: one of three representations, each with its family of compiled kernels:
  ``coordinates`` (``rules``: the state is its rank, a move is a table lookup per coordinate),
  ``pieces`` (``rules``: distinct pieces packed in one 64-bit word, slots in rank order) and
  ``labels`` (``labels``: anything the text format describes, identical pieces, ignored
  orientations, illegal states, blocks, in as many words as it takes) and ``group`` (``group``:
  distinct pieces; the state is its rank in the group the moves generate, from a stabilizer
  chain). ``representation="auto"`` picks the group when its rank is at least
  ``GROUP_GAIN`` times smaller than the arrangements' (a smaller two-bit table; the others look
  moves up in tables, faster per state) or the only one that fits 62 bits, else pieces for one
  orbit of distinct pieces without orientations (pancakes, TopSpin, LRX: their moves in rank
  space are computed fast, and every size runs one compiled family), else coordinates when
  every coordinate's move table is small and nothing forbids a move, else pieces when they
  fit, else labels.
- **Text**: ``statetext``.
"""

from __future__ import annotations

from collections.abc import Sequence

from vecsearch.contract import Moves, Rank, Rules
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzle import TWO_BIT_RANKS, Puzzle, signed64, unsigned64
from vecsearch.puzzles.permutation import (
    canonical,
    exact,
    group,
    labels,
    patterns,
    projections,
    pruning,
    rank_steps,
    rules,
    statetext,
    symmetric_lookups,
    tables,
    textformat,
)
from vecsearch.puzzles.permutation.definition import PermutationDefinition
from vecsearch.puzzles.permutation.layout import Layout, slot_order
from vecsearch.svg import Board, Cell

COORDINATE_TABLE_ENTRIES = 1 << 23  # move-table entries (int32) allowed for the coordinates form
MAX_RANK = 1 << 62
MAX_RANKED_SLOTS = 64  # the labels form ranks orbits of at most this many slots
GROUP_GAIN = 16  # auto takes the group rank when it is this many times smaller than the arrangements'
REPRESENTATIONS = ("auto", "coordinates", "pieces", "labels", "group")
FAMILY_MOVES = 64  # move capacity of the compiled kernels: puzzles with up to this many moves share them
SOLVED, ASTRAY = "#c8e6c9", "#ffffff"  # a slot's fill when it holds its solved piece and twist, or not


class PermutationPuzzle(Puzzle):
    """A searchable permutation puzzle made of a definition and a metric.

    ``get_puzzle("file.tws")`` makes one of a file. Every engine method applies: the puzzle gets
    the densest rank it can (``representation``), so bitsets, the two-bit search, distance
    tables, batches and the partitioned search all work on it.

    Parameters
    ----------
    definition : PermutationDefinition
        Orbits, moves, solved state.
    metric : {"htm", "qtm", "given"}, default "htm"
        ``"htm"``: every power of each move is one move; ``"qtm"``: a move and its inverse;
        ``"given"``: the moves exactly as defined.
    name : str, optional
        The puzzle's name (default: the definition's, with the metric).
    representation : str, default "auto"
        ``"coordinates"``, ``"pieces"``, ``"labels"``, ``"group"`` or ``"auto"`` (the densest
        rank that fits).

    Examples
    --------
    >>> cube = vs.get_puzzle("2x2x2.tws")
    >>> cube.rank_size, cube.representation
    (88179840, 'coordinates')
    >>> str(vs.solve(cube, "R U F2 D'", goal=cube.pattern("? ? ? ? 5 6 7 8")))
    "D F2 U' R'"
    """

    def __init__(self, definition: PermutationDefinition, metric: str = "htm", *, name: str | None = None,
                 representation: str = "auto"):
        if representation not in REPRESENTATIONS:
            raise PuzzleDefinitionError(f"representation must be one of {', '.join(REPRESENTATIONS)}")
        self.definition = definition
        self.metric = metric
        self._sequences = None
        self._text_moves = None  # the moves a state's text may name (parse_state)
        self.move_list = definition.move_set(metric)
        if not self.move_list:
            raise PuzzleDefinitionError(f"{definition.name}: no moves")
        self.layout = Layout(definition, self.move_list)
        changes = [m.changes for m in self.move_list]
        reversible = all(definition.inverse(m).changes in changes for m in self.move_list)
        rows = self.move_list if reversible else self.move_list + [definition.inverse(m) for m in self.move_list]
        sizes = [o.size for o in definition.orbits]
        self.piece_bits = max(1, max((n - 1).bit_length() for n in sizes))
        self.field_bits = self.piece_bits + max((o.orientations - 1).bit_length() for o in definition.orbits)
        self.rank_bits = max(1, (self.layout.rank_size - 1).bit_length())
        self.group, found, self._positions = None, None, None
        if representation in ("auto", "group"):
            ranks = self.layout.rank_size
            limit = MAX_RANK - 1 if representation == "group" or ranks >= MAX_RANK else ranks // GROUP_GAIN
            found = group.group_of(definition, self.move_list, rows, limit)
            self.group = found[0] if found is not None else None
            if representation == "group" and self.group is None:
                raise PuzzleDefinitionError(f"{definition.name}: the group representation takes distinct pieces, no"
                                            " illegal states or blocks, a group whose rank fits 62 bits and move"
                                            " tables that fit")
        self.representation = "group" if self.group is not None else self._choose(representation, len(rows))
        ranked = self.layout.rank_size < MAX_RANK
        width = 1
        if self.representation == "group":
            made = found[1]
            ranked, self.rank_bits = True, max(1, (self.group.chain.order - 1).bit_length())
            functions = dict(expand=group.group_expand, rank=group.group_rank, unrank=group.group_unrank,
                             expand_rank=group.group_expand_rank, near_rank=group.group_near_rank,
                             predecessors=None if reversible else group.group_predecessors,
                             predecessors_rank=None if reversible else group.group_predecessors_rank,
                             near_predecessors_rank=None if reversible else group.group_near_predecessors_rank)
        elif self.representation == "coordinates":
            made = tables.coordinate_tables(definition, self.layout, rows, len(self.move_list), self.rank_bits)
            functions = dict(expand=rules.coord_expand, expand_ranked=rules.coord_expand_ranked,
                             rank=rules.coord_rank, component=rules.coord_component, unrank=rules.coord_unrank,
                             expand_rank=rules.coord_expand_rank,
                             predecessors=None if reversible else rules.coord_predecessors,
                             predecessors_rank=None if reversible else rules.coord_predecessors_rank)
        elif self.representation == "pieces":
            orbits = definition.orbits
            self.layout = Layout(definition, self.move_list, [
                slot_order(o.size, [m.changes[o.name] for m in rows if o.name in m.changes]) for o in orbits])
            packed_rows = [tables.packed_changes(definition, self.layout, m) for m in rows]
            made = tables.pieces_tables(definition, self.layout, packed_rows, len(self.move_list), self.field_bits,
                                        self.piece_bits)
            functions = dict(expand=rules.pieces_expand, rank=rules.pieces_rank if ranked else None,
                             component=rules.pieces_component, unrank=rules.pieces_unrank if ranked else None,
                             predecessors=None if reversible else rules.pieces_predecessors)
            if ranked and len(orbits) == 1 and orbits[0].orientations <= 16:  # fast moves in rank space
                parts = [changes[orbits[0].name] for changes in packed_rows]
                made = rank_steps.step_tables(made, parts, len(self.move_list), orbits[0].size,
                                              orbits[0].orientations)
                functions.update(expand_rank=rank_steps.single_orbit_expand_rank,
                                 predecessors_rank=None if reversible else rank_steps.single_orbit_predecessors_rank,
                                 near_rank=rank_steps.single_orbit_near_rank,
                                 near_predecessors_rank=None if reversible
                                 else rank_steps.single_orbit_near_predecessors_rank)
        else:
            ranked = ranked and max(sizes) <= MAX_RANKED_SLOTS
            made = tables.labels_tables(definition, self.layout, rows, len(self.move_list), ranked)
            self._fields = made  # the field layout, for encode before the tables are the puzzle's
            width = int(made.scalars[labels.WIDTH])
            # wide states have a rank (bitsets) but no unrank: the rank-space kernels never allocate a state
            functions = dict(expand=labels.labels_expand, rank=labels.labels_rank if ranked else None,
                             component=labels.labels_component,
                             unrank=labels.labels_unrank if ranked and width == 1 else None,
                             predecessors=None if reversible else labels.labels_predecessors)
        rank_size = self.group.chain.order if self.group is not None else self.layout.rank_size
        ranking = {k: functions.pop(k) for k in list(functions) if k not in ("expand", "predecessors", "component")}
        super().__init__(
            name or definition.name, Rules(**functions, width=width, reversible=reversible),
            Moves(len(self.move_list), [m.name for m in self.move_list]), tables=made,
            rank=Rank(**ranking, size=rank_size) if ranked and ranking["rank"] is not None else None,
            goal=self.encode(definition.solved),
        )

    def _choose(self, representation: str, rows: int) -> str:
        definition = self.definition
        entries = tables.coordinate_entries(definition, self.layout, rows)
        coordinates = (entries <= COORDINATE_TABLE_ENTRIES and self.rank_bits + self.layout.component_bits <= 62
                       and not any(definition.wild) and not definition.constrained)
        pieces = (self.field_bits * sum(o.size for o in definition.orbits) <= 64 and definition.distinct
                  and not definition.constrained)
        if representation == "auto":  # pieces for plain permutations: their rank steps are fast
            plain = len(definition.orbits) == 1 and definition.orbits[0].orientations == 1
            if coordinates and not (plain and pieces):
                return "coordinates"
            return "pieces" if pieces else "labels"
        if representation == "coordinates" and not coordinates:
            why = (f"its move tables would need {entries:,} entries, over {COORDINATE_TABLE_ENTRIES:,}"
                   if entries > COORDINATE_TABLE_ENTRIES else "some moves are not played in some states, or some"
                   " orientations are ignored" if definition.constrained or any(definition.wild)
                   else "its rank needs more than 62 bits")
            raise PuzzleDefinitionError(f"{definition.name}: the coordinates form does not fit: {why};"
                                        " use representation='labels'")
        if representation == "pieces" and not pieces:
            raise PuzzleDefinitionError(f"{definition.name}: the pieces form takes distinct pieces in one 64-bit word"
                                        " and no illegal states or blocks; use representation='labels'")
        return representation

    def with_moves(self, moves: str | Sequence[str]) -> PermutationPuzzle:
        """The puzzle turned by ``moves`` alone, in the same metric: twsearch's ``--moves``
        (``vecsearch bfs FILE.tws --moves U,R``); see `PermutationDefinition.with_moves`.

        Examples
        --------
        >>> two = vs.get_puzzle("2x2x2.tws").with_moves("U R")
        >>> two.name, two.rank_size, vs.bfs(two).depth
        ('2x2x2 <U, R>', 29160, 14)
        """
        turned = self.definition.with_moves(moves)
        return PermutationPuzzle(turned, self.metric, name=self.name + turned.name.removeprefix(self.definition.name))

    def scrambles(self, text: str | bytes) -> list[tuple[str, str]]:
        r"""The instances of a twsearch scramble file (``.scr``; its bytes are read as the
        definition files are): ``(name, start)`` pairs, in order, for `solve_many` (``vecsearch
        batch PUZZLE FILE.scr`` reads them so).

        Blocks ``Scramble NAME`` (a position, pieces from 1), ``ScrambleState NAME`` or
        ``StartState NAME`` (pieces from 0) and ``ScrambleAlg NAME`` (moves), each up to ``End``;
        a name given again is told apart by its count (``noname (2)``).

        Examples
        --------
        >>> cube = vs.get_puzzle("2x2x2.tws")
        >>> cube.scrambles("ScrambleAlg first\nR U\nEnd\nScrambleAlg first\nF2\nEnd\n")
        [('first', 'R U'), ('first (2)', 'F2')]
        """
        return textformat.parse_scrambles(self.definition,
                                          textformat.decode(text) if isinstance(text, bytes) else text)

    @property
    def kernel_label(self) -> str:
        """The kernel family: one per representation."""
        # A family per representation (and for pieces, with or without one-orbit rank steps)
        return f"permutation-{self.representation}"

    @property
    def prefers_two_bit(self) -> bool:
        """Its ranks are dense: also a labels form's large rank space (``TWO_BIT_RANKS``)."""
        return super().prefers_two_bit or (self.rank_size or 0) >= TWO_BIT_RANKS

    @property
    def move_capacity(self) -> int:
        """Moves the family's kernels make room for (at least ``FAMILY_MOVES``)."""
        return max(FAMILY_MOVES, super().move_capacity)

    @property
    def heuristic_names(self) -> tuple[str, ...]:
        """The heuristics offered: pattern databases (``pdb``)."""
        return ("pdb",)

    def make_heuristic(self, goals, name: str, **options):
        """``pdb``: without ``patterns``, the exact distance table over the group the moves
        generate when it fits a quarter of the ``budget`` (``exact``), else pattern databases
        (``pruning.make_projection_heuristic``; options ``patterns``, ``budget``, ``symmetry``,
        ``lookups``, ``threads``, ``max_memory``, ``progress``)."""
        spec, lookups = options.get("symmetry"), options.get("lookups")
        if lookups is not None and (isinstance(lookups, bool) or not isinstance(lookups, int) or lookups < 1):
            raise InvalidPuzzleInput(f"{self.name}: lookups is how many times a database may be read, a whole number"
                                     f" of at least 1, not {lookups!r}")
        if options.get("patterns") is None:
            budget = options.get("budget")
            found = exact.exact_group(self, projections.DEFAULT_TABLE_BYTES if budget is None else int(budget))
            if found is not None:
                if spec is not None:  # an exact table reads every state as it is, but a wrong spec is still refused
                    symmetric_lookups.usable_symmetries(self, goals, spec)
                built = {k: v for k, v in options.items() if k in ("threads", "max_memory", "progress")}
                return exact.make_exact_heuristic(self, goals, found, **built)
        return pruning.make_projection_heuristic(self, goals, **options)

    def symmetry(self, spec: str = "rotations"):
        """The symmetries ``spec`` names (``symmetry.parse_spec``: ``"rotations"``, ``"rotations,
        mirror (L R)"``), bound to this puzzle in the coordinates form for the engine's enumeration
        modulo symmetry (``symmetry.PuzzleSymmetry``; its ``puzzle`` is the one it ranks)."""
        from vecsearch.puzzles.permutation import symmetry

        rotations, mirrors = symmetry.parse_spec(spec)
        ranked = self if self.representation == "coordinates" else PermutationPuzzle(
            self.definition, self.metric, name=self.name, representation="coordinates")
        group = symmetry.symmetry_group(self.definition, self.move_list, rotations, mirrors)
        return symmetry.PuzzleSymmetry(ranked, group, given=self)

    @property
    def move_sequences(self):
        """Canonical move sequences (``canonical``), made once."""
        if self._sequences is None:
            self._sequences = canonical.canonical_sequences(self.definition, self.move_list)
        return self._sequences

    @property
    def notes(self) -> tuple[str, ...]:
        """What the definition's reader noted (moves it did not take as search moves)."""
        return self.definition.notes

    # --- states in and out ------------------------------------------------------------------
    def encode(self, state):
        """The packed state of a Python state (one ``(pieces, twists)`` pair per orbit)."""
        if self.representation == "group":
            rank = self.group.chain.rank(self.group.element(state))
            if rank is None:
                raise InvalidPuzzleInput(f"{self.name}: that state cannot be reached from the solved state (it lies"
                                         " outside the group the moves generate)")
            return rank
        if self.representation == "coordinates":
            rank, component = self.layout.rank(state)
            return rank | component << self.rank_bits
        if self.representation == "labels":
            made = self._fields
            words = [0] * int(made.scalars[labels.WIDTH])
            fields = [p | t << int(made.scalars[labels.PIECE_BITS]) for pieces, twists in state
                      for p, t in zip(pieces, twists, strict=True)]
            for s, f in enumerate(fields):
                words[made.slot_word[s]] |= f << int(made.slot_shift[s])
            return signed64(words[0]) if len(words) == 1 else tuple(signed64(w) for w in words)
        value, start = 0, 0
        for orbit, order, (pieces, twists) in zip(self.definition.orbits, self.layout.orders, state, strict=True):
            for i, slot in enumerate(order):
                value |= (pieces[slot] | twists[slot] << self.piece_bits) << (self.field_bits * (start + i))
            start += orbit.size
        return signed64(value)

    def pieces(self, state):
        """The Python state (one ``(pieces, twists)`` pair of tuples per orbit) of a packed state."""
        if self.representation == "group":
            return self.group.state(self.group.chain.unrank(int(state)))
        if self.representation == "coordinates":
            state = int(state)
            return self.layout.unrank(state & ((1 << self.rank_bits) - 1), state >> self.rank_bits)
        if self.representation == "labels":
            made = self._fields
            words = [unsigned64(int(w)) for w in (state if self.width > 1 else [state])]
            piece_bits = int(made.scalars[labels.PIECE_BITS])
            field_mask = (1 << int(made.scalars[labels.FIELD_BITS])) - 1
            fields = [(words[made.slot_word[s]] >> int(made.slot_shift[s])) & field_mask
                      for s in range(len(made.slot_word))]
            order = [tuple(range(o.size)) for o in self.definition.orbits]
            piece_mask = (1 << piece_bits) - 1
        else:
            value = unsigned64(int(state))
            fields = [(value >> (self.field_bits * s)) & ((1 << self.field_bits) - 1)
                      for s in range(sum(o.size for o in self.definition.orbits))]
            order, piece_bits, piece_mask = self.layout.orders, self.piece_bits, (1 << self.piece_bits) - 1
        out, start = [], 0
        for orbit, slots in zip(self.definition.orbits, order, strict=True):
            placed = [0] * orbit.size
            for i, slot in enumerate(slots):
                placed[slot] = fields[start + i]
            out.append((tuple(f & piece_mask for f in placed), tuple(f >> piece_bits for f in placed)))
            start += orbit.size
        return tuple(out)

    def draw(self, state) -> Board:
        """One row per orbit, named: the piece (as the solved state numbers it) in each slot, a
        prime per unit of its twist, green where the slot holds its solved piece and twist."""
        definition = self.definition
        width = max(orbit.size for orbit in definition.orbits)
        cells = []
        for j, (orbit, (pieces, twists), (home, untwisted)) in enumerate(zip(definition.orbits, self.pieces(state),
                                                                               definition.solved, strict=True)):
            for slot in range(width):
                if slot >= orbit.size:
                    cells.append(None)
                    continue
                twist = twists[slot]
                mark = "\u2032" * twist if twist <= 2 else f"+{twist}"
                solved = pieces[slot] == home[slot] and twist == untwisted[slot]
                cells.append(Cell(SOLVED if solved else ASTRAY, f"{definition.label_name(j, pieces[slot])}{mark}"))
        return Board(len(definition.orbits), width, tuple(cells), tuple(orbit.name for orbit in definition.orbits))

    def format_state(self, state) -> str:
        """``state`` written per orbit (``statetext``), as ``parse_state`` reads it."""
        return statetext.format_state(self.definition, self.pieces(state))

    def reaches(self, state) -> bool | None:
        """Whether the solved state reaches a Python ``state``: membership in the group the moves
        generate (a stabilizer chain, built on first use), for puzzles of distinct pieces without
        illegal states or blocks; None for the others (their components are what the rank knows)."""
        if self.group is None and self._positions is None:
            if not self.definition.distinct or self.definition.constrained:
                return None
            self._positions = group.Group(self.definition, self.move_list, None)
        chain = (self.group or self._positions).chain
        return chain.rank((self.group or self._positions).element(state)) is not None

    def pattern(self, text: str) -> patterns.Pattern:
        """The pattern ``text`` (``patterns``: the solved state with pieces made identical, ``?``)."""
        return patterns.Pattern(self, text)

    def states(self, value):
        """``Puzzle.states``, and a pattern (a ``Pattern``, or text that is a pattern and no
        state): the states it matches, in the solved state's component."""
        if isinstance(value, patterns.Coarsening):
            return value.states()
        try:
            return super().states(value)
        except InvalidPuzzleInput as error:
            if not isinstance(value, str):
                raise
            try:
                pattern = self.pattern(value)
            except InvalidPuzzleInput:
                raise error from None
            return pattern.states()

    def parse_state(self, text: str):
        """The packed state ``text`` writes: pieces and twists per orbit, or moves from the solved state."""
        if self._text_moves is None:  # made once: a batch parses a scramble per instance
            names = {m.name: m for m in self.move_list} | self.definition.named_moves()
            self._text_moves = statetext.MoveText(self.definition, names)
        return self.encode(statetext.read_state(self.definition, text, self._text_moves))
