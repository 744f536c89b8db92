"""Enumeration modulo symmetry through a quotient by the rotations (``engine.layered.fibres``,
``puzzles/permutation/quotient``). It runs where the rotations are products of moves and fix one
piece's placement exactly once, and gives the classes of a plain-Python count by Burnside's lemma
(``reference_symmetry``) and of the search by least conjugates (``engine.layered.classes``, run
here by taking the quotient away), and the positions of the plain enumeration; where the rotations
do not allow it, the search by least conjugates runs and says why."""

import json
from pathlib import Path

import numpy as np
import pytest
from reference_symmetry import burnside, reference_layers

import vecsearch as vs
from vecsearch.puzzles.permutation.symmetry import PuzzleSymmetry

DATA = Path(__file__).parent / "data" / "symmetry"
CUBE = Path(__file__).parent.parent / "benchmarks" / "data" / "2x2x2-rotations.tws"  # twsearch's samples/symm/2x2x2
TWSEARCH = json.loads((DATA / "twsearch_counts.json").read_text())
CLASSES = json.loads((DATA / "class_counts.json").read_text())
TURNS = "pyramorphix-turns"  # the pyramorphix with its rotations by a third of a turn as moves too
MIRROR = "rotations, mirror (FL DL)(DR FR)(tFv tDv)"


def load(path):
    with pytest.warns(vs.errors.DefinitionNote):
        return vs.get_puzzle(str(path))


def square():
    """Four corners (no orientation) and four edges (two) around a square: swapping two neighbouring
    corners flips the edge between them, and ``X`` (a move) turns the square as its rotation ``x``
    does. Its corners are the reference: the four rotations place a corner once in each slot."""
    turn = ([3, 0, 1, 2], [0] * 4)
    moves = {"X": {"C": turn, "E": turn}}
    for i in range(4):
        swap, flip = list(range(4)), [0] * 4
        swap[i], swap[(i + 1) % 4], flip[i] = swap[(i + 1) % 4], swap[i], 1
        moves[f"S{i}"] = {"C": (swap, [0] * 4), "E": (list(range(4)), flip)}
    return vs.PermutationPuzzle(vs.PermutationDefinition("square", [vs.Orbit("C", 4), vs.Orbit("E", 4, 2)], moves,
                                                         rotations={"x": {"C": turn, "E": turn}}))


def puzzle_named(name):
    return square() if name == "square" else load(DATA / f"{name}.tws")


def by_conjugates(monkeypatch):
    """The search by least conjugates from now on: no symmetry offers a quotient."""
    monkeypatch.setattr(PuzzleSymmetry, "quotient", lambda self, component: (None, "taken away by the test"))


@pytest.mark.parametrize("name, spec, method", [
    (TURNS, "rotations", "quotient: CORNERS slot 1 at home"),
    (TURNS, MIRROR, "quotient: CORNERS slot 1 at home"),
    ("square", "rotations", "quotient: C slot 1 at home"),
    ("square", "rotations, mirror (S1 S3)", "quotient: C slot 1 at home"),
    ("2x2x2-UR", "rotations", "conjugates (the rotation DLv is not a product of moves)"),
    ("2x2x2-UR", "mirror (U R)", "conjugates (no rotations)"),
])
def test_classes_equal_burnside_and_the_search_by_conjugates(name, spec, method, monkeypatch):
    puzzle = puzzle_named(name)
    expected, group = burnside(puzzle, spec)
    result = vs.bfs(puzzle, symmetry=spec)
    assert result.method.startswith(method)
    assert result.order == len(group)
    assert [r.classes for r in result.records] == expected
    assert [r.positions for r in result.records] == vs.bfs(puzzle).layer_sizes
    by_conjugates(monkeypatch)
    plain = vs.bfs(puzzle, symmetry=spec)
    assert plain.method == "conjugates (taken away by the test)"
    assert [(r.classes, r.positions) for r in plain.records] == [(r.classes, r.positions) for r in result.records]
    assert all(np.array_equal(a, b) for a, b in zip(plain.representatives, result.representatives, strict=True))


@pytest.mark.parametrize("name, path, spec, method", [
    ("2x2x2", CUBE, "rotations", "quotient: CORNERS slot 1"), ("2x2x2", CUBE, "rotations, mirror (L R)", "quotient"),
    ("Jing_pyraminx", DATA / "Jing_pyraminx.tws", "rotations", "quotient: EDGES slot 1"),
    ("Jing_pyraminx", DATA / "Jing_pyraminx.tws", "rotations, mirror (L R)(FRD FDL)", "quotient")])
def test_large_spaces_have_the_classes_of_the_search_by_conjugates(name, path, spec, method):
    result = vs.bfs(load(path), symmetry=spec)
    assert result.method.startswith(method)
    assert [r.classes for r in result.records] == CLASSES[name][spec]
    assert [r.positions for r in result.records] == TWSEARCH[name]
    assert 0 < result.setup_seconds <= result.seconds


def test_starts_other_than_the_solved_state():
    puzzle = load(DATA / f"{TURNS}.tws")
    depth_two = [puzzle.encode(state) for state in reference_layers(puzzle)[2]]  # a whole layer: whole classes
    result = vs.bfs(puzzle, depth_two, symmetry="rotations")
    assert result.method.startswith("quotient")
    assert [r.positions for r in result.records] == vs.bfs(puzzle, depth_two).layer_sizes


def test_positions_split_into_a_quotient_state_and_a_rotation_and_back():
    puzzle = load(DATA / f"{TURNS}.tws")
    bound = puzzle.symmetry(MIRROR)
    ranked = bound.puzzle
    quotient, _ = bound.quotient(0)
    ranks = np.array([ranked.layout.rank(state)[0] for layer in reference_layers(puzzle) for state in layer])
    states, rotations = quotient.split(ranks)
    assert np.array_equal(quotient.join(states, rotations), ranks)
    assert set(np.unique(states, return_counts=True)[1].tolist()) == {quotient.fibre}  # every rotation of each
    table = quotient.orbits()  # each orbit's representative is its own entry's, and the least in its orbit
    orbits = table.entry >> (table.map_bits + 1)
    assert np.array_equal(orbits[table.representatives], np.arange(len(table.representatives)))
    assert (table.representatives[orbits] <= np.arange(quotient.size)).all()


def test_an_orbit_table_too_big_for_memory_leaves_the_search_by_conjugates(monkeypatch):
    from vecsearch.engine.layered import classes

    monkeypatch.setattr(classes, "available_bytes", lambda: 1000)
    puzzle = square()
    result = vs.bfs(puzzle, symmetry="rotations")
    assert result.method == "conjugates (the quotient's orbit table would take over half the available memory)"
    assert [r.positions for r in result.records] == vs.bfs(puzzle).layer_sizes
