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
database is then exact); else one projection per orbit that some move changes: the orbit alone
(the others identical with orientations ignored), or, when that does not fit, windows of its
labels kept apart (the rest identical, orientations counted if that fits, else ignored), as
many windows as cover the labels, while the total fits the budget.
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


def coarse_puzzle(coarsening: Coarsening):
    """The coset space of ``coarsening`` in the labels form (one word, ranked)."""
    from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle

    fine = coarsening.fine
    space = PermutationPuzzle(coarsening.definition, fine.metric, name=coarsening.name, representation="labels")
    if space.width != 1 or not space.has_rank:
        raise InvalidPuzzleInput(f"{coarsening.name}: a pattern database needs a coset space whose state fits one"
                                 " word and has a rank; make more pieces identical")
    return space


def database_size(coarsening: Coarsening) -> int:
    """Entries (ranks) of ``coarsening``'s database."""
    return Layout(coarsening.definition, coarsening.fine.move_list).rank_size


def orbit_pattern(puzzle, j: int, kept, twists: bool = True) -> Coarsening:
    """The projection telling apart orbit ``j``'s labels ``kept`` (the rest of the orbit one
    class, its orientations counted if ``twists``), every other orbit one class without
    orientations."""
    d = puzzle.definition
    classes, ignored = [], []
    for i, names in enumerate(d.label_names):
        if i != j:
            classes.append([0] * len(names))
            ignored.append({0})
            continue
        kept = sorted(kept)
        rest = len(kept)
        classes.append([kept.index(v) if v in kept else rest for v in range(len(names))])
        wild = {kept.index(v) for v in kept if v in d.wild[j]}
        if rest < len(names) and (not twists or all(v in d.wild[j] for v in range(len(names)) if v not in kept)):
            wild.add(rest)
        ignored.append(wild)
    name = f"{puzzle.name} {d.orbits[j].name}"
    if len(kept) < len(d.label_names[j]):
        name += f" {{{','.join(str(d.label_names[j][v]) for v in kept)}}}" + ("" if twists else " ?")
    return Coarsening(puzzle, classes, ignored, name)


def default_patterns(puzzle, budget: int = DEFAULT_TABLE_BYTES) -> list[Coarsening]:
    """The default projections of ``puzzle`` within ``budget`` entries (see the module)."""
    whole = Coarsening.identity(puzzle)
    if puzzle.width == 1 and database_size(whole) <= budget and _fits_word(whole):
        return [whole]
    d = puzzle.definition
    moved = {o for m in puzzle.move_list for o, (p, t) in m.changes.items() if p != tuple(range(len(p))) or any(t)}
    chosen, total = [], 0
    share = max(1, budget // max(1, len(moved)))
    for j, orbit in enumerate(d.orbits):
        if orbit.name not in moved:
            continue
        names = range(len(d.label_names[j]))
        for pattern in _orbit_windows(puzzle, j, list(names), max(share, budget // 2)):
            size = database_size(pattern)
            if total + size <= budget:
                chosen.append(pattern)
                total += size
    if not chosen:
        raise InvalidPuzzleInput(f"{puzzle.name}: no projection fits {budget:,} entries; give patterns or a larger"
                                 " budget")
    return chosen


def _orbit_windows(puzzle, j: int, names: list[int], cap: int) -> list[Coarsening]:
    """Orbit ``j`` alone, or windows of its labels that fit ``cap`` entries each."""
    for k in range(len(names), 0, -1):
        for twists in (True, False):
            first = orbit_pattern(puzzle, j, names[:k], twists)
            if database_size(first) <= cap and _fits_word(first):
                starts = sorted({min(s, len(names) - k) for s in range(0, len(names), k)})
                return [orbit_pattern(puzzle, j, names[s:s + k], twists) for s in starts]
    return []


def _fits_word(coarsening: Coarsening) -> bool:
    return field_layout(coarsening.definition)[4] == 1


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
        for s, (j, _) in enumerate(orbit_of):
            values = set()
            for field in range(fields):
                label, twist = field & ((1 << piece_bits) - 1), field >> piece_bits
                if label >= len(d.label_names[j]) or twist >= d.orbits[j].orientations:
                    continue
                c = pattern.classes[j][label]
                value = (label_of[j][c] | (0 if c in pattern.ignored[j] else twist) << coarse_piece_bits) \
                    << int(coarse.slot_shift[s])
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
    coarse_goals = np.unique(space.states([space.encode(pattern.project(fine.pieces(g))) for g in goals]))

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
