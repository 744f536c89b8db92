"""Permutation puzzles as data: definitions, the text format, ranks, states, and searches
against the plain-Python reference (the move tables applied to tuples)."""

import math
import re
from pathlib import Path

import numpy as np
import pytest
from reference import bfs_layers, pancake_neighbours, permutation_neighbours, replay, thread_ranks

import vecsearch as vs
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles.permutation import (
    Move,
    Orbit,
    PermutationDefinition,
    PermutationPuzzle,
    format_definition,
    parse_definition,
)
from vecsearch.puzzles.permutation.builtins import cube_definition, pancake_definition, ring_definition

# Two orbits, orientations in both, a move that touches one orbit only, and a twist sum that
# is not kept by every move (the orientation coordinate then keeps every slot).
TWO_ORBITS = PermutationDefinition("two-orbits", [Orbit("A", 3, 3), Orbit("B", 3, 2)], {
    "P": {"A": ((1, 2, 0), (1, 2, 0)), "B": ((1, 0, 2), (1, 1, 0))},
    "Q": {"A": ((0, 2, 1), (0, 1, 2))},
    "S": {"B": ((0, 2, 1), (1, 0, 0))},
})

# One orbit with orientations whose sum every move keeps (the pieces form's rank-space moves).
TWISTED_RING = PermutationDefinition("twisted-ring", [Orbit("R", 5, 3)], {
    "L": {"R": ((1, 2, 3, 4, 0), (1, 0, 0, 0, 2))}, "X": {"R": ((1, 0, 2, 3, 4), (0, 0, 0, 0, 0))}})


def reference_neighbours(puzzle):
    orbits = puzzle.definition.orbits
    index = {o.name: j for j, o in enumerate(orbits)}
    moves = [(m.name, {index[o]: change for o, change in m.changes.items()}) for m in puzzle.move_list]
    return permutation_neighbours(moves, [o.orientations for o in orbits])


def engine_layers(puzzle, result):
    return [{puzzle.pieces(s) for s in layer.states} for layer in result.layers]


# --- definitions -----------------------------------------------------------------------------
def test_move_convention_slot_i_receives_the_piece_of_slot_p_i():
    d = PermutationDefinition("t", [Orbit("X", 3, 3)], {"M": {"X": ((2, 0, 1), (1, 0, 2))}},
                              solved={"X": ((0, 1, 2), (0, 1, 2))})
    after = d.apply(d.solved, d.moves[0])
    assert after == (((2, 0, 1), ((2 + 1) % 3, 0, (1 + 2) % 3)),)
    assert d.apply(after, d.inverse(d.moves[0])) == d.solved


def test_powers_are_named_like_twsearch():
    d = cube_definition()
    assert [m.name for m in d.move_set("htm")][:3] == ["U", "U2", "U'"]
    assert [m.name for m in d.move_set("qtm")][:2] == ["U", "U'"]
    assert [m.name for m in d.move_set("given")] == ["U", "R", "F", "D", "L", "B"]
    five = PermutationDefinition("c5", [Orbit("X", 5)], {"C": {"X": (1, 2, 3, 4, 0)}})
    assert [m.name for m in five.move_set("htm")] == ["C", "C2", "C2'", "C'"]


def test_restricted_drops_slots_no_move_touches():
    d = cube_definition().restricted(["U", "R", "F"])
    assert [(o.name, o.size) for o in d.orbits] == [("CORNERS", 7)]
    assert all(d.order(m) == 4 for m in d.moves)


def test_with_moves_searches_what_the_moves_kept_reach_as_twsearch_reads_them():
    # twsearch's --moves U,R2: U with its powers, R's half turn alone; every slot and the state text kept
    import warnings

    from vecsearch.errors import DefinitionNote

    cube = vs.load_definition("2x2x2")  # all six faces: 8 corners
    index = {o.name: j for j, o in enumerate(cube.orbits)}
    turn = {m.name: permutation_neighbours([(m.name, {index[o]: c for o, c in m.changes.items()})],
                                           [o.orientations for o in cube.orbits]) for m in cube.moves}

    def neighbours(state):  # U, U twice, U three times, R twice: the moves applied one turn at a time
        out, u = [], state
        for name in ("U", "U2", "U'"):
            u = turn["U"](u)[0][1]
            out.append((name, u))
        return out + [("R2", turn["R"](turn["R"](state)[0][1])[0][1])]

    kept = cube.with_moves("U, R2")
    assert kept.name == "2x2x2 <U, R2>" and [m.name for m in kept.moves] == ["U", "R2"]
    puzzle = PermutationPuzzle(kept)
    assert [m.name for m in puzzle.move_list] == ["U", "U2", "U'", "R2"]
    assert vs.bfs(puzzle).layer_sizes == [len(layer) for layer in bfs_layers([cube.solved], neighbours)]
    assert str(vs.solve(puzzle, "R2 U R2 U'")) == "U R2 U' R2"
    assert PermutationPuzzle(cube, "qtm").with_moves(["U", "R2"]).move_list[1].name == "U'"
    assert [m.name for m in PermutationPuzzle(kept, "given").move_list] == ["U", "R2"]
    here = Path(__file__).parent / "data" / "definitions"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DefinitionNote)
        full = vs.get_puzzle(str(here / "illegal.tws"))
    fewer = full.with_moves(full.definition.moves[0].name)  # illegal states, labels and the text as they were
    assert (fewer.definition.illegal, fewer.definition.solved, fewer.definition.label_names) == \
        (full.definition.illegal, full.definition.solved, full.definition.label_names)
    assert fewer.format_state(fewer.goal_states()[0]) == full.format_state(full.goal_states()[0])
    assert fewer.name == f"{full.name} <{full.definition.moves[0].name}>"
    for moves, message in [("U, Q", "no move named 'Q'; its moves: U, R, F, D, L, B"),
                           ("U R U2", "U is named twice"), ("U3", "U3: an amount must divide the order of U (4)"),
                           ("U4", "U4: an amount must divide"), (" , ", "name at least one of its moves")]:
        with pytest.raises(vs.PuzzleDefinitionError, match=re.escape(message)):
            cube.with_moves(moves)


@pytest.mark.parametrize("build,message", [
    (lambda: PermutationDefinition("x", [Orbit("A", 3)], {"M": {"A": (0, 0, 1)}}), "is not a permutation"),
    (lambda: PermutationDefinition("x", [Orbit("A", 3, 2)], {"M": {"A": ((1, 0, 2), (0, 2, 0))}}),
     "orientation 2 is not in 0..1"),
    (lambda: PermutationDefinition("x", [Orbit("A", 3)], {"M": {"B": (0, 1, 2)}}), "no orbit named 'B'"),
    (lambda: PermutationDefinition("x", [Orbit("A", 3)], {"M": {"A": (0, 1, 2)}}), "changes nothing"),
    (lambda: PermutationDefinition("x", [Orbit("A", 2)], {"A": {"A": (1, 0)}}), "names both a move and an orbit"),
    (lambda: PermutationDefinition("x", [Orbit("A", 2, 3)], {"M": {"A": (1, 0)}}, solved={"A": ((0, 0), (None, 0))}),
     "identical pieces must all have their orientation ignored"),
])
def test_bad_definitions_are_refused_with_the_reason(build, message):
    with pytest.raises(vs.PuzzleDefinitionError, match=message):
        build()


# --- the text format -------------------------------------------------------------------------
def test_text_format_round_trip():
    for definition in (cube_definition(), TWO_ORBITS):
        again = parse_definition(format_definition(definition))
        assert [(m.name, dict(m.changes)) for m in again.moves] == [(m.name, dict(m.changes)) for m in definition.moves]
        assert again.orbits == definition.orbits and again.solved == definition.solved


def test_text_format_move_orientations_are_indexed_by_the_slot_a_piece_leaves():
    text = "Set C 3 3\nMove M\nC\n2 3 1\n1 2 0\nEnd\n"  # slot 1 <- slot 2, slot 2 <- slot 3, slot 3 <- slot 1
    (move,) = parse_definition(text).moves
    permutation, twist = move.changes["C"]
    assert permutation == (1, 2, 0)
    assert twist == (2, 0, 1)  # the piece arriving in slot 1 left slot 2, which has o = 2


@pytest.mark.parametrize("text,message", [
    ("Set A 3 1\nMove M\nA\n1 2\nEnd\n", "line 4: expected 3 slot numbers, got 2 tokens"),
    ("Set A 3 1\nMove M\nA\n1 2 9\nEnd\n", "line 4: slot '9' is out of range 1..3"),
    ("Set A 3 1\nMove M\nA\n1 1 2\nEnd\n", "line 4: A: 1 1 2 is not a permutation of 1..3"),
    ("Set A 3 2\nMove M\nA\n2 1 3\n0 x 0\nEnd\n", "line 5: token 'x' is not a whole number >= 0"),
    ("Set A 3 1\nMove M\nB\n", "line 3: expected an orbit name (A) or End, got 'B'"),
    ("Set A 3 1\nShuffle\n", "line 2: unknown command 'Shuffle'; expected one of Name, Set, Solved, StartState,"),
    ("Set A 3\n", "line 1: expected `Set NAME SLOTS ORIENTATIONS`"),
    ("Set A 3 1\nMove M\nA\n", "line 3: expected 3 numbers of orbit A, got the end of the text"),
    ("# nothing\n", "no Set line"),
])
def test_text_format_errors_name_the_line_and_token(text, message):
    with pytest.raises(vs.InvalidPuzzleInput) as error:
        parse_definition(text)
    assert str(error.value) == message or message in str(error.value)


# --- ranks, components and states ------------------------------------------------------------
def small_puzzles():
    return [
        PermutationPuzzle(TWO_ORBITS, "htm"),
        PermutationPuzzle(TWO_ORBITS, "htm", representation="pieces"),
        PermutationPuzzle(ring_definition("topspin-5", 5, 4), "qtm"),  # every move even: parity fixed
        PermutationPuzzle(ring_definition("topspin-5", 5, 4), "qtm", representation="pieces"),
        PermutationPuzzle(pancake_definition(5), "given", representation="pieces"),
    ]


@pytest.mark.parametrize("puzzle", small_puzzles(), ids=lambda p: f"{p.name}-{p.representation}")
def test_rank_is_a_bijection_within_each_component_and_kernels_agree(puzzle):
    layout = puzzle.layout
    components = sorted({layout.rank(s)[1] for s in _all_states(puzzle.definition)})
    seen = set()
    for component in components:
        states = [layout.unrank(r, component) for r in range(layout.rank_size)]
        assert len(set(states)) == layout.rank_size
        assert all(layout.rank(s) == (r, component) for r, s in enumerate(states))
        seen |= set(states)
        packed = np.array([puzzle.encode(s) for s in states], np.int64)
        assert [puzzle.pieces(p) for p in packed] == states
        assert layer_kernels(puzzle).ranks(packed, puzzle.tables).tolist() == list(range(layout.rank_size))
        assert set(layer_kernels(puzzle).components(packed, puzzle.tables).tolist()) == {component}
        ranks = np.arange(layout.rank_size, dtype=np.int64)
        assert layer_kernels(puzzle).unrank_many(ranks, component, puzzle.tables).tolist() == packed.tolist()
    assert seen == set(_all_states(puzzle.definition))


def _all_states(definition):
    import itertools

    per_orbit = [[(p, t) for p in itertools.permutations(range(o.size))
                  for t in itertools.product(range(o.orientations), repeat=o.size)] for o in definition.orbits]
    return list(itertools.product(*per_orbit))


def test_parity_and_twist_sum_shrink_the_rank_space():
    assert vs.get_puzzle("pocket-htm").rank_size == math.factorial(7) * 3 ** 6
    assert vs.get_puzzle("pocket-full").rank_size == math.factorial(8) * 3 ** 7
    assert PermutationPuzzle(ring_definition("t5", 5, 4), "qtm").rank_size == math.factorial(5) // 2
    # orbit A: every move keeps its twist sum (last orientation implied); orbit B: S does not
    assert PermutationPuzzle(TWO_ORBITS).rank_size == math.factorial(3) * 3 ** 2 * math.factorial(3) * 2 ** 3


def test_state_text_round_trip_moves_and_errors():
    pocket = vs.get_puzzle("pocket-htm")
    solved = pocket.start_states()[0]
    assert pocket.format_state(solved) == "1 2 3 4 5 6 7 / 0 0 0 0 0 0 0"
    after = pocket.parse_state("R U")
    assert pocket.parse_state(pocket.format_state(after)) == after
    neighbours = reference_neighbours(pocket)
    assert pocket.pieces(after) == replay(pocket.pieces(solved), ["R", "U"], neighbours)
    two = PermutationPuzzle(TWO_ORBITS)
    state = two.parse_state("B 2 1 3 / 1 0 0")  # orbit A left out: solved
    assert two.format_state(state) == "A 1 2 3 / 0 0 0  B 2 1 3 / 1 0 0"
    for text, message in [("1 2 3 4 5 6", "expected 7 CORNERS piece numbers"),
                          ("1 2 3 4 5 6 6", "the state has pieces 1 2 3 4 5 6 6, not those of the solved state"),
                          ("1 2 3 4 5 6 7 / 0 0 0 0 0 0 3",
                           "token 15 is '3'; expected a CORNERS orientation number 0..2"),
                          ("1 2 3 4 5 6 7 extra", "token 8 is 'extra'; expected an orbit name")]:
        with pytest.raises(vs.InvalidPuzzleInput, match=message):
            pocket.parse_state(text)
    with pytest.raises(vs.InvalidPuzzleInput, match="expected an orbit name .A, B.$"):
        two.parse_state("1 2 3")
    with pytest.raises(vs.InvalidPuzzleInput, match=r"token 1 is 'Q4'; expected a CORNERS piece number 1\.\.7, or moves"
                                                    r" from the solved state \(move names: U U2 U' R R2 R' F F2 F'\)"):
        pocket.parse_state("Q4")


# --- searches against the reference ----------------------------------------------------------
def search_cases():
    return [
        (PermutationPuzzle(TWO_ORBITS), None),
        (PermutationPuzzle(TWO_ORBITS, representation="pieces"), None),
        (PermutationPuzzle(TWO_ORBITS, "given"), None),  # not closed under inverses: directed
        (PermutationPuzzle(TWO_ORBITS, "given", representation="pieces"), None),
        (PermutationPuzzle(TWISTED_RING, "htm", representation="pieces"), None),
        (PermutationPuzzle(TWISTED_RING, "given", representation="pieces"), None),
        (vs.get_puzzle("topspin-6"), None),
        (vs.get_puzzle("lrx-5"), None),
        (vs.get_puzzle("pocket-qtm"), 5),
    ]


@pytest.mark.parametrize("case", range(len(search_cases())))
@pytest.mark.parametrize("mode", ["layers", "twobit"])
def test_bfs_equals_the_reference(case, mode, threads):
    puzzle, depth = search_cases()[case]
    start = puzzle.definition.solved
    expected = bfs_layers([start], reference_neighbours(puzzle), max_depth=depth)
    result = vs.bfs(puzzle, mode=mode, max_depth=depth, keep_layers=mode == "layers", threads=threads)
    assert result.layer_sizes == [len(layer) for layer in expected]
    farthest = {puzzle.pieces(s) for s in result.last_layer.states}
    assert farthest == expected[-1]
    if mode == "layers":
        assert engine_layers(puzzle, result) == expected


def test_directed_move_sets_search_backwards_over_inverse_moves():
    puzzle = PermutationPuzzle(TWO_ORBITS, "given")
    assert not puzzle.reversible and puzzle.searchable_backward
    start = puzzle.parse_state("P Q S P")
    solution = vs.DistanceTable(puzzle).solution(start)
    with pytest.raises(vs.VecsearchError, match="storage='mod3' needs reversible moves"):
        vs.DistanceTable(puzzle, storage="mod3")
    forward = bfs_layers([puzzle.pieces(start)], reference_neighbours(puzzle))
    goal = puzzle.definition.solved
    assert len(solution) == next(d for d, layer in enumerate(forward) if goal in layer)
    assert replay(puzzle.pieces(start), solution.move_names, reference_neighbours(puzzle)) == goal


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_pancakes_equal_a_reference_on_plain_stacks(n):
    puzzle = vs.get_puzzle(f"pancake-{n}")
    result = vs.bfs(puzzle, keep_layers=True)
    expected = bfs_layers([tuple(range(1, n + 1))], pancake_neighbours(n))
    assert [{tuple(p + 1 for p in puzzle.pieces(s)[0][0]) for s in layer.states} for layer in result.layers] == expected


def test_pieces_and_coordinates_representations_agree_on_the_pocket_cube():
    pieces = PermutationPuzzle(cube_definition().restricted(["U", "R", "F"]), "htm", name="pocket-pieces",
                               representation="pieces")
    assert pieces.representation == "pieces"
    assert vs.bfs(pieces, mode="twobit").layer_sizes == vs.bfs("pocket-htm", mode="twobit").layer_sizes


def test_definition_files_load_by_path(tmp_path):
    path = tmp_path / "swap3.tws"
    path.write_text("Name swap3\nSet S 3 1\nMove X\nS\n2 1 3\nEnd\nMove Y\nS\n1 3 2\nEnd\n")
    puzzle = vs.get_puzzle(str(path))
    assert puzzle.name == "swap3" and vs.bfs(puzzle).layer_sizes == [1, 2, 2, 1]
    with pytest.raises(vs.InvalidPuzzleInput, match=r"cannot read puzzle definition .*missing\.tws: No such file"
                                                    r" or directory \(shipped with vecsearch, by name: 2x2x2\)"):
        vs.get_puzzle(str(tmp_path / "missing.tws"))


def test_shipped_definitions_load_by_name_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the repository's root
    shipped = vs.load_definition("2x2x2")
    by_path = vs.load_definition(Path(vs.__file__).parent / "data" / "2x2x2.tws")
    loaded = format_definition(vs.load_definition("2x2x2.tws"))
    assert loaded == format_definition(by_path) == format_definition(shipped)
    assert [m.name for m in shipped.moves] == ["U", "R", "F", "D", "L", "B"]
    assert vs.get_puzzle("2x2x2.tws").rank_size == vs.get_puzzle("pocket-full").rank_size


def test_moves_given_as_move_objects():
    definition = PermutationDefinition("flips", [Orbit("S", 4)], [Move("F", {"S": ((3, 2, 1, 0), (0, 0, 0, 0))}),
                                                                   Move("T", {"S": ((1, 0, 2, 3), (0, 0, 0, 0))})])
    puzzle = PermutationPuzzle(definition)
    expected = bfs_layers([definition.solved], reference_neighbours(puzzle))
    assert vs.bfs(puzzle).layer_sizes == [len(layer) for layer in expected]


# --- rank-space moves agree with unrank, expand, rank ------------------------------------------
ONE_ORBIT = {  # the one-orbit puzzles whose moves step in rank space
    "pancake-6": lambda: PermutationPuzzle(pancake_definition(6), "given", representation="pieces"),
    "topspin-7": lambda: PermutationPuzzle(ring_definition("topspin-7", 7, 4), "qtm", representation="pieces"),  # even
    "twisted-ring-htm": lambda: PermutationPuzzle(TWISTED_RING, "htm", representation="pieces"),  # twist sum fixed
    "twisted-ring-given": lambda: PermutationPuzzle(TWISTED_RING, "given", representation="pieces"),  # directed
}


@pytest.mark.parametrize("entries", [1 << 22, 30, 0], ids=["tabled", "some-tabled", "computed"])
@pytest.mark.parametrize("name", ONE_ORBIT)
def test_rank_space_moves_of_one_orbit_puzzles(name, entries, monkeypatch):
    """Every move's children ranks, from tables or computed, equal unrank, expand, rank; the near
    ones (the tabled moves) are among them. (The family's kernels, bound to its rank-space moves
    ``rank_steps.single_orbit_*``, from its cached module: a test-side kernel taking them as
    arguments would be compiled again in every process.)"""
    from vecsearch.puzzles.permutation import rank_steps

    monkeypatch.setattr(rank_steps, "TABLE_ENTRIES", entries)
    puzzle = ONE_ORBIT[name]()
    assert puzzle.functions["expand_rank_state"] is rank_steps.single_orbit_expand_rank
    assert puzzle.functions["near_rank_state"] is rank_steps.single_orbit_near_rank
    kernels, tables = layer_kernels(puzzle), puzzle.tables
    component = int(kernels.components(puzzle.start_states(), tables)[0])
    ranks = np.arange(0, puzzle.rank_size, max(1, puzzle.rank_size // 500))
    states = kernels.unrank_many(ranks, component, tables)
    for half, backward in enumerate([False] if puzzle.reversible else [False, True]):  # children, predecessors
        tabled = int(tables.step_tabled[half])
        assert tabled == {1 << 22: puzzle.max_moves, 30: tabled, 0: 0}[entries]
        for i in range(len(ranks)):
            via = kernels.ranks(kernels.neighbours(states[i:i + 1], tables, backward)[0], tables).tolist()
            assert kernels.neighbour_ranks(ranks[i:i + 1], component, tables, backward, False)[0].tolist() == via
            near = kernels.neighbour_ranks(ranks[i:i + 1], component, tables, backward, True)[0].tolist()
            assert len(near) == tabled and set(near) <= set(via)
    if entries == 30:  # the smallest remainders tabled: pancakes' 2! + 3!, TopSpin's turnstile, the ring's X
        assert 0 < puzzle.tables.step_tabled[0] < puzzle.max_moves and len(puzzle.tables.step_values) <= 30
    # a pancake's flips reverse the positions they change (their remainders computed without ranking); the others
    # have moves that do not (a turnstile, a twist), computed by ranking the moved pieces
    reversals = puzzle.tables.step_reversal.tolist()
    assert all(reversals) if name.startswith("pancake") else 0 in reversals


SHARED = {  # one-orbit puzzles whose ranks have digits above the first chunk (rank_steps.remembered_digits)
    "pancake-9": lambda: PermutationPuzzle(pancake_definition(9), "given", representation="pieces"),
    "topspin-9": lambda: PermutationPuzzle(ring_definition("topspin-9", 9, 4), "qtm", representation="pieces"),  # even
    "twisted-ring-given": ONE_ORBIT["twisted-ring-given"],  # orientations, and predecessors of their own
}


@pytest.mark.parametrize("n", [13, 14])
def test_every_computed_flip_of_a_stack_of_up_to_14_pancakes_is_summed(n):
    """The flips too large to table (11 pancakes and more) are summed in one pass for every stack
    whose two-bit table fits a machine, its largest flips included."""
    tables = vs.get_puzzle(f"pancake-{n}").tables
    computed = tables.step_at < 0
    assert sorted(n - tables.step_first[computed]) == list(range(11, n + 1))
    assert tables.step_summed[computed].all()


@pytest.mark.parametrize("memory", ["whole", "none"])
@pytest.mark.parametrize("entries", [1 << 22, 0], ids=["tabled", "computed"])
@pytest.mark.parametrize("name", SHARED)
def test_rank_steps_share_the_unranking_of_consecutive_ranks(name, entries, memory, monkeypatch):
    """A thread's ranks stepped one after the other through one memory (each rank's unranking
    redone only from the first digit that changed) give the children of unrank, expand, rank, in
    both components and both directions, near or not; the computed reversals from the first
    positions summed together and the others computed afresh, or all afresh when the memory has
    no room for the sums."""
    from vecsearch.puzzles.permutation import rank_steps

    monkeypatch.setattr(rank_steps, "TABLE_ENTRIES", entries)
    if memory == "none":
        monkeypatch.setattr(rank_steps, "RANK_MEMORY", rank_steps.SLOTS)
    puzzle = SHARED[name]()
    tables = puzzle.tables
    computed_reversals = (tables.step_at < 0) & (tables.step_reversal == 1)
    from_the_first = computed_reversals & (tables.step_first < rank_steps.SUMMED)
    assert tables.step_summed.tolist() == (from_the_first if memory == "whole" else 0 * from_the_first).tolist()
    if name == "pancake-9":  # every flip computed (some summed, the smallest flips not), or none
        assert computed_reversals.sum() == (0 if entries else 8)
        assert from_the_first.sum() == (0 if entries else rank_steps.SUMMED) < 8
    kernels = layer_kernels(puzzle)
    ranks = np.array(thread_ranks(puzzle.rank_size, int(tables.step_chunk_size[0])))
    assert (len(tables.step_chunk_size) > 1 and len(ranks) > 500) or name.startswith("twisted")
    components = sorted({int(c) for c in kernels.components(kernels.unrank_many(ranks[:50], 0, tables), tables)}
                        | {int(c) for c in kernels.components(puzzle.start_states(), tables)})
    for component in components:
        states = kernels.unrank_many(ranks, component, tables)
        for backward in [False] if puzzle.reversible else [False, True]:
            children, starts = kernels.neighbour_ranks(ranks, component, tables, backward, False)
            near, near_starts = kernels.neighbour_ranks(ranks, component, tables, backward, True)
            for i in range(len(ranks)):
                via = kernels.ranks(kernels.neighbours(states[i:i + 1], tables, backward)[0], tables).tolist()
                assert children[starts[i]:starts[i + 1]].tolist() == via, (component, backward, int(ranks[i]))
                assert set(near[near_starts[i]:near_starts[i + 1]].tolist()) <= set(via)


def test_pancakes_table_the_same_flips_whatever_their_size():
    """Every stack of 10 or more pancakes reads the changes of its flips of up to 8 together (a
    row per remainder: 8! rows of 7 changes, about a core's L2 cache) and tables the remainders of
    its flips of up to 10; the flips of 11 and more are computed. The tables do not grow with the
    stack: a larger table of changes read together ran slower."""
    for n in (10, 12, 13):
        tables = vs.get_puzzle(f"pancake-{n}").tables
        assert tables.step_together[4] == 8 and tables.step_deltas.shape == (math.factorial(8), 7)
        assert sorted((n - tables.step_first[tables.step_at >= 0]).tolist()) == list(range(2, min(n, 10) + 1))
        assert sorted((n - tables.step_first[tables.step_at < 0]).tolist()) == list(range(11, n + 1))


def test_pancake_flips_keep_children_near_their_parent():
    """Pancakes are ranked with the top pancake as the last Lehmer digit: flipping the top k
    changes only the rank's remainder mod k!."""
    puzzle = vs.get_puzzle("pancake-9")
    assert puzzle.layout.orders == (tuple(range(8, -1, -1)),)
    ranks = np.random.default_rng(9).integers(0, puzzle.rank_size, 200)
    kernels = layer_kernels(puzzle)
    states = kernels.unrank_many(ranks, 0, puzzle.tables)
    for rank, state in zip(ranks.tolist(), states, strict=True):
        children, moves = kernels.neighbours(np.array([state]), puzzle.tables, False)
        for child, move in zip(kernels.ranks(children, puzzle.tables).tolist(), moves.tolist(), strict=True):
            k = int(puzzle.move_names[move][1:])
            assert child // math.factorial(k) == rank // math.factorial(k)
