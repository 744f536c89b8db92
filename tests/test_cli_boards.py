"""`vecsearch solve|bfs solitaire|chessboard`: answers, exit codes and messages (``command_line.run``)."""

import csv
import io

import pytest
from command_line import run
from reference import replay
from reference_chessboard import neighbours, parse

CHESS_SAMPLE = "1111\n0000\n1110\n0010\n\n1010\n0101\n1010\n0101\n"


def test_solve_solitaire_sample_and_pairs_until_end_of_file(tmp_path):
    assert run("solve", "solitaire", "--sample") == (0, "YES\n", "")
    text = "4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n\n1 1 1 2 1 3 1 4\n8 8 8 7 8 6 8 5\n1 1 1 2 1 3 1 4\n1 4 1 3 1 2 1 1"
    assert run("solve", "solitaire", stdin=text) == (0, "YES\nNO\nYES\n", "")
    path = tmp_path / "pairs.txt"
    path.write_text(text)
    assert run("solve", "solitaire", str(path)) == (0, "YES\nNO\nYES\n", "")


def test_solitaire_bad_input_exits_2_after_answering_earlier_pairs():
    code, out, err = run("solve", "solitaire",
                         stdin="4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n1 1 1 2 1 3 1 4\n1 1 9 9 1 2 1 3\n")
    assert (code, out) == (2, "YES\nerror\n")
    assert err == "vecsearch: standard input: case 2, line 4: token 3 is '9'; expected a row 1..8\n"


def test_solve_chessboard_sample_and_unreachable_case():
    code, out, err = run("solve", "chessboard", "--sample")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "4"
    assert replay(parse("1111 0000 1110 0010"), lines[1:], neighbours) == parse("1010 0101 1010 0101")
    code, out, err = run("solve", "chessboard",
                         stdin=CHESS_SAMPLE + "\n1111\n0000\n0000\n0000\n\n1111\n0000\n0000\n0001\n")
    assert code == 0 and out.splitlines()[0] == "4" and out.endswith("\n-1\n")
    assert err == ("vecsearch: chessboard: case 2: the start has 4 black stones and the final position 5;"
                   " a swap never changes the count, so it is unreachable\n")


def test_chessboard_bad_input_exits_2_after_answering_earlier_cases():
    code, out, err = run("solve", "chessboard", stdin=CHESS_SAMPLE + "\n1111\n0000\n1102\n0010\n")
    assert code == 2 and out.splitlines()[0] == "4" and len(out.splitlines()) == 6 and out.endswith("\nerror\n")
    assert err == ("vecsearch: standard input: case 2, line 13: start position, row 3: '1102' has '2' at column 4;"
                   " expected 0 or 1\n")


def test_bfs_solitaire_from_the_sample_start_as_csv():
    code, out, _ = run("bfs", "solitaire", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert sum(int(r["states"]) for r in rows) == 635_376
    assert max(int(r["depth"]) for r in rows if int(r["states"])) == 22


def test_bfs_with_a_start_in_each_text_format():
    code, out, _ = run("bfs", "solitaire", "--start", "1 1 1 2 1 3 1 4", "--max-depth", "1")
    assert code == 0 and "total 7 states" in out  # 1 + four steps down, (1, 4) right, (1, 3) jumps right
    code, out, _ = run("bfs", "chessboard", "--start", "1111 0000 0000 0000")
    assert code == 0 and "total 1,820 states" in out  # C(16, 4)
    code, out, _ = run("bfs", "chessboard")
    assert code == 0 and "total 12,870 states" in out


@pytest.mark.parametrize("args,message", [
    (("bfs", "solitaire", "--start", "1 1 1 2"), "expected 8 integers (r1 c1 r2 c2 r3 c3 r4 c4), got 4"),
    (("bfs", "solitaire", "--start", "1 1 1 1 2 2 3 3"), "pieces 1 and 2 both stand on row 1, column 1"),
    (("bfs", "chessboard", "--start", "1111 0000 0000 00a0"), "row 4: '00a0' has 'a' at column 3; expected 0 or 1"),
])
def test_bad_start_gets_one_line_and_exit_2(args, message):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_list_names_both_puzzles_and_problems():
    code, out, _ = run("list")
    assert code == 0 and out.count("solitaire") == 2 and out.count("chessboard") == 2
