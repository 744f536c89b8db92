"""The Cubic Eight-Puzzle (POJ 3131): conventions, layer counts, judge answers and input errors,
against the plain-Python reference in tests/reference_cubes.py."""

import itertools
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
import reference_cubes as ref
from reference import bfs_layers as reference_bfs_layers

import vecsearch as vs
from vecsearch.engine.batch import methods
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles import cubes
from vecsearch.puzzles.cubes import Dataset, cubic_puzzle

PUZZLE = cubic_puzzle()
GOLDEN = json.loads((Path(__file__).parent / "data" / "cubes_layers.json").read_text())


def engine_state(state):
    return PUZZLE.parse_state(ref.text(state))


def random_walk(state, rng, moves):
    for _ in range(moves):
        state = rng.choice(ref.neighbours(state))[1]
    return state


def judge(text):
    answers, errors = vs.get_problem("cubes").solve_text(text)
    return [a.output for a in answers], (errors[0] if errors else None)


def dataset_text(datasets):
    lines = []
    for d in datasets:
        lines.append(f"{d.x} {d.y}")
        lines += [" ".join(d.pattern[r * 3:r * 3 + 3]) for r in range(3)]
    return "\n".join(lines + ["0 0"]) + "\n"


# --- conventions -----------------------------------------------------------------------------

def test_layout_three_bits_per_cell_and_the_empty_index():
    state = PUZZLE.parse_state("WBR WRB BWR BRW E RWB RBW WBR WBR")
    codes = [0, 1, 2, 3, cubes.EMPTY, 4, 5, 0, 0]
    assert state == sum(c << (3 * i) for i, c in enumerate(codes)) | (4 << 27)
    assert cubes.ORIENTATIONS == ("WBR", "WRB", "BWR", "BRW", "RWB", "RBW")
    assert [cubes.COLOURS[code >> 1] for code in range(6)] == [o[0] for o in cubes.ORIENTATIONS]
    assert PUZZLE.format_state(state) == "WBR WRB BWR BRW E RWB RBW WBR WBR"
    assert PUZZLE.tops(state) == "W W B\nB E R\nR W W"
    assert PUZZLE.format_state(PUZZLE.start_states()[0]) == ref.text(ref.start(2, 2))


def test_moves_follow_the_rules_of_the_reference():
    rng = random.Random(1)
    for _ in range(300):
        state = random_walk(ref.start(rng.randint(1, 3), rng.randint(1, 3)), rng, rng.randint(0, 40))
        children, moves = layer_kernels(PUZZLE).neighbours(np.array([engine_state(state)]), PUZZLE.tables, False)
        got = {(PUZZLE.move_names[m], PUZZLE.format_state(c)) for c, m in zip(children, moves, strict=True)}
        assert got == {(name, ref.text(child)) for name, child in ref.neighbours(state)}


def test_rank_is_perfect_over_all_encodings():
    digits = np.indices((6,) * 8, dtype=np.int64).reshape(8, -1).T  # 6**8 rows: every cube in every cell
    seen = np.zeros(cubes.RANK_SIZE, dtype=bool)
    for empty in range(9):
        cells = np.insert(digits, empty, cubes.EMPTY, axis=1)
        states = (cells << (3 * np.arange(9))).sum(axis=1) | (empty << 27)
        ranks = layer_kernels(PUZZLE).ranks(states, PUZZLE.tables)
        assert ranks.min() >= 0 and ranks.max() < cubes.RANK_SIZE
        seen[ranks] = True
    assert seen.all()  # 9 * 6**8 states onto 9 * 6**8 ranks: a bijection


def reference_component(state):
    """Cubes whose orientation parity differs from their square's colour (x + y mod 2)."""
    def parity(cube):
        p = ["WBR".index(c) for c in cube]
        return sum(p[i] > p[j] for i in range(3) for j in range(i + 1, 3)) % 2
    return sum(parity(cube) != (c % 3 + c // 3) % 2 for c, cube in enumerate(state) if cube is not None)


def test_component_is_the_parity_colour_invariant():
    rng = random.Random(2)
    orientations = ["".join(p) for p in itertools.permutations("WBR")]
    for _ in range(300):
        cells = [tuple(rng.choice(orientations)) for _ in range(9)]
        cells[rng.randrange(9)] = None
        state = tuple(cells)
        component = layer_kernels(PUZZLE).components(np.array([engine_state(state)]), PUZZLE.tables)[0]
        assert component == reference_component(state)
        for _, child in ref.neighbours(state):
            assert reference_component(child) == component


@pytest.mark.parametrize("key", ["centre", "corner", "edge"])
def test_layer_counts_match_the_published_totals(key):
    entry = GOLDEN[key]
    result = vs.bfs("cubes", entry["start"])
    assert result.total_states == entry["total"]
    # every state of the start's component is reachable: 9 empty squares x C(8, k) x 3**8
    k = reference_component(ref.from_text(entry["start"]))
    assert entry["total"] == 9 * math.comb(8, k) * 3 ** 8
    if "counts" in entry:
        assert result.layer_sizes == entry["counts"] and result.depth == entry["max_depth"]


# --- the judge ---------------------------------------------------------------------------------

def test_sample():
    out, error = judge(vs.get_problem("cubes").sample())
    assert error is None and out == ["0", "3", "13", "23", "29", "30", "-1", "-1"]


def short_datasets(rng, count, longest):
    """Datasets whose pattern is the top colours after a random walk of at most ``longest``
    rolls from the start, with the plain BFS answer."""
    found = []
    for _ in range(count):
        x, y = rng.randint(1, 3), rng.randint(1, 3)
        walk = rng.randint(0, longest)
        pattern = ref.tops(random_walk(ref.start(x, y), rng, walk))
        found.append((Dataset(x, y, pattern), ref.solve(x, y, pattern, walk)))
    return found


def test_random_short_datasets_from_every_start_match_the_reference():
    cases = short_datasets(random.Random(3), 120, 14)
    out, error = judge(dataset_text([d for d, _ in cases]))
    assert error is None
    assert out == [str(expected) for _, expected in cases]


def test_python_api_solutions_replay_to_the_pattern():
    for dataset, expected in short_datasets(random.Random(4), 25, 14):
        solution = vs.solve(PUZZLE, *dataset.instance())
        assert len(solution) == expected
        end = ref.replay(ref.start(dataset.x, dataset.y), solution.move_names)
        assert ref.tops(end) == dataset.pattern
        assert solution.replay() and solution.states[0] == cubes.start_state(dataset.x, dataset.y)


@pytest.mark.parametrize("method", ["start-balls", "start-tables", "pairs"])
def test_shared_start_methods_match_the_reference_and_replay(method):
    cases = short_datasets(random.Random(5), 30, 14)
    found = vs.solve_many(PUZZLE, [(i, *d.instance()) for i, (d, _) in enumerate(cases)], method=method,
                          max_depth=cubes.JUDGE_LIMIT)
    assert not found.errors and found.method == method and found.lengths.tolist() == [expected for _, expected in cases]
    for i, (dataset, _) in enumerate(cases):
        end = ref.replay(ref.start(dataset.x, dataset.y), [PUZZLE.move_names[m] for m in found.moves_of(i)])
        assert ref.tops(end) == dataset.pattern


def test_limits_and_the_ball_policy():
    deep = Dataset(2, 1, "RRRBWBRRE")  # 31 steps (sample)
    with pytest.raises(vs.NoSolution):
        vs.solve(PUZZLE, *deep.instance(), max_depth=cubes.JUDGE_LIMIT)
    assert len(vs.solve(PUZZLE, *deep.instance(), max_depth=31)) == 31
    assert [methods.ball_radius(n, 30) for n in (1, 2, 4, 5, 19, 20, 119, 120)] == [None, 20, 20, 22, 22, 24, 24, 26]
    assert methods.ball_radius(200, None) is None  # without a depth limit no ball pays
    three = [(i, *deep.instance()) for i in range(3)]
    assert vs.solve_many(PUZZLE, three, method="start-balls", max_depth=31).lengths.tolist() == [31] * 3
    assert vs.solve_many(PUZZLE, three, method="start-balls", max_depth=30).lengths.tolist() == [-1] * 3
    datasets = [Dataset(2, 1, "RRRBWBRRE")] * 3 + [Dataset(1, 1, "RRRWWWRRE")] + [Dataset(3, 2, "RRRWEWRRR")]
    out, error = judge(dataset_text(datasets))
    assert error is None and out == ["-1", "-1", "-1", "30", "-1"]


def test_symmetries_map_rolls_to_rolls():
    rng = random.Random(5)
    for g in cubes.SYMMETRIES:
        for _ in range(20):
            image = engine_state(random_walk(ref.start(rng.randint(1, 3), rng.randint(1, 3)), rng, 30))
            back = g.state_back(image)
            kids, moves = layer_kernels(PUZZLE).neighbours(np.array([back]), PUZZLE.tables, False)
            image_kids, image_moves = layer_kernels(PUZZLE).neighbours(np.array([image]), PUZZLE.tables, False)
            back = {(g.moves_back[m], g.state_back(c))
                    for c, m in zip(image_kids.tolist(), image_moves.tolist(), strict=True)}
            assert back == set(zip(moves.tolist(), kids.tolist(), strict=True))


# --- bad input ----------------------------------------------------------------------------------

GOOD = "1 2\nW W W\nE W W\nW W W\n"


@pytest.mark.parametrize("bad,line,message", [
    ("2 1\nR B W\nR Q W\nE W W\n0 0\n", 7, "token 'Q' is not a colour; expected W, B, R or E"),
    ("2 1\nR B W\nR E W\nE W W\n0 0\n", 8, "a second E (rows 2 and 3); expected exactly one E"),
    ("2 1\nR B W\nR W W\nW W W\n0 0\n", 8, "the pattern has no E; expected exactly one E"),
    ("4 1\nR B W\nR W W\nE W W\n0 0\n", 5, "token '4' is not a coordinate; expected x in 1..3"),
    ("1 0\nR B W\nR W W\nE W W\n0 0\n", 5, "token '0' is not a coordinate; expected y in 1..3"),
    ("2\nR B W\n", 5, "expected 'x y' (the empty square, 1..3) or '0 0', got 1 tokens"),
    ("2 1\nR B W R\n", 6, "pattern row 1 has 4 tokens; expected 3"),
    ("2 1\nR B W\nR W W\n", 8, "reached the end of the input; expected pattern row 3"),
    ("", 5, "reached the end of the input; expected a dataset's 'x y' (1..3) or the terminating '0 0'"),
])
def test_bad_input_names_case_line_and_token(bad, line, message):
    out, error = judge(GOOD + bad)
    assert out == ["0", "error"]  # the dataset before the bad one is answered, the bad one marked
    assert error.case == 2 and error.line == line
    assert str(error).startswith(f"case 2, line {line}: {message}")


def test_goal_sets_are_the_256_orientation_choices():
    for pattern in ["WBRWBRWBE", "EWWWWWWWW", "RRRBWBRRE"]:
        goals = cubes.goal_states(pattern)
        assert len(set(goals.tolist())) == 256
        assert {PUZZLE.tops(g).replace("\n", "").replace(" ", "") for g in goals.tolist()} == {pattern}
    with pytest.raises(vs.InvalidPuzzleInput, match="exactly one E"):
        cubes.goal_states("WWWWWWWWW")


def test_text_form_errors():
    with pytest.raises(vs.InvalidPuzzleInput, match="expected 9 cells"):
        PUZZLE.parse_state("WBR E")
    with pytest.raises(vs.InvalidPuzzleInput, match=r"cell 3 is 'WBB'; expected an orientation"):
        PUZZLE.parse_state("WBR E WBB WBR WBR WBR WBR WBR WBR")
    with pytest.raises(vs.InvalidPuzzleInput, match=r"exactly one E .*got 2 \(cells 2, 9\)"):
        PUZZLE.parse_state("WBR E WBR WBR WBR WBR WBR WBR E")


# --- against a full plain-Python BFS (~1 minute per start: precomputed) -------------------------

def all_patterns() -> list[str]:
    """Every top pattern (one empty square, W B or R elsewhere), sorted."""
    return sorted(p[:e] + "E" + p[e:] for e in range(9) for p in map("".join, itertools.product("BRW", repeat=8)))


@pytest.fixture(scope="module", params=["centre", "edge"])
def full_reference(request, reference_goldens):
    """The plain-Python reference's pattern distances and layers from a start (made by
    tests/data/make_goldens.py), the first layers recomputed by that reference here."""
    golden = reference_goldens["cubes"][request.param]
    x, y, layers = golden["x"], golden["y"], golden["layers"]
    patterns = all_patterns()
    assert len(patterns) == golden["patterns"] == len(golden["rolls"])
    best = {p: ord(r) - 48 for p, r in zip(patterns, golden["rolls"], strict=True)}
    near = reference_bfs_layers([ref.start(x, y)], ref.neighbours, max_depth=6)
    assert [len(layer) for layer in near] == layers[:7]
    assert all(best[ref.tops(s)] <= d for d, layer in enumerate(near) for s in layer)
    assert {ref.tops(s) for layer in near for s in layer} == {p for p, d in best.items() if d <= 6}
    return x, y, best, layers


@pytest.mark.slow  # the judge and three batch methods on ~200 datasets per start (a few seconds)
def test_full_reference_layers_and_hundreds_of_patterns(full_reference):
    x, y, best, layers = full_reference
    key = "centre" if (x, y) == (2, 2) else "edge"
    result = vs.bfs("cubes", ref.text(ref.start(x, y)))
    assert result.layer_sizes == layers and sum(layers) == GOLDEN[key]["total"]
    rng = random.Random(x * 10 + y)
    patterns = rng.sample(sorted(best), 150)
    for distance in (29, 30, 31, 32, 33):  # the hardest answers, and -1 just past 30
        patterns += rng.sample(sorted(p for p, d in best.items() if d == distance), 8)
    patterns += sorted(p for p, d in best.items() if d >= 34)[:8]
    datasets = [Dataset(x, y, p) for p in patterns]
    out, error = judge(dataset_text(datasets))
    assert error is None
    expected = [str(best[p]) if best[p] <= 30 else "-1" for p in patterns]
    assert out == expected
    assert sum(o == "-1" for o in out) >= 24
    for method in ("start-tables", "start-balls", "pairs"):  # the batch path, every method for shared starts
        found = vs.solve_many(PUZZLE, [(i, *d.instance()) for i, d in enumerate(datasets)], method=method,
                              max_depth=cubes.JUDGE_LIMIT)
        assert [str(n) for n in found.lengths.tolist()] == expected, method
