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


def test_an_output_that_cannot_be_written_is_refused_before_the_search(tmp_path):
    missing = tmp_path / "missing" / "x.csv"
    for option, path, reason in (("--csv", missing, f"cannot write {missing}: no directory {missing.parent}"),
                                 ("--csv", tmp_path, f"cannot write {tmp_path}: it is a directory"),
                                 ("--plot", tmp_path / "x.csv", f"cannot plot to {tmp_path / 'x.csv'}: name a file of"
                                                                " one of the types ")):
        code, out, err = run("profile", "sliding-2x3", option, str(path))
        assert (code, out) == (2, "") and err.startswith(f"vecsearch: error: {reason}") and err.count("\n") == 1
    assert "png, ps" in run("profile", "sliding-2x3", "--plot", str(tmp_path / "x.csv"))[2]
