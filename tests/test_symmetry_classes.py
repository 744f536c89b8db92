"""Enumeration modulo symmetry (``engine.layered.classes``, ``puzzles/permutation/symmetry``) against a
plain-Python reference (``reference_symmetry``: a breadth-first search over Python states, the
symmetries' own compositions, and Burnside's lemma per layer). Full counts recovered from the
classes are checked against the unreduced enumeration and twsearch's ``-g``
(tests/data/symmetry/README.md). The search through a quotient: ``test_symmetry_quotient``."""

import json
from pathlib import Path

import pytest
from command_line import run
from reference_symmetry import burnside, generators, inverse, reference_group, reference_layers, then

import vecsearch as vs

DATA = Path(__file__).parent / "data" / "symmetry"
TWSEARCH = json.loads((DATA / "twsearch_counts.json").read_text())
CASES = [("2x2x2-UR", "rotations"), ("2x2x2-UR", "rotations, mirror (U R)"), ("2x2x2-UR", "mirror (U R)"),
         ("2x2x2-UD", "rotations"), ("2x2x2-UD", "rotations, mirror (U D)"), ("pyraminx-LR", "rotations"),
         ("pyraminx-LR", "rotations, mirror (L R)")]


def load(name):
    with pytest.warns(vs.errors.DefinitionNote):
        return vs.get_puzzle(str(DATA / f"{name}.tws"))


@pytest.mark.parametrize("name, spec", CASES)
def test_class_counts_equal_burnside_and_positions_the_plain_counts(name, spec):
    puzzle = load(name)
    expected, group = burnside(puzzle, spec)
    result = vs.bfs(puzzle, symmetry=spec)
    assert result.order == len(group)
    assert [r.classes for r in result.records] == expected
    positions = [r.positions for r in result.records]
    assert positions == vs.bfs(puzzle).layer_sizes == TWSEARCH[name]
    assert [r.depth for r in result.records] == list(range(len(expected)))


@pytest.mark.parametrize("name, spec", [("2x2x2-UR", "rotations, mirror (U R)"), ("pyraminx-LR", "rotations")])
def test_representatives_are_the_least_rank_of_each_class(name, spec):
    puzzle = load(name)
    definition = puzzle.definition
    group = reference_group(definition, generators(puzzle, spec))
    result = vs.bfs(puzzle, symmetry=spec)
    layout = result.puzzle.layout
    for depth, layer in enumerate(reference_layers(puzzle)[:10]):
        least = set()
        for state in layer:
            conjugates = [then(definition, then(definition, inverse(definition, g), (state, 1)), g)[0] for g in group]
            least.add(min(layout.rank(c)[0] for c in conjugates))
        assert sorted(least) == result.representatives[depth].tolist()
    states = result.representative_states(3)
    assert [layout.rank(result.puzzle.pieces(s))[0] for s in states] == result.representatives[3].tolist()


def test_a_rotation_that_does_not_keep_the_move_set_is_refused():
    cube = load("2x2x2-UR")
    spin = next(r for r in load("2x2x2-UD").definition.rotations if r.name == "Dv")  # turns R into F
    definition = vs.PermutationDefinition("UR", cube.definition.orbits, cube.definition.moves, rotations=[spin])
    with pytest.raises(vs.PuzzleDefinitionError, match="Dv is not a symmetry of this move set: it turns move R"):
        vs.bfs(vs.PermutationPuzzle(definition), symmetry="rotations")


def test_bad_symmetry_specs_are_refused_with_what_was_expected():
    cube = load("2x2x2-UR")
    for spec, message in [("rotaions", "neither 'rotations' nor"), ("mirror (U X)", "'X' is not a move"),
                          ("mirror U R", "write it as cycles"), ("mirror (U U)", "appears twice")]:
        with pytest.raises(vs.PuzzleDefinitionError, match=message):
            vs.bfs(cube, symmetry=spec)
    plain = vs.get_puzzle("2x2x2.tws")
    with pytest.raises(vs.PuzzleDefinitionError, match="declares no rotations"):
        vs.bfs(plain, symmetry="rotations")
    with pytest.raises(ValueError, match="without a goal"):
        vs.bfs(cube, goal="U", symmetry="rotations")


def test_starts_must_be_whole_classes():
    cube = load("2x2x2-UR")
    with pytest.raises(vs.VecsearchError, match="not closed under the symmetries: a start's class has 2 states, 1"):
        vs.bfs(cube, "U", symmetry="rotations")  # DLv turns U into R
    starts = [cube.parse_state("U"), cube.parse_state("R")]
    result = vs.bfs(cube, starts, symmetry="rotations")
    assert [r.positions for r in result.records] == vs.bfs(cube, starts).layer_sizes


def test_a_mirror_that_does_not_exist_is_refused():
    cube = vs.get_puzzle("2x2x2.tws")  # all six faces: a mirror swapping U and R also swaps D and L
    with pytest.raises(vs.PuzzleDefinitionError, match="no mirror of the pieces"):
        vs.bfs(cube, symmetry="mirror (U R)")


def test_the_cli_prints_classes_and_refuses_bad_input():
    cube = str(DATA / "2x2x2-UR.tws")
    code, out, err = run("bfs", cube, "--symmetry", "rotations, mirror (U R)", "--csv")
    assert code == 0, err
    rows = [line.split(",") for line in out.split()[1:]]
    assert [int(r[2]) for r in rows] == TWSEARCH["2x2x2-UR"]
    api = vs.bfs(load("2x2x2-UR"), symmetry="rotations, mirror (U R)")
    assert [int(r[1]) for r in rows] == [r.classes for r in api.records]
    code, _, err = run("bfs", cube, "--symmetry", "mirror (U Q)")
    assert code == 2 and "'Q' is not a move" in err and "Traceback" not in err
    code, _, err = run("bfs", cube, "--symmetry", "rotations", "--antipodes", "3")
    assert code == 2 and "not with --antipodes" in err


@pytest.mark.parametrize("lookups", [True, False], ids=["lookups", "decoded"])
def test_both_ways_of_conjugating_give_the_reference_conjugates(monkeypatch, lookups):
    import numpy as np

    from vecsearch.puzzles.permutation import lookup_conjugates

    if not lookups:
        monkeypatch.setattr(lookup_conjugates, "lookup_tables", lambda tables, component: None)
    for name, spec in [("2x2x2-UR", "rotations, mirror (U R)"), ("pyraminx-LR", "rotations, mirror (L R)")]:
        puzzle = load(name)
        bound = puzzle.symmetry(spec)
        definition, layout = puzzle.definition, bound.puzzle.layout
        group = reference_group(definition, generators(puzzle, spec))
        states = [s for layer in reference_layers(puzzle) for s in layer][::97]
        component = layout.rank(states[0])[1]
        out = bound.conjugate_ranks(np.array([layout.rank(s)[0] for s in states]), component)
        for state, row in zip(states, out, strict=True):
            expected = {layout.rank(then(definition, then(definition, inverse(definition, g), (state, 1)), g)[0])[0]
                        for g in group}
            assert set(row.tolist()) == expected
        if not lookups:
            assert [r.positions for r in vs.bfs(puzzle, symmetry=spec).records] == TWSEARCH[name]
