"""Optimal solving of permutation puzzles from their definition: canonical move sequences,
pattern databases built by the engine, IDA*.

References: the published count of canonical 3x3x3 sequences (OEIS A080601), plain-Python
move sequences and breadth-first searches over Python states (``definition.apply`` only), and
optimal lengths from twsearch (``tests/data/tws_solve_lengths.json``, with its command).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

import vecsearch as vs
from vecsearch.engine.heuristic.evaluation import heuristic_values
from vecsearch.engine.heuristic.idastar import idastar_many
from vecsearch.engine.heuristic.sequences import sequence_counts
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles.permutation import database_bounds, exact, projections, pruning
from vecsearch.puzzles.permutation.patterns import Coarsening
from vecsearch.puzzles.permutation.textformat import parse_definition

DATA = Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "tws_solve_lengths.json").read_text())


def load(name, representation="auto"):
    definition = vs.load_definition(DATA / "definitions" / f"twsearch-main-{name}.tws")
    return vs.PermutationPuzzle(definition, representation=representation)


def python_moves(puzzle):
    d = puzzle.definition
    return [(m.name, lambda state, m=m: d.apply(state, m)) for m in puzzle.move_list]


# --- canonical sequences ---------------------------------------------------------------------
def test_canonical_sequences_of_the_3x3x3_are_the_published_count():
    # OEIS A080601: canonical sequences of n face turns (half-turn metric)
    assert sequence_counts(load("3x3x3").move_sequences, 6) == [1, 18, 243, 3240, 43254, 577368, 7706988]


def _canonical_by_brute_force(puzzle, depth):
    """Sequences of each length that no rule rejects, by looking at every sequence: a move is
    redundant when an earlier one, commuting with every move since, merges with it (their product
    is nothing or one move) or comes later in move order and commutes with it."""
    d = puzzle.definition
    identity = d.identity()
    moves = puzzle.move_list
    made = {d.apply(identity, m) for m in moves} | {identity}
    after = lambda i, j: d.apply(d.apply(identity, moves[i]), moves[j])  # noqa: E731
    commute = [[after(i, j) == after(j, i) for j in range(len(moves))] for i in range(len(moves))]
    merges = [[after(i, j) in made for j in range(len(moves))] for i in range(len(moves))]
    counts = []
    for n in range(depth + 1):
        count = 0
        for sequence in itertools.product(range(len(moves)), repeat=n):
            count += not any((merges[a][b] or (a > b and commute[a][b])) and all(commute[a][c] for c in between)
                             for j, b in enumerate(sequence) for i, a in enumerate(sequence[:j])
                             for between in [sequence[i + 1:j]])
        counts.append(count)
    return counts


@pytest.mark.parametrize("name", ["skewb", "pyraminx"])
def test_canonical_sequence_counts_equal_brute_force(name):
    puzzle = load(name)
    assert sequence_counts(puzzle.move_sequences, 4) == _canonical_by_brute_force(puzzle, 4)


def test_canonical_sequences_reach_every_position_at_its_distance():
    puzzle = load("skewb")
    d, table = puzzle.definition, puzzle.move_sequences
    solved = d.solved
    distance = {solved: 0}  # plain BFS
    frontier = [solved]
    for depth in range(1, 5):
        frontier = [child for state in frontier for _, move in python_moves(puzzle) for child in [move(state)]
                    if child not in distance and not distance.setdefault(child, depth) < depth]
    reached = {solved: 0}  # walking the automaton
    nodes = [(solved, 0)]
    for depth in range(1, 5):
        nodes = [(d.apply(state, puzzle.move_list[m]), int(table[at, m])) for state, at in nodes
                 for m in range(puzzle.max_moves) if table[at, m] >= 0]
        for state, _ in nodes:
            reached.setdefault(state, depth)
    assert reached == distance


# --- pattern databases -----------------------------------------------------------------------
def test_a_pattern_database_holds_the_coset_distances():
    puzzle = load("skewb")
    pattern = projections.projection(puzzle, {0: (range(2), True), 2: ([0], False)})  # 5,832 cosets
    space = projections.coarse_puzzle(pattern)
    entries, _, _ = pruning.projection_database(pattern, space, puzzle.goal_states())
    d = puzzle.definition
    start = projections.coarse_state(pattern, d.solved)
    distance, frontier = {start: 0}, [d.solved]
    for depth in range(1, 40):  # plain BFS in the fine puzzle, projected
        nxt = []
        for state in frontier:
            for _, move in python_moves(puzzle):
                child = move(state)
                key = projections.coarse_state(pattern, child)
                if key not in distance:
                    distance[key] = depth
                    nxt.append(child)
        frontier = nxt
    states = space.states(np.array([space.encode(s) for s in distance]))
    ranks = layer_kernels(space).ranks(states, space.tables)
    assert entries[ranks].tolist() == list(distance.values())
    assert int((np.asarray(entries) != pruning.UNREACHED).sum()) == len(distance)


@pytest.mark.parametrize("name, representation, budget", [
    ("3x3x3", "labels", 1 << 20), ("skewb", "coordinates", 1 << 16), ("skewb", "labels", 1 << 16),
    ("pyraminx", "coordinates", 1 << 22),
])
def test_the_bound_is_the_largest_projection_distance_and_admissible(name, representation, budget):
    puzzle = load(name, representation)
    patterns = projections.default_patterns(puzzle, budget)
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=patterns)
    scrambles, states = _scrambled(puzzle, 150, 9)
    got = heuristic_values(heuristic, states)
    assert got.tolist() == _largest_projection_distance(puzzle, patterns, states).tolist()
    assert all(h <= len(s) for h, s in zip(got, scrambles, strict=True))


@pytest.mark.parametrize("name, representation", [("3x3x3", "labels"), ("pyraminx", "coordinates")])
def test_children_are_bounded_at_once_exactly_within_the_limit_and_beyond_it_above(name, representation):
    # IDA* bounds a node's children at once (Heuristic.children, lookups staged over them): each
    # child's bound is its whole heuristic when that is within the limit, else some admissible
    # bound above the limit (the child's lookups stop at the first entry beyond it)
    puzzle = load(name, representation)
    patterns = projections.default_patterns(puzzle, 1 << 20)[:3]
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=patterns)
    assert heuristic.children is not None and len(patterns) > 1
    _, states = _scrambled(puzzle, 60, 12)
    whole = heuristic_values(heuristic, states)
    first, count = 5, len(states) - 10  # a block inside the arrays, as on IDA*'s stack
    stopped_early = 0
    for limit in range(int(whole.max()) + 1):
        bounds = np.full(len(states), -7, np.int64)
        scratch = np.zeros(len(states), np.int64)
        heuristic.children(states[0], 0, states, first, count, heuristic.tables, limit, bounds, scratch)
        inside = slice(first, first + count)
        assert (bounds[:first] == -7).all() and (bounds[first + count:] == -7).all()
        within = whole[inside] <= limit
        assert (bounds[inside][within] == whole[inside][within]).all()
        assert (bounds[inside][~within] > limit).all() and (bounds[inside][~within] <= whole[inside][~within]).all()
        stopped_early += int((bounds[inside][~within] < whole[inside][~within]).sum())
    assert stopped_early > 0  # some child stopped at a smaller entry than its largest


PRODUCT = """Name rings
Set A 5 1
Set B 4 2
Set C 3 1
Solved
A
1 2 3 4 5
B
1 2 3 4
C
1 2 3
End
Move L
A
2 3 1 4 5
C
2 1 3
End
Move M
A
1 2 4 5 3
End
Move P
B
2 3 4 1
1 0 0 1
C
1 3 2
End
"""


def test_databases_no_move_changes_together_are_added_up():
    # A and B change under different moves: their distances add up (A's moves play no part in
    # solving B); C changes with moves of both, so it is a group alone. Plain BFS over the whole
    # puzzle (definition.apply) gives every position's distance: the bound is the largest of
    # A + B and C, each a projection's distance, and never above the position's own
    puzzle = vs.PermutationPuzzle(parse_definition(PRODUCT), representation="labels")
    a, b, c = (projections.projection(puzzle, {j: (range(size), True)}) for j, size in enumerate((5, 4, 3)))
    assert projections.additive_groups([a, b, c]) == [[0, 1], [2]]
    assert projections.additive_groups([a, c, b]) == [[0, 2], [1]]
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=[a, b, c])
    assert "additive" in heuristic.description
    d = puzzle.definition
    distance, frontier = {d.solved: 0}, [d.solved]
    while frontier:
        frontier = [child for state in frontier for _, move in python_moves(puzzle) for child in [move(state)]
                    if child not in distance and not distance.setdefault(child, distance[state] + 1) < 0]
    states = puzzle.states(np.array([puzzle.encode(position) for position in distance]))
    got = heuristic_values(heuristic, states)
    each = {pattern.name: _largest_projection_distance(puzzle, [pattern], states) for pattern in (a, b, c)}
    assert got.tolist() == np.maximum(each[a.name] + each[b.name], each[c.name]).tolist()
    assert (got <= np.array(list(distance.values()))).all()
    assert (got > np.maximum.reduce(list(each.values()))).any()  # added up, more than the largest
    # IDA* (children bounded at once, their sums staged) finds the distance of every position
    lengths, _, _ = idastar_many(puzzle, states, heuristic=heuristic)
    assert lengths.tolist() == list(distance.values())


def _scrambled(puzzle, count, longest):
    rng = random.Random(7)
    names = puzzle.move_names
    scrambles = [[rng.choice(names) for _ in range(rng.randrange(1, longest))] for _ in range(count)]
    return scrambles, puzzle.states([puzzle.parse_state(" ".join(s)) for s in scrambles])


def _largest_projection_distance(puzzle, patterns, states):
    """Each state's largest database entry (at most 15, as the heuristic packs them) over
    ``patterns``, by the projection's own rank of the Python state projected."""
    want = np.zeros(len(states), np.int64)
    for pattern in patterns:
        space = projections.coarse_puzzle(pattern)
        entries, _, _ = pruning.projection_database(pattern, space, puzzle.goal_states())
        coarse = space.states(np.array([space.encode(projections.coarse_state(pattern, puzzle.pieces(s)))
                                        for s in states]))
        found = np.asarray(entries)[layer_kernels(space).ranks(coarse, space.tables)]
        want = np.maximum(want, np.minimum(found, 15))
    return want


@pytest.mark.parametrize("representation", ["coordinates", "labels"])
def test_windows_are_read_from_the_coordinates_or_ranked_in_one_pass(representation):
    # a window whose other pieces' twists are ignored (in the coordinates form: one term by the
    # orbit's two coordinates), one that counts them (a term by each), a window of the centres
    # (in the labels form: the label the other pieces share comes first, last, in between)
    puzzle = load("skewb", representation)
    patterns = [projections.projection(puzzle, {0: ([0, 1], False), 2: ([1, 2, 3], True)}),
                projections.projection(puzzle, {1: ([2, 3], True)}),
                projections.projection(puzzle, {2: ([0, 5], False)}),
                projections.projection(puzzle, {0: ([2, 3], False), 2: ([4, 5], False)})]
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=patterns)
    if representation == "coordinates":
        assert heuristic.function is database_bounds.coordinates_terms_bound
    else:
        shared = heuristic.tables.segments[:, database_bounds.SEGMENT_SHARED]
        assert {0, 2} <= set(shared.tolist())
    _, states = _scrambled(puzzle, 400, 14)
    assert heuristic_values(heuristic, states).tolist() == _largest_projection_distance(puzzle, patterns,
                                                                                        states).tolist()


def test_packed_entries_hold_the_databases_capped_at_15():
    rng = np.random.default_rng(3)
    databases = [rng.integers(0, 256, 7).astype(np.uint8), rng.integers(0, 20, 10).astype(np.uint8)]
    packed = pruning.pack_entries(databases)
    together = np.concatenate(databases)
    assert [(int(packed[i // 2]) >> (4 * (i % 2))) & 15 for i in range(len(together))] == \
        np.minimum(together, 15).tolist()


def test_default_patterns_fit_the_budget():
    for name, budget in (("3x3x3", 1 << 28), ("pyraminx", 1 << 24), ("skewb", 1 << 20)):
        patterns = projections.default_patterns(load(name), budget)
        assert sum(map(projections.database_size, patterns)) <= budget
    assert [p.name for p in projections.default_patterns(load("pyraminx"))] == [  # overlapping: edges twice
        "PuzzleGeometryPuzzle CORNER2 + EDGE", "PuzzleGeometryPuzzle CORNER + EDGE"]
    assert [p.name for p in projections.default_patterns(load("3x3x3"), 1 << 28)] == [
        "PuzzleGeometryPuzzle CORNER", "PuzzleGeometryPuzzle EDGE {1,2,3,4,5,6} ?",
        "PuzzleGeometryPuzzle EDGE {7,8,9,10,11,12} ?"]


# --- exact tables -------------------------------------------------------------------------------
def _two_generator_cube(representation):
    """The 2x2x2 turned by U and R only: 29,160 positions, in a rank space of 174,960."""
    from vecsearch.puzzles.permutation.builtins import cube_definition

    return vs.PermutationPuzzle(cube_definition().restricted(["U", "R"]), "htm", representation=representation)


def _plain_distances(puzzle):
    """Every position's distance to the solved state: a plain BFS over Python states."""
    d = puzzle.definition
    distance, frontier = {d.solved: 0}, [d.solved]
    while frontier:
        frontier = [child for state in frontier for _, move in python_moves(puzzle) for child in [move(state)]
                    if child not in distance and distance.setdefault(child, distance[state] + 1) is not None]
    return distance


@functools.cache
def _two_generator_distances():
    """``_plain_distances`` of the two-generator cube, the same in each representation (read only)."""
    return _plain_distances(_two_generator_cube("coordinates"))


@pytest.mark.parametrize("representation", ["coordinates", "labels", "pieces", "group"])
def test_the_default_of_a_small_group_is_its_exact_distance_table(representation):
    puzzle = _two_generator_cube(representation)
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb")
    assert heuristic.function is exact.BOUNDS[puzzle.representation]
    assert heuristic.details["entries"] == [29_160] and heuristic.details["bytes"] == 14_580  # not 174,960 ranks
    distance = _two_generator_distances()
    assert len(distance) == 29_160 and max(distance.values()) == 14
    positions = list(distance)
    states = puzzle.states(np.array([puzzle.encode(p) for p in positions]))
    assert heuristic_values(heuristic, states).tolist() == [distance[p] for p in positions]
    sample = random.Random(5).sample(range(len(positions)), 60)
    found = vs.solve_many(puzzle, states[sample], method="idastar", heuristic=heuristic)
    assert found.lengths.tolist() == [distance[positions[i]] for i in sample]
    for i, length, moves in zip(sample, found.lengths, found.moves, strict=True):
        state = positions[i]
        for m in moves[:length]:
            state = puzzle.definition.apply(state, puzzle.move_list[m])
        assert state == puzzle.definition.solved


def test_a_state_outside_the_group_is_never_searched():
    puzzle = _two_generator_cube("coordinates")
    d = puzzle.definition
    group = exact.exact_group(puzzle, projections.DEFAULT_TABLE_BYTES)
    (pieces, twists), *rest = d.solved
    swaps = [tuple(pieces[j] if k == i else pieces[i] if k == j else p for k, p in enumerate(pieces))
             for i in range(len(pieces)) for j in range(i)]
    outside = next(((swapped, twists), *rest) for swapped in swaps
                   if group.chain.rank(group.element(((swapped, twists), *rest))) is None)
    state = puzzle.states([puzzle.encode(outside)])
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb")
    assert heuristic_values(heuristic, state).tolist() == [exact.UNREACHABLE]
    assert vs.solve_many(puzzle, state, method="idastar", heuristic=heuristic).lengths.tolist() == [-1]


def test_the_choice_of_tables():
    budget = projections.DEFAULT_TABLE_BYTES
    skewb = exact.exact_group(load("skewb"), budget)  # 340,122,240 ranks, a ninth of them positions
    assert skewb.chain.order == 37_791_360
    assert exact.exact_group(load("skewb"), 4 * 37_791_360 - 1) is None  # the quarter of a budget must hold it
    assert exact.exact_group(load("pyraminx"), budget) is None  # 302,330,880 positions: over the quarter
    assert exact.exact_group(load("3x3x3"), budget) is None
    # without a group (identical pieces), the whole coset space when it fits: exact (memory-mapped)
    identical = vs.PermutationPuzzle(vs.load_definition(DATA / "definitions" / "wildcards.tws"))
    assert exact.exact_group(identical, budget) is None
    assert [projections.is_exact(p) for p in projections.default_patterns(identical, budget)] == [True]
    assert not any(map(projections.is_exact, projections.default_patterns(load("pyraminx"), budget)))
    assert not projections.is_exact(projections.projection(load("skewb"), {0: (range(4), True), 1: (range(4), True),
                                                                            2: ([0, 1], True)}))
    twists_ignored = Coarsening(load("skewb"), [range(4), range(4), range(6)], [set(range(4)), set(), set()], "twists")
    assert not projections.is_exact(twists_ignored)
    assert projections.is_exact(projections.projection(load("skewb"), {0: (range(4), True), 1: (range(4), True),
                                                                        2: (range(6), True)}))


# --- optimal solves against twsearch ---------------------------------------------------------
def _replayed(puzzle, scramble, moves):
    d = puzzle.definition
    state = puzzle.pieces(puzzle.parse_state(scramble))
    for name in moves.split():
        state = d.apply(state, d.named_moves()[name])
    return state == d.solved


@pytest.mark.parametrize("name", ["pyraminx", "skewb"])
def test_optimal_lengths_equal_twsearch(name):
    puzzle = load(name)
    # up to 11 moves: the pyraminx's 12- and 13-move scrambles take a minute more and prove nothing
    # more (benchmarks/bench_solving.py solves all of them against twsearch)
    for case in [c for c in GOLDEN["puzzles"][name] if c["length"] <= 11]:
        solution = vs.solve(puzzle, puzzle.parse_state(case["scramble"]), method="idastar")
        assert len(solution) == case["length"], case
        assert _replayed(puzzle, case["scramble"], puzzle.format_moves(solution.moves))


@pytest.mark.slow
def test_3x3x3_optimal_lengths_equal_twsearch():
    puzzle = load("3x3x3")
    # windows that count every orientation: their coset spaces are enumerated in the coordinates
    # form, 161 M entries in about 15 s (the default patterns of a budget of 1 << 28, 173 M, ignore
    # the orientations of the edges outside their windows: two enumerations in the labels form,
    # over two minutes each from an empty cache), and each search below still takes under a second
    edge, corner = (puzzle.definition.orbit_index(name) for name in ("EDGE", "CORNER"))
    patterns = [projections.projection(puzzle, {corner: (range(first, first + 6), True)}) for first in (0, 2)] + \
        [projections.projection(puzzle, {edge: (range(first, first + 4), True)}) for first in (0, 4, 8)]
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=patterns)
    cases = [c for c in GOLDEN["puzzles"]["3x3x3"] if c["length"] <= 11]
    for case in cases:
        solution = vs.solve(puzzle, puzzle.parse_state(case["scramble"]), method="idastar", heuristic=heuristic)
        assert len(solution) == case["length"], case
        assert _replayed(puzzle, case["scramble"], puzzle.format_moves(solution.moves))
    # many at once, the searches past 1,000 nodes an iteration set aside and finished split across threads
    starts = np.array([puzzle.parse_state(c["scramble"]) for c in cases])  # an array: 2-word rows are no (id, start)
    many = vs.solve_many(puzzle, starts, method="idastar", heuristic=heuristic, split_from=1000, threads=2)
    assert many.lengths.tolist() == [c["length"] for c in cases]
    for case, length, moves in zip(cases, many.lengths, many.moves, strict=True):
        assert _replayed(puzzle, case["scramble"], puzzle.format_moves(moves[:length]))


def test_solve_many_and_batch_solve_with_idastar(tmp_path, capsys):
    from vecsearch.cli import main

    cases = GOLDEN["puzzles"]["skewb"]
    puzzle = load("skewb")
    many = vs.solve_many(puzzle, [puzzle.parse_state(c["scramble"]) for c in cases], method="idastar")
    assert many.lengths.tolist() == [c["length"] for c in cases]
    for case, length, moves in zip(cases, many.lengths, many.moves, strict=True):
        assert _replayed(puzzle, case["scramble"], puzzle.format_moves(moves[:length]))
    instances = tmp_path / "skewb.jsonl"
    instances.write_text("".join(json.dumps({"id": i, "start": c["scramble"]}) + "\n" for i, c in enumerate(cases)))
    path = DATA / "definitions" / "twsearch-main-skewb.tws"
    assert main(["batch", str(path), str(instances), "--method", "idastar"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["length"] for r in records] == [c["length"] for c in cases]
    for record, case in zip(records, cases, strict=True):
        assert _replayed(puzzle, case["scramble"], record["moves"])
