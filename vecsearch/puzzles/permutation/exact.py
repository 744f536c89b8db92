"""The exact distance table of a permutation puzzle, over the rank of the group its moves generate.

When the moves generate a group small enough (``exact_group``: distinct pieces, no illegal
states or blocks, an order within the budget that is smaller than the puzzle's own rank space),
the best heuristic is no estimate at all: the distance of every element to the goal, one entry
per element of the group (the skewb: 37,791,360 entries, 19 MB, where its coordinates rank
340,122,240 arrangements of which a ninth are reachable). IDA* over it descends straight to the
goal: each node it expands is on a shortest path.

**Built** once by the engine's distance table (``vecsearch.engine.DistanceTable``) on the puzzle
in the group form (``group``: the state is its rank in the stabilizer chain), packed two entries
a byte (``pruning.pack_entries``: a distance above 15 reads as 15, still a lower bound), cached
on disk under a name hashed from the definition, the move set, the chain and the goals, and
memory-mapped for a few scattered lookups (``cached_array(..., load="lookups")``).

**Lookup** (numba, ``chain_rank``): a state's slots are read as fields (label and twist; the
words of a coordinates-form state are an OR of a row per coordinate, each row made once by
unranking that coordinate's value: ``coordinate_words``), turned into the permutation of the
points it makes (``group`` conventions: each piece's solved point to its point now), and
sifted through the chain: at each level, the position of the base point's image in the level's
orbit is a digit of the rank, and the element is divided by that coset representative. A state
outside the group cannot reach the goal: its bound is ``UNREACHABLE``, above every bound IDA*
tries. In the group form the state is its rank: one lookup.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np

from vecsearch._numba import kernel, state_function
from vecsearch.engine import cached_array
from vecsearch.errors import VecsearchError
from vecsearch.heuristics import Heuristic
from vecsearch.kernels.nibbles import nibble
from vecsearch.kernels.state_words import word_of
from vecsearch.puzzles.permutation import labels
from vecsearch.puzzles.permutation.chain import GroupTooLarge
from vecsearch.puzzles.permutation.database_bounds import RankTables, coordinate_value
from vecsearch.puzzles.permutation.group import Group, point_offsets
from vecsearch.puzzles.permutation.patterns import Coarsening
from vecsearch.puzzles.permutation.projections import database_size
from vecsearch.puzzles.permutation.pruning import coordinate_rows, fine_fields, pack_entries

UNREACHABLE = 1 << 20  # the bound of a state outside the group: above any f-bound IDA* tries
FIELD_BITS, FINE_WIDTH, RANK_BITS, SLOTS, DEGREE, LEVELS = range(6)  # ExactTables.scalars


class ExactTables(NamedTuple):
    """What ``chain_rank`` reads, arrays only (parallel kernels take no nested tuples).

    The fine state's fields: ``slot_word``, ``slot_shift`` (slot ``s`` of every orbit in order);
    ``scalars`` (``FIELD_BITS`` .. ``LEVELS``). Slot ``s`` holding field ``f`` sends the points
    ``source[s, f] + o`` (its piece's solved slot, orientation ``o < turns[s]``) to ``image[s, f,
    o]``. The chain: level ``l`` has base point ``base[l]``, the place of a point in its
    orbit ``position[l, point]`` (-1: not in it), the inverse of the coset representative of each
    orbit point ``inverse[l, point]`` and the place value ``weight[l]`` of its digit. In the
    coordinates form, coordinate ``c`` (``coordinates[c]``: ``pruning.coordinate_rows``) of value
    ``v`` (``database_bounds.coordinate_value``) contributes the row ``coordinate_first[c] + v`` of
    ``coordinate_words`` to the words (empty in the other forms). ``entries``: two a byte."""

    slot_word: np.ndarray
    slot_shift: np.ndarray
    scalars: np.ndarray
    source: np.ndarray
    image: np.ndarray
    turns: np.ndarray
    base: np.ndarray
    position: np.ndarray
    inverse: np.ndarray
    weight: np.ndarray
    coordinates: np.ndarray
    coordinate_first: np.ndarray
    coordinate_words: np.ndarray
    entries: np.ndarray


def exact_group(puzzle, budget: int) -> Group | None:
    """The group ``puzzle``'s moves generate, when its exact table is the default heuristic: its
    pieces are distinct, nothing forbids a move, its order fits a quarter of ``budget`` entries
    (as the whole puzzle's database must: ``projections.default_patterns``) and is smaller than
    the puzzle's own rank space (else that space's exact database is as small, and faster to read)."""
    d = puzzle.definition
    if not d.distinct or d.constrained:
        return None
    if puzzle.representation == "group":
        return puzzle.group if puzzle.group.chain.order <= budget // 4 else None
    try:
        group = Group(d, puzzle.move_list, budget // 4)
    except GroupTooLarge:
        return None
    return group if group.fits and group.chain.order < database_size(Coarsening.identity(puzzle)) else None


def chain_tables(group: Group) -> tuple[np.ndarray, ...]:
    """``(base, position, inverse, weight)`` of ``group``'s stabilizer chain (``ExactTables``)."""
    chain, degree = group.chain, group.degree
    levels = len(chain.base)
    position = np.full((levels, degree), -1, np.int64)
    inverse = np.zeros((levels, degree, degree), np.int32)
    for lv, orbit in enumerate(chain.orbits):
        for place, point in enumerate(orbit):
            position[lv, point] = place
            inverse[lv, point] = chain.transversals[lv][point][1]
    return (np.array(chain.base, np.int64), position, inverse, np.array(chain.weights, np.int64))


def slot_points(puzzle, field_bits: int, piece_bits: int) -> tuple[np.ndarray, ...]:
    """``(source, image, turns)``: what each slot's field makes of the element (``ExactTables``;
    ``group.Group.element`` slot by slot)."""
    d = puzzle.definition
    slots = sum(o.size for o in d.orbits)
    most = max(o.orientations for o in d.orbits)
    source = np.zeros((slots, 1 << field_bits), np.int64)
    image = np.zeros((slots, 1 << field_bits, most), np.int64)
    turns = np.ones(slots, np.int64)
    s = 0
    for first, orbit, (home, home_twists) in zip(point_offsets(d), d.orbits, d.solved, strict=True):
        k = orbit.orientations
        for i in range(orbit.size):
            turns[s] = k
            for label in range(len(home)):
                h = home.index(label)
                for twist in range(k):
                    field = label | twist << piece_bits
                    source[s, field] = first + h * k
                    image[s, field, :k] = [first + i * k + (twist - home_twists[h] + o) % k for o in range(k)]
            s += 1
    return source, image, turns


@state_function
def chain_rank(words, tables):
    """The rank in the group of the state whose words are ``words``, or -1 outside the group (an
    element the representatives do not divide to the identity)."""
    degree = tables.scalars[DEGREE]
    mask = (np.int64(1) << tables.scalars[FIELD_BITS]) - 1
    element = np.empty(degree, np.int64)
    divided = np.empty(degree, np.int64)
    for s in range(tables.scalars[SLOTS]):
        field = (word_of(words, tables.slot_word[s]) >> tables.slot_shift[s]) & mask
        source = tables.source[s, field]
        for o in range(tables.turns[s]):
            element[source + o] = tables.image[s, field, o]
    rank = np.int64(0)
    for lv in range(tables.scalars[LEVELS]):
        place = tables.position[lv, element[tables.base[lv]]]
        if place < 0:
            return np.int64(-1)
        rank += place * tables.weight[lv]
        inverse = tables.inverse[lv, element[tables.base[lv]]]
        for x in range(degree):
            divided[x] = inverse[element[x]]
        element, divided = divided, element
    for x in range(degree):
        if element[x] != x:
            return np.int64(-1)
    return rank


@state_function
def words_bound(words, tables):
    """The table's entry of the state whose words are ``words`` (``UNREACHABLE`` outside the group)."""
    rank = chain_rank(words, tables)
    return nibble(tables.entries, rank) if rank >= 0 else np.int64(UNREACHABLE)


@state_function
def exact_bound(state, tables):
    """The distance (at most 15) of a state in the labels or pieces form, from the exact table."""
    return words_bound(state, tables)


@state_function
def coordinates_exact_bound(state, tables):
    """The same of a state in the coordinates form, its words made of its coordinates' rows."""
    rank_bits = tables.scalars[RANK_BITS]
    rank = state & ((np.int64(1) << rank_bits) - 1)
    component = state >> rank_bits
    words = np.zeros(tables.scalars[FINE_WIDTH], np.int64)
    for c in range(tables.coordinates.shape[0]):
        row = tables.coordinate_first[c] + coordinate_value(rank, component, tables.coordinates, c)
        for w in range(words.shape[0]):
            words[w] |= tables.coordinate_words[row, w]
    return words_bound(words, tables)


@kernel
def unranked_words(ranks, components, fine, width):
    """The labels-form words of the coordinates-form states ``ranks`` in ``components``."""
    out = np.empty((ranks.shape[0], width), np.int64)
    for i in range(ranks.shape[0]):
        for w in range(width):
            out[i, w] = labels.labels_unrank_word(ranks[i], components[i], fine, w)
    return out


def coordinate_words(puzzle, fine, piece_bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(coordinates, coordinate_first, coordinate_words)`` of a coordinates-form puzzle
    (``ExactTables``): each coordinate's values (with their class) unranked alone, the fields it
    decides kept (its orbit's labels, or their twists; distinct pieces: twists do not depend on
    the labels)."""
    d = puzzle.definition
    width = int(fine.scalars[labels.WIDTH])
    firsts = np.cumsum([0] + [o.size for o in d.orbits])
    parts, first = [], [0]
    for c in puzzle.layout.coordinates:
        values = np.arange(c.classes * c.size, dtype=np.int64)
        words = unranked_words(values % c.size * c.weight, values // c.size << c.class_shift,
                               RankTables(*(getattr(fine, name) for name in RankTables._fields)), width)
        bits = (1 << piece_bits) - 1 if c.kind != "orientation" else ~((1 << piece_bits) - 1)
        keep = np.zeros(width, np.int64)
        for s in range(firsts[c.orbit], firsts[c.orbit + 1]):
            field = ((1 << int(fine.scalars[labels.FIELD_BITS])) - 1) & bits
            keep[fine.slot_word[s]] |= field << int(fine.slot_shift[s])
        parts.append(words & keep)
        first.append(first[-1] + len(values))
    return coordinate_rows(puzzle), np.array(first[:-1], np.int64), np.concatenate(parts).reshape(-1, width)


@state_function
def group_exact_bound(state, tables):
    """The same of a state in the group form: the state is its rank."""
    return nibble(tables.entries, state)


BOUNDS = {"labels": exact_bound, "pieces": exact_bound, "coordinates": coordinates_exact_bound,
          "group": group_exact_bound}


def table_name(puzzle, group: Group, goals: np.ndarray) -> str:
    """The file name of the exact table of ``puzzle`` (its moves generating ``group``) towards
    the group elements ``goals`` (their ranks)."""
    d = puzzle.definition
    text = repr(("group", d.orbits, [sorted(m.changes.items()) for m in puzzle.move_list], d.solved,
                 group.chain.base, group.chain.orbits, goals.tolist()))
    return f"permutation-{hashlib.sha1(text.encode()).hexdigest()[:20]}-exact"


def make_exact_heuristic(puzzle, goals: np.ndarray, group: Group, *, threads=None, max_memory=None,
                         progress=False) -> Heuristic:
    """The exact table of ``puzzle`` over ``group`` (``exact_group``'s) towards ``goals``, as a
    heuristic (built once and cached; memory-mapped)."""
    chain = group.chain
    elements = np.array(sorted({chain.rank(group.element(puzzle.pieces(g))) for g in goals}), np.int64)

    def build():
        from vecsearch.engine import DistanceTable

        ranked = puzzle if puzzle.representation == "group" else type(puzzle)(
            puzzle.definition, puzzle.metric, name=puzzle.name, representation="group")
        if (ranked.group.chain.base, ranked.group.chain.orbits) != (chain.base, chain.orbits):
            raise VecsearchError(f"{puzzle.name}: two stabilizer chains of its group differ")  # they are seeded
        table = DistanceTable(ranked, elements, threads=threads, max_memory=max_memory, progress=progress)
        if table.distances.dtype != np.uint8:
            raise VecsearchError(f"{puzzle.name}: distances beyond 254 do not fit an exact table")
        return pack_entries([table.distances]), {
            "table": f"{puzzle.name}: exact, over the {chain.order:,} elements of its group",
            "largest": table.max_distance, "seconds": table.profile.seconds, "entries": "4 bits, at most 15"}

    entries, _, seconds, _ = cached_array(table_name(puzzle, group, elements), build, load="lookups")
    field_bits, piece_bits, slot_word, slot_shift, fine = fine_fields(puzzle)
    coordinates = puzzle.representation == "coordinates"
    scalars = np.array([field_bits, int(fine.scalars[labels.WIDTH]), puzzle.rank_bits if coordinates else 0,
                        len(slot_word), group.degree, len(group.chain.base)], np.int64)
    words = coordinate_words(puzzle, fine, piece_bits) if coordinates else (
        np.zeros((0, 4), np.int64), np.zeros(0, np.int64), np.zeros((0, int(fine.scalars[labels.WIDTH])), np.int64))
    tables = ExactTables(slot_word, slot_shift, scalars, *slot_points(puzzle, field_bits, piece_bits),
                         *chain_tables(group), *words, entries)
    order = group.chain.order
    return Heuristic(puzzle, "pdb", BOUNDS[puzzle.representation], tables, goals,
                     f"the exact distance table over the {order:,} elements of its group", seconds,
                     {"patterns": ["exact (group)"], "entries": [order], "bytes": int(entries.nbytes)},
                     allocates=True)  # chain_rank's element arrays

