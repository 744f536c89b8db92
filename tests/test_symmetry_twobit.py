"""Enumeration modulo symmetry over two-bit tables, in one process (``engine.twobit.classes``) and
partitioned (``engine.twobit.segments``), against the plain-Python Burnside reference
(``reference_symmetry``), the search with a bitset (``engine.layered.classes``), the unreduced
enumeration and twsearch's ``-g`` (tests/data/symmetry)."""

import json
from pathlib import Path

import numpy as np
import pytest
from command_line import run
from reference_symmetry import burnside

import vecsearch as vs

DATA = Path(__file__).parent / "data" / "symmetry"
TWSEARCH = json.loads((DATA / "twsearch_counts.json").read_text())
CLASSES = json.loads((DATA / "class_counts.json").read_text())
CUBE = Path(__file__).parent.parent / "benchmarks" / "data" / "2x2x2-rotations.tws"


def load(path):
    with pytest.warns(vs.errors.DefinitionNote):
        return vs.get_puzzle(str(path))


def layers(result):
    return [(r.depth, r.classes, r.positions) for r in result.records]


def assert_like_the_references(result, name, puzzle, spec):
    expected, group = burnside(puzzle, spec)
    assert result.order == len(group)
    assert [r.classes for r in result.records] == expected
    assert [r.positions for r in result.records] == vs.bfs(puzzle).layer_sizes == TWSEARCH[name]
    bitset = vs.bfs(puzzle, symmetry=spec)
    assert layers(result) == layers(bitset)
    assert all(np.array_equal(a, b) for a, b in zip(result.representatives, bitset.representatives, strict=True))


@pytest.mark.parametrize("name, spec", [("2x2x2-UR", "rotations"), ("2x2x2-UR", "rotations, mirror (U R)"),
                                        ("2x2x2-UD", "rotations, mirror (U D)")])
def test_twobit_classes_equal_burnside_the_bitset_search_and_the_plain_counts(name, spec):
    puzzle = load(DATA / f"{name}.tws")
    result = vs.bfs(puzzle, symmetry=spec, mode="twobit")
    assert result.method.startswith("two-bit") and result.keep is not None
    assert_like_the_references(result, name, puzzle, spec)


@pytest.mark.parametrize("name, spec", [("2x2x2-UR", "rotations, mirror (U R)"), ("2x2x2-UD", "rotations")])
def test_partitioned_classes_equal_burnside_the_bitset_search_and_the_plain_counts(name, spec):
    puzzle = load(DATA / f"{name}.tws")
    result = vs.bfs(puzzle, symmetry=spec, segments=3, threads=2)
    assert "partitioned in 3 segments" in result.method
    assert_like_the_references(result, name, puzzle, spec)


def test_the_all_faces_cube_modulo_24_and_48_as_the_search_by_least_conjugates_counts():
    cube = load(CUBE)
    for spec, order in [("rotations", 24), ("rotations, mirror (L R)", 48)]:
        result = vs.bfs(cube, symmetry=spec, mode="twobit", max_depth=7)
        assert result.order == order
        assert [r.classes for r in result.records] == CLASSES["2x2x2"][spec][:8]
        assert [r.positions for r in result.records] == TWSEARCH["2x2x2"][:8]
    split = vs.bfs(cube, symmetry="rotations", segments=2, threads=2, max_depth=5)
    assert [r.classes for r in split.records] == CLASSES["2x2x2"]["rotations"][:6]


def test_two_bit_searches_keep_the_least_representatives_of_each_layer(tmp_path):
    puzzle = load(DATA / "2x2x2-UR.tws")
    bitset = vs.bfs(puzzle, symmetry="rotations")
    seen = []
    for result in (vs.bfs(puzzle, symmetry="rotations", mode="twobit", keep_farthest=5, on_layer=seen.append),
                   vs.bfs(puzzle, symmetry="rotations", segments=4, threads=1, keep_farthest=5,
                          spill=tmp_path / "spill")):
        assert result.keep == 5
        assert [r.tolist() for r in result.representatives] == [r[:5].tolist() for r in bitset.representatives]
        ranks = [result.puzzle.layout.rank(result.puzzle.pieces(s))[0] for s in result.representative_states(4)]
        assert ranks == bitset.representatives[4][:5].tolist()
    assert [r.positions for r in seen] == TWSEARCH["2x2x2-UR"]
    with pytest.raises(vs.VecsearchError, match="enumerated classes modulo a symmetry: it cannot be resumed"):
        vs.bfs(puzzle, resume=tmp_path / "spill")


def test_what_two_bit_class_searches_do_not_do_is_refused_by_name(tmp_path):
    puzzle = load(DATA / "2x2x2-UR.tws")
    with pytest.raises(ValueError, match="saves checkpoints in two-bit mode, in one process"):
        vs.bfs(puzzle, symmetry="rotations", segments=2, checkpoint=tmp_path / "c")
    with pytest.raises(vs.VecsearchError, match="owner-local tables live on the workers of a dask cluster"):
        vs.bfs(puzzle, symmetry="rotations", owner_local=True)
    with pytest.raises(vs.VecsearchError, match="partitioned enumeration modulo symmetry is a two-bit search"):
        vs.bfs(puzzle, symmetry="rotations", segments=2, mode="layers")
    with pytest.raises(vs.MemoryLimitError, match=r"a two-bit table of classes takes 21.0 MiB, over the memory"):
        vs.bfs(puzzle, symmetry="rotations", mode="twobit", max_memory="1M")


def test_the_cli_enumerates_classes_over_two_bit_tables_and_refuses_what_it_cannot():
    cube = str(DATA / "2x2x2-UR.tws")
    spec = "rotations, mirror (U R)"
    expected = [(r.depth, r.classes, r.positions) for r in vs.bfs(load(cube), symmetry=spec).records]
    for options in (["--mode", "twobit"], ["--segments", "2"]):
        code, out, err = run("bfs", cube, "--symmetry", spec, "--csv", *options)
        assert code == 0, err
        assert [tuple(int(x) for x in line.split(",")[:3]) for line in out.split()[1:]] == expected
    for options, named in ((["--checkpoint", "DIR", "--segments", "2"], "--segments"),
                           (["--antipodes", "3"], "--antipodes")):
        code, _, err = run("bfs", cube, "--symmetry", spec, *options)
        assert code == 2 and f"not with {named}" in err and "Traceback" not in err
    code, _, err = run("bfs", cube, "--symmetry", spec, "--mode", "twobit", "--max-memory", "1M")
    assert code == 2 and "over the memory limit of 1.0 MiB" in err and "Traceback" not in err


@pytest.mark.slow  # searches on a cluster
def test_a_local_cluster_counts_the_classes_the_bitset_search_counts(cluster_client, tmp_path):
    puzzle = load(DATA / "2x2x2-UR.tws")
    spec = "rotations, mirror (U R)"
    bitset = vs.bfs(puzzle, symmetry=spec)
    shared = vs.bfs(puzzle, symmetry=spec, client=cluster_client, segments=4)
    owned = vs.bfs(puzzle, symmetry=spec, client=cluster_client, segments=3, owner_local=True, keep_farthest=7,
                   spill=str(tmp_path / "disk-{worker}"))
    for result in (shared, owned):
        assert layers(result) == layers(bitset)
    assert [r.tolist() for r in owned.representatives] == [r[:7].tolist() for r in bitset.representatives]


def test_layers_cut_into_many_blocks_count_the_same(monkeypatch):
    from vecsearch.engine.twobit import class_cells

    puzzle = load(DATA / "2x2x2-UR.tws")
    expected = layers(vs.bfs(puzzle, symmetry="rotations"))
    monkeypatch.setattr(class_cells, "BLOCK_CELLS", 64)  # layers of up to 3,185 classes: up to 50 blocks
    assert layers(vs.bfs(puzzle, symmetry="rotations", mode="twobit", threads=2)) == expected
    assert layers(vs.bfs(puzzle, symmetry="rotations", segments=2, threads=2)) == expected


def test_a_stopped_two_bit_class_search_resumes_from_its_checkpoint(tmp_path):
    puzzle = load(DATA / "2x2x2-UR.tws")
    spec = "rotations, mirror (U R)"
    whole = vs.bfs(puzzle, symmetry=spec)

    def stop(record):
        if record.depth == 6:
            raise KeyboardInterrupt

    with pytest.raises(vs.SearchInterrupted) as stopped:
        vs.bfs(puzzle, symmetry=spec, checkpoint=tmp_path / "ck", on_layer=stop, keep_farthest=9)
    assert stopped.value.result.depth == 6 and stopped.value.checkpoint == tmp_path / "ck"
    resumed = vs.bfs(puzzle, symmetry=spec, resume=tmp_path / "ck", keep_farthest=9)
    assert layers(resumed) == layers(whole)
    assert [r.tolist() for r in resumed.representatives] == [r[:9].tolist() for r in whole.representatives]
    for options, message in ((dict(symmetry="rotations", keep_farthest=9), "modulo 12 symmetries keeping 9"
                              " representatives, not 'PuzzleGeometryPuzzle' \\(88,179,840\\) modulo 2 keeping 9"),
                             (dict(symmetry=spec), "keeping 9 representatives, not .* keeping 65536"),
                             (dict(), "enumerates classes modulo 12 symmetries: resume it with the same symmetry")):
        with pytest.raises(vs.VecsearchError, match=message):
            vs.bfs(puzzle, resume=tmp_path / "ck", **options)
    vs.bfs(puzzle, symmetry="rotations", checkpoint=tmp_path / "two", max_depth=3)
    with pytest.raises(vs.VecsearchError, match="reached depth 3, past max_depth 2"):
        vs.bfs(puzzle, symmetry="rotations", resume=tmp_path / "two", max_depth=2)
    for options, message in ((dict(symmetry="mirror (U R)"), "modulo another symmetry group of order 2"),
                             (dict(symmetry="rotations", start=["U", "R"]), "from other start states")):
        with pytest.raises(vs.VecsearchError, match=message):
            vs.bfs(puzzle, resume=tmp_path / "two", **options)
    cube = str(DATA / "2x2x2-UR.tws")
    code, _, err = run("bfs", cube, "--symmetry", spec, "--checkpoint", str(tmp_path / "cli"), "--max-depth", "4")
    assert code == 0, err
    code, out, err = run("bfs", cube, "--symmetry", spec, "--resume", str(tmp_path / "cli"), "--csv")
    assert code == 0, err
    assert [tuple(int(x) for x in line.split(",")[:3]) for line in out.split()[1:]] == layers(whole)


def test_paced_class_checkpoints_still_write_the_layer_a_stop_between_layers_leaves(tmp_path, monkeypatch):
    from vecsearch.engine.runtime import checkpoint as checkpoints

    monkeypatch.setattr(checkpoints, "SLOW_WRITE", 0.0)  # every write counts as slow
    monkeypatch.setattr(checkpoints, "WRITE_SHARE", 1e-9)  # and the next one is due only after ages
    puzzle = load(DATA / "2x2x2-UR.tws")
    whole = vs.bfs(puzzle, symmetry="rotations")
    manifest = tmp_path / "ck" / checkpoints.MANIFEST
    written = []

    def stop_at_6(record):
        written.append(len(json.loads(manifest.read_text())["records"]))
        if record.depth == 6:
            raise KeyboardInterrupt

    with pytest.raises(vs.SearchInterrupted):
        vs.bfs(puzzle, symmetry="rotations", checkpoint=tmp_path / "ck", on_layer=stop_at_6)
    assert written == [1] * 7  # only the start layer was due
    assert len(json.loads(manifest.read_text())["records"]) == 7  # the stop wrote layer 6
    assert layers(vs.bfs(puzzle, symmetry="rotations", resume=tmp_path / "ck")) == layers(whole)
