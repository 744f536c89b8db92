"""Permutation puzzles as data: orbits of pieces, and moves that permute and twist them.

Conventions (twsearch's "state representation"; numbers are 0-based in Python, 1-based in text):

- An **orbit** has ``size`` slots holding as many distinct pieces, each with an orientation
  mod ``orientations`` (1: pieces without orientation). Pieces never leave their orbit.
- A **state** gives, per orbit, ``pieces[i]``: the piece in slot ``i``, and ``twists[i]``: its
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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from vecsearch.errors import PuzzleDefinitionError

METRICS = ("htm", "qtm", "given")


@dataclass(frozen=True)
class Orbit:
    name: str
    size: int
    orientations: int = 1


@dataclass(frozen=True)
class Move:
    """``changes[orbit name] = (permutation, twist)``; orbits not listed are left alone."""

    name: str
    changes: Mapping[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)


class PermutationDefinition:
    """A puzzle given by its orbits and moves (see the module conventions).

    ``moves`` map a name to ``{orbit name: permutation}`` or ``{orbit name: (permutation,
    twist)}``, or are ``Move`` objects; ``solved`` maps orbit names to ``pieces`` or
    ``(pieces, twists)`` (orbits left out are the identity).
    """

    def __init__(self, name: str, orbits: Sequence[Orbit], moves, solved: Mapping | None = None):
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
        items = moves.items() if isinstance(moves, Mapping) else [(m.name, m.changes) for m in moves]
        self.moves = tuple(self._move(move_name, changes) for move_name, changes in items)
        if len({m.name for m in self.moves}) != len(self.moves):
            raise PuzzleDefinitionError(f"{name}: two moves share a name")
        clash = {m.name for m in self.moves} & set(self._orbit)
        if clash:
            raise PuzzleDefinitionError(f"{name}: {sorted(clash)[0]!r} names both a move and an orbit")
        self.solved = self._state(solved or {}, "solved")

    # --- checking the data ------------------------------------------------------------------
    def orbit(self, name: str) -> Orbit:
        if name not in self._orbit:
            raise PuzzleDefinitionError(f"{self.name}: no orbit named {name!r}; orbits: {', '.join(self._orbit)}")
        return self._orbit[name]

    def _move(self, name: str, changes) -> Move:
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
        if not checked:
            raise PuzzleDefinitionError(f"{self.name}: move {name} changes nothing")
        return Move(name, checked)

    def _state(self, given: Mapping, what: str):
        state = []
        for orbit in self.orbits:
            pieces, twists = _pair(given[orbit.name], orbit) if orbit.name in given else _identity(orbit)
            where = f"{self.name}: {what} state, orbit {orbit.name}"
            if sorted(pieces) != list(range(orbit.size)):
                raise PuzzleDefinitionError(f"{where}: pieces {list(pieces)} are not distinct pieces 0..{orbit.size - 1}"
                                            " (identical pieces are not supported)")
            _check_twists(twists, orbit, where)
            state.append((pieces, twists))
        for orbit_name in given:
            self.orbit(orbit_name)
        return tuple(state)

    # --- the group ----------------------------------------------------------------------------
    def apply(self, state, move: Move):
        """The state after ``move`` (Python tuples; see the conventions)."""
        out = []
        for orbit, (pieces, twists) in zip(self.orbits, state):
            if orbit.name not in move.changes:
                out.append((pieces, twists))
                continue
            permutation, twist = move.changes[orbit.name]
            k = orbit.orientations
            out.append((tuple(pieces[p] for p in permutation),
                        tuple((twists[p] + t) % k for p, t in zip(permutation, twist))))
        return tuple(out)

    def identity(self):
        return tuple(_identity(orbit) for orbit in self.orbits)

    def as_move(self, name: str, state) -> Move:
        """The move that makes ``state`` from the identity (unchanged orbits left out)."""
        identity = self.identity()
        return Move(name, {o.name: s for o, s, i in zip(self.orbits, state, identity) if s != i})

    def inverse(self, move: Move, name: str | None = None) -> Move:
        """The move that undoes ``move``."""
        changes = {}
        for orbit_name, (permutation, twist) in move.changes.items():
            k = self.orbit(orbit_name).orientations
            back = [0] * len(permutation)
            for i, p in enumerate(permutation):
                back[p] = i
            changes[orbit_name] = (tuple(back), tuple((-twist[back[j]]) % k for j in range(len(back))))
        return Move(name or move.name + "'", changes)

    def order(self, move: Move) -> int:
        identity = self.identity()
        state, order = self.apply(identity, move), 1
        while state != identity:
            state, order = self.apply(state, move), order + 1
        return order

    def powers(self, move: Move, metric: str) -> list[Move]:
        """The moves ``metric`` makes of ``move``: its powers (``htm``), it and its inverse (``qtm``)."""
        if metric == "given":
            return [move]
        order = self.order(move)
        wanted = range(1, order) if metric == "htm" else sorted({1, order - 1} - {0})
        out, state, power = [], self.identity(), 0
        for p in wanted:
            while power < p:
                state, power = self.apply(state, move), power + 1
            out.append(self.as_move(_power_name(move.name, p, order), state))
        return out

    def move_set(self, metric: str = "htm") -> list[Move]:
        if metric not in METRICS:
            raise PuzzleDefinitionError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
        return [power for move in self.moves for power in self.powers(move, metric)]

    def restricted(self, move_names: Sequence[str], name: str | None = None) -> PermutationDefinition:
        """The same puzzle with only the moves ``move_names``, and without the slots none of them
        touches (such a slot always holds its solved piece, so it carries no information)."""
        chosen = [self._named(m) for m in move_names]
        keep = {}
        for orbit in self.orbits:
            moved = {i for m in chosen if orbit.name in m.changes
                     for i, (p, t) in enumerate(zip(*m.changes[orbit.name])) if p != i or t}
            keep[orbit.name] = sorted(moved)
        orbits = [Orbit(o.name, len(keep[o.name]), o.orientations) for o in self.orbits if keep[o.name]]
        renumber = {o.name: {old: new for new, old in enumerate(keep[o.name])} for o in orbits}

        def shrink(orbit_name, pieces, twists):
            slots = keep[orbit_name]
            return (tuple(renumber[orbit_name][pieces[i]] for i in slots), tuple(twists[i] for i in slots))

        moves = {m.name: {o: shrink(o, *change) for o, change in m.changes.items() if o in renumber} for m in chosen}
        solved = {o.name: shrink(o.name, *s) for o, s in zip(self.orbits, self.solved) if o.name in renumber}
        return PermutationDefinition(name or self.name, orbits, moves, solved)

    def _named(self, move_name: str) -> Move:
        for move in self.moves:
            if move.name == move_name:
                return move
        raise PuzzleDefinitionError(f"{self.name}: no move named {move_name!r}")

    def __repr__(self) -> str:
        orbits = ", ".join(f"{o.name} {o.size}x{o.orientations}" for o in self.orbits)
        return f"<PermutationDefinition {self.name!r}: {orbits}; moves {' '.join(m.name for m in self.moves)}>"


def _identity(orbit: Orbit):
    return tuple(range(orbit.size)), (0,) * orbit.size


def _pair(change, orbit: Orbit):
    """``(permutation, twist)`` from a permutation alone or a pair; tuples of ints."""
    if len(change) == 2 and all(isinstance(part, (list, tuple)) for part in change):
        permutation, twist = change
    else:
        permutation, twist = change, (0,) * orbit.size
    permutation, twist = tuple(int(p) for p in permutation), tuple(int(t) for t in twist)
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
