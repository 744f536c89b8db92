"""The command line: what it prints, reads and exits with (``command_line.run``: in this process),
and the entry point as a user types it (``run_process``: ``python -m vecsearch``)."""

import csv
import io
import json
import subprocess
import sys

import pytest
from command_line import HANG, run, run_process


def test_solve_eight_sample_as_a_process():
    code, out, err = run_process("solve", "eight", "--sample")
    assert code == 0 and err == ""
    assert len(out.strip()) == 19


def test_solve_eight_from_stdin_and_file(tmp_path):
    text = "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 8 7 x\n"
    code, out, err = run_process("solve", "eight", stdin=text)  # a process's standard input
    assert (code, out, err) == (0, "\nunsolvable\n", "")
    assert run("solve", "eight", stdin=text) == (code, out, err)
    path = tmp_path / "in.txt"
    path.write_text(text)
    assert run("solve", "eight", str(path)) == (0, "\nunsolvable\n", "")


def test_the_quick_exit_keeps_what_a_normal_exit_would(tmp_path):
    """The command ends without tearing the interpreter down, but only after what a normal exit
    waits for: a running thread, the exit handlers, the buffered output; the status is main's."""
    late = tmp_path / "late.txt"
    script = (f"import atexit, sys, threading, time\n"
              f"threading.Thread(target=lambda: (time.sleep(0.5), open({str(late)!r}, 'w').write('done'))).start()\n"
              f"atexit.register(print, 'handler ran')\n"
              f"sys.argv = ['vecsearch', 'solve', 'eight']\n"
              f"from vecsearch.cli import command_line\n"
              f"command_line()\n")
    done = subprocess.run([sys.executable, "-c", script], input="1 2 3 4 5 6 7 8 q\n" + "1 2 3 4 5 6 7 x 8\n" * 3000,
                          capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 2 and done.stderr.startswith("vecsearch: standard input: case 1, line 1:")
    assert done.stdout == "error\n" + "r\n" * 3000 + "handler ran\n"
    assert late.read_text() == "done"


def test_bad_input_exits_2_with_one_line_and_a_marker_in_its_place():
    code, out, err = run("solve", "eight", stdin="1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 q\n1 2 3 4 5 6 7 x 8\n")
    assert code == 2
    assert out == "\nerror\nr\n"
    assert err == "vecsearch: standard input: case 2, line 2: token 9 is 'q'; expected a tile 1..8 or x\n"


@pytest.mark.parametrize("args,message", [
    (("solve", "nosuch"), "unknown problem 'nosuch'"),
    (("bfs", "nosuch"), "unknown puzzle 'nosuch'"),
    (("bfs", "sliding-5x5"), "sliding-5x5: need R, C >= 2 and R*C <= 16"),
    (("bfs", "sliding-3x3", "--start", "1 2 3"), "expected 9 tokens"),
    (("solve", "eight", "/no/such/file"), "cannot read /no/such/file"),
])
def test_user_mistakes_get_one_line_and_exit_2(args, message):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_usage_exits_2():
    code, _, err = run("bfs", "sliding-3x3", "--max-depth", "-1")
    assert code == 2 and "expected a number >= 0" in err
    code, _, err = run("bfs", "pancake-5", "--workers", "x")
    assert code == 2 and "argument --workers: expected a number >= 1, got x" in err and "_positive" not in err
    # a value that starts with a dash and a digit is the option's (told what it should be), not an unknown option
    code, _, err = run("bfs", "pancake-5", "--max-memory", "-5G")
    assert code == 2 and "argument --max-memory: cannot read a memory size from '-5G'" in err
    code, _, err = run("bfs", "pancake-5", "--max-memory", "1G", "-x")
    assert code == 2 and "unrecognized arguments: -x" in err


def test_bfs_csv_has_depth_and_states_columns():
    code, out, err = run("bfs", "sliding-2x4", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert sum(int(r["states"]) for r in rows) == 20160
    assert [int(r["depth"]) for r in rows] == list(range(len(rows)))


def test_bfs_table_with_start_and_depth():
    code, out, _ = run("bfs", "eight", "--start", "1 2 3 4 x 5 6 7 8", "--max-depth", "3")
    assert code == 0
    assert "total 21 states" in out  # 1 + 4 + 8 + 8 (OEIS A089474)


def test_list_names_puzzles_and_problems():
    code, out, _ = run("list")
    assert code == 0 and "sliding-RxC" in out and "eight" in out


def test_help_has_examples():
    code, out, _ = run("--help")
    assert code == 0 and "examples:" in out and "vecsearch solve eight --sample" in out


def test_version_is_the_installed_distributions():
    from importlib.metadata import version

    assert run_process("--version") == (0, f"vecsearch {version('vecsearch')}\n", "")


def test_an_instance_typed_where_the_file_goes_is_answered_with_the_ways_to_give_it():
    typed = "2 3 4 1 5 x 7 6 8"
    code, out, err = run("solve", "eight", typed)
    assert (code, out) == (2, "")
    assert err == (f"vecsearch: error: no file '{typed}': FILE names a file of instances; give one instance as"
                   f" `vecsearch solve eight --text '{typed}'`, or on standard input: `echo '{typed}' | vecsearch solve"
                   f" eight`\n")
    assert run("solve", "eight", "--text", typed) == run("solve", "eight", stdin=typed + "\n")


def test_solve_takes_its_file_after_options_too(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("1 2 3 4 5 6 7 x 8\n")
    assert run("solve", "eight", "--goal", "default", str(path)) == run("solve", "eight", str(path)) == (0, "r\n", "")
    code, _, err = run("solve", "eight", "--sample", str(path))
    assert code == 2 and "argument FILE: not allowed with --sample" in err
    code, _, err = run("solve", "eight", str(path), "extra")
    assert code == 2 and "unrecognized arguments: extra" in err


def test_search_help_names_definition_files_metrics_and_move_starts():
    code, out, _ = run("bfs", "--help")
    flat = " ".join(out.split())
    assert code == 0 and "FILE.tws" in flat and "FILE.tws:qtm" in flat and "moves from the solved state" in flat


def test_solve_sliding_problems_by_size_name():
    code, out, err = run("solve", "sliding-2x3", stdin="1 2 3 4 0 5\n2 1 3 4 5 x\n")
    assert (code, out, err) == (0, "r\nunsolvable\n", "")


def test_solve_with_korfs_goal_on_the_eight_puzzle():
    # goal: blank first, then 1..8; the last instance is in the other component
    lines = ["8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0", "0 2 1 3 4 5 6 7 8"]
    code, out, err = run("solve", "sliding-3x3", "--goal", "korf", stdin="\n".join(lines) + "\n")
    assert code == 0 and err == ""
    from reference import distances, replay, sliding_neighbours

    goal = tuple(range(9))
    distance = distances([goal], sliding_neighbours(3, 3))
    answers = out.splitlines()
    assert answers[2] == "unsolvable" and [len(a) for a in answers[:2]] == [distance[tuple(map(int, line.split()))]
                                                                          for line in lines[:2]]
    for line, moves in zip(lines[:2], answers[:2], strict=True):
        assert replay(tuple(map(int, line.split())), moves, sliding_neighbours(3, 3)) == goal


@pytest.mark.slow  # builds the 15-puzzle's pattern databases when the cache is empty (minutes)
def test_solve_15_puzzles_in_korfs_convention():
    # Korf's instances 79 and 12 (optimal lengths 42 and 45), goal: blank first, then 1..15
    lines = ["0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15", "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"]
    code, out, err = run("solve", "sliding-4x4", "--goal", "korf", stdin="\n".join(lines) + "\n")
    assert code == 0 and err.startswith("vecsearch: sliding-4x4: IDA* with additive pattern databases")
    answers = out.splitlines()
    assert [len(a) for a in answers] == [42, 45]
    from reference import replay, sliding_neighbours

    for line, moves in zip(lines, answers, strict=True):
        assert replay(tuple(map(int, line.split())), moves, sliding_neighbours(4, 4)) == tuple(range(16))


def test_goal_flag_errors():
    code, _, err = run("solve", "sliding-3x3", "--goal", "nosuch", stdin="1 2 3 4 5 6 7 8 x\n")
    assert code == 2 and "unknown goal 'nosuch'; choose one of default, korf" in err
    code, _, err = run("solve", "sliding-3x3", "--sample")
    assert code == 2 and "no bundled sample" in err
def test_bfs_twobit_prints_the_method_and_the_farthest_states():
    import vecsearch as vs

    code, out, err = run("bfs", "pocket-htm", "--mode", "twobit", "--antipodes", "3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split()[-1] == "method" and lines[-6].endswith("pull")
    assert lines[-4] == "states at depth 11 (the farthest; 2,644 in all), 3 shown:"
    table = vs.DistanceTable("pocket-htm", storage="mod3")
    shown = [vs.get_puzzle("pocket-htm").parse_state(line) for line in lines[-3:]]
    assert [table.distance(state) for state in shown] == [11, 11, 11]
    farthest = vs.bfs("pocket-htm", mode="twobit").last_layer.states
    assert shown == sorted(farthest.tolist())[:3]  # the least: the same on every run


def test_bfs_refuses_a_search_over_its_memory_limit_in_one_line():
    code, out, err = run("bfs", "sliding-3x4", "--max-memory", "10M")
    assert code == 2 and out == ""
    assert "limit of 10.0 MiB" in err and "two-bit table" in err and len(err.strip().splitlines()) == 1


def test_bfs_under_a_depth_limit_stops_before_the_limit_and_prints_the_layers_found():
    code, out, err = run("bfs", "sliding-4x4", "--max-depth", "40", "--max-memory", "24M", "--csv")
    depths = [int(row.split(",")[1]) for row in out.splitlines()[1:]]
    assert code == 2 and depths == list(range(len(depths))) and len(depths) > 10
    assert err.startswith(f"vecsearch: error: sliding-4x4: stopped after depth {depths[-1]}: layer {depths[-1] + 1}")
    assert len(err.strip().splitlines()) == 1


def test_bfs_reads_a_puzzle_definition_file(tmp_path):
    path = tmp_path / "swap.tws"
    path.write_text("Set S 4 1\nMove X\nS\n2 1 3 4\nEnd\nMove C\nS\n2 3 4 1\nEnd\n")
    code, out, _ = run("bfs", str(path), "--csv")
    assert code == 0 and sum(int(row.split(",")[2]) for row in out.splitlines()[1:]) == 24
    path.write_text("Set S 4 1\nMove X\nS\n2 1 3 4\nEnd\nMove C\nS\n2 3 4 1\nEnd\n")
    for metric, moves in [("", "X C C2 C'"), (":htm", "X C C2 C'"), (":qtm", "X C C'"), (":given", "X C")]:
        code, out, _ = run("bfs", f"{path}{metric}", "--csv", "--max-depth", "1")
        assert code == 0 and int(out.splitlines()[2].split(",")[2]) == len(moves.split())  # one child per move
    code, out, err = run("bfs", f"{path}:xtm")
    assert code == 2 and "unknown metric 'xtm' after the file name; expected one of htm, qtm, given" in err
    path.write_text("Set S 4 1\nMove X\nS\n2 1 3\nEnd\n")
    code, out, err = run("bfs", str(path))
    assert code == 2 and err == f"vecsearch: error: {path}, line 4: expected 4 slot numbers, got 3 tokens\n"


def test_moves_searches_a_permutation_puzzle_with_some_of_its_moves_in_every_command(tmp_path):
    import vecsearch as vs

    two = vs.get_puzzle("2x2x2.tws").with_moves("U, R")  # tested against a plain-Python BFS in test_permutation
    code, out, _ = run("bfs", "2x2x2.tws", "--moves", "U,R", "--csv")
    assert code == 0 and [int(r["states"]) for r in csv.DictReader(io.StringIO(out))] == vs.bfs(two).layer_sizes
    code, out, _ = run("profile", "2x2x2.tws", "--moves", "U R", "--max-depth", "2")
    assert code == 0 and "total 25 states" in out  # 1 + 6 + 18
    code, out, _ = run("solve", "2x2x2.tws", "--moves", "U,R2", "--start", "R2 U R2 U'")
    assert (code, out) == (0, "U R2 U' R2\n")
    instances = tmp_path / "two.jsonl"
    instances.write_text('{"id": 1, "start": "R U R\' U\'"}\n')
    code, out, _ = run("batch", "2x2x2.tws", str(instances), "--moves", "U,R")
    assert code == 0 and json.loads(out)["length"] == 4
    code, out, _ = run("phases", "2x2x2.tws", "--moves", "U,R", "--from", "? ? ? ? 5 6 7 8")
    assert code == 0 and "108 starts, at most" in out  # 29,160 positions, DFR and DBR placed and oriented: / (6*5*3*3)
    page = tmp_path / "two.html"
    code, _, err = run("explore", "2x2x2.tws", "--moves", "U,R", "--max-depth", "2", "-o", str(page))
    assert code == 0 and "2x2x2 <U, R>" in err and page.exists()
    for args, message in [
        (("bfs", "sliding-3x3", "--moves", "U"), "--moves keeps some of a permutation puzzle's moves (FILE.tws,"
                                                  " pocket-..., pancake-...): sliding-3x3 is not one"),
        (("bfs", "2x2x2.tws", "--moves", "U,Q"), "2x2x2: no move named 'Q'; its moves: U, R, F, D, L, B"),
        (("solve", "2x2x2.tws", "--moves", "U,R", "--start", "F"), "move names: U U2 U' R R2 R'"),
        (("solve", "eight", "--sample", "--moves", "U"), "--method, --max-depth and --moves go with --start"),
        (("batch", "eight", str(instances), "--moves", "U"), "--moves turns a permutation puzzle by some of its"),
        (("solve", "2x2x2.tws", str(instances)), "2x2x2.tws is a puzzle, not a problem with a judge format: solve one"
                                                  " instance with `vecsearch solve 2x2x2.tws --start STATE`, a file of"
                                                  " them with `vecsearch batch 2x2x2.tws FILE` (JSON lines, or"
                                                  " twsearch's scramble file)"),
    ]:
        code, out, err = run(*args)
        assert code == 2 and out == "" and message in err and "Traceback" not in err, (args, err)


def test_warm_up_databases_names_the_pattern_databases_a_puzzle_has():
    code, out, err = run("warm-up", "sliding-3x3", "--databases", "pdb78")
    assert (code, out) == (2, "") and "sliding-3x3 has no pattern databases 'pdb78'; it has: pdb" in err
    code, _, err = run("warm-up", "sliding-4x4", "--databases", "manhattan")
    assert code == 2 and "it has: pdb, pdb78, pdb663" in err


def test_warm_up_builds_pattern_databases(tmp_path, monkeypatch):
    import vecsearch as vs
    from vecsearch.engine.runtime import saved_arrays

    monkeypatch.setattr(saved_arrays, "cache_dir", lambda: tmp_path)  # the databases' folder, empty (not the kernels')
    vs.clear_caches("heuristics")
    code, out, err = run("warm-up", "sliding-3x3", "--databases", "pdb")
    assert code == 0 and "additive pattern databases 4-4 + reflected lookup: 0 MiB, built in" in out, err
    assert len(list((tmp_path / "pdb").glob("*.npy"))) == 3  # two patterns, and the partition's file


def test_warm_up_builds_the_distance_table_that_later_batches_map(tmp_path, monkeypatch):
    import vecsearch as vs
    from vecsearch.engine.tables import distance

    monkeypatch.setattr(distance, "cache_dir", lambda: tmp_path)  # the tables' folder, empty (not the kernels')
    vs.clear_caches("distance_tables")
    try:
        code, out, err = run("warm-up", "sliding-2x3", "--table")
        saved = next((tmp_path / "tables").glob("sliding-2x3-bytes-*.npy"))
        assert code == 0 and "sliding-2x3      distance table (bytes): 0 MiB, built in" in out, err
        assert str(saved) in out
        vs.clear_caches("distance_tables")  # as in a later process
        code, out, err = run("batch", "sliding-2x3", "-", "--method", "table",
                             stdin='{"id": 1, "start": "x 5 4 3 2 1"}')
        assert code == 0 and json.loads(out)["length"] == 15 and vs.distance_table("sliding-2x3").loaded, err
        code, out, err = run("warm-up", "gap", "--table")
        assert (code, out) == (2, "") and err == ("vecsearch: error: --table: method 'table' needs predecessors (or"
                                                  " reversible moves) and a rank; gap has not\n")
        for option in (["--table"], ["--databases", "pdb"]):  # for the puzzles named only
            code, out, err = run("warm-up", "--all", *option)
            assert (code, out) == (2, "") and err == (f"vecsearch: error: {option[0]} builds for the puzzles named"
                                                      " (--all names none): name them\n")
    finally:
        vs.clear_caches("distance_tables")
