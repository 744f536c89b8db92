"""Pattern databases of permutation puzzles: projections enumerated by the engine, combined by max.

A **projection** is a ``patterns.Coarsening`` of the puzzle (some pieces made identical, some
orientations ignored: a pattern written by the user, or one of ``default_patterns``). Its coset
space is itself a permutation puzzle (its solved state is the coarsened one) whose rank is
perfect; the engine's distance table (``vecsearch.engine.DistanceTable``) enumerates it
breadth-first from the goal's projections (a byte per rank, ``UNREACHED`` where none), and
``vecsearch.engine.cached_array`` keeps it on disk under a name hashed from the definition, the
projection, the metric and the goal (the databases of a heuristic also in one file, read into
memory when it is made). The distance of a state's projection never exceeds the state's own, so
the largest over the projections is an admissible bound (``projection_bound``).

**Lookup** (numba): the coset space's rank (``labels.labels_rank``'s: per orbit it keeps, the
Lehmer rank or the colex arrangement of its labels, then its counted orientations) is computed
straight from the fine state: each slot's field (label and twist; read where it lies in the
labels or pieces form, from the labels form's words unranked from a coordinates-form state)
becomes its coarse label and twist by one lookup (``project``).

**Defaults**: ``projections``.
"""

from __future__ import annotations

import hashlib
import math
from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.engine import UNREACHED, cached_array
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError, VecsearchError
from vecsearch.heuristics import Heuristic
from vecsearch.kernels.ranking import binomial_table, factorial_table, lehmer_digit
from vecsearch.kernels.state_words import word_of
from vecsearch.puzzles.permutation import labels
from vecsearch.puzzles.permutation.layout import Layout
from vecsearch.puzzles.permutation.patterns import Coarsening, Pattern
from vecsearch.puzzles.permutation.projections import (
    DEFAULT_TABLE_BYTES,
    coarse_puzzle,
    coarse_state,
    default_patterns,
    kept_orbits,
)


class RankTables(NamedTuple):
    """The arrays of a ``labels.LabelsTables`` that ``labels_unrank_word`` reads."""

    slot_word: np.ndarray
    slot_shift: np.ndarray
    wild: np.ndarray
    orbits: np.ndarray
    counts: np.ndarray
    arrangement_radix: np.ndarray
    arrangement_weight: np.ndarray
    binomials: np.ndarray
    factorials: np.ndarray
    scalars: np.ndarray


class ProjectionTables(NamedTuple):
    """What ``projection_bound`` reads, arrays only (parallel kernels take no nested tuples).

    The fine state's fields: ``slot_word``, ``slot_shift``; ``scalars`` (indexed by
    ``FIELD_BITS`` .. ``PROJECTIONS``). Projection ``p`` ranks the *segments* (the coset space's
    orbits, in order) ``first_segment[p] .. first_segment[p + 1] - 1``; segment ``g``:
    ``segments[g]`` (columns ``SEGMENT_*``), ``project[g, field]``: the coarse label (low byte)
    and twist (above) of a fine field, ``label_weight[g, v]``: the place value of its label
    ``v``'s digit (an arrangement). ``binomials``, ``factorials``; the databases one after
    another (``entries`` from ``offsets``, memory-mapped); the fine puzzle's ``RankTables`` (``fine_*``,
    to unrank a coordinates-form state)."""

    slot_word: np.ndarray
    slot_shift: np.ndarray
    scalars: np.ndarray
    first_segment: np.ndarray
    segments: np.ndarray
    project: np.ndarray
    label_weight: np.ndarray
    binomials: np.ndarray
    factorials: np.ndarray
    offsets: np.ndarray
    entries: np.ndarray
    fine_slot_word: np.ndarray
    fine_slot_shift: np.ndarray
    fine_wild: np.ndarray
    fine_orbits: np.ndarray
    fine_counts: np.ndarray
    fine_arrangement_radix: np.ndarray
    fine_arrangement_weight: np.ndarray
    fine_binomials: np.ndarray
    fine_factorials: np.ndarray
    fine_scalars: np.ndarray


FIELD_BITS, FINE_WIDTH, RANK_BITS, PROJECTIONS = range(4)  # ProjectionTables.scalars
(SEGMENT_FIRST, SEGMENT_SIZE, SEGMENT_DISTINCT, SEGMENT_LABELS, SEGMENT_HALVED, SEGMENT_ARRANGEMENT_WEIGHT, SEGMENT_K,
 SEGMENT_ORIENTATION_WEIGHT, SEGMENT_DROPPED, SEGMENT_WILD) = range(10)  # ProjectionTables.segments columns


@state_function
def segment_rank(words, slot_word, slot_shift, project, info, label_weight, binomials, factorials, mask):
    """One segment's part of its coset space's rank (``labels.labels_rank``'s, from the fine
    state): ``info`` is its row of ``segments``, ``project`` and ``label_weight`` its rows.
    (Arrays are passed one by one: a call taking the whole tables cost 5 us a state.)"""
    first = info[SEGMENT_FIRST]
    n = info[SEGMENT_SIZE]
    k = info[SEGMENT_K]
    wild = info[SEGMENT_WILD]
    rank = np.int64(0)
    twists = np.int64(0)
    if info[SEGMENT_DISTINCT]:
        seen = np.int64(0)
        for i in range(n):
            s = first + i
            value = project[(word_of(words, slot_word[s]) >> slot_shift[s]) & mask]
            v = value & 255
            rank += lehmer_digit(v, seen) * factorials[n - 1 - i]
            seen |= np.int64(1) << v
            if not (wild >> v) & 1:
                twists = twists * k + (value >> 8)
        rank >>= info[SEGMENT_HALVED]
    else:
        for i in range(n):
            s = first + i
            value = project[(word_of(words, slot_word[s]) >> slot_shift[s]) & mask]
            if not (wild >> (value & 255)) & 1:
                twists = twists * k + (value >> 8)
        for v in range(info[SEGMENT_LABELS] - 1):
            digit = np.int64(0)
            free = 0
            taken = 0
            for i in range(n):
                s = first + i
                label = project[(word_of(words, slot_word[s]) >> slot_shift[s]) & mask] & 255
                if label == v:
                    taken += 1
                    digit += binomials[free, taken]
                free += label >= v
            rank += digit * label_weight[v]
    rank *= info[SEGMENT_ARRANGEMENT_WEIGHT]
    if info[SEGMENT_ORIENTATION_WEIGHT]:
        if info[SEGMENT_DROPPED]:
            twists //= k
        rank += twists * info[SEGMENT_ORIENTATION_WEIGHT]
    return rank


@state_function
def projections_bound(words, tables):
    """The largest database entry over the projections of the state whose words are ``words``
    (a scalar or a row, read by ``word_of``)."""
    mask = (np.int64(1) << tables.scalars[FIELD_BITS]) - 1
    slot_word = tables.slot_word
    slot_shift = tables.slot_shift
    project = tables.project
    segments = tables.segments
    label_weight = tables.label_weight
    binomials = tables.binomials
    factorials = tables.factorials
    entries = tables.entries
    first_segment = tables.first_segment
    h = np.int64(0)
    for p in range(tables.scalars[PROJECTIONS]):
        rank = tables.offsets[p]
        for g in range(first_segment[p], first_segment[p + 1]):
            rank += segment_rank(words, slot_word, slot_shift, project[g], segments[g], label_weight[g], binomials,
                                 factorials, mask)
        value = np.int64(entries[rank])
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
    fine = RankTables(tables.fine_slot_word, tables.fine_slot_shift, tables.fine_wild, tables.fine_orbits,
                      tables.fine_counts, tables.fine_arrangement_radix, tables.fine_arrangement_weight,
                      tables.fine_binomials, tables.fine_factorials, tables.fine_scalars)
    for w in range(width):
        words[w] = labels.labels_unrank_word(rank, component, fine, w)
    return projections_bound(words, tables)


BOUNDS = {"labels": projection_bound, "pieces": projection_bound, "coordinates": coordinates_projection_bound}


def projection_tables(puzzle, patterns: list[Coarsening], spaces, databases, entries) -> ProjectionTables:
    """The ``ProjectionTables`` of ``puzzle`` (labels, pieces or coordinates form) for the
    projections ``patterns``, their coset spaces and their databases (``entries``: all of them,
    one after another)."""
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
    starts = _starts(d)
    segments, project, weights, first_segment = [], [], [], [0]
    most = max(len(names) for names in d.label_names)
    for pattern, space in zip(patterns, spaces, strict=True):
        coarse = space.tables
        for c, j in enumerate(kept_orbits(pattern)):
            info = coarse.orbits[c]
            label_of = pattern.label_of(j)
            row = np.zeros(fields, np.int64)
            for field in range(fields):
                label, twist = field & ((1 << piece_bits) - 1), field >> piece_bits
                if label < len(d.label_names[j]) and twist < d.orbits[j].orientations:
                    cls = pattern.classes[j][label]
                    row[field] = label_of[cls] | (0 if cls in pattern.ignored[j] else twist) << 8
            wild = sum(1 << label_of[cls] for cls in pattern.ignored[j])
            orientation_weight = int(info[labels.ORBIT_ORIENTATION_WEIGHT]) if info[labels.ORBIT_ORIENTATION_SIZE] > 1 \
                else 0
            segments.append([starts[j], d.orbits[j].size, info[labels.ORBIT_DISTINCT], info[labels.ORBIT_LABELS],
                             info[labels.ORBIT_HALVED], info[labels.ORBIT_ARRANGEMENT_WEIGHT], info[labels.ORBIT_K],
                             orientation_weight, info[labels.ORBIT_DROPPED], wild])
            project.append(row)
            weight = np.zeros(most, np.int64)
            weight[:coarse.arrangement_weight.shape[1]] = coarse.arrangement_weight[c][:most]
            weights.append(weight)
        first_segment.append(len(segments))
    largest = max(o.size for o in d.orbits)
    width = int(fine.scalars[labels.WIDTH])
    rank_bits = puzzle.rank_bits if puzzle.representation == "coordinates" else 0
    scalars = np.array([field_bits, width, rank_bits, len(patterns)], np.int64)
    offsets = np.cumsum([0] + [len(e) for e in databases[:-1]]).astype(np.int64)
    return ProjectionTables(slot_word, slot_shift, scalars, np.array(first_segment, np.int64),
                            np.array(segments, np.int64), np.array(project), np.array(weights),
                            binomial_table(largest), factorial_table(min(20, largest)), offsets, entries,
                            *(getattr(fine, name) for name in RankTables._fields))


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
    ``goals``: ``(entries, name, seconds)`` (``name``: its file's, ``vecsearch.engine.cached_array``).
    Built by the engine's distance table (a byte per rank, breadth-first with a bitset), in the
    coordinates form when it fits (table lookups: faster moves, the same rank), else in
    ``space``'s labels form."""
    fine = pattern.fine
    coarse_goals = np.unique(space.states([space.encode(coarse_state(pattern, fine.pieces(g))) for g in goals]), axis=0)

    def build():
        from vecsearch.engine import DistanceTable

        try:
            searched = type(space)(space.definition, fine.metric, name=space.name, representation="coordinates")
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

    name = database_name(space, coarse_goals)
    entries, _, seconds, _ = cached_array(name, build)
    return entries, name, seconds


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
    databases, names, seconds = [], [], 0.0
    for pattern, space in zip(chosen, spaces, strict=True):
        entries, name, took = projection_database(pattern, space, goals, threads=threads, max_memory=max_memory,
                                                  progress=progress)
        databases.append(entries)
        names.append(name)
        seconds += took
    together = f"permutation-{hashlib.sha1(' '.join(names).encode()).hexdigest()[:20]}"  # one file, mapped
    entries = databases[0] if len(databases) == 1 else cached_array(together, lambda: (np.concatenate(databases), {
        "patterns": [p.name for p in chosen], "files": names}))[0]
    entries = np.array(entries)  # read into memory: lookups in the mapped file measured 3x slower (4.2 against
    # 1.4 us a state, 3x3x3, 173 MB, on the shared machine)
    tables = projection_tables(puzzle, chosen, spaces, databases, entries)
    sizes = ", ".join(f"{p.name} ({len(e):,})" for p, e in zip(chosen, databases, strict=True))
    return Heuristic(puzzle, "pdb", BOUNDS[puzzle.representation], tables, goals,
                     f"the largest of {len(chosen)} pattern databases: {sizes}", seconds,
                     {"patterns": [p.name for p in chosen], "entries": [len(e) for e in databases],
                      "bytes": int(sum(math.prod(e.shape) for e in databases))})
