"""Permutation puzzles as data: orbits of pieces, and moves that permute and twist them.

Conventions (twsearch's "state representation"; numbers are 0-based in Python, 1-based in text):

- An **orbit** has ``size`` slots holding as many pieces, each with an orientation mod
  ``orientations`` (1: pieces without orientation). Pieces never leave their orbit.
- **Labels.** The solved state names the piece in each slot. Pieces that share a number are
  *identical*: a state says which *label* each slot holds, not which piece, so the space is the
  set of distinct arrangements (a coset space). Labels are the solved state's numbers in
  increasing order, ``0 .. labels-1``; ``label_names[orbit][label]`` is the number as written.
  A label whose orientation is ``?`` (None in Python) in the solved state has its orientation
  *ignored*: its pieces always have twist 0, whatever a move adds.
- A **state** gives, per orbit, ``pieces[i]``: the label in slot ``i``, and ``twists[i]``: its
  orientation. In Python: a tuple with one ``(pieces, twists)`` pair of tuples per orbit.
- A **move** gives, per orbit it changes, ``permutation[i]``: the slot whose piece lands in slot
  ``i``, and ``twist[i]``: what that piece's orientation gains. After the move, slot ``i`` holds
  ``pieces[permutation[i]]`` with orientation ``(twists[permutation[i]] + twist[i]) mod k``. A
  move is therefore the state it makes from the identity, and moves compose left to right.
- The **solved** state is the identity (piece ``i`` in slot ``i``, orientation 0) unless given.
- The **move set** of a puzzle is made from the definition's moves by a *metric*: ``"htm"``
  every non-trivial power of each move (U, U2, U'), ``"qtm"`` each move and its inverse (U, U'),
  ``"given"`` the moves exactly as listed. Powers are named ``U2``, ``U3``..., and the powers
  past half the move's order by the inverse: ``U'``, ``U2'``...
- Moves that are not search moves: **rotations** (named as twsearch names whole-puzzle
  rotations, ``is_rotation``: they turn the whole puzzle, a symmetry) and **aliases** (names
  for move text only). Both may appear in move text (``parse_state``), never in a move set.
- **Illegal** states (``illegal[orbit][slot]``: labels that slot may not hold) are never
  entered: a move into one is not played. **Blocks** (ksolve's bandaged pieces, by label) must
  move together: a move that moves some but not all of a block's pieces is not played there.
  A move *moves* a slot when it changes its piece or twist, or marks it (``Move.marked``:
  ksolve's twist of a piece without orientation, its way of bandaging a piece to a centre).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from vecsearch.errors import PuzzleDefinitionError

METRICS = ("htm", "qtm", "given")
ROTATION = re.compile(r"[xyz][2']?|[A-Z_]+v")  # twsearch's isrotation (parsemoves.cpp)


def is_rotation(name: str) -> bool:
    """Whether twsearch reads a move called ``name`` as a whole-puzzle rotation: ``x``, ``y``,
    ``z`` (with ``2`` or ``'``), or capitals and underscores followed by ``v`` (``Fv``, ``BR_v``)."""
    return ROTATION.fullmatch(name) is not None


@dataclass(frozen=True)
class Orbit:
    """A set of slots whose pieces the moves permute among themselves (and twist).

    Parameters
    ----------
    name : str
        The orbit's name (``"CORNERS"``), as moves and states name it.
    size : int
        Its number of slots (and of pieces).
    orientations : int, default 1
        The orientations a piece can take in a slot (3 for a cube's corners).

    Examples
    --------
    >>> vs.load_definition("2x2x2").orbits
    (Orbit(name='CORNERS', size=8, orientations=3),)
    """

    name: str
    size: int
    orientations: int = 1


@dataclass(frozen=True)
class Move:
    """``changes[orbit name] = (permutation, twist)``; orbits not listed are left alone.
    ``marked[orbit name]``: slots that count as moved for blocks although nothing there changes."""

    name: str
    changes: Mapping[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)
    marked: Mapping[str, frozenset] = field(default_factory=dict, compare=False)


class PermutationDefinition:
    """A puzzle given by its orbits and moves: what a ``.tws`` file says, as Python data.

    A move is a permutation of each orbit's slots (the piece in slot ``i`` goes to slot
    ``permutation[i]``), with a twist added to each moved piece's orientation (see the module's
    conventions). `PermutationPuzzle` makes a searchable puzzle of it.

    Parameters
    ----------
    name : str
        The puzzle's name.
    orbits : sequence of Orbit
        Its orbits.
    moves : mapping or sequence
        A name to ``{orbit name: permutation}`` or ``{orbit name: (permutation, twist)}``, or
        ``Move`` objects; orbits left out are left alone.
    solved : mapping, optional
        Orbit names to ``pieces`` or ``(pieces, twists)``: the solved state (orbits left out are
        the identity). Repeated pieces are identical; a twist of None is ignored.
    rotations : mapping or sequence, optional
        Whole-puzzle rotations, in the same form as ``moves``: move text may use them, the
        search never does.
    aliases : mapping or sequence, optional
        Other names of moves, for move text only.
    illegal : mapping, optional
        Orbit names to ``{slot: labels}``: states with one of those pieces in that slot are
        never entered.
    blocks : sequence of mapping, optional
        ``{orbit name: labels}``: pieces bandaged together (a move moves all of them or none).
    notes : sequence of str, optional
        What a reader wants users to know (moves it did not take as search moves).

    See Also
    --------
    load_definition : Read one from a ``.tws``, ``.def`` or KPuzzle JSON file.

    Examples
    --------
    >>> ring = vs.PermutationDefinition(
    ...     "ring", [vs.Orbit("R", 5, 3)],
    ...     {"L": {"R": ([1, 2, 3, 4, 0], [1, 0, 0, 0, 2])}, "X": {"R": [1, 0, 2, 3, 4]}})
    >>> puzzle = vs.PermutationPuzzle(ring)
    >>> puzzle.rank_size, vs.bfs(puzzle).depth
    (9720, 25)
    """

    def __init__(self, name: str, orbits: Sequence[Orbit], moves, solved: Mapping | None = None, *,
                 rotations=(), aliases=(), illegal: Mapping | None = None, blocks: Sequence = (),
                 notes: Sequence[str] = ()):
        self.name = name
        self.orbits = tuple(orbits)
        self._orbit = {orbit.name: orbit for orbit in self.orbits}
        if not self.orbits:
            raise PuzzleDefinitionError(f"{name}: a puzzle needs at least one orbit")
        if len(self._orbit) != len(self.orbits):
            raise PuzzleDefinitionError(f"{name}: two orbits share a name")
        for orbit in self.orbits:
            if orbit.size < 1 or not 1 <= orbit.orientations <= 126:
                raise PuzzleDefinitionError(f"{name}: orbit {orbit.name} needs size >= 1 and 1 <= orientations <= 126")
        self.moves = self._moves(moves)
        self.rotations = self._moves(rotations)
        self.aliases = self._moves(aliases)
        names = [m.name for m in self.moves + self.rotations + self.aliases]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})[0]
            raise PuzzleDefinitionError(f"{name}: two moves share the name {twice!r}")
        clash = set(names) & set(self._orbit)
        if clash:
            raise PuzzleDefinitionError(f"{name}: {sorted(clash)[0]!r} names both a move and an orbit")
        self.label_names, self.wild, self.solved = self._solved(solved or {})
        self.counts = tuple(tuple(pieces.count(v) for v in range(len(self.label_names[j])))
                            for j, (pieces, _) in enumerate(self.solved))
        self.illegal = self._illegal(illegal or {})
        self.blocks = tuple(self._block(block) for block in blocks)
        self.notes = tuple(notes)

    # --- checking the data ------------------------------------------------------------------
    def orbit(self, name: str) -> Orbit:
        """The orbit called ``name``."""
        if name not in self._orbit:
            raise PuzzleDefinitionError(f"{self.name}: no orbit named {name!r}; orbits: {', '.join(self._orbit)}")
        return self._orbit[name]

    def _moves(self, moves) -> tuple[Move, ...]:
        items = moves.items() if isinstance(moves, Mapping) else [(m.name, m) for m in moves]
        return tuple(self._move(move_name, changes) for move_name, changes in items)

    def _move(self, name: str, changes) -> Move:
        marked = changes.marked if isinstance(changes, Move) else {}
        changes = changes.changes if isinstance(changes, Move) else changes
        checked = {}
        for orbit_name, change in changes.items():
            orbit = self.orbit(orbit_name)
            permutation, twist = _pair(change, orbit)
            where = f"{self.name}: move {name}, orbit {orbit_name}"
            if sorted(permutation) != list(range(orbit.size)):
                raise PuzzleDefinitionError(f"{where}: {list(permutation)} is not a permutation of 0..{orbit.size - 1}")
            _check_twists(twist, orbit, where)
            if permutation != tuple(range(orbit.size)) or any(twist):
                checked[orbit_name] = (permutation, twist)
        marked = {o: frozenset(slots) for o, slots in marked.items() if slots and self.orbit(o)}
        if not checked and not marked:
            raise PuzzleDefinitionError(f"{self.name}: move {name} changes nothing")
        return Move(name, checked, marked)

    def _solved(self, given: Mapping):
        names, wild, state = [], [], []
        for orbit_name in given:
            self.orbit(orbit_name)
        for orbit in self.orbits:
            pieces, twists = _pair(given[orbit.name], orbit, wild=True) if orbit.name in given else _identity(orbit)
            where = f"{self.name}: solved state, orbit {orbit.name}"
            if any(p < 0 for p in pieces):
                raise PuzzleDefinitionError(f"{where}: piece numbers start at 0 (1 in text)")
            written = sorted(set(pieces))
            label = {v: i for i, v in enumerate(written)}
            ignored = {label[p] for p, t in zip(pieces, twists, strict=True) if t is None}
            if any(label[p] in ignored and t is not None for p, t in zip(pieces, twists, strict=True)):
                raise PuzzleDefinitionError(f"{where}: identical pieces must all have their orientation ignored (?)"
                                            " or none")
            _check_twists([t for t in twists if t is not None], orbit, where)
            names.append(tuple(v + 1 for v in written))
            wild.append(frozenset(ignored))
            state.append((tuple(label[p] for p in pieces), tuple(t or 0 for t in twists)))
        return tuple(names), tuple(wild), tuple(state)

    def _illegal(self, given: Mapping):
        out = {}
        for orbit_name, slots in given.items():
            orbit, j = self.orbit(orbit_name), self.orbit_index(orbit_name)
            for slot, labels in slots.items():
                if not 0 <= slot < orbit.size or any(not 0 <= v < len(self.label_names[j]) for v in labels):
                    raise PuzzleDefinitionError(f"{self.name}: illegal slot {slot} or labels {sorted(labels)} outside"
                                                f" orbit {orbit_name}")
                before = out.get(orbit_name, {}).get(slot, frozenset())
                out.setdefault(orbit_name, {})[slot] = frozenset(labels) | before
        return out

    def _block(self, block: Mapping):
        for orbit_name, labels in block.items():
            j = self.orbit_index(orbit_name)
            if any(not 0 <= v < len(self.label_names[j]) for v in labels):
                raise PuzzleDefinitionError(f"{self.name}: block pieces {sorted(labels)} outside orbit {orbit_name}")
        return {o: frozenset(labels) for o, labels in block.items()}

    def orbit_index(self, name: str) -> int:
        """The position of orbit ``name`` in ``orbits``."""
        return self.orbits.index(self.orbit(name))

    @property
    def distinct(self) -> bool:
        """Whether every piece is told apart: no identical pieces, no ignored orientations."""
        return all(max(c) == 1 for c in self.counts) and not any(self.wild)

    @property
    def constrained(self) -> bool:
        """Whether some moves are not played in some states (illegal states, blocks)."""
        return bool(self.illegal or self.blocks)

    def check_state(self, state, what: str = "state"):
        """``state`` with the solved state's labels, each as often, and valid twists (0 for an
        ignored orientation); a ``PuzzleDefinitionError`` naming the first fault otherwise."""
        for j, (orbit, (pieces, twists)) in enumerate(zip(self.orbits, state, strict=True)):
            counts = tuple(tuple(pieces).count(v) for v in range(len(self.label_names[j])))
            if len(pieces) != orbit.size or counts != self.counts[j]:
                solved = " ".join(self.label_name(j, p) for p in self.solved[j][0])
                raise PuzzleDefinitionError(f"{orbit.name}: the {what} has pieces"
                                            f" {' '.join(self.label_name(j, p) for p in pieces)}, not those of the"
                                            f" solved state ({solved})")
            _check_twists(twists, orbit, f"{orbit.name}: the {what}")
            if any(t and p in self.wild[j] for p, t in zip(pieces, twists, strict=True)):
                raise PuzzleDefinitionError(f"{orbit.name}: the {what} twists a piece whose orientation is ignored")
        return state

    def label_name(self, orbit: int, label: int) -> str:
        """How ``label`` of orbit number ``orbit`` is written."""
        return str(self.label_names[orbit][label])

    def is_legal(self, state) -> bool:
        """Whether no slot holds a label it may not hold (``illegal``)."""
        return not any(state[self.orbit_index(o)][0][slot] in labels
                       for o, slots in self.illegal.items() for slot, labels in slots.items())

    def moved_slots(self, move: Move) -> dict:
        """``{orbit name: slots}`` that ``move`` moves (changes, or marks)."""
        out = {o: set(m) for o, m in move.marked.items()}
        for orbit_name, (permutation, twist) in move.changes.items():
            out.setdefault(orbit_name, set()).update(i for i, (p, t) in enumerate(zip(permutation, twist, strict=True))
                                                     if p != i or t)
        return out

    def playable(self, state, move: Move) -> bool:
        """Whether ``move`` keeps every block together in ``state`` and enters no illegal state."""
        moved = self.moved_slots(move)
        for block in self.blocks:
            holding = {o: [s for s, v in enumerate(state[self.orbit_index(o)][0]) if v in labels]
                       for o, labels in block.items()}
            moving = sum(s in moved.get(o, ()) for o, slots in holding.items() for s in slots)
            if 0 < moving < sum(map(len, holding.values())):
                return False
        return self.is_legal(self.apply(state, move))

    # --- the group ----------------------------------------------------------------------------
    def apply(self, state, move: Move):
        """The state after ``move`` (Python tuples; see the conventions)."""
        out = []
        for j, (orbit, (pieces, twists)) in enumerate(zip(self.orbits, state, strict=True)):
            if orbit.name not in move.changes:
                out.append((pieces, twists))
                continue
            permutation, twist = move.changes[orbit.name]
            k, wild = orbit.orientations, self.wild[j]
            out.append((tuple(pieces[p] for p in permutation),
                        tuple(0 if pieces[p] in wild else (twists[p] + t) % k
                              for p, t in zip(permutation, twist, strict=True))))
        return tuple(out)

    def then(self, first: Move, second: Move, name: str | None = None) -> Move:
        """The move ``first`` followed by ``second`` (marked slots: those of either)."""
        changes = {}
        for orbit in self.orbits:
            if orbit.name not in first.changes and orbit.name not in second.changes:
                continue
            p1, t1 = first.changes.get(orbit.name, _identity(orbit))
            p2, t2 = second.changes.get(orbit.name, _identity(orbit))
            changes[orbit.name] = (tuple(p1[p] for p in p2),
                                   tuple((t1[p] + t) % orbit.orientations for p, t in zip(p2, t2, strict=True)))
        marked = {o: first.marked.get(o, frozenset()) | second.marked.get(o, frozenset())
                  for o in {*first.marked, *second.marked}}
        return Move(name or f"{first.name} {second.name}", changes, marked)

    def identity(self):
        """The identity element: every piece at home, untwisted, per orbit."""
        return tuple(_identity(orbit) for orbit in self.orbits)

    def inverse(self, move: Move, name: str | None = None) -> Move:
        """The move that undoes ``move``."""
        changes = {}
        for orbit_name, (permutation, twist) in move.changes.items():
            k = self.orbit(orbit_name).orientations
            back = [0] * len(permutation)
            for i, p in enumerate(permutation):
                back[p] = i
            changes[orbit_name] = (tuple(back), tuple((-twist[back[j]]) % k for j in range(len(back))))
        return Move(name or move.name + "'", changes, move.marked)

    def order(self, move: Move) -> int:
        """How many times ``move`` is made before the puzzle is back where it was."""
        power, order = move, 1
        while _changes(power):
            power, order = self.then(power, move), order + 1
        return order

    def powers(self, move: Move, metric: str) -> list[Move]:
        """The moves ``metric`` makes of ``move``: its powers (``htm``), it and its inverse (``qtm``)."""
        if metric == "given":
            return [move]
        order = self.order(move)
        wanted = range(1, order) if metric == "htm" else sorted({1, order - 1} - {0})
        out, power, p = [], move, 1
        for want in wanted:
            while p < want:
                power, p = self.then(power, move), p + 1
            out.append(Move(_power_name(move.name, want, order), dict(_changes(power)), move.marked))
        return out

    def move_set(self, metric: str = "htm") -> list[Move]:
        """The search moves under ``metric``: each move's powers (htm), it and its inverse (qtm), or it
        alone (given)."""
        if metric not in METRICS:
            raise PuzzleDefinitionError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
        return [power for move in self.moves for power in self.powers(move, metric)]

    def named_moves(self) -> dict[str, Move]:
        """Every name move text may use: the powers of the moves, rotations and aliases."""
        return {power.name: power for move in self.moves + self.rotations + self.aliases
                for power in self.powers(move, "htm")}

    def with_moves(self, moves: str | Sequence[str]) -> PermutationDefinition:
        """The same puzzle turned by ``moves`` alone, read as twsearch's ``--moves`` reads them.

        Parameters
        ----------
        moves : str or sequence of str
            Moves of this definition (``"U, R"`` or ``["U", "R"]``), each named once: a move
            (``U``: its powers, as the metric makes them) or a move and an amount that divides
            its order (``R2``: the half turn alone).

        Returns
        -------
        PermutationDefinition
            Named ``NAME <U, R>``. Orbits, solved state, rotations, aliases, illegal states and
            blocks are this one's, so states read and print as before; the moves left out are
            no longer moves (nor names in move text).

        Raises
        ------
        PuzzleDefinitionError
            An entry names no move, a move twice, or an amount that does not divide its move's
            order.

        Examples
        --------
        >>> two = vs.load_definition("2x2x2").with_moves("U, R")
        >>> two.name, [m.name for m in two.moves]
        ('2x2x2 <U, R>', ['U', 'R'])
        >>> vs.bfs(vs.PermutationPuzzle(two)).layer_sizes[:4]
        [1, 6, 18, 53]
        """
        entries = moves.replace(",", " ").split() if isinstance(moves, str) else [str(m) for m in moves]
        if not entries:
            raise PuzzleDefinitionError(f"{self.name}: name at least one of its moves to keep")
        known = {m.name: m for m in self.moves}
        chosen: list[Move] = []
        taken: set[str] = set()
        for entry in entries:
            amount_at = re.fullmatch(r"(.+?)(\d+)", entry)
            base, amount = (entry, 1) if entry in known or amount_at is None else (amount_at[1], int(amount_at[2]))
            if base not in known:
                raise PuzzleDefinitionError(f"{self.name}: no move named {entry!r}; its moves: {', '.join(known)}")
            if base in taken:
                raise PuzzleDefinitionError(f"{self.name}: {base} is named twice among the moves to keep")
            taken.add(base)
            order = self.order(known[base])
            if amount > 1 and (amount >= order or order % amount):
                raise PuzzleDefinitionError(f"{self.name}: {entry}: an amount must divide the order of {base} ({order})"
                                            f" and be below it: {base}, or {base}K for such a K")
            chosen.append(known[base] if amount == 1 else self.powers(known[base], "htm")[amount - 1])
        solved = {orbit.name: self._written_solved(j, range(orbit.size)) for j, orbit in enumerate(self.orbits)}
        return PermutationDefinition(f"{self.name} <{', '.join(entries)}>", self.orbits, chosen, solved,
                                     rotations=self.rotations, aliases=self.aliases, illegal=self.illegal,
                                     blocks=self.blocks, notes=self.notes)

    def restricted(self, move_names: Sequence[str], name: str | None = None) -> PermutationDefinition:
        """The same puzzle with only the moves ``move_names``, and without the slots none of them
        touches (such a slot always holds its solved piece, so it carries no information)."""
        if self.constrained:
            raise PuzzleDefinitionError(f"{self.name}: a puzzle with illegal states or blocks cannot drop slots")
        chosen = [self._named(m) for m in move_names]
        keep = {}
        for orbit in self.orbits:
            moved = {i for m in chosen if orbit.name in m.changes
                     for i, (p, t) in enumerate(zip(*m.changes[orbit.name], strict=True)) if p != i or t}
            keep[orbit.name] = sorted(moved)
        orbits = [Orbit(o.name, len(keep[o.name]), o.orientations) for o in self.orbits if keep[o.name]]
        renumber = {o.name: {old: new for new, old in enumerate(keep[o.name])} for o in orbits}

        def shrink(orbit_name, pieces, twists):
            slots = keep[orbit_name]
            return (tuple(renumber[orbit_name][pieces[i]] for i in slots), tuple(twists[i] for i in slots))

        moves = {m.name: {o: shrink(o, *change) for o, change in m.changes.items() if o in renumber} for m in chosen}
        solved = {o.name: self._written_solved(j, keep[o.name])  # the identity stays the identity, renumbered
                  for j, o in enumerate(self.orbits) if o.name in renumber and self.solved[j] != self.identity()[j]}
        return PermutationDefinition(name or self.name, orbits, moves, solved)

    def _written_solved(self, j: int, slots) -> tuple[list[int], list[int | None]]:
        """The solved state of orbit ``j`` in ``slots``, as the constructor's ``solved`` takes it:
        the pieces' numbers (from 0) and their twists (None where ignored)."""
        pieces, twists = self.solved[j]
        return ([self.label_names[j][pieces[i]] - 1 for i in slots],
                [None if pieces[i] in self.wild[j] else twists[i] for i in slots])

    def _named(self, move_name: str) -> Move:
        for move in self.moves:
            if move.name == move_name:
                return move
        raise PuzzleDefinitionError(f"{self.name}: no move named {move_name!r}")

    def __repr__(self) -> str:
        orbits = ", ".join(f"{o.name} {o.size}x{o.orientations}" for o in self.orbits)
        extra = f"; rotations {' '.join(m.name for m in self.rotations)}" if self.rotations else ""
        return f"<PermutationDefinition {self.name!r}: {orbits}; moves {' '.join(m.name for m in self.moves)}{extra}>"


def _identity(orbit: Orbit):
    return tuple(range(orbit.size)), (0,) * orbit.size


def _changes(move: Move) -> dict:
    """``move.changes`` without the orbits it leaves as they are."""
    return {o: (p, t) for o, (p, t) in move.changes.items() if p != tuple(range(len(p))) or any(t)}


def _pair(change, orbit: Orbit, wild: bool = False):
    """``(permutation, twist)`` from a permutation alone or a pair; tuples of ints (and None
    where ``wild`` allows an ignored orientation)."""
    if len(change) == 2 and all(isinstance(part, (list, tuple)) for part in change):
        permutation, twist = change
    else:
        permutation, twist = change, (0,) * orbit.size
    permutation = tuple(int(p) for p in permutation)
    twist = tuple(None if (t is None and wild) else int(t) for t in twist)
    if len(permutation) != orbit.size or len(twist) != orbit.size:
        raise PuzzleDefinitionError(f"orbit {orbit.name} has {orbit.size} slots, got {len(permutation)} pieces"
                                    f" and {len(twist)} orientations")
    return permutation, twist


def _check_twists(twists, orbit: Orbit, where: str) -> None:
    bad = [t for t in twists if not 0 <= t < orbit.orientations]
    if bad:
        raise PuzzleDefinitionError(f"{where}: orientation {bad[0]} is not in 0..{orbit.orientations - 1}")


def _power_name(name: str, power: int, order: int) -> str:
    if power == 1:
        return name
    if 2 * power <= order:
        return f"{name}{power}"
    back = order - power
    return f"{name}'" if back == 1 else f"{name}{back}'"
