"""Pattern databases read through symmetric conjugates (``symmetric_lookups``).

References: each projection's own database, read at the Python state projected
(``projections.coarse_state``: no conjugation involved), and a plain-Python breadth-first search
over Python states (``definition.apply`` only) for the true distances.
"""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

import vecsearch as vs
from vecsearch.engine.heuristic.evaluation import heuristic_values
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.heuristics import Heuristic
from vecsearch.puzzles.permutation import database_bounds, projections, pruning, symmetric_lookups
from vecsearch.puzzles.permutation.symmetric_lookups import Lookup

DATA = Path(__file__).parent / "data"
CUBE_MIRRORS = "mirror (L R), mirror (F R)(B L), mirror (U F)(D B)"  # the 3x3x3's planes x=0, x=y, y=z


def load(path, representation):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vs.errors.DefinitionNote)
        return vs.PermutationPuzzle(vs.load_definition(path), representation=representation)


def direct_values(puzzle, pattern, states):
    """``pattern``'s database at each state's projection, ranked in its coset space."""
    space = projections.coarse_puzzle(pattern)
    entries, _, _ = pruning.projection_database(pattern, space, puzzle.goal_states())
    coarse = space.states(np.array([space.encode(projections.coarse_state(pattern, puzzle.pieces(s))) for s in states]))
    return np.minimum(np.asarray(entries)[layer_kernels(space).ranks(coarse, space.tables)], 15)


def lookup_values(puzzle, pattern, group, element, states):
    """The heuristic of one lookup: ``pattern``'s database read through ``group.elements[element]``."""
    space = projections.coarse_puzzle(pattern)
    entries, _, _ = pruning.projection_database(pattern, space, puzzle.goal_states())
    tables = pruning.projection_tables(puzzle, [Lookup(0, element, "")], [pattern], [space], [entries],
                                       pruning.pack_entries([entries]), group)
    one = Heuristic(puzzle, "pdb", database_bounds.BOUNDS[puzzle.representation], tables, puzzle.goal_states())
    return heuristic_values(one, states)


def plain_distances(puzzle):
    """Every position's distance to the solved state: a plain BFS over Python states."""
    d = puzzle.definition
    distance, frontier = {d.solved: 0}, [d.solved]
    while frontier:
        frontier = [child for state in frontier for m in puzzle.move_list for child in [d.apply(state, m)]
                    if child not in distance and distance.setdefault(child, distance[state] + 1) is not None]
    return distance


@pytest.mark.parametrize("representation", ["labels", "coordinates", "pieces"])
def test_a_conjugate_lookup_is_the_image_projections_database_everywhere(representation):
    # the 2x2x2 turned by U and R (29,160 positions) with the rotation swapping them and a mirror
    puzzle = load(DATA / "symmetry" / "2x2x2-UR.tws", representation)
    window = projections.projection(puzzle, {0: ([0, 1, 2], False)})  # 3 corners, the others' twists ignored
    group, elements = symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), "rotations, mirror (U R)")
    assert group.order == 12 and elements == list(range(12))
    distance = plain_distances(puzzle)
    positions = random.Random(5).sample(list(distance), 1500)
    states = puzzle.states(np.array([puzzle.encode(p) for p in positions]))
    truth = np.array([distance[p] for p in positions])
    images = 0
    for e in elements[1:]:
        image = symmetric_lookups.image(window, group, e)
        through = lookup_values(puzzle, window, group, e, states)
        assert through.tolist() == direct_values(puzzle, image, states).tolist()
        assert (through <= truth).all()
        images += image.classes != window.classes
    assert images > 0  # some symmetry moves the window's corners


def test_conjugate_lookups_through_rotations_of_three_orbits():
    # Jing's pyraminx (44,789,760 positions), its 12 rotations, a window of its edges, sampled
    puzzle = load(DATA / "symmetry" / "Jing_pyraminx.tws", "labels")
    window = projections.projection(puzzle, {1: ([0, 1, 2], False), 2: ([0], False)})
    group, elements = symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), None)  # its rotations
    assert len(elements) == 12
    rng = random.Random(11)
    names = puzzle.move_names
    scrambles = [[rng.choice(names) for _ in range(rng.randrange(1, 12))] for _ in range(300)]
    states = puzzle.states([puzzle.parse_state(" ".join(s)) for s in scrambles])
    images = []
    for e in elements[1:]:
        image = symmetric_lookups.image(window, group, e)
        through = lookup_values(puzzle, window, group, e, states)
        images.append(direct_values(puzzle, image, states))
        assert through.tolist() == images[-1].tolist()
        assert all(h <= len(s) for h, s in zip(through, scrambles, strict=True))
    # in the coordinates form, the reads through conjugates summed from tables by its coordinates
    ranked = load(DATA / "symmetry" / "Jing_pyraminx.tws", "coordinates")
    same = projections.projection(ranked, {1: ([0, 1, 2], False), 2: ([0], False)})
    heuristic = ranked.make_heuristic(ranked.goal_states(), "pdb", patterns=[same], lookups=12)
    assert heuristic.function is database_bounds.coordinates_terms_bound and len(heuristic.details["lookups"]) > 1
    want = np.maximum.reduce([direct_values(puzzle, window, states), *images])
    encoded = ranked.states(np.array([ranked.encode(puzzle.pieces(s)) for s in states]))
    assert heuristic_values(heuristic, encoded).tolist() == want.tolist()


def test_an_image_counting_twists_the_symmetry_shifts_unevenly_is_not_a_projection():
    # the rest of the edges one class whose twists are counted: a rotation shifts them per piece
    puzzle = load(DATA / "symmetry" / "Jing_pyraminx.tws", "labels")
    window = projections.projection(puzzle, {1: ([0, 1, 2], True)})
    group, elements = symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), None)
    assert any(symmetric_lookups.image(window, group, e) is None for e in elements)
    stored, reads = symmetric_lookups.plan([window], group, elements, lookups=12)
    assert stored == [window]
    assert all(symmetric_lookups.image(window, group, r.element) is not None for r in reads[1:])


def test_a_projection_that_is_an_image_is_read_not_stored_and_the_bound_is_admissible():
    puzzle = load(DATA / "symmetry" / "2x2x2-UR.tws", "labels")
    spec = "rotations, mirror (U R)"
    window = projections.projection(puzzle, {0: ([0, 1, 2], False)})
    group, elements = symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), spec)
    moved = next(image for e in elements[1:] for image in [symmetric_lookups.image(window, group, e)]
                 if image.classes != window.classes)
    other = projections.projection(puzzle, {0: ([1, 4, 7], True)})  # the others' twists counted: no image
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=[window, moved, other], symmetry=spec)
    assert heuristic.details["patterns"] == [window.name, other.name]  # moved is read through window's
    assert heuristic.details["lookups"] == [window.name, moved.name, other.name]
    distance = plain_distances(puzzle)
    positions = list(distance)
    states = puzzle.states(np.array([puzzle.encode(p) for p in positions]))
    sample = random.Random(6).sample(range(len(positions)), 2000)
    want = np.maximum.reduce([direct_values(puzzle, p, states[sample]) for p in (window, moved, other)])
    assert heuristic_values(heuristic, states[sample]).tolist() == want.tolist()
    more = puzzle.make_heuristic(puzzle.goal_states(), "pdb", patterns=[window, other], symmetry=spec, lookups=6)
    assert len(more.details["lookups"]) > 3 and more.details["patterns"] == [window.name, other.name]
    got = heuristic_values(more, states)  # every position
    assert (got <= np.array([distance[p] for p in positions])).all()
    assert (got >= heuristic_values(heuristic, states)).all() and (got > heuristic_values(heuristic, states)).any()


def test_symmetric_windows_of_the_3x3x3_store_one_edge_database():
    puzzle = load(DATA / "definitions" / "twsearch-main-3x3x3.tws", "labels")
    symmetries = symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), CUBE_MIRRORS)
    patterns = projections.default_patterns(puzzle, 1 << 28, symmetries)
    stored, reads = symmetric_lookups.plan(patterns, *symmetries)
    assert [p.name for p in stored] == ["PuzzleGeometryPuzzle CORNER", "PuzzleGeometryPuzzle EDGE {1,2,3,4,5,6} ?"]
    assert [read.database for read in reads] == [0, 1, 1, 1]
    kept = set()
    for read in reads[1:]:  # the edges (orbit 0) each read tells apart
        seen = next(p for p in patterns if p.name == read.name)
        kept |= {v for v, c in enumerate(seen.classes[0]) if c < 6}
    assert kept == set(range(12))
    assert sum(map(projections.database_size, stored)) < sum(map(projections.database_size,
                                                                  projections.default_patterns(puzzle, 1 << 28)))


def test_symmetries_that_do_not_fit_are_refused_by_name_and_those_moving_the_goal_left_out():
    puzzle = load(DATA / "definitions" / "twsearch-main-3x3x3.tws", "labels")
    with pytest.raises(PuzzleDefinitionError, match="declares no rotations"):
        symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), "rotations")
    with pytest.raises(PuzzleDefinitionError, match="'X' is not a move"):
        symmetric_lookups.usable_symmetries(puzzle, puzzle.goal_states(), "mirror (L X)")
    goal = puzzle.states([puzzle.parse_state("R U F")])  # a goal that few symmetries keep: only those are read
    group, elements = symmetric_lookups.usable_symmetries(puzzle, goal, CUBE_MIRRORS)
    target = puzzle.pieces(goal[0])
    assert 0 < len(elements) < group.order and all(group.conjugate(target, e) == target for e in elements)
    assert [group.conjugate(target, e) == target for e in range(group.order)].count(True) == len(elements)
    with pytest.raises(InvalidPuzzleInput, match="goal states"):
        symmetric_lookups.usable_symmetries(puzzle, np.repeat(puzzle.goal_states(), 5000, axis=0), CUBE_MIRRORS)


@pytest.mark.slow
def test_3x3x3_optimal_lengths_through_symmetric_lookups_equal_twsearch():
    # a 5-corner and a 5-edge database, read through symmetries 12 times in all: lengths as twsearch's,
    # replayed (up to 10 moves: the 11-move ones take minutes more; tests/test_pruning.py solves them
    # directly). Budget 1 << 25: built in 1.3 s from an empty cache, the scrambles solved in 0.05 s;
    # budget 1 << 28 (a whole-corner and a 6-edge database) took 8.8 s to build, for the same check
    golden = json.loads((DATA / "tws_solve_lengths.json").read_text())
    puzzle = load(DATA / "definitions" / "twsearch-main-3x3x3.tws", "auto")
    heuristic = puzzle.make_heuristic(puzzle.goal_states(), "pdb", budget=1 << 25, symmetry=CUBE_MIRRORS, lookups=6)
    assert len(heuristic.details["patterns"]) == 2 and len(heuristic.details["lookups"]) == 12
    cases = [c for c in golden["puzzles"]["3x3x3"] if c["length"] <= 10]
    starts = np.array([puzzle.parse_state(c["scramble"]) for c in cases])
    many = vs.solve_many(puzzle, starts, method="idastar", heuristic=heuristic)
    assert many.lengths.tolist() == [c["length"] for c in cases]
    d = puzzle.definition
    for case, length, moves in zip(cases, many.lengths, many.moves, strict=True):
        state = puzzle.pieces(puzzle.parse_state(case["scramble"]))
        for m in moves[:length]:
            state = d.apply(state, puzzle.move_list[m])
        assert state == d.solved


@pytest.mark.parametrize("options, message", [
    ({"symmetry": 3}, "symmetry names symmetries as text"),
    ({"lookups": 0}, "lookups is how many times"),
    ({"lookups": "two"}, "lookups is how many times"),
    ({"symmetry": "mirror (X Y)"}, "'X' is not a move"),  # refused also where the exact table is the default
])
def test_wrong_symmetry_options_are_refused_by_name(options, message):
    skewb = vs.PermutationPuzzle(vs.load_definition(DATA / "definitions" / "twsearch-main-skewb.tws"))
    with pytest.raises((InvalidPuzzleInput, PuzzleDefinitionError), match=message):
        skewb.make_heuristic(skewb.goal_states(), "pdb", **options)
