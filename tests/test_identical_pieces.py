"""Identical pieces, ignored orientations, illegal states, blocks, wide states and group ranks,
against the plain-Python reference (``reference.labelled_neighbours``: moves applied to tuples
of labels): layer counts and layer states, in every representation that takes the puzzle."""

import math

import numpy as np
import pytest
from reference import bfs_layers, labelled_neighbours

import vecsearch as vs
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles.permutation import (
    Orbit,
    PermutationDefinition,
    PermutationPuzzle,
    format_definition,
    parse_definition,
)
from vecsearch.puzzles.permutation.layout import multinomial, multiset_rank, multiset_unrank

POCKET = vs.load_definition("2x2x2").restricted(["U", "R", "F"])  # 7 corners: UBL UBR UFR UFL DFL DFR DBR


def pocket(solved_pieces, twists=(0,) * 7, moves=("U", "R", "F")):
    """The pocket cube (DBL fixed) with another solved state: identical pieces, ? orientations."""
    chosen = [m for m in POCKET.moves if m.name in moves]
    return PermutationDefinition("pocket", POCKET.orbits, chosen, {"CORNERS": (solved_pieces, twists)})


LAYERS = pocket([0, 0, 0, 0, 1, 1, 1])  # the U layer's corners alike, and the D layer's
U_IGNORED = pocket([0, 0, 0, 0, 1, 2, 3], [None] * 4 + [0] * 3)  # U layer alike, orientations not counted
RING = parse_definition("""
Name ring with a forbidden slot
Set R 8 1
Solved
R
1 2 3 3 3 3 3 3
End
Move L
R
2 3 4 5 6 7 8 1
End
Move X
R
2 1 3 4 5 6 7 8
End
Illegal R 5 1 2
""")
BANDAGED = parse_definition("""
Name bandaged: pieces 1 and 2 of A move together, with piece 1 of B
Set A 6 2
Set B 3 1
Move P
A
2 3 1 4 5 6
1 0 0 0 0 0
B
2 1 3
End
Move Q
A
1 2 4 5 6 3
End
Move S
B
1 3 2
End
Block
A
1 2
B
1
End
""")
WIDE = PermutationDefinition("wide", [Orbit("W", 40)], {
    "L": {"W": [(i + 1) % 40 for i in range(40)]}, "C": {"W": [1, 2, 3, 4, 5, 6, 0] + list(range(7, 40))}},
    {"W": [0, 1] + [2] * 38})  # two pieces apart among 38 alike: 1,560 arrangements in 80 bits


def reference(puzzle):
    d = puzzle.definition
    index = {o.name: j for j, o in enumerate(d.orbits)}
    moves = [(m.name, {index[o]: c for o, c in m.changes.items()},
              {index[o]: s for o, s in d.moved_slots(m).items()}) for m in puzzle.move_list]
    illegal = {index[o]: slots for o, slots in d.illegal.items()}
    blocks = [{index[o]: labels for o, labels in block.items()} for block in d.blocks]
    return labelled_neighbours(moves, [o.orientations for o in d.orbits], d.wild, illegal, blocks)


_LAYERS: dict[tuple, list[set]] = {}


def reference_layers(puzzle) -> list[set]:
    """The plain-Python BFS layers from ``puzzle``'s solved state, computed once per definition
    and move set: several tests search the same puzzle in other representations and modes."""
    key = (format_definition(puzzle.definition), tuple(m.name for m in puzzle.move_list))
    if key not in _LAYERS:
        _LAYERS[key] = bfs_layers([puzzle.definition.solved], reference(puzzle))
    return _LAYERS[key]


CASES = [
    (LAYERS, "coordinates"), (LAYERS, "labels"), (U_IGNORED, "labels"), (RING, "labels"), (BANDAGED, "labels"),
    (pocket(list(range(7)), moves=("U", "R")), "group"),
]
SEARCHES = [(c, mode) for c in range(len(CASES)) for mode in ("layers", "twobit")] + [(len(CASES), "layers")]
CASES.append((WIDE, "labels"))  # wide states have a rank (a bitset), not an unrank: no two-bit search


@pytest.mark.parametrize("case,mode", SEARCHES,
                         ids=[f"{CASES[c][0].name}-{CASES[c][1]}-{mode}" for c, mode in SEARCHES])
def test_bfs_equals_the_reference(case, mode):
    definition, representation = CASES[case]
    puzzle = PermutationPuzzle(definition, representation=representation)
    assert puzzle.representation == representation
    expected = reference_layers(puzzle)
    result = vs.bfs(puzzle, mode=mode, keep_layers=mode == "layers")
    assert result.layer_sizes == [len(layer) for layer in expected]
    if mode == "layers":
        assert [{puzzle.pieces(s) for s in layer.states} for layer in result.layers] == expected


def test_what_each_case_exercises():
    assert PermutationPuzzle(LAYERS).representation == "coordinates"  # the arrangement has a move table
    assert PermutationPuzzle(LAYERS).rank_size == math.comb(7, 3) * 3 ** 6
    ignored = PermutationPuzzle(U_IGNORED)
    assert ignored.representation == "labels" and ignored.rank_size == 7 * 6 * 5 * 3 ** 3  # 3 twists counted
    wide = PermutationPuzzle(WIDE, representation="labels")
    assert wide.width == 2 and wide.rank_size == 40 * 39 and not wide.has_unrank
    assert PermutationPuzzle(WIDE).representation == "coordinates"  # auto: 1,560 ranks, a small move table
    two_gen = PermutationPuzzle(pocket(list(range(7)), moves=("U", "R")))  # 29,160 of 7! 3^6 arrangements
    assert two_gen.representation == "group" and two_gen.rank_size == 29160
    toy = PermutationDefinition("z2^3", [Orbit("P", 8, 2)], {
        "A": {"P": ([1, 0, 3, 2, 5, 4, 7, 6], [1, 1, 0, 0, 0, 0, 0, 0])},
        "B": {"P": [2, 3, 0, 1, 6, 7, 4, 5]}, "C": {"P": [4, 5, 6, 7, 0, 1, 2, 3]}})
    small = PermutationPuzzle(toy)  # a group far smaller than the arrangements: its own rank
    expected = bfs_layers([toy.solved], reference(small))
    assert small.representation == "group" and small.rank_size == sum(map(len, expected)) == 64
    assert vs.bfs(small).layer_sizes == [len(layer) for layer in expected]


@pytest.mark.parametrize("counts", [(1, 1, 1), (2, 1), (3, 2, 1), (1, 4, 2), (2, 1, 2, 1)])
def test_multiset_rank_is_a_bijection_in_python_and_in_the_kernels(counts):
    import itertools

    values = [v for v, c in enumerate(counts) for _ in range(c)]
    arrangements = sorted(set(itertools.permutations(values)))
    assert sorted(multiset_rank(a, counts) for a in arrangements) == list(range(multinomial(counts)))
    assert all(multiset_unrank(multiset_rank(a, counts), counts) == a for a in arrangements)
    n = len(values)  # a twist and an odd move: neither the parity nor the twist sum is kept
    definition = PermutationDefinition("m", [Orbit("M", n, 2)], {
        "X": {"M": (list(range(1, n)) + [0], [1] + [0] * (n - 1))}, "Y": {"M": [1, 0] + list(range(2, n))}},
        {"M": values})
    for representation in ("coordinates", "labels"):
        puzzle = PermutationPuzzle(definition, representation=representation)
        states = [puzzle.layout.unrank(r, 0) for r in range(puzzle.rank_size)]
        assert len(set(states)) == puzzle.rank_size == multinomial(counts) * 2 ** len(values)
        packed = np.array([puzzle.encode(s) for s in states], np.int64)
        kernels = layer_kernels(puzzle)
        assert kernels.ranks(packed, puzzle.tables).tolist() == list(range(puzzle.rank_size))
        ranks = np.arange(puzzle.rank_size, dtype=np.int64)
        assert kernels.unrank_many(ranks, 0, puzzle.tables).tolist() == packed.tolist()


@pytest.mark.parametrize("counts, orientations", [((2, 1, 1, 1, 1, 1, 1, 1, 1), 1), ((3, 2, 1, 1, 1, 1, 1), 1),
                                                   ((3, 2, 1, 1, 1, 1, 1), 2)], ids=["9-labels", "7-labels", "twisted"])
def test_kernels_rank_identical_pieces_of_many_labels_as_the_layout_does(counts, orientations):
    """Orbits of at most 8 labels are ranked in one pass (a byte per label; in a narrow state,
    their orientations in the same pass), the others label by label: both equal the layout's
    rank, sampled (9 labels: 1.8 M arrangements, 10 slots)."""
    values = [v for v, c in enumerate(counts) for _ in range(c)]
    n = len(values)
    definition = PermutationDefinition("m9", [Orbit("M", n, orientations)], {
        "X": {"M": list(range(1, n)) + [0]}, "Y": {"M": [1, 0] + list(range(2, n))}}, {"M": values})
    puzzle = PermutationPuzzle(definition, representation="labels")
    assert puzzle.rank_size == multinomial(counts) * orientations ** (n - 1)  # the sum of orientations is kept
    ranks = np.random.default_rng(9).integers(0, puzzle.rank_size, 2000)
    packed = np.array([puzzle.encode(puzzle.layout.unrank(int(r), 0)) for r in ranks], np.int64)
    assert layer_kernels(puzzle).ranks(packed, puzzle.tables).tolist() == ranks.tolist()


def test_the_group_rank_is_a_bijection_on_the_group():
    puzzle = PermutationPuzzle(pocket(list(range(7)), moves=("U", "R")), representation="group")
    reached = reference_layers(puzzle)
    states = [s for layer in reached for s in layer]
    assert puzzle.rank_size == len(states) == 29160  # the 2-generator group of the pocket cube
    ranks = sorted(puzzle.encode(s) for s in states)
    assert ranks == list(range(29160)) and all(puzzle.encode(puzzle.pieces(r)) == r for r in ranks[::97])
    outside = puzzle.definition.apply(puzzle.definition.solved, POCKET.moves[2])  # F: not in <U, R>
    with pytest.raises(vs.InvalidPuzzleInput, match="cannot be reached from the solved state"):
        puzzle.encode(outside)


def test_states_of_identical_pieces_are_read_and_written_as_the_solved_state_numbers_them():
    puzzle = PermutationPuzzle(pocket([0, 0, 0, 0, 4, 5, 6], [None] * 4 + [0] * 3))
    assert puzzle.format_state(puzzle.goal_states()[0]) == "1 1 1 1 5 6 7 / ? ? ? ? 0 0 0"
    state = puzzle.parse_state("R U")
    assert puzzle.parse_state(puzzle.format_state(state)) == state
    for text, message in [("1 1 1 5 1 6 7 / 0 ? ? ? 0 0 0", r"token 9 is '0'; expected \?: its orientation is"),
                          ("1 1 1 1 5 6 6", "not those of the solved state"),
                          ("1 1 1 1 2 6 7", r"expected a CORNERS piece number 1, 5, 6, 7")]:
        with pytest.raises(vs.InvalidPuzzleInput, match=message):
            puzzle.parse_state(text)
    ring = PermutationPuzzle(RING)
    with pytest.raises(vs.InvalidPuzzleInput, match="the state is illegal"):
        ring.parse_state("3 3 3 3 1 3 2 3")
    bandaged = PermutationPuzzle(BANDAGED)
    with pytest.raises(vs.InvalidPuzzleInput, match="move Q cannot be played there"):
        bandaged.parse_state("P Q")


@pytest.mark.parametrize("tabled", [True, False], ids=["colex-tables", "byte-permutes"])
def test_arrangements_stepped_by_masks_equal_the_reference(monkeypatch, tabled):
    """Arrangements too large for a move table (4x4x4 centres) are stepped by bit masks: forced
    here on small ones, with each label's coordinate tabled or its mask permuted byte by byte."""
    from vecsearch.puzzles.permutation import arrangement, tables

    monkeypatch.setattr(tables, "MASKED_ABOVE", 0)
    monkeypatch.setattr(arrangement, "COLEX_STEP_ENTRIES", 1 << 22 if tabled else 0)
    three = pocket([0, 0, 0, 4, 4, 5, 5], moves=("U", "R"))  # three labels: two masks, one relative to the other
    for definition in (LAYERS, WIDE, three):
        puzzle = PermutationPuzzle(definition, representation="coordinates")
        assert puzzle.tables.scalars[4] == 1  # MASKED: the arrangement has no move table
        expected = [len(layer) for layer in reference_layers(puzzle)]
        for mode in ("layers", "twobit"):
            assert vs.bfs(puzzle, mode=mode).layer_sizes == expected


def test_the_partitioned_search_counts_identical_pieces_and_group_ranks_too(tmp_path):
    for definition, representation in ((LAYERS, "coordinates"), (pocket(list(range(7)), moves=("U", "R")), "group")):
        puzzle = PermutationPuzzle(definition, representation=representation)
        expected = [len(layer) for layer in reference_layers(puzzle)]
        assert vs.bfs(puzzle, segments=3, spill=tmp_path / representation).layer_sizes == expected
