"""Batch solving (``solve_many``, ``vecsearch batch``): answers equal single-instance answers
and the plain-Python references on random instances of every built-in problem, paths replayed;
malformed instances reported per id; bulk text reading and writing."""

import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
import reference as ref
import reference_chessboard as chess
import reference_cubes as cubes_ref
import reference_gap as gap_ref
import reference_solitaire as sol_ref

import vecsearch as vs
from vecsearch.batch_io import read_jsonl, run_jsonl, run_judge
from vecsearch.engine.batch.instances import instances_from
from vecsearch.kernels.text import record_lines, token_lines


def batch(problem_name, text, **options):
    """(JSON records by id, judge output, errors) of a judge-format input, via the batch path."""
    problem = vs.get_problem(problem_name)
    instances, errors = problem.batch_instances(text.encode())
    records, judge = io.BytesIO(), io.BytesIO()
    run_jsonl(problem.puzzle, instances, errors, None, stream=records, max_depth=problem.max_depth, **options)
    run_judge(problem, instances, None, stream=judge, **options)
    by_id = {}
    for line in records.getvalue().decode().splitlines():
        record = json.loads(line)
        assert record["id"] not in by_id
        by_id[record["id"]] = record
    return by_id, judge.getvalue().decode(), errors


def single(problem_name, text):
    answers, errors = vs.get_problem(problem_name).solve_text(text)
    assert errors == []
    return [a.output for a in answers]


def random_sliding(rng, rows, cols, count):
    cells = list(range(rows * cols))
    out = []
    for _ in range(count):
        rng.shuffle(cells)
        out.append(tuple(cells))
    return out


def sliding_text(state):
    return " ".join(str(t) if t else "x" for t in state)


# --- every built-in problem: batch == single instance == reference ------------------------------

@pytest.mark.parametrize("chunk_size", [None, 7])
def test_eight_random_instances_match_the_reference_and_replay(chunk_size):
    rng = random.Random(1)
    starts = random_sliding(rng, 3, 3, 300)
    text = "\n".join(sliding_text(s) for s in starts) + "\n"
    goal = ref.sliding_goal(3, 3)
    distance = ref.goal_distances(3, 3)
    records, judge, errors = batch("eight", text, chunk_size=chunk_size)
    assert errors == [] and sorted(records) == list(range(1, 301))
    singles = single("eight", text)
    for number, start in enumerate(starts, 1):
        record, answer, expected = records[number], judge.splitlines()[number - 1], distance.get(start)
        if expected is None:
            assert record["length"] is None and record["unreachable"] and answer == singles[number - 1] == "unsolvable"
            continue
        assert record["length"] == expected == len(answer) == len(singles[number - 1])
        assert answer == record["moves"]
        assert ref.replay(start, record["moves"], ref.sliding_neighbours(3, 3)) == goal


@pytest.mark.parametrize("method", ["auto", "table", "pairs", "bidirectional", "bfs"])
def test_sliding_jsonl_with_shared_and_own_goals_by_every_method(method):
    rng = random.Random(2)
    neighbours = ref.sliding_neighbours(2, 3)
    states = random_sliding(rng, 2, 3, 40)
    shared = [{"id": f"s{i}", "start": sliding_text(s)} for i, s in enumerate(states[:20])]
    own = [{"id": i, "start": sliding_text(s), "goal": sliding_text(g)}
           for i, (s, g) in enumerate(zip(states[20:30], states[30:40], strict=True))]
    puzzle = vs.get_puzzle("sliding-2x3")
    for items in (shared, own):
        if method == "table" and items is own:
            with pytest.raises(vs.VecsearchError, match="one goal shared"):
                vs.solve_many(puzzle, items, method=method)
            continue
        result = vs.solve_many(puzzle, items, method=method, chunk_size=6)
        assert list(result.ids) == [item["id"] for item in items] and not result.errors
        for i, item in enumerate(items):
            start = ref.sliding_tuple(item["start"].replace("x", "0"))
            goal = ref.sliding_tuple(item["goal"].replace("x", "0")) if "goal" in item else ref.sliding_goal(2, 3)
            expected = ref.distances([goal], neighbours).get(start, -1)
            assert result.lengths[i] == expected
            if expected >= 0:
                assert ref.replay(start, result.formatted(i), neighbours) == goal
                single_solution = vs.solve(puzzle, puzzle.state(item["start"]), puzzle.state(sliding_text(goal)))
                assert len(single_solution) == expected


def test_chessboard_random_pairs():
    rng = random.Random(3)
    cases = []
    for _ in range(60):
        black = rng.randint(0, 16)
        cases.append((chess.random_position(rng, black), chess.random_position(rng, black if rng.random() < 0.9 else
                                                                                (black + 1) % 17)))
    text = "\n\n".join(chess.rows(a) + "\n\n" + chess.rows(b) for a, b in cases) + "\n"
    records, judge, errors = batch("chessboard", text)
    assert not errors
    singles = single("chessboard", text)
    lines = judge.splitlines()
    for number, (start, final) in enumerate(cases, 1):
        record = records[number]
        if start.count("1") != final.count("1"):
            assert record["length"] is None and lines.pop(0) == "-1" == singles[number - 1]
            continue
        cost = chess.matching_cost(start, final)
        moves = record["moves"].split("\n") if record["length"] else []
        assert record["length"] == cost == len(moves) == int(singles[number - 1].split("\n")[0])
        assert ref.replay(start, moves, chess.neighbours) == final
        assert int(lines.pop(0)) == cost
        assert lines[:cost] == moves
        del lines[:cost]
    assert lines == []


def test_solitaire_random_pairs():
    rng = random.Random(4)
    pairs = []
    for _ in range(40):
        first = sol_ref.random_config(rng)
        second = (sol_ref.random_walk(first, rng.randint(0, 12), rng) if rng.random() < 0.8
                  else sol_ref.random_config(rng))
        pairs.append((first, second))
    text = "\n".join(sol_ref.text(a) + "\n" + sol_ref.text(b) for a, b in pairs) + "\n"
    records, judge, errors = batch("solitaire", text)
    assert not errors
    assert judge.splitlines() == single("solitaire", text)
    for number, (first, second) in enumerate(pairs, 1):
        expected = sol_ref.distance_within(first, second, 8)
        assert records[number]["length"] == expected
        assert judge.splitlines()[number - 1] == ("YES" if expected is not None else "NO")


@pytest.mark.parametrize("method", ["auto", "start-tables"])  # auto: pairs or balls for so few datasets
def test_cubes_random_datasets(method):
    """Walks of up to 14 rolls, every answer checked by the reference's BFS (datasets beyond 30
    rolls are checked against the reference's whole-space BFS in test_cubes.py, a slow test)."""
    rng = random.Random(5)
    datasets = []
    for _ in range(16):
        x, y = rng.randint(1, 3), rng.randint(1, 3)
        state = cubes_ref.start(x, y)
        for _ in range(rng.randint(0, 14)):
            state = rng.choice(cubes_ref.neighbours(state))[1]
        datasets.append((x, y, cubes_ref.tops(state)))
    text = "".join(f"{x} {y}\n" + "\n".join(" ".join(p[r * 3:r * 3 + 3]) for r in range(3)) + "\n"
                   for x, y, p in datasets) + "0 0\n"
    records, judge, errors = batch("cubes", text, method=method)
    assert not errors
    assert judge.splitlines() == single("cubes", text)
    for number, (x, y, pattern) in enumerate(datasets, 1):
        record = records[number]
        assert record["length"] == cubes_ref.solve(x, y, pattern, 30)
        assert judge.splitlines()[number - 1] == str(record["length"])
        assert cubes_ref.tops(cubes_ref.replay(cubes_ref.start(x, y), record["moves"])) == pattern


def test_gap_random_layouts():
    rng = random.Random(6)
    cards = [10 * s + v for s in range(1, 5) for v in range(1, 8)]
    layouts = []
    for _ in range(6):
        rng.shuffle(cards)
        layouts.append([cards[7 * r:7 * r + 7] for r in range(4)])
    text = f"{len(layouts)}\n" + "\n\n".join(gap_ref.layout_text(rows) for rows in layouts) + "\n"
    records, judge, errors = batch("gap", text)
    assert not errors
    assert judge.splitlines() == single("gap", text)
    for number, rows in enumerate(layouts, 1):
        expected, _ = gap_ref.solve(rows)
        record = records[number]
        assert (record["length"] if record["length"] is not None else -1) == expected
        if expected >= 0:
            moves = record["moves"].split()
            assert len(moves) == expected and gap_ref.replay(gap_ref.set_up(rows), moves) == gap_ref.GOAL


# --- malformed instances -------------------------------------------------------------------------

def test_malformed_lines_are_reported_by_id_and_the_rest_answered():
    text = "1 2 3 4 x 5 6 7 8\nfoo\n1 2 3 4 5 6 7 8 8\n\n1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 7 8 9\n1 2 3 x 4 5 6 7 8 0\n"
    records, judge, errors = batch("eight", text)
    assert errors == [
        (2, "case 2, line 2: expected 9 tokens for sliding-3x3, got 1"),
        (3, "case 3, line 3: tile 8 appears twice (tokens 8 and 9)"),
        (5, "case 5, line 6: token 9 is '9'; expected a tile 1..8 or x"),
        (6, "case 6, line 7: expected 9 tokens for sliding-3x3, got 10"),
    ]
    assert sorted(records) == [1, 2, 3, 4, 5, 6]
    assert records[2] == {"id": 2, "error": errors[0][1]}
    assert records[4]["moves"] == "r" and judge == "rdrd\nr\n".replace("rdrd", records[1]["moves"])


def test_jsonl_errors_do_not_stop_the_batch():
    puzzle = vs.get_puzzle("sliding-2x3")
    data = b'{"id": "a", "start": "1 2 3 4 5 x"}\nnot json\n{"id": "b"}\n{"id": "c", "start": "1 2 3 4 x 5"}\n' \
           b'{"id": "d", "start": "1 2 3 4 5 5"}\n[1]\n'
    instances, errors = read_jsonl(puzzle, data)
    assert list(instances.ids) == ["a", "c"]
    assert [e[0] for e in errors] == ["line 2", "b", "line 6", "d"]
    assert "not JSON" in errors[0][1] and "tile 5 appears twice" in errors[3][1]
    result = vs.solve_many(puzzle, instances)
    assert result.lengths.tolist() == [0, 1] and result.formatted(1) == "r"


def test_jsonl_numbers_json_cannot_write_back_are_errors_of_their_lines():
    # Python's json reads NaN and Infinity, and 1e400 as inf: written back, neither would be JSON
    data = (b'{"id": 1e400, "start": "1 2 3 4 5 x"}\n{"id": NaN, "start": "1 2 3 4 5 x"}\n'
            b'{"id": -Infinity, "start": "1 2 3 4 5 x"}\n{"id": 2.5e3, "start": "1 2 3 4 5 x"}\n')
    instances, errors = read_jsonl(vs.get_puzzle("sliding-2x3"), data)
    assert list(instances.ids) == [2500.0]
    assert errors == [("line 1", "line 1: 1e400 is too large for a number"),
                      ("line 2", "line 2: NaN is not JSON (a number must be finite)"),
                      ("line 3", "line 3: -Infinity is not JSON (a number must be finite)")]


# --- bulk text -----------------------------------------------------------------------------------

def test_token_lines_match_a_python_split():
    text = "1 2 x\n\n 10\t3  y 4\r\n12345678901 x\nzz 7\n"
    values, counts, lines = token_lines(text.encode(), 3, {"x": 99})
    assert counts.tolist() == [3, 4, 2, 2] and lines.tolist() == [1, 3, 4, 5]
    assert values.tolist() == [[1, 2, 99], [10, 3, -1], [-1, 99, -1], [-1, 7, -1]]


def test_record_lines_are_json():
    moves = np.array([[0, 1, 2], [3, 0, 0], [0, 0, 0]], np.int64)
    data = record_lines(np.array([7, 123456789012, 0]), np.array([3, -1, 0]), moves, np.array([5, 0, 1 << 47]),
                        "udlr", 'null, "unreachable": true', ', "seconds": 0.5}\n')
    assert [json.loads(line) for line in data.decode().splitlines()] == [
        {"id": 7, "length": 3, "moves": "udl", "digest": 5, "seconds": 0.5},
        {"id": 123456789012, "length": None, "unreachable": True, "digest": 0, "seconds": 0.5},
        {"id": 0, "length": 0, "moves": "", "digest": 1 << 47, "seconds": 0.5}]


def test_a_jsonl_output_resumes_and_says_how_much_was_done(tmp_path):
    puzzle = vs.get_puzzle("eight")
    rng = random.Random(7)
    instances, _ = instances_from(puzzle, [(i, sliding_text(s)) for i, s in enumerate(random_sliding(rng, 3, 3, 50))])
    out = tmp_path / "out.jsonl"
    assert run_jsonl(puzzle, instances.take(0, 20), [], str(out)) == 20
    with open(out, "ab") as handle:
        handle.write(b'{"id": 20, "len')  # a line cut short by a kill
    said = []
    assert run_jsonl(puzzle, instances, [], str(out), chunk_size=8, report=said.append) == 30
    assert said == [f"resuming {out}: 20 of 50 instances already answered"]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == list(range(50))
    assert run_jsonl(puzzle, instances, [], str(out)) == 0


def test_a_resume_over_other_instances_with_the_same_ids_is_refused(tmp_path):
    puzzle = vs.get_puzzle("eight")
    rng = random.Random(11)
    first, _ = instances_from(puzzle, [(i, sliding_text(s)) for i, s in enumerate(random_sliding(rng, 3, 3, 10))])
    other, _ = instances_from(puzzle, [(i, sliding_text(s)) for i, s in enumerate(random_sliding(rng, 3, 3, 10))])
    out = tmp_path / "out.jsonl"
    run_jsonl(puzzle, first.take(0, 5), [], str(out))
    before = out.read_bytes()
    with pytest.raises(vs.InvalidPuzzleInput, match="other instances"):
        run_jsonl(puzzle, other, [], str(out))
    assert out.read_bytes() == before  # nothing written, nothing lost
    goals, _ = instances_from(puzzle, [(i, sliding_text(s), "1 2 3 4 5 6 7 x 8") for i, s in
                                       enumerate(random_sliding(random.Random(7), 3, 3, 10))])
    with pytest.raises(vs.InvalidPuzzleInput, match="other instances"):  # same starts, another goal
        run_jsonl(puzzle, goals, [], str(out))


def test_duplicate_ids_are_refused():
    puzzle = vs.get_puzzle("sliding-2x3")
    instances, _ = instances_from(puzzle, [("a", "1 2 3 4 5 x"), ("b", "1 2 3 4 x 5"), ("a", "1 2 3 x 4 5")])
    with pytest.raises(vs.InvalidPuzzleInput, match=r'1 id\(s\) name more than one instance \("a"\)'):
        run_jsonl(puzzle, instances, [], None, stream=io.BytesIO())
    # solve_many's answers and errors are known by their ids as well: the same rule, an
    # unhashable id compared by its text, a malformed instance's id counted too
    with pytest.raises(vs.InvalidPuzzleInput, match=r'2 id\(s\) name more than one instance \("a", \[2\]\)'):
        vs.solve_many(puzzle, [("a", "1 2 3 4 5 x"), ([2], "1 2 3 4 x 5"), ("a", "1 2 3 x 4 5"), ([2], "1 2 x")])
    assert vs.solve_many(puzzle, [("a", "1 2 3 4 5 x"), ([2], "1 2 3 4 x 5")]).lengths.tolist() == [0, 1]


def test_a_wide_puzzles_states_are_starts_however_they_are_given():
    """A wide state's words as a tuple (what ``parse_state`` returns), a list or an array row are
    one start, not an ``(id, start)`` pair nor two narrow states; pairs and triples still read."""
    definition = vs.load_definition(Path(__file__).parent / "data" / "definitions" / "wide.tws")
    puzzle = vs.PermutationPuzzle(definition, representation="labels")
    assert puzzle.width == 2
    words = puzzle.parse_state("L C L")
    row = puzzle.states(words)[0]
    expected = vs.solve(puzzle, words).moves
    for given in (words, list(words), row):
        found = vs.solve_many(puzzle, [given, (7, given), ("b", given, words)])
        assert not found.errors and list(found.ids) == [0, 7, "b"]
        assert found.lengths.tolist() == [len(expected), len(expected), 0]
    assert puzzle.states(row).shape == (1, 2) and not vs.get_puzzle("eight").is_state_words((1, 2))


def test_a_start_that_is_no_state_is_its_instances_error_not_a_crash():
    found = vs.solve_many("sliding-2x3", [("a", 2.5), ("b", "1 2 3 4 5 x"), 3.0])
    assert found.errors == [("a", "sliding-2x3: cannot read a state from 2.5"),
                            (2, "sliding-2x3: cannot read a state from 3.0")]
    assert list(found.ids) == ["b"] and found.lengths.tolist() == [0]


def test_packed_words_that_are_no_state_are_refused_and_states_packed_by_hand_are_taken():
    by_hand = ref.pack_sliding((1, 2, 3, 4, 5, 6, 7, 0, 8))  # the reference's packing: one move from the goal
    found = vs.solve_many("eight", [by_hand, 5, ref.pack_sliding((1, 1, 3, 4, 5, 6, 7, 0, 8))])
    assert found.lengths.tolist() == [1] and list(found.ids) == [0]
    assert [i for i, _ in found.errors] == [1, 2]
    assert all(" is not a packed state of this puzzle (" in message for _, message in found.errors)
    for puzzle, words in (("eight", 5), ("pancake-5", 5), ("cubes", 9)):
        with pytest.raises(vs.InvalidPuzzleInput, match="is not a packed state of this puzzle"):
            vs.bfs(puzzle, start=words)
    wide = vs.PermutationPuzzle(vs.load_definition(Path(__file__).parent / "data" / "definitions" / "wide.tws"),
                                representation="labels")
    words = wide.parse_state("L C L")
    assert wide.state(tuple(words)) == tuple(words)
    with pytest.raises(vs.InvalidPuzzleInput, match="is not a packed state of this puzzle"):
        wide.state((words[0], -5))


def test_progress_bar_counts_instances_on_stderr(capsys):
    puzzle = vs.get_puzzle("sliding-2x3")
    vs.solve_many(puzzle, ["1 2 3 4 5 x"] * 30, chunk_size=10, progress=True)
    assert "30/30" in capsys.readouterr().err
    vs.solve_many(puzzle, ["1 2 3 4 5 x"] * 30, chunk_size=10)  # default: only on a terminal
    assert capsys.readouterr().err == ""


def test_large_rank_spaces_use_two_bit_tables(monkeypatch):
    """Above TABLE_AUTO_RANKS ranks a shared-goal table stores distances mod 3 (patched down
    here so that the 2x3 puzzle counts as large); answers still match the reference."""
    from vecsearch.engine.batch import methods
    from vecsearch.engine.batch.solve import distance_table

    monkeypatch.setattr(methods, "TABLE_AUTO_RANKS", 100)
    puzzle = vs.get_puzzle("sliding-2x3")
    assert methods.table_storage(puzzle) == "mod3"
    starts = random_sliding(random.Random(8), 2, 3, 40)
    result = vs.solve_many(puzzle, [sliding_text(s) for s in starts], method="table")
    assert distance_table(puzzle, storage="mod3").storage == "mod3"
    goal = ref.sliding_goal(2, 3)
    distance = ref.distances([goal], ref.sliding_neighbours(2, 3))
    for i, start in enumerate(starts):
        assert result.lengths[i] == distance.get(start, -1)
        if result.lengths[i] >= 0:
            assert ref.replay(start, result.formatted(i), ref.sliding_neighbours(2, 3)) == goal


def test_judge_output_resumes_from_its_marker_and_a_file_without_one_starts_over(tmp_path):
    problem = vs.get_problem("eight")
    text = "".join(sliding_text(s) + "\n" for s in random_sliding(random.Random(9), 3, 3, 30))
    instances, _ = problem.batch_instances(text.encode())
    clean = io.BytesIO()
    run_judge(problem, instances, None, stream=clean)
    out = tmp_path / "out.txt"
    out.write_text("left over from something else\n")
    assert run_judge(problem, instances.take(0, 12), str(out), chunk_size=5) == 12
    with open(out, "ab") as handle:
        handle.write(b"udl")  # written after the marker, then killed
    said = []
    assert run_judge(problem, instances, str(out), chunk_size=5, report=said.append) == 18
    assert said == [f"resuming {out}: 12 of 30 cases already answered"]
    assert out.read_bytes() == clean.getvalue()
    shuffled, _ = problem.batch_instances("".join(reversed(text.splitlines(keepends=True))).encode())
    with pytest.raises(vs.InvalidPuzzleInput, match="another input's 30 cases"):
        run_judge(problem, shuffled, str(out))
    assert out.read_bytes() == clean.getvalue()
