"""`vecsearch solve cubes|gap` and `vecsearch bfs cubes|gap`: answers, exit codes and messages
(``command_line.run``)."""

import csv
import io

from command_line import run

CUBES_BAD = "1 2\nW W W\nE W W\nW W W\n2 1\nR B W\nR Q W\nE W W\n0 0\n"
GAP_SAMPLE_HEAD = "2\n\n12 13 14 15 16 17 21\n22 23 24 25 26 27 31\n32 33 34 35 36 37 41\n42 43 44 45 46 47 11\n"


def deepest(rows):
    return max(int(r["depth"]) for r in rows if int(r["states"]))


def test_solve_cubes_sample_stdin_and_file(tmp_path):
    expected = "0\n3\n13\n23\n29\n30\n-1\n-1\n"
    assert run("solve", "cubes", "--sample") == (0, expected, "")
    text = "3 2\nR R R\nW E W\nR R R\n1 2\nW W W\nE W W\nW W W\n0 0\n"
    assert run("solve", "cubes", stdin=text) == (0, "-1\n0\n", "")
    path = tmp_path / "cubes.txt"
    path.write_text(text)
    assert run("solve", "cubes", str(path)) == (0, "-1\n0\n", "")


def test_solve_cubes_bad_input():
    code, out, err = run("solve", "cubes", stdin=CUBES_BAD)
    assert (code, out) == (2, "0\nerror\n")
    assert err == "vecsearch: standard input: case 2, line 7: token 'Q' is not a colour; expected W, B, R or E\n"


def test_solve_cubes_missing_terminator():
    code, out, err = run("solve", "cubes", stdin=CUBES_BAD.split("2 1")[0])
    assert (code, out) == (2, "0\nerror\n")
    assert err == ("vecsearch: standard input: case 2, line 5: reached the end of the input;"
                   " expected a dataset's 'x y' (1..3) or the terminating '0 0'\n")


def test_bfs_cubes_default_and_start():
    code, out, _ = run("bfs", "cubes", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and sum(int(r["states"]) for r in rows) == 4_133_430 and deepest(rows) == 42
    code, out, _ = run("bfs", "cubes", "--start", "WBR E WBR WBR WBR WBR WBR WBR WBR")
    assert code == 0 and "total 3,306,744 states" in out
    code, out, err = run("bfs", "cubes", "--start", "WBR E")
    assert code == 2 and out == "" and "expected 9 cells" in err


def test_solve_gap_sample_and_bad_input():
    assert run("solve", "gap", "--sample") == (0, "0\n33\n60\n-1\n", "")
    code, out, err = run("solve", "gap", stdin=GAP_SAMPLE_HEAD + "\n12 13\n")
    assert (code, out) == (2, "0\nerror\n")
    assert err == "vecsearch: standard input: case 2, line 8: row 1 has 2 cards; expected 7\n"


def test_bfs_gap_default_start_and_text_start():
    code, out, _ = run("bfs", "gap", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and sum(int(r["states"]) for r in rows) == 65_536 and deepest(rows) == 60
    start = "-- 13 14 15 16 17 12  -- 23 24 25 26 27 22  -- 33 34 35 36 37 32  -- 43 44 45 46 47 42"
    code, out, _ = run("bfs", "gap", "--start", start, "--max-depth", "2")
    assert code == 0 and "total 11 states" in out  # 1 + 4 (a row's 2 by its ace) + 6 (two rows')
