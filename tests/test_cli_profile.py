"""``vecsearch profile``: the layer profile as a table, a CSV file and a plot."""

import csv

from command_line import run
from reference import bfs_layers, sliding_goal, sliding_neighbours, sliding_tuple


def test_profile_writes_table_csv_and_plot(tmp_path):
    table, picture = tmp_path / "layers.csv", tmp_path / "layers.png"
    code, out, err = run("profile", "sliding-2x3", "--csv", str(table), "--plot", str(picture))
    assert (code, err) == (0, "")
    expected = [len(layer) for layer in bfs_layers([sliding_goal(2, 3)], sliding_neighbours(2, 3))]
    rows = list(csv.DictReader(table.read_text().splitlines()))
    assert [int(r["states"]) for r in rows if int(r["states"])] == expected
    assert f"total {sum(expected):,} states" in out
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_profile_takes_the_instance_options_of_bfs():
    start = "8 6 7 2 5 4 3 x 1"
    code, out, err = run("profile", "eight", "--start", start, "--max-depth", "6", "--threads", "1")
    expected = bfs_layers([sliding_tuple(start)], sliding_neighbours(3, 3), max_depth=6)
    assert (code, err) == (0, "")
    assert f"total {sum(map(len, expected)):,} states" in out


def test_progress_bar_only_when_asked_or_on_a_terminal():
    assert run("bfs", "sliding-2x3")[2] == ""  # stderr is a pipe here: no bar by default
    code, _, err = run("bfs", "sliding-2x3", "--progress")
    assert code == 0 and "bfs sliding-2x3" in err


def test_unwritable_output_is_one_line_and_exit_2(tmp_path):
    code, out, err = run("profile", "sliding-2x3", "--csv", str(tmp_path / "missing" / "x.csv"))
    assert code == 2
    assert err.startswith("vecsearch: error: cannot write ") and err.count("\n") == 1
