"""Pattern databases of permutation puzzles: projections enumerated by the engine, combined by max.

A **projection** is a ``patterns.Coarsening`` of the puzzle (some pieces made identical, some
orientations ignored: a pattern written by the user, or one of ``default_patterns``). Its coset
space is itself a permutation puzzle (its solved state is the coarsened one) whose rank is
perfect; the engine's distance table (``vecsearch.engine.DistanceTable``) enumerates it
breadth-first from the goal's projections (a byte per rank, ``UNREACHED`` where none), and
``engine.cached_array`` keeps it on disk under a name hashed from the definition, the projection,
the metric and the goal. The databases of a heuristic are also kept together in one file, two entries a byte
(``pack_entries``: distances above 15 become 15), read into memory when it is made: half the
memory and half the loading of bytes. The distance of a state's projection never exceeds the
state's own, so the largest over the projections is an admissible bound.

**Lookup**: ``database_bounds`` reads the tables built here (``projection_tables``; in the
coordinates form also ``coordinate_terms``, made by ranking the segments of unranked states once,
so that a lookup costs a few divisions and loads).

**Defaults**: ``projections``.
"""

from __future__ import annotations

import hashlib

import numpy as np

from vecsearch.engine import UNREACHED, cached_array
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError, VecsearchError
from vecsearch.heuristics import Heuristic
from vecsearch.kernels.ranking import binomial_table, factorial_table
from vecsearch.puzzles.permutation import labels
from vecsearch.puzzles.permutation.database_bounds import (
    BOUNDS,
    SEGMENT_ORIENTATION_WEIGHT,
    SEGMENT_WILD,
    ProjectionTables,
    RankTables,
    coordinates_terms_bound,
    projection_children,
    segment_values,
    terms_children,
)
from vecsearch.puzzles.permutation.layout import Layout
from vecsearch.puzzles.permutation.patterns import Coarsening, Pattern
from vecsearch.puzzles.permutation.projections import (
    DEFAULT_TABLE_BYTES,
    additive_groups,
    coarse_puzzle,
    coarse_state,
    default_patterns,
    is_exact,
    kept_orbits,
)
from vecsearch.puzzles.permutation.symmetric_lookups import Lookup, conjugate_fields, plan, usable_symmetries
from vecsearch.puzzles.permutation.symmetry import SymmetryGroup

TERM_LIMIT = 1 << 22  # entries of a term over two coordinates (an orbit whose labels' twists are partly ignored)


def coordinate_rows(puzzle) -> np.ndarray:
    """The rows ``coordinate_value`` reads (columns ``COORDINATE_*``) of a coordinates-form puzzle."""
    return np.array([[c.weight, c.size, c.class_shift, (1 << (c.classes - 1).bit_length()) - 1]
                     for c in puzzle.layout.coordinates], np.int64).reshape(-1, 4)


def coordinate_terms(puzzle, lookups: list[Lookup], patterns: list[Coarsening],
                     tables: ProjectionTables) -> ProjectionTables | None:
    """``tables`` with the terms ``coordinates_terms_bound`` reads (a puzzle in the coordinates
    form) for the ``lookups`` of the stored ``patterns``, or None when some term would exceed
    ``TERM_LIMIT`` entries.

    A segment (a kept orbit) is a function of its orbit's coordinates (permutation or
    arrangement, then orientation; each with its class), also through a conjugate (a symmetry
    maps each orbit to itself). Its part of the rank is one term by the first when the projection
    counts no twists there, a term by each when it counts every label's and reads the state itself
    (the arrangement's weighted rank plus the twists' number: a sum; through a conjugate a twist
    also depends on the piece), else one term by both."""
    coordinates = puzzle.layout.coordinates
    rows = coordinate_rows(puzzle)
    span = [c.classes * c.size for c in coordinates]
    of_orbit = {}
    for i, c in enumerate(coordinates):
        of_orbit.setdefault(c.orbit, []).append(i)
    tables = tables._replace(coordinates=rows)

    def values(a, b=None):
        """The segment's rank over the values of coordinate ``a`` (by those of ``b``), the others 0."""
        ranks = np.zeros(1, np.int64)
        components = np.zeros(1, np.int64)
        for c in (a,) if b is None else (a, b):  # a's values major
            cls, digit = np.divmod(np.arange(span[c], dtype=np.int64), coordinates[c].size)
            ranks = (ranks[:, None] + digit * coordinates[c].weight).ravel()
            components = (components[:, None] | cls << coordinates[c].class_shift).ravel()
        return segment_values(ranks, components, tables, g)

    terms, parts, first, offset = [], [], [0], 0
    for p, lookup in enumerate(lookups):
        for g, j in zip(range(tables.first_segment[p], tables.first_segment[p + 1]),
                        kept_orbits(patterns[lookup.database]), strict=True):
            a, *rest = of_orbit[j]
            info = tables.segments[g]
            if not rest or not info[SEGMENT_ORIENTATION_WEIGHT]:
                made = [(a, -1, 1, values(a))]
            elif not info[SEGMENT_WILD] and lookup.element == 0:
                b = rest[0]
                by_a, by_b = values(a), values(b)
                made = [(a, -1, 1, by_a - by_a[0]), (b, -1, 1, by_b)]
            elif span[a] * span[rest[0]] <= TERM_LIMIT:
                made = [(a, rest[0], span[rest[0]], values(a, rest[0]))]
            else:
                return None
            for c, second, stride, table in made:
                terms.append([c, second, stride, offset])
                parts.append(table)
                offset += len(table)
        first.append(len(terms))
    return tables._replace(term_first=np.array(first, np.int64), terms=np.array(terms, np.int64).reshape(-1, 4),
                           term_values=np.concatenate(parts))



def projection_tables(puzzle, lookups: list[Lookup], patterns: list[Coarsening], spaces, databases, entries,
                      group: SymmetryGroup | None = None) -> ProjectionTables:
    """The ``ProjectionTables`` of ``puzzle`` (labels, pieces or coordinates form) for the
    ``lookups`` of the stored projections ``patterns`` (their coset spaces and their databases;
    ``entries``: all of them, one after another), read through the elements of ``group``."""
    d = puzzle.definition
    field_bits, piece_bits, slot_word, slot_shift, fine = fine_fields(puzzle)
    fields = 1 << field_bits
    starts = _starts(d)
    largest = max(o.size for o in d.orbits)
    segments, reads, project, weights, first_segment = [], [], [], [], [0]
    most = max(len(names) for names in d.label_names)
    for lookup in lookups:
        pattern, space = patterns[lookup.database], spaces[lookup.database]
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
            segments.append([d.orbits[j].size, info[labels.ORBIT_DISTINCT], info[labels.ORBIT_LABELS],
                             info[labels.ORBIT_HALVED], info[labels.ORBIT_ARRANGEMENT_WEIGHT], info[labels.ORBIT_K],
                             orientation_weight, info[labels.ORBIT_DROPPED], wild,
                             _shared_label(space.definition.counts[c])])
            read = np.zeros(largest, np.int64)
            rows = np.zeros((largest, fields), np.int64)
            if lookup.element == 0:
                read[:d.orbits[j].size] = starts[j] + np.arange(d.orbits[j].size)
                rows[:] = row
            else:
                source, field = conjugate_fields(group, lookup.element, j, piece_bits, fields)
                read[:len(source)] = starts[j] + source
                rows[:len(source)] = np.where(field >= 0, row[np.maximum(field, 0)], 0)
            reads.append(read)
            project.append(rows)
            weight = np.zeros(most, np.int64)
            weight[:coarse.arrangement_weight.shape[1]] = coarse.arrangement_weight[c][:most]
            weights.append(weight)
        first_segment.append(len(segments))
    width = int(fine.scalars[labels.WIDTH])
    rank_bits = puzzle.rank_bits if puzzle.representation == "coordinates" else 0
    scalars = np.array([field_bits, width, rank_bits, len(lookups)], np.int64)
    starts_of = np.cumsum([0] + [len(e) for e in databases[:-1]]).astype(np.int64)
    offsets = np.array([starts_of[lookup.database] for lookup in lookups], np.int64)
    return ProjectionTables(slot_word, slot_shift, scalars, np.array(first_segment, np.int64),
                            np.array(segments, np.int64), np.array(reads), np.array(project), np.array(weights),
                            binomial_table(largest), factorial_table(min(20, largest)), offsets, entries,
                            *(getattr(fine, name) for name in RankTables._fields),
                            *(np.zeros((0, 4), np.int64), np.zeros(1, np.int64), np.zeros((0, 4), np.int64),
                              np.zeros(0, np.int64)), np.zeros(len(lookups), np.int64))


def fine_fields(puzzle) -> tuple[int, int, np.ndarray, np.ndarray, labels.LabelsTables]:
    """Where a state of ``puzzle`` (labels or pieces form; the coordinates form unranked into the
    labels form) holds each slot's field: ``(field_bits, piece_bits, slot_word, slot_shift)``
    (the label in the low ``piece_bits`` of a field, the twist above), and its labels-form tables."""
    d = puzzle.definition
    fine = labels_form_tables(puzzle)
    if puzzle.representation == "pieces":
        field_bits = puzzle.field_bits
        position = [start + puzzle.layout.orders[j].index(i) for j, start in enumerate(_starts(d))
                    for i in range(d.orbits[j].size)]
        return (field_bits, puzzle.piece_bits, np.zeros(len(position), np.int64),
                np.array([field_bits * p for p in position], np.int64), fine)
    return (int(fine.scalars[labels.FIELD_BITS]), int(fine.scalars[labels.PIECE_BITS]), fine.slot_word,
            fine.slot_shift, fine)


def _shared_label(counts) -> int:
    """The label of an orbit's arrangement that several pieces share when the others have one
    each (``segment_rank`` ranks it in one pass), else -1."""
    shared = [v for v, count in enumerate(counts) if count > 1]
    return shared[0] if len(shared) == 1 else -1


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


def pack_entries(databases) -> np.ndarray:
    """The databases one after another, two entries a byte (``kernels.nibbles``): a distance
    above 15 (or ``UNREACHED``) becomes 15, still a lower bound."""
    together = np.minimum(np.concatenate([np.asarray(d) for d in databases]), 15).astype(np.uint8)
    if len(together) % 2:
        together = np.append(together, np.uint8(15))
    return together[0::2] | (together[1::2] << 4)


def make_projection_heuristic(puzzle, goals: np.ndarray, patterns=None, *, budget=None, symmetry=None, lookups=None,
                              threads=None, max_memory=None, progress=False) -> Heuristic:
    """The heuristic of the databases of ``patterns`` (``Pattern`` texts or ``Coarsening``\\ s;
    default: ``default_patterns`` within ``budget`` entries), the largest entry over them.

    Through the symmetries ``symmetry`` names (``symmetry.parse_spec``; default: the
    definition's rotations, if any) that keep the goal states, a projection that is the image
    of an earlier one is read from that one's database, not stored (``symmetric_lookups``), and
    each stored database is read through further symmetries up to ``lookups`` times in all."""
    if puzzle.representation not in BOUNDS:
        raise InvalidPuzzleInput(f"{puzzle.name}: its pattern databases read states in the labels, pieces or"
                                 f" coordinates form, not the {puzzle.representation} form; load it with"
                                 " representation='labels'")
    group, elements = usable_symmetries(puzzle, goals, symmetry)
    if patterns is None:
        chosen = default_patterns(puzzle, DEFAULT_TABLE_BYTES if budget is None else int(budget),
                                  (group, elements) if group is not None else None)
    else:
        chosen = [p if isinstance(p, Coarsening) else Pattern(puzzle, p) for p in patterns]
    chosen, reads = plan(chosen, group, elements, lookups)
    spaces = [coarse_puzzle(p) for p in chosen]
    databases, names, seconds = [], [], 0.0
    for pattern, space in zip(chosen, spaces, strict=True):
        entries, name, took = projection_database(pattern, space, goals, threads=threads, max_memory=max_memory,
                                                  progress=progress)
        databases.append(entries)
        names.append(name)
        seconds += took
    together = f"permutation-{hashlib.sha1(' '.join(names).encode()).hexdigest()[:20]}-nibbles"  # one file
    # IDA* descends an exact database through a few entries per move of a solution: it stays mapped (reading the
    # skewb's 170 MB cost 0.34-1.05 s a process); other databases see many lookups, and are read into memory
    exact = any(map(is_exact, chosen))
    entries = cached_array(together, lambda: (pack_entries(databases), {
        "patterns": [p.name for p in chosen], "files": names, "entries": "4 bits, at most 15"}),
        load="lookups" if exact else "read")[0]
    # the largest databases first: IDA* stops looking up a child once an entry exceeds its bound; lookups whose
    # projections no move changes together follow one another, their entries added up
    largest_first = sorted(reads, key=lambda read: -len(databases[read.database]))
    groups = additive_groups([chosen[read.database] for read in largest_first])
    largest_first = [largest_first[i] for members in groups for i in members]
    adds = np.array([int(k > 0) for members in groups for k in range(len(members))], np.int64)
    tables = projection_tables(puzzle, largest_first, chosen, spaces, databases, entries, group)._replace(adds=adds)
    bound, children = BOUNDS[puzzle.representation], projection_children
    if puzzle.representation == "coordinates":
        with_terms = coordinate_terms(puzzle, largest_first, chosen, tables)
        children = None  # each child is unranked into the labels form once, by coordinates_projection_bound
        if with_terms is not None:
            tables, bound, children = with_terms, coordinates_terms_bound, terms_children
    sizes = ", ".join(f"{p.name} ({len(e):,})" for p, e in zip(chosen, databases, strict=True))
    through = f", read {len(reads)} times through symmetry" if len(reads) > len(chosen) else ""
    summed = [members for members in groups if len(members) > 1]
    added = f" (entries added up in {len(summed)} additive group{'s' * (len(summed) > 1)})" if summed else ""
    return Heuristic(puzzle, "pdb", bound, tables, goals,
                     f"the largest of {len(chosen)} pattern databases{through}{added}: {sizes}", seconds,
                     {"patterns": [p.name for p in chosen], "lookups": [read.name for read in reads],
                      "entries": [len(e) for e in databases], "bytes": int(entries.nbytes)}, children=children)
