"""Published layer counts of permutation puzzles (tests/data/permutation_layers.json)."""

import json
from pathlib import Path

import pytest

import vecsearch as vs

GOLDEN = json.loads((Path(__file__).parent / "data" / "permutation_layers.json").read_text())


def check(name, expected, mode):
    got = vs.bfs(name, mode=mode).layer_sizes
    if got != expected:
        rows = [f"  depth {d:>3}: expected {e:>12,} got {g:>12,}{'   <--' if e != g else ''}"
                for d, (e, g) in enumerate(zip(expected + [0] * len(got), got + [0] * len(expected), strict=True))
                if d < max(len(expected), len(got))]
        pytest.fail(f"{name} ({mode}) layer counts differ:\n" + "\n".join(rows))


@pytest.mark.parametrize("mode", ["layers", "twobit"])
@pytest.mark.parametrize("name", ["pocket-htm", "pocket-qtm"])
def test_pocket_cube(name, mode):
    check(name, GOLDEN[name]["counts"], mode)


@pytest.mark.slow
def test_pocket_cube_with_all_six_faces_turning():
    check("pocket-full", GOLDEN["pocket-full"]["counts"], "twobit")


@pytest.mark.parametrize("mode", ["layers", "twobit"])
@pytest.mark.parametrize("n", sorted(GOLDEN["pancake"]["rows"], key=int))
def test_pancake_stacks_by_flips(n, mode):
    check(f"pancake-{n}", GOLDEN["pancake"]["rows"][n], mode)


@pytest.mark.parametrize("n", [1, 10])
def test_pancake_numbers(n):
    if n == 1:  # one pancake: nothing to flip, so no pancake-1 puzzle
        with pytest.raises(vs.InvalidPuzzleInput, match="need 2 <= N <= 16"):
            vs.get_puzzle("pancake-1")
        return
    assert vs.bfs(f"pancake-{n}", mode="twobit").depth == GOLDEN["pancake_numbers"]["values"][n - 1]
