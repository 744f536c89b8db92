"""Pattern databases of permutation puzzles: projections enumerated by the engine, combined by max.

A **projection** is a ``patterns.Coarsening`` of the puzzle (some pieces made identical, some
orientations ignored: a pattern written by the user, or one of ``default_patterns``). Its coset
space is itself a permutation puzzle (its solved state is the coarsened one) whose rank is
perfect; the engine's distance table (``engine.tables.DistanceTable``) enumerates it
breadth-first from the goal's projections (a byte per rank, ``UNREACHED`` where none), and
``engine.pdb.cached_array``
keeps it on disk, memory-mapped, under a name hashed from the definition, the projection, the
metric and the goal. The distance of a state's projection never exceeds the state's own, so the
largest over the projections is an admissible bound (``projection_bound``).

**Lookup** (numba): each slot's field of the fine state (label and twist; the fine state in the
labels or pieces form is read where it lies, one in the coordinates form is unranked into the
labels form's words first) becomes its coarse field through ``project[p, slot * fields +
field]`` (already shifted into place in the one-word coarse state); slots whose coarse field is
the same whatever they hold are skipped (``base[p]`` holds them). The coarse state is ranked by
the coarse puzzle's own ``labels_rank``.

**Defaults** (``default_patterns``): the whole puzzle when its rank fits the budget (the
database is then exact); else the orbits that some move changes, whole, grouped into
projections that fit half the budget (the other orbits identical, orientations ignored), and
each orbit too large for that cut into windows of its labels kept apart (the rest identical,
orientations counted if that fits, else ignored), as many as cover the labels, within what
the budget has left.
"""

from __future__ import annotations

import hashlib
import math
from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.engine.pdb import UNREACHED, cached_array
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError, VecsearchError
from vecsearch.heuristics import Heuristic
from vecsearch.kernels.state_words import word_of
from vecsearch.puzzles.permutation import labels
from vecsearch.puzzles.permutation.definition import Move, PermutationDefinition
from vecsearch.puzzles.permutation.layout import Layout
from vecsearch.puzzles.permutation.patterns import Coarsening, Pattern
from vecsearch.puzzles.permutation.tables import field_layout

DEFAULT_TABLE_BYTES = 1 << 30  # the default budget of a heuristic's databases (a byte per rank)


class ProjectionTables(NamedTuple):
    """What ``projection_bound`` reads: the fine state's fields (``slot_word``, ``slot_shift``,
    ``scalars``: field bits, the fine labels form's width, its rank bits, projections), the fine
    puzzle's ``LabelsTables`` (``fine``: to unrank a coordinates-form state), per projection
    ``base``, ``slots`` (``counts`` of them), ``project`` and its coarse ``LabelsTables``
    (``coarse``), and the databases (``entries``, memory-mapped)."""

    slot_word: np.ndarray
    slot_shift: np.ndarray
    scalars: np.ndarray
    fine: labels.LabelsTables
    base: np.ndarray
    slots: np.ndarray
    counts: np.ndarray
    project: np.ndarray
    coarse: tuple
    entries: tuple


FIELD_BITS, FINE_WIDTH, RANK_BITS, PROJECTIONS = range(4)  # ProjectionTables.scalars


@state_function
def projections_bound(words, tables):
    """The largest database entry over the projections of the state whose words are ``words``
    (a scalar or a row, read by ``word_of``)."""
    mask = (np.int64(1) << tables.scalars[FIELD_BITS]) - 1
    fields = mask + 1
    h = np.int64(0)
    for p in range(tables.scalars[PROJECTIONS]):
        coarse = tables.base[p]
        for i in range(tables.counts[p]):
            s = tables.slots[p, i]
            field = (word_of(words, tables.slot_word[s]) >> tables.slot_shift[s]) & mask
            coarse |= tables.project[p, s * fields + field]
        value = np.int64(tables.entries[p][labels.labels_rank(coarse, tables.coarse[p])])
        if value > h:
            h = value
    return h


@state_function
def projection_bound(state, tables):
    """``projections_bound`` of a state in the labels or pieces form."""
    return projections_bound(state, tables)


@state_function
def coordinates_projection_bound(state, tables):
    """``projections_bound`` of a state in the coordinates form, unranked into the labels form."""
    rank_bits = tables.scalars[RANK_BITS]
    rank = state & ((np.int64(1) << rank_bits) - 1)
    component = state >> rank_bits
    width = tables.scalars[FINE_WIDTH]
    words = np.empty(width, np.int64)
    for w in range(width):
        words[w] = labels.labels_unrank_word(rank, component, tables.fine, w)
    return projections_bound(words, tables)


BOUNDS = {"labels": projection_bound, "pieces": projection_bound, "coordinates": coordinates_projection_bound}


def kept_orbits(coarsening: Coarsening) -> list[int]:
    """The orbits a projection tells anything about: some pieces apart, or some orientation
    counted (the others are left out of its coset space)."""
    return [j for j, (classes, ignored) in enumerate(zip(coarsening.classes, coarsening.ignored))
            if len(set(classes)) > 1 or set(classes) - ignored]


def coset_definition(coarsening: Coarsening) -> PermutationDefinition:
    """The coset space of ``coarsening`` as a definition of its ``kept_orbits`` alone."""
    full = coarsening.definition
    keep = kept_orbits(coarsening)
    if not keep:
        raise InvalidPuzzleInput(f"{coarsening.name}: the projection tells no pieces apart")
    names = {full.orbits[j].name for j in keep}
    moves = [Move(m.name, {o: c for o, c in m.changes.items() if o in names}) for m in full.moves]
    moves = [m for m in moves if any(p != tuple(range(len(p))) or any(t) for p, t in m.changes.values())]
    solved = {full.orbits[j].name: ([full.label_names[j][v] - 1 for v in pieces],
                                    [None if v in full.wild[j] else t for v, t in zip(pieces, twists)])
              for j, (pieces, twists) in enumerate(full.solved) if j in keep}
    return PermutationDefinition(coarsening.name, [full.orbits[j] for j in keep], moves, solved)


def coarse_state(coarsening: Coarsening, state) -> tuple:
    """The coset space's Python state of a fine Python state."""
    projected = coarsening.project(state)
    return tuple(projected[j] for j in kept_orbits(coarsening))


def coarse_puzzle(coarsening: Coarsening):
    """The coset space of ``coarsening`` in the labels form (one word, ranked)."""
    from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle

    fine = coarsening.fine
    space = PermutationPuzzle(coset_definition(coarsening), fine.metric, name=coarsening.name,
                              representation="labels")
    if space.width != 1 or not space.has_rank:
        raise InvalidPuzzleInput(f"{coarsening.name}: a pattern database needs a coset space whose state fits one"
                                 " word and has a rank; make more pieces identical")
    return space


def database_size(coarsening: Coarsening) -> int:
    """Entries (ranks) of ``coarsening``'s database."""
    definition = coset_definition(coarsening)
    return Layout(definition, definition.move_set(coarsening.fine.metric)).rank_size


def projection(puzzle, kept: dict) -> Coarsening:
    """The projection telling apart, in each orbit ``j`` of ``kept``, the labels ``kept[j][0]``
    (the rest of the orbit one class, its orientations counted if ``kept[j][1]``); every other
    orbit is one class without orientations."""
    d = puzzle.definition
    classes, ignored, parts = [], [], []
    for j, names in enumerate(d.label_names):
        if j not in kept:
            classes.append([0] * len(names))
            ignored.append({0})
            continue
        labels_kept, twists = sorted(kept[j][0]), kept[j][1]
        rest = len(labels_kept)
        classes.append([labels_kept.index(v) if v in labels_kept else rest for v in range(len(names))])
        wild = {labels_kept.index(v) for v in labels_kept if v in d.wild[j]}
        if rest < len(names) and (not twists or all(v in d.wild[j] for v in range(len(names)) if v not in labels_kept)):
            wild.add(rest)
        ignored.append(wild)
        part = d.orbits[j].name
        if rest < len(names):
            part += f" {{{','.join(str(d.label_names[j][v]) for v in labels_kept)}}}" + ("" if twists else " ?")
        parts.append(part)
    return Coarsening(puzzle, classes, ignored, f"{puzzle.name} {' + '.join(parts)}")


def default_patterns(puzzle, budget: int = DEFAULT_TABLE_BYTES) -> list[Coarsening]:
    """The default projections of ``puzzle`` within ``budget`` entries (see the module): whole
    orbits grouped while a group's database fits half the budget (the largest orbit first, each
    into the first group it fits), then the orbits too large for that cut into windows of their
    labels, each given an equal share of what the groups left."""
    whole = Coarsening.identity(puzzle)
    if database_size(whole) <= budget and _fits_word(whole):
        return [whole]
    d = puzzle.definition
    moved = [j for j, o in enumerate(d.orbits)
             if any(o.name in m.changes and m.changes[o.name] != ((*range(o.size),), (0,) * o.size)
                    for m in puzzle.move_list)]
    every = {j: (range(len(d.label_names[j])), True) for j in moved}
    size = {j: database_size(projection(puzzle, {j: every[j]})) for j in moved}
    cap = budget // 2
    groups, rest = [], []
    for j in sorted(moved, key=size.get, reverse=True):
        if size[j] > cap or not _fits_word(projection(puzzle, {j: every[j]})):
            rest.append(j)
            continue
        for group in groups:
            grown = projection(puzzle, {i: every[i] for i in group + [j]})
            if database_size(grown) <= cap and _fits_word(grown):
                group.append(j)
                break
        else:
            groups.append([j])
    chosen = [projection(puzzle, {i: every[i] for i in group}) for group in groups]
    left = budget - sum(map(database_size, chosen))
    for n, j in enumerate(sorted(rest, key=size.get)):
        windows = _orbit_windows(puzzle, j, left // (len(rest) - n))
        chosen += windows
        left -= sum(map(database_size, windows))
    if not chosen:
        raise InvalidPuzzleInput(f"{puzzle.name}: no projection fits {budget:,} entries; give patterns or a larger"
                                 " budget")
    return chosen


def _orbit_windows(puzzle, j: int, cap: int) -> list[Coarsening]:
    """The windows of orbit ``j``'s labels (as many as cover them) whose databases fit ``cap``
    entries together: the largest windows that fit, orientations of the rest counted if that fits."""
    names = list(range(len(puzzle.definition.label_names[j])))
    for k in range(len(names), 0, -1):
        starts = sorted({min(s, len(names) - k) for s in range(0, len(names), k)})
        for twists in (True, False):
            first = projection(puzzle, {j: (names[:k], twists)})
            if database_size(first) * len(starts) <= cap and _fits_word(first):
                return [projection(puzzle, {j: (names[s:s + k], twists)}) for s in starts]
    return []


def _fits_word(coarsening: Coarsening) -> bool:
    return field_layout(coset_definition(coarsening))[4] == 1


def projection_tables(puzzle, patterns: list[Coarsening], spaces, databases) -> ProjectionTables:
    """The ``ProjectionTables`` of ``puzzle`` (labels, pieces or coordinates form) for the
    projections ``patterns``, their coset spaces and their databases."""
    d = puzzle.definition
    fine = labels_form_tables(puzzle)
    if puzzle.representation == "pieces":
        field_bits, piece_bits = puzzle.field_bits, puzzle.piece_bits
        position = [start + puzzle.layout.orders[j].index(i) for j, start in enumerate(_starts(d))
                    for i in range(d.orbits[j].size)]
        slot_word = np.zeros(len(position), np.int64)
        slot_shift = np.array([field_bits * p for p in position], np.int64)
    else:
        field_bits = int(fine.scalars[labels.FIELD_BITS])
        piece_bits = int(fine.scalars[labels.PIECE_BITS])
        slot_word, slot_shift = fine.slot_word, fine.slot_shift
    fields = 1 << field_bits
    slots_total = len(slot_word)
    base = np.zeros(len(patterns), np.int64)
    slots = np.zeros((len(patterns), slots_total), np.int64)
    counts = np.zeros(len(patterns), np.int64)
    project = np.zeros((len(patterns), slots_total * fields), np.int64)
    orbit_of = [(j, i) for j, o in enumerate(d.orbits) for i in range(o.size)]
    for p, (pattern, space) in enumerate(zip(patterns, spaces)):
        coarse = space.tables
        coarse_piece_bits = int(coarse.scalars[labels.PIECE_BITS])
        label_of = [pattern.label_of(j) for j in range(len(d.orbits))]
        keep = kept_orbits(pattern)
        first = dict(zip(keep, _starts(space.definition)))
        for s, (j, i) in enumerate(orbit_of):
            if j not in first:
                continue  # an orbit the projection leaves out: its field is always 0
            values = set()
            for field in range(fields):
                label, twist = field & ((1 << piece_bits) - 1), field >> piece_bits
                if label >= len(d.label_names[j]) or twist >= d.orbits[j].orientations:
                    continue
                c = pattern.classes[j][label]
                value = (label_of[j][c] | (0 if c in pattern.ignored[j] else twist) << coarse_piece_bits) \
                    << int(coarse.slot_shift[first[j] + i])
                project[p, s * fields + field] = value
                values.add(value)
            if len(values) == 1:
                base[p] |= values.pop()
            else:
                slots[p, counts[p]] = s
                counts[p] += 1
    width = int(fine.scalars[labels.WIDTH])
    rank_bits = puzzle.rank_bits if puzzle.representation == "coordinates" else 0
    scalars = np.array([field_bits, width, rank_bits, len(patterns)], np.int64)
    return ProjectionTables(slot_word, slot_shift, scalars, fine, base, slots, counts, project,
                            tuple(space.tables for space in spaces), tuple(databases))


def _starts(d) -> list[int]:
    return np.cumsum([0] + [o.size for o in d.orbits[:-1]]).tolist()


def labels_form_tables(puzzle) -> labels.LabelsTables:
    """The fine puzzle's tables in the labels form (its own when it is in that form)."""
    if puzzle.representation == "labels":
        return puzzle.tables
    from vecsearch.puzzles.permutation.tables import labels_tables

    d = puzzle.definition
    return labels_tables(d, Layout(d, puzzle.move_list), puzzle.move_list, len(puzzle.move_list))


def database_name(space, goals: np.ndarray) -> str:
    """The file name of a coset space's database towards ``goals`` (its packed goal states)."""
    d = space.definition
    text = repr((d.orbits, [sorted((o, c) for o, c in m.changes.items()) for m in space.move_list], d.solved,
                 d.wild, goals.tolist()))
    return f"permutation-{hashlib.sha1(text.encode()).hexdigest()[:20]}"


def projection_database(pattern: Coarsening, space, goals, *, threads=None, max_memory=None, progress=False):
    """The database of ``pattern`` (its coset space ``space``) towards the fine goal layer
    ``goals``: ``(entries, seconds, built)``. Built by the engine's distance table (a byte per
    rank, breadth-first with a bitset), in the coordinates form when it fits (table lookups:
    faster moves, the same rank), else in ``space``'s labels form."""
    fine = pattern.fine
    coarse_goals = np.unique(space.states([space.encode(coarse_state(pattern, fine.pieces(g))) for g in goals]))

    def build():
        from vecsearch.engine.tables import DistanceTable
        from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle

        try:
            searched = PermutationPuzzle(space.definition, fine.metric, name=space.name, representation="coordinates")
            starts = searched.states([searched.encode(space.pieces(g)) for g in coarse_goals])
        except PuzzleDefinitionError:
            searched, starts = space, coarse_goals
        table = DistanceTable(searched, starts, threads=threads, max_memory=max_memory, progress=progress)
        if table.distances.dtype != np.uint8:
            raise VecsearchError(f"{pattern.name}: distances beyond {UNREACHED - 1} do not fit a pattern database")
        reached = table.distances[table.distances != UNREACHED]
        return table.distances, {"pattern": pattern.name, "form": searched.representation,
                                 "entries": len(table.distances), "reached": int(len(reached)),
                                 "largest": int(reached.max()), "seconds": table.profile.seconds}

    entries, _, seconds, built = cached_array(database_name(space, coarse_goals), build)
    return entries, seconds, built


def make_projection_heuristic(puzzle, goals: np.ndarray, patterns=None, *, budget=None, threads=None,
                              max_memory=None, progress=False) -> Heuristic:
    """The heuristic of the databases of ``patterns`` (``Pattern`` texts or ``Coarsening``\\ s;
    default: ``default_patterns`` within ``budget`` entries), the largest entry over them."""
    if puzzle.representation not in BOUNDS:
        raise InvalidPuzzleInput(f"{puzzle.name}: its pattern databases read states in the labels, pieces or"
                                 f" coordinates form, not the {puzzle.representation} form; load it with"
                                 " representation='labels'")
    if patterns is None:
        chosen = default_patterns(puzzle, DEFAULT_TABLE_BYTES if budget is None else int(budget))
    else:
        chosen = [p if isinstance(p, Coarsening) else Pattern(puzzle, p) for p in patterns]
    spaces = [coarse_puzzle(p) for p in chosen]
    databases, seconds = [], 0.0
    for pattern, space in zip(chosen, spaces):
        entries, took, _ = projection_database(pattern, space, goals, threads=threads, max_memory=max_memory,
                                               progress=progress)
        databases.append(entries)
        seconds += took
    tables = projection_tables(puzzle, chosen, spaces, databases)
    sizes = ", ".join(f"{p.name} ({len(e):,})" for p, e in zip(chosen, databases))
    return Heuristic(puzzle, "pdb", BOUNDS[puzzle.representation], tables, goals,
                     f"the largest of {len(chosen)} pattern databases: {sizes}", seconds,
                     {"patterns": [p.name for p in chosen], "entries": [len(e) for e in databases],
                      "bytes": int(sum(math.prod(e.shape) for e in databases))})
