"""Pattern databases read through symmetric conjugates: one database stored for several projections.

A symmetry ``g`` of the puzzle (``symmetry.SymmetryGroup``: a rotation, or a declared mirror,
that maps the move set to itself) keeps distances under conjugation (``conjugate(s, g)``, the
state seen through ``g``). When it also maps the goal states to goal states, the database of a
projection ``A`` read at ``conjugate(s, g)`` is the distance of ``s``'s projection by
``image(A, g)`` (the pieces whose renamed labels ``A`` tells apart; when the symmetry shifts the
twists of the labels of a class whose orientations are counted alike): that projection's
database need not be stored, and a symmetry gives one more lookup of a stored database.

- ``usable_symmetries``: the group a heuristic may read through (``symmetry`` spec, default the
  definition's rotations) and which of its elements keep the goal states.
- ``plan``: the projections asked for, each read from a stored database, directly or through a
  conjugate of an earlier one's (an ``image`` with the same classes); then, up to ``lookups``
  per stored database, its reads through further symmetries (images not yet read).
- ``conjugate_fields``: per slot of an orbit, the fine slot a conjugate takes its piece from and
  the field (label and twist) it holds there: what ``pruning.projection_tables`` folds into a
  lookup's tables, so a conjugate lookup costs what a direct one does.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzles.permutation.patterns import Coarsening
from vecsearch.puzzles.permutation.symmetry import SymmetryGroup, parse_spec, symmetry_group

MAX_GOALS = 1 << 12  # goal states whose images under each symmetry are checked


class Lookup(NamedTuple):
    """A read of stored database ``database`` at a state's conjugate by the group's element
    ``element`` (0: the state itself); ``name``: the projection it stands for."""

    database: int
    element: int
    name: str


def usable_symmetries(puzzle, goals: np.ndarray, spec: str | None) -> tuple[SymmetryGroup | None, list[int]]:
    """``(group, elements)``: the symmetries ``spec`` names (``symmetry.parse_spec``; None: the
    definition's rotations if it declares any, else none) and the indices of those that map the
    goal states to goal states. An explicit ``spec`` the puzzle does not allow is refused."""
    if spec is None:
        if not puzzle.definition.rotations:
            return None, [0]
        try:
            group = symmetry_group(puzzle.definition, puzzle.move_list)
        except PuzzleDefinitionError:  # rotations that are no symmetry of this move set or solved state
            return None, [0]
    else:
        rotations, mirrors = parse_spec(spec)
        group = symmetry_group(puzzle.definition, puzzle.move_list, rotations, mirrors)
    if len(goals) > MAX_GOALS:
        if spec is not None:
            raise InvalidPuzzleInput(f"{puzzle.name}: symmetric lookups check the goal states' images; over"
                                     f" {MAX_GOALS:,} goal states ({len(goals):,}) are not checked")
        return None, [0]
    targets = {puzzle.pieces(goal) for goal in goals}
    return group, [e for e in range(group.order) if all(group.conjugate(goal, e) in targets for goal in targets)]


def image(coarsening: Coarsening, group: SymmetryGroup, element: int) -> Coarsening | None:
    """The projection whose database is ``coarsening``'s read through ``group.elements[element]``
    (each label told apart as its renamed label is), or None when there is none: a class whose
    orientations are counted holds labels whose twists the symmetry shifts differently (the
    read is then still a lower bound, but of no projection's database)."""
    classes = []
    for mine, ignored, (rename, shift) in zip(coarsening.classes, coarsening.ignored, group.relabellings[element],
                                              strict=True):
        classes.append([mine[v] for v in rename])
        shifts: dict[int, set[int]] = {}
        for label, c in enumerate(classes[-1]):
            shifts.setdefault(c, set()).add(shift[label])
        if any(len(values) > 1 for c, values in shifts.items() if c not in ignored):
            return None
    return Coarsening(coarsening.fine, classes, coarsening.ignored,
                      f"{coarsening.name} through {group.elements[element].name}")


def _key(coarsening: Coarsening) -> tuple:
    """What tells projections apart: per orbit, the partition of the labels into classes and
    which classes' orientations are ignored."""
    out = []
    for classes, ignored in zip(coarsening.classes, coarsening.ignored, strict=True):
        number: dict[int, int] = {}
        for c in classes:
            number.setdefault(c, len(number))
        out.append((tuple(number[c] for c in classes), frozenset(number[c] for c in ignored if c in number)))
    return tuple(out)


def plan(patterns: list[Coarsening], group: SymmetryGroup | None, elements: list[int],
         lookups: int | None = None) -> tuple[list[Coarsening], list[Lookup]]:
    """``(stored, reads)``: the projections whose databases are stored and the lookups of the
    heuristic. Each of ``patterns`` is read from the first stored database that some symmetry of
    ``elements`` maps onto it, else stored; then each stored database is read through further
    symmetries (each a projection not read yet) while it has fewer than ``lookups`` reads."""
    stored: list[Coarsening] = []
    reads: list[Lookup] = []
    seen = set()
    for pattern in patterns:
        key = _key(pattern)
        found = next(((d, e) for d, kept in enumerate(stored) for e in elements
                      for seen_through in [image(kept, group, e) if e else kept]
                      if seen_through is not None and _key(seen_through) == key), None) if group is not None else None
        if found is None:
            stored.append(pattern)
            found = (len(stored) - 1, 0)
        if key not in seen:
            reads.append(Lookup(*found, pattern.name))
            seen.add(key)
    for d, kept in enumerate(stored):
        count = sum(read.database == d for read in reads)
        for e in elements if group is not None else ():
            if lookups is None or count >= lookups:
                break
            more = image(kept, group, e)
            if more is not None and _key(more) not in seen:
                seen.add(_key(more))
                reads.append(Lookup(d, e, more.name))
                count += 1
    return stored, reads


def conjugate_fields(group: SymmetryGroup, element: int, j: int, piece_bits: int,
                     fields: int) -> tuple[np.ndarray, np.ndarray]:
    """``(source, field)`` of orbit ``j`` seen through ``group.elements[element]``:
    ``source[i]``, the orbit's slot whose piece the conjugate has in slot ``i``; ``field[i, f]``,
    the field (label in the low ``piece_bits``, twist above) it has there when that slot's field
    is ``f`` (-1 for a field no state holds)."""
    d = group.definition
    orbit, wild = d.orbits[j], d.wild[j]
    permutation, twist = group.elements[element].changes[j]
    sign = group.elements[element].sign
    rename, shift = group.relabellings[element][j]
    out = np.full((orbit.size, fields), -1, np.int64)
    for i in range(orbit.size):
        for f in range(fields):
            v, t = f & ((1 << piece_bits) - 1), f >> piece_bits
            if v < len(rename) and t < orbit.orientations:
                turned = 0 if v in wild else (sign * t + twist[i] + shift[v]) % orbit.orientations
                out[i, f] = rename[v] | turned << piece_bits
    return np.asarray(permutation, np.int64), out
