"""Layer counts of definition files against independent programs: twsearch's ``-g`` and ksolve's
God's algorithm on the same files (``tests/data/definition_layers.json``, with the commands)."""

import json
import warnings
from pathlib import Path

import pytest

import vecsearch as vs
from vecsearch.errors import DefinitionNote

DATA = Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "definition_layers.json").read_text())["files"]
EXPECTED_REPRESENTATION = {  # what each file exercises
    "twsearch-symm-pyramorphix.tws": "group", "twsearch-main-puzzlernovice.tws": "coordinates",
    "twsearch-main-puzzlerchallenger.tws": "coordinates", "twsearch-main-mastermorphix.tws": "group",
    "twsearch-main-skewb_diamond.tws": "group", "twsearch-main-master_pyramorphix.tws": "group",
    "twsearch-symm-skewb_diamond.tws": "group", "wildcards.tws": "labels", "illegal.tws": "labels",
    "wide.tws": "coordinates", "bandaged.def": "labels",
}


def load(name, representation="auto"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DefinitionNote)  # the rotations of symm/*, bandaged.def's Ignore
        return vs.PermutationPuzzle(vs.load_definition(DATA / "definitions" / name), representation=representation)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_layer_counts_equal_the_reference_program(name):
    puzzle = load(name)
    assert puzzle.representation == EXPECTED_REPRESENTATION[name]
    assert vs.bfs(puzzle).layer_sizes == GOLDEN[name]["counts"], GOLDEN[name]["command"]


@pytest.mark.parametrize("name,representation", [("wide.tws", "labels"), ("twsearch-main-puzzlernovice.tws", "labels"),
                                                 ("twsearch-main-skewb_diamond.tws", "coordinates")])
def test_the_other_representations_count_the_same(name, representation):
    puzzle = load(name, representation)
    assert puzzle.representation == representation
    assert vs.bfs(puzzle, mode="layers").layer_sizes == GOLDEN[name]["counts"]
    if name == "wide.tws":
        assert puzzle.width == 2  # two words a state, ranked for a bitset


def test_rotations_are_no_search_moves():
    with pytest.warns(DefinitionNote, match="FDv, FLv, DLv, Fv, Dv, Lv, Rv: whole-puzzle rotations"):
        definition = vs.load_definition(DATA / "definitions" / "twsearch-symm-pyramorphix.tws")
    assert [m.name for m in definition.moves] == ["FD", "LR", "FL", "DR", "DL", "FR"]
    assert len(definition.rotations) == 7
