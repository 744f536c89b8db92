"""Symmetries of a permutation puzzle: whole-puzzle rotations and declared mirrors, acting on
states by conjugation.

Conventions (those of ``definition``; numbers 0-based):

- A **symmetry** is, per orbit, a permutation and a twist written as a move's
  (``permutation[i]``: the slot whose piece lands in slot ``i``; ``twist[i]``: what its
  orientation gains), and a **sign**: +1 for a rotation, -1 for a mirror, which also turns
  every orientation backwards (``t`` becomes ``-t`` before the twist is added). ``a`` then
  ``b``: ``permutation[i] = a.permutation[b.permutation[i]]``, ``twist[i] = b.sign *
  a.twist[b.permutation[i]] + b.twist[i]``, ``sign = a.sign * b.sign`` (for two moves: the
  definition's ``then``).
- A symmetry ``g`` acts on a state ``s`` by **conjugation**: ``conjugate(s, g)`` is ``g⁻¹ s g``,
  the state ``s`` seen through ``g``. On a state written as labels (identical pieces, a solved
  state that is not the identity) it is ``s`` then ``g``, with each label renamed (and its twist
  shifted) so that the solved state maps to itself; a symmetry that maps the solved state to
  something else is refused.
- Conjugation **keeps distances** when the move set is closed under it: ``g⁻¹ m g`` is a move
  for every move ``m`` (then ``conjugate(s m, g) = conjugate(s, g) (g⁻¹ m g)``, so a shortest
  path maps to a path as long, and back). ``SymmetryGroup`` checks that for each generator and
  refuses otherwise. A left multiplication ``g s`` (the puzzle turned in space) would not: it
  moves the solved state.
- **Rotations** are the definition's (``definition.rotations``: what twsearch reads as
  whole-puzzle rotations, ``x y z`` and ``...v``). A **mirror** is declared by the permutation
  of move names it makes, in cycle notation: ``"(L R)"`` is the mirror that turns ``L`` into
  ``R'``, ``R`` into ``L'`` and every other move into its own inverse (a mirror turns clockwise
  into anticlockwise); ``mirror`` finds the symmetry (pieces and twists) that does this, or says
  there is none.
- The **group** is what the generators make (the identity first); ``order`` counts its elements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzles.permutation import conjugates, lookup_conjugates
from vecsearch.puzzles.permutation.definition import Move, PermutationDefinition

ROTATIONS = "rotations"
MAX_ORDER = 1 << 12  # most elements a symmetry group may have
CYCLE = re.compile(r"\(([^()]*)\)")


@dataclass(frozen=True)
class Symmetry:
    """A symmetry: ``changes[orbit name] = (permutation, twist)`` for every orbit, and ``sign``
    (-1: a mirror). ``name``: how it was made (a rotation's name, ``mirror (L R)``, products)."""

    name: str
    changes: tuple  # one (permutation, twist) pair per orbit, in the definition's order
    sign: int = 1

    @property
    def key(self):
        return self.changes, self.sign


def _element(definition: PermutationDefinition, name: str, changes, sign: int = 1) -> Symmetry:
    pairs = []
    for orbit in definition.orbits:
        permutation, twist = changes.get(orbit.name, (tuple(range(orbit.size)), (0,) * orbit.size))
        pairs.append((tuple(permutation), tuple(t % orbit.orientations for t in twist)))
    return Symmetry(name, tuple(pairs), sign)


def of_move(definition: PermutationDefinition, move: Move, sign: int = 1) -> Symmetry:
    """The symmetry that turns the puzzle as ``move`` does (a rotation: sign +1)."""
    return _element(definition, move.name, move.changes, sign)


def compose(definition: PermutationDefinition, a: Symmetry, b: Symmetry, name: str | None = None) -> Symmetry:
    """``a`` then ``b`` (see the conventions)."""
    pairs = []
    for orbit, (pa, ta), (pb, tb) in zip(definition.orbits, a.changes, b.changes, strict=True):
        k = orbit.orientations
        pairs.append((tuple(pa[p] for p in pb), tuple((b.sign * ta[p] + t) % k for p, t in zip(pb, tb, strict=True))))
    return Symmetry(name or f"{a.name} {b.name}", tuple(pairs), a.sign * b.sign)


def invert(definition: PermutationDefinition, g: Symmetry) -> Symmetry:
    """The symmetry that undoes ``g``."""
    pairs = []
    for orbit, (p, t) in zip(definition.orbits, g.changes, strict=True):
        back = [0] * len(p)
        for i, q in enumerate(p):
            back[q] = i
        pairs.append((tuple(back), tuple((-g.sign * t[back[i]]) % orbit.orientations for i in range(len(p)))))
    return Symmetry(g.name + "'", tuple(pairs), g.sign)


def _move_key(definition: PermutationDefinition, element: Symmetry):
    """What tells moves apart: the orbits the element changes, with their permutation and twist."""
    return tuple((o.name, p, t) for o, (p, t) in zip(definition.orbits, element.changes, strict=True)
                 if p != tuple(range(o.size)) or any(t))


def mirror(definition: PermutationDefinition, text: str) -> Symmetry:
    """The mirror that permutes the moves as ``text`` says, in cycle notation (``"(L R)"``,
    ``"(DFR DLF)(UBR ULB)"``): each move ``m`` becomes the inverse of its image (moves left out
    are their own image). Raises ``PuzzleDefinitionError`` if the text names no move, or no
    mirror of the pieces does this."""
    names = {m.name: m for m in definition.moves}
    image = {name: name for name in names}
    if CYCLE.sub("", text).strip():
        raise PuzzleDefinitionError(f"mirror {text!r}: write it as cycles of move names, like \"(L R)\"")
    for cycle in CYCLE.findall(text):
        members = cycle.split()
        for member in members:
            if member not in names:
                raise PuzzleDefinitionError(f"mirror {text!r}: {member!r} is not a move of {definition.name}; moves:"
                                            f" {' '.join(names)}")
        if len(set(members)) != len(members) or any(image[m] != m for m in members):
            raise PuzzleDefinitionError(f"mirror {text!r}: a move appears twice")
        for a, b in zip(members, members[1:] + members[:1], strict=True):
            image[a] = b
    pairs = []
    for j, orbit in enumerate(definition.orbits):
        found = _mirror_orbit(definition, j, {m: definition.inverse(names[image[m]]) for m in names})
        if found is None:
            raise PuzzleDefinitionError(f"{definition.name}: no mirror of the pieces turns each move into the inverse"
                                        f" of its image under {text!r} (orbit {orbit.name})")
        pairs.append(found)
    return Symmetry(f"mirror {text.strip()}", tuple(pairs), -1)


def _mirror_orbit(definition: PermutationDefinition, j: int, target: dict):
    """An orbit's ``(permutation, twist)`` of a mirror ``M`` with ``m M = M target[m]`` for every
    move ``m``: each slot's image and twist follow from one seed per set of slots the moves
    connect, tried in turn."""
    orbit = definition.orbits[j]
    n, k = orbit.size, orbit.orientations
    identity = (tuple(range(n)), (0,) * n)
    moves = [(m.changes.get(orbit.name, identity), target[m.name].changes.get(orbit.name, identity))
             for m in definition.moves]
    perm, twist = [None] * n, [0] * n
    for seed in range(n):
        if perm[seed] is not None:
            continue
        for image in range(n):
            if image in perm:
                continue
            for start in range(k):
                trial_perm, trial_twist = perm[:], twist[:]
                if _propagate(seed, image, start, moves, trial_perm, trial_twist, k):
                    perm, twist = trial_perm, trial_twist
                    break
            else:
                continue
            break
        else:
            return None
    return tuple(perm), tuple(twist)


def _propagate(seed, image, start, moves, perm, twist, k) -> bool:
    """Fill ``perm``/``twist`` from ``perm[seed] = image``, ``twist[seed] = start`` through
    ``perm[pt[i]] = pm[perm[i]]`` and ``twist[pt[i]] = -tm[perm[i]] + twist[i] - tt[i]`` (the
    relation ``m M = M t`` of a mirror, sign -1); False on a contradiction."""
    perm[seed], twist[seed] = image, start
    todo = [seed]
    while todo:
        i = todo.pop()
        for (pm, tm), (pt, tt) in moves:
            slot, value, spin = pt[i], pm[perm[i]], (-tm[perm[i]] + twist[i] - tt[i]) % k
            if perm[slot] is None:
                if value in perm:
                    return False
                perm[slot], twist[slot] = value, spin
                todo.append(slot)
            elif perm[slot] != value or twist[slot] != spin:
                return False
    return True


class SymmetryGroup:
    """The symmetries generated by some rotations and mirrors of a puzzle, checked to keep its
    distances, and their action on states.

    Parameters
    ----------
    definition : PermutationDefinition
        The puzzle's definition.
    moves : sequence of Move
        Its move set (``PermutationPuzzle.move_list``): it must be closed under conjugation.
    generators : sequence of Symmetry
        Rotations (``of_move``) and mirrors (``mirror``).

    Raises
    ------
    PuzzleDefinitionError
        A generator turns a move into something that is not a move, or maps the solved state
        to a state that is not it up to renaming pieces; or the puzzle has illegal states or
        blocks; or the group has more than ``MAX_ORDER`` elements.

    Examples
    --------
    >>> pair = vs.PermutationDefinition("pair", [vs.Orbit("P", 4, 2)],
    ...     {"A": {"P": ([1, 0, 2, 3], [1, 1, 0, 0])}, "B": {"P": ([0, 1, 3, 2], [0, 0, 1, 1])}},
    ...     rotations={"x": {"P": [2, 3, 0, 1]}})
    >>> group = vs.PermutationPuzzle(pair).symmetry("rotations").group
    >>> group
    <SymmetryGroup of pair: 2 elements from x>
    >>> a = pair.apply(pair.solved, pair.moves[0])  # A from the solved state
    >>> group.conjugate(a, 1) == pair.apply(pair.solved, pair.moves[1])  # seen through x: B
    True
    """

    def __init__(self, definition: PermutationDefinition, moves: Sequence[Move], generators: Sequence[Symmetry]):
        if definition.constrained:
            raise PuzzleDefinitionError(f"{definition.name}: symmetry reduction does not take illegal states or blocks")
        self.definition = definition
        self.generators = tuple(generators)
        known = {_move_key(definition, of_move(definition, m)) for m in moves}
        for g in self.generators:
            back = invert(definition, g)
            for m in moves:
                image = compose(definition, compose(definition, back, of_move(definition, m)), g)
                if _move_key(definition, image) not in known:
                    raise PuzzleDefinitionError(f"{definition.name}: {g.name} is not a symmetry of this move set: it"
                                                f" turns move {m.name} into a move the puzzle does not have")
            self._relabelling(g)
        identity = _element(definition, "identity", {})
        self.elements = [identity]
        seen = {identity.key}
        for element in self.elements:  # grows while it is read: the closure under the generators
            for g in self.generators:
                product = compose(definition, element, g, g.name if element is identity else None)
                if product.key not in seen:
                    seen.add(product.key)
                    self.elements.append(product)
                    if len(self.elements) > MAX_ORDER:
                        raise PuzzleDefinitionError(f"{definition.name}: the symmetries generate more than"
                                                    f" {MAX_ORDER} elements")
        self.relabellings = [self._relabelling(g) for g in self.elements]

    @property
    def order(self) -> int:
        """How many symmetries the group has (the identity included)."""
        return len(self.elements)

    def multiplication(self) -> tuple[np.ndarray, np.ndarray]:
        """``(products, inverses)``: ``products[a, b]``, the index of ``elements[a]`` then
        ``elements[b]``; ``inverses[a]``, of the element that undoes ``elements[a]``."""
        index = {element.key: i for i, element in enumerate(self.elements)}
        products = np.array([[index[compose(self.definition, a, b).key] for b in self.elements]
                             for a in self.elements], np.int64)
        inverses = np.array([index[invert(self.definition, a).key] for a in self.elements], np.int64)
        return products, inverses

    def _relabelling(self, g: Symmetry):
        """Per orbit ``(label map, twist per label)`` that takes the solved state, then ``g``, back
        to the solved state; refused when no renaming does."""
        out = []
        for j, (orbit, (perm, twist)) in enumerate(zip(self.definition.orbits, g.changes, strict=True)):
            pieces, twists = self.definition.solved[j]
            wild, k = self.definition.wild[j], orbit.orientations
            rename, shift = {}, {}
            for i, p in enumerate(perm):
                label, spun = pieces[p], (g.sign * twists[p] + twist[i]) % k
                want = 0 if pieces[i] in wild else (twists[i] - spun) % k
                if rename.setdefault(label, pieces[i]) != pieces[i] or shift.setdefault(label, want) != want:
                    raise PuzzleDefinitionError(f"{self.definition.name}: {g.name} does not map the solved state to"
                                                f" itself (orbit {orbit.name}): its pieces are not symmetric")
            labels = len(self.definition.label_names[j])
            out.append((tuple(rename[v] for v in range(labels)), tuple(shift[v] for v in range(labels))))
        return tuple(out)

    def conjugate(self, state, index: int):
        """The state ``state`` (Python tuples) seen through symmetry ``elements[index]``."""
        g = self.elements[index]
        out = []
        for j, (orbit, (pieces, twists), (perm, twist), (rename, shift)) in enumerate(
                zip(self.definition.orbits, state, g.changes, self.relabellings[index], strict=True)):
            k, wild = orbit.orientations, self.definition.wild[j]
            out.append((tuple(rename[pieces[p]] for p in perm),
                        tuple(0 if pieces[p] in wild else (g.sign * twists[p] + t + shift[pieces[p]]) % k
                              for p, t in zip(perm, twist, strict=True))))
        return tuple(out)

    def __repr__(self) -> str:
        return (f"<SymmetryGroup of {self.definition.name}: {self.order} elements from"
                f" {', '.join(g.name for g in self.generators) or 'nothing'}>")


def parse_spec(spec: str) -> tuple[bool, list[str]]:
    """``(rotations, mirrors)`` of a symmetry spec: items separated by commas, each
    ``rotations`` (the definition's) or ``mirror CYCLES`` (``mirror (L R)``)."""
    if not isinstance(spec, str):
        raise InvalidPuzzleInput(f"symmetry names symmetries as text ('rotations', 'mirror (L R)'), not {spec!r}")
    rotations, mirrors = False, []
    for item in (part.strip() for part in spec.split(",")):
        if item == ROTATIONS:
            rotations = True
        elif item.startswith("mirror") and item[len("mirror"):].strip():
            mirrors.append(item[len("mirror"):].strip())
        else:
            raise PuzzleDefinitionError(f"symmetry {spec!r}: {item!r} is neither 'rotations' nor 'mirror (A B)...'")
    return rotations, mirrors


def symmetry_group(definition: PermutationDefinition, moves: Sequence[Move], rotations: bool = True,
                   mirrors: Sequence[str] = ()) -> SymmetryGroup:
    """The group of the definition's rotations (``rotations``) and the ``mirrors`` (cycle
    notation; see ``mirror``). Refuses a request for rotations of a definition that has none."""
    if rotations and not definition.rotations:
        raise PuzzleDefinitionError(f"{definition.name}: the definition declares no rotations (moves named x, y, z or"
                                    " ending in v, as twsearch reads them)")
    generators = [of_move(definition, r) for r in definition.rotations] if rotations else []
    generators += [mirror(definition, text) for text in mirrors]
    return SymmetryGroup(definition, moves, generators)


class PuzzleSymmetry:
    """A ``SymmetryGroup`` bound to a puzzle in the coordinates form: what the engine's
    enumeration modulo symmetry takes (``order``, ``canonical_ranks``, ``puzzle``, ``quotient``).
    Conjugates are found by lookups alone (``lookup_conjugates``) when every orbit's tables are
    small, else by decoding each state (``conjugates``).

    Parameters
    ----------
    puzzle : PermutationPuzzle
        The puzzle (coordinates form, distinct pieces).
    group : SymmetryGroup
        Symmetries of its definition and move set.
    given : PermutationPuzzle, optional
        The same puzzle in the form it was asked for (default: ``puzzle``).
    """

    def __init__(self, puzzle, group: SymmetryGroup, given=None):
        self.puzzle = puzzle
        self.given = given or puzzle
        self.group = group
        self.tables = conjugates.conjugate_tables(puzzle, group)
        self._tabled = {}  # component -> (tables with permutation tables, lookup tables or None)
        self._quotients = {}  # component -> quotient.find's answer

    @property
    def order(self) -> int:
        """The group's order."""
        return self.group.order

    def conjugate_ranks(self, ranks: np.ndarray, component: int) -> np.ndarray:
        """``out[i, g]``: the rank of the conjugate of the state of rank ``ranks[i]`` (in
        ``component``) by the group's ``g``-th symmetry."""
        tables, lookups = self._tables(component)
        ranks = np.ascontiguousarray(ranks, np.int64)
        if lookups is not None:
            return lookup_conjugates.lookup_conjugate_ranks(ranks, lookups, np.int64(self.order))
        return conjugates.conjugate_ranks(ranks, np.int64(component), tables)

    def canonical_ranks(self, ranks: np.ndarray, component: int) -> tuple[np.ndarray, np.ndarray]:
        """``(canonical, fixing)``: the least rank among the conjugates of each state (its class's
        canonical representative), and how many symmetries fix the state (its class has the
        group's order over that many states)."""
        lookups = self._tables(component)[1]
        ranks = np.ascontiguousarray(ranks, np.int64)
        if lookups is not None and self.order <= lookup_conjugates.MAX_MASKED:
            canonical, stabiliser = lookup_conjugates.lookup_canonical_ranks(ranks, lookups, np.int64(self.order))
        else:
            conjugates = self.conjugate_ranks(ranks, component)
            canonical, stabiliser = conjugates.min(axis=1), (conjugates == ranks[:, None]).sum(axis=1)
        return canonical, stabiliser

    def conjugation(self, component: int):
        """``(lookups, tables)`` of ``component``: ``lookup_conjugates``' tables (None when an
        orbit's would be too big) and ``conjugates``' tables with their permutation tables."""
        tables, lookups = self._tables(component)
        return lookups, tables

    def quotient(self, component: int):
        """``(quotient, method)``: the quotient of the positions of ``component`` by the
        rotations (``quotient.Quotient``), or None when the rotations do not make one, and a line
        saying which piece it fixes, or why there is none."""
        if component not in self._quotients:
            from vecsearch.puzzles.permutation import quotient

            self._quotients[component] = quotient.find(self, component)
        return self._quotients[component]

    def restate(self, states: np.ndarray) -> np.ndarray:
        """``states`` of the ``given`` puzzle, packed as ``puzzle`` packs them."""
        if self.given is self.puzzle:
            return states
        return np.array([self.puzzle.encode(self.given.pieces(state)) for state in states], np.int64)

    def _tables(self, component: int):
        if component not in self._tabled:
            tabled = conjugates.with_permutation_tables(self.tables, component)
            self._tabled[component] = tabled, lookup_conjugates.lookup_tables(tabled, component)
        return self._tabled[component]

    def __repr__(self) -> str:
        return f"<PuzzleSymmetry of {self.puzzle.name}: {self.order} symmetries>"
