"""A user's puzzle on the command line: ``module:attribute`` and ``path/file.py[:attribute]``
wherever a puzzle goes, ``vecsearch solve PUZZLE --start``, and resumes bound to the puzzle."""

import json
import os
import subprocess
import sys
from pathlib import Path

from command_line import run, run_process
from reference import distances, replay
from reference_values import jugs as jug_reference

EXAMPLES = Path(__file__).parent.parent / "examples"
JUGS = str(EXAMPLES / "jugs.py")


def states_of(csv_text: str) -> int:
    return sum(int(row.split(",")[2]) for row in csv_text.splitlines()[1:])


def test_a_file_or_a_module_names_a_puzzle_wherever_a_puzzle_goes(tmp_path):
    reachable = len(distances([(8, 0, 0)], jug_reference((8, 5, 3))))
    for spec in (JUGS, f"{JUGS}:puzzle"):  # a file: its `puzzle`
        code, out, err = run("bfs", spec, "--csv")
        assert code == 0 and states_of(out) == reachable, err
    code, out, err = run_process("bfs", "jugs:puzzle", "--csv", env={"PYTHONPATH": str(EXAMPLES)})  # on the path
    assert code == 0 and states_of(out) == reachable, err
    maker = tmp_path / "mine.py"  # a function returning a puzzle
    maker.write_text(f"import sys\nsys.path.insert(0, {str(EXAMPLES)!r})\nimport jugs\n\n\n"
                     "def make():\n    return jugs.jugs([12, 7, 5], [12, 0, 0], [6, 6, 0])\n")
    code, out, err = run("profile", f"{maker}:make", "--start", "12 0 0")
    assert code == 0 and f"{len(distances([(12, 0, 0)], jug_reference((12, 7, 5)))):,}" in out, err
    assert run("warm-up", f"{maker}:make")[0] == 0
    lines = tmp_path / "in.jsonl"
    lines.write_text('{"id": 1, "start": "12 0 0", "goal": "6 6 0"}\n')
    code, out, err = run("batch", f"{maker}:make", str(lines))
    assert code == 0 and json.loads(out)["length"] == distances([(12, 0, 0)], jug_reference((12, 7, 5)))[(6, 6, 0)]


def test_a_files_neighbours_shadow_no_module_and_a_file_named_like_a_module_is_refused(tmp_path):
    (tmp_path / "mine.py").write_text(f"import sys\nsys.path.insert(0, {str(EXAMPLES)!r})\nfrom jugs import puzzle\n")
    (tmp_path / "colorsys.py").write_text("from mine import puzzle\n")  # the standard library's name
    check = ("import vecsearch as vs, colorsys; vs.get_puzzle(sys.argv[1]); del sys.modules['colorsys'];"
             " import colorsys; print(colorsys.__file__)")
    loaded = subprocess.run([sys.executable, "-c", f"import sys; {check}", str(tmp_path / "mine.py")],
                            capture_output=True, text=True, cwd=tmp_path.parent)
    assert loaded.returncode == 0 and Path(loaded.stdout.strip()).parent != tmp_path, loaded.stderr
    code, _, err = run("bfs", str(tmp_path / "colorsys.py"))
    assert code == 2 and "the module named 'colorsys' is " in err and "rename colorsys.py" in err, err


CYCLE = """import vecsearch as vs

STEP = {step}


def expand(state, tables, children, moves):
    children[0] = (state + STEP) % 1000
    children[1] = (state + 1000 - STEP) % 1000
    moves[0], moves[1] = 0, 1
    return 2


puzzle = vs.Puzzle("cycle", expand, 2, rank=vs.Rank(lambda s, t: s, 1000), start=0)
"""


def test_a_file_rewritten_within_a_second_runs_its_new_rules(tmp_path):
    """Two versions of one size whose modification times share their whole second (which is all
    Python's timestamp bytecode compares); each run a new process that writes bytecode."""
    cycle = tmp_path / "cycle.py"
    second = int(cycle.parent.stat().st_mtime) * 10**9
    depths = []
    for step, offset in ((7, 100_000_000), (5, 600_000_000)):  # 1000 states: a cycle of 1000, then of 200
        cycle.write_text(CYCLE.format(step=step))
        os.utime(cycle, ns=(second + offset, second + offset))
        code, out, err = run_process("bfs", str(cycle), "--csv", env={"PYTHONDONTWRITEBYTECODE": ""})
        assert code == 0, err
        depths.append(max(int(row.split(",")[1]) for row in out.splitlines()[1:] if int(row.split(",")[2])))
    assert depths == [500, 100]


def test_a_name_that_is_no_puzzle_is_refused_saying_why(tmp_path):
    code, _, err = run("bfs", "no_such_module:puzzle")
    assert code == 2 and "no module 'no_such_module' to import" in err
    code, _, err = run("bfs", f"{JUGS}:pour")
    assert code == 2 and "pour is a CPUDispatcher" not in err and "not a vecsearch Puzzle" in err
    code, _, err = run("bfs", f"{JUGS}:nothing")
    assert code == 2 and "jugs has no 'nothing'; its puzzles: puzzle" in err
    code, _, err = run("bfs", str(tmp_path / "missing.py"))
    assert code == 2 and "no file" in err


def test_solve_answers_one_instance_of_any_puzzle():
    code, out, err = run("solve", JUGS, "--start", "8 0 0", "--goal", "4 4 0")
    neighbours = jug_reference((8, 5, 3))
    assert code == 0 and len(out.split()) == distances([(8, 0, 0)], neighbours)[(4, 4, 0)], err
    assert replay((8, 0, 0), out.split(), neighbours) == (4, 4, 0)
    assert run("solve", JUGS, "--start", "8 0 0")[1] == out  # the puzzle's own goal
    code, out, err = run("solve", "eight", "--start", "1 2 3 4 5 6 7 x 8")
    assert (code, out) == (0, "r\n")
    code, out, err = run("solve", "sliding-2x2", "--start", "1 2 x 3", "--goal", "1 3 2 x")  # the other parity
    assert code == 1 and out == "" and "not reachable" in err
    code, out, err = run("solve", JUGS, "--start", "9 0 0")
    assert code == 2 and "value 9 at position 0 is outside its range 0..8" in err


def test_a_resume_under_another_metric_is_refused_and_the_output_kept(tmp_path):
    definition = tmp_path / "turns.tws"
    definition.write_text("Set S 4 1\nMove R\nS\n2 3 4 1\nEnd\nMove F\nS\n2 1 3 4\nEnd\n")
    instances = tmp_path / "in.jsonl"
    instances.write_text("".join(json.dumps({"id": i, "start": moves}) + "\n"
                                 for i, moves in enumerate(["R R", "F R"])))
    out = tmp_path / "out.jsonl"
    assert run("batch", "turns.tws", "in.jsonl", "-o", "out.jsonl", cwd=tmp_path)[0] == 0  # as the issue typed it
    written = out.read_text()
    code, _, err = run("batch", "turns.tws:given", "in.jsonl", "-o", "out.jsonl", cwd=tmp_path)
    assert code == 2 and "another puzzle or metric" in err
    assert out.read_text() == written  # nothing overwritten
    code, _, err = run("batch", str(definition), str(instances), "-o", str(out))
    assert code == 0 and "2 of 2 instances already answered" in err  # the same puzzle resumes


def test_a_users_code_that_fails_is_named_at_its_line_not_a_traceback(tmp_path, monkeypatch):
    import pytest

    import vecsearch as vs

    monkeypatch.syspath_prepend(str(tmp_path))  # for the module named by its name

    (tmp_path / "typo.py").write_text("import vecsearch as vs\n\ndef make(:\n    pass\n")
    (tmp_path / "failing.py").write_text("def make():\n    return helper()\n\n\ndef helper():\n"
                                         "    raise RuntimeError('no rules yet')\n")
    (tmp_path / "missing_import.py").write_text("import no_such_module_of_yours\n")
    (tmp_path / "failing_module.py").write_text("x = 1\nraise ValueError('as it is imported')\n")
    expected = {
        f"{tmp_path / 'typo.py'}": "line 3: SyntaxError: invalid syntax",
        f"{tmp_path / 'failing.py'}:make": "line 6, in helper: RuntimeError: no rules yet",
        f"{tmp_path / 'missing_import.py'}": "line 1: ModuleNotFoundError: No module named 'no_such_module_of_yours'",
        "failing_module:puzzle": "failing_module.py, line 2: ValueError: as it is imported",
    }
    for spec, message in expected.items():
        code, out, err = run("bfs", spec)
        assert (code, out, err) == (2, "", f"vecsearch: error: {spec}: {message}\n")
        with pytest.raises(vs.PuzzleDefinitionError, match=f"^{spec}: ") as raised:
            vs.get_puzzle(spec)
        assert raised.value.__cause__ is not None  # the user's own traceback, in Python
