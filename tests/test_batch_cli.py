"""`vecsearch batch`: resuming after a real kill (of a separate process), exit codes, and a dask
LocalCluster run equal to the local one."""

import errno
import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import held
import pytest
from command_line import HANG, run

from vecsearch import batch_io

HELD_SCRIPT = Path(__file__).parent / "held.py"
CHUNK = 10  # instances per chunk of the killed runs


def eight_file(path, count, seed=1):
    rng = random.Random(seed)
    cells = list(range(9))
    lines = []
    for _ in range(count):
        rng.shuffle(cells)
        lines.append(" ".join(str(t) if t else "x" for t in cells))
    path.write_text("\n".join(lines) + "\n")
    return path


def kill_midway(args, out, chunks):
    """Run ``vecsearch batch ARGS`` held after that many chunks (see held.py), SIGKILL it
    once it says it is held; return the number of lines ``out`` then holds."""
    process = subprocess.Popen([sys.executable, str(HELD_SCRIPT), "chunks", str(chunks), "batch", *args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(HANG, process.kill)  # a hung run fails the test instead of blocking it
    timer.start()
    try:  # the process never outlives the test
        said = []
        for line in process.stderr:  # ends when the process does
            said.append(line)
            if line.rstrip("\n") == held.HELD:
                process.send_signal(signal.SIGKILL)
                break
        assert said and said[-1].rstrip("\n") == held.HELD, f"the batch ended before it was held:\n{''.join(said)}"
    finally:
        timer.cancel()
        process.kill()
        process.wait()
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    return out.read_bytes().count(b"\n")


@pytest.mark.slow  # processes killed and run again
@pytest.mark.parametrize("fmt", ["jsonl", "judge"])
def test_a_killed_run_resumes_to_the_complete_duplicate_free_result(tmp_path, fmt):
    count = 200
    source = eight_file(tmp_path / "in.txt", count)
    slow = ["eight", "--method", "bidirectional", "--chunk-size", str(CHUNK), "--format", fmt]  # many small chunks
    out = tmp_path / f"out.{fmt}"
    assert kill_midway([*slow, str(source), "-o", str(out)], out, 5) == 5 * CHUNK  # killed while held after chunk 5
    code, _, err = run("batch", *slow, str(source), "-o", str(out))
    unit = "instances" if fmt == "jsonl" else "cases"
    assert (code, err) == (0, f"vecsearch: resuming {out}: {5 * CHUNK} of {count} {unit} already answered\n")
    clean = tmp_path / f"clean.{fmt}"
    assert run("batch", *slow, str(source), "-o", str(clean))[0] == 0
    if fmt == "judge":
        assert out.read_text() == clean.read_text()
        return
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == list(range(1, count + 1))  # every id once
    expected = {r["id"]: (r["length"], r.get("moves")) for r in map(json.loads, clean.read_text().splitlines())}
    assert {r["id"]: (r["length"], r.get("moves")) for r in records} == expected


def test_exit_codes_and_messages(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("1 2 3 4 5 6 7 x 8\n1 2 3 q 5 6 7 8 x\n1 2 3 4 5 6 x 7 8\n")
    code, out, err = run("batch", "eight", str(source), "--format", "judge")
    assert (code, out) == (2, "r\nerror\nrr\n")  # the bad case keeps its place: answers stay aligned
    assert err == f"vecsearch: {source}: case 2, line 2: token 4 is 'q'; expected a tile 1..8 or x\n"  # located once
    assert run("solve", "eight", str(source))[:2] == (code, out)  # solve and batch agree on bad cases
    code, out, err = run("batch", "sliding-3x3", str(source), "--format", "judge")
    assert code == 2 and "no judge format" not in err
    code, out, err = run("batch", "eight", "-", "--format", "judge", stdin='{"id": 1, "start": "1 2 3 4 5 6 7 8 x"}\n')
    assert code == 2
    assert err == "vecsearch: error: --format judge needs a problem's judge-format input (see `vecsearch list`)\n"
    code, out, err = run("batch", "eight", "-", stdin='{"id": 1, "start": "1 2 3 4 5 6 7 x 8"}\n')
    assert code == 0 and json.loads(out)["moves"] == "r"
    jsonl = '{"id": 1, "start": "1 2 3 4 5 6 7 x 8"}\n{"id": 2\n{"start": "1 2 3 4 5 6 7 8 8"}\n{"id": "b"}\n'
    code, out, err = run("batch", "eight", "-", stdin=jsonl)
    assert code == 2 and err.splitlines() == [  # the input named, not the puzzle
        "vecsearch: standard input: line 2: not JSON (Expecting ',' delimiter at column 9)",
        'vecsearch: standard input: instance "b": line 4: expected an object with "start" (and "id", "goal")',
        "vecsearch: standard input: instance 3: tile 8 appears twice (tokens 8 and 9)",
    ]
    code, out, err = run("batch", "eight", "-", "--method", "magic", stdin="1 2 3 4 5 6 7 8 x\n")
    assert code == 2 and "invalid choice: 'magic'" in err


@pytest.mark.parametrize("fmt", ["jsonl", "judge"])
def test_an_output_that_cannot_be_written_is_named_and_a_full_disk_keeps_the_answers_before_it(tmp_path, monkeypatch,
                                                                                             fmt):
    source = eight_file(tmp_path / "in.txt", 6)
    args = ["eight", str(source), "--chunk-size", "2", "--format", fmt]
    for out, reason in ((tmp_path, "Is a directory"), (tmp_path / "no" / "out", "No such file or directory")):
        assert run("batch", *args, "-o", str(out)) == (2, "", f"vecsearch: error: cannot write {out}: {reason}\n")
    out = tmp_path / "out"
    chunks = batch_io.iter_many

    def disk_full_after_two_chunks(*given, **options):
        for number, chunk in enumerate(chunks(*given, **options)):
            if number == 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            yield chunk

    monkeypatch.setattr(batch_io, "iter_many", disk_full_after_two_chunks)
    code, _, err = run("batch", *args, "-o", str(out))
    assert (code, err) == (2, f"vecsearch: error: cannot write {out}: No space left on device; the answers before are"
                              " kept: run the same command again to resume\n")
    assert out.read_bytes().count(b"\n") == 4
    monkeypatch.undo()
    code, _, err = run("batch", *args, "-o", str(out))
    unit = "instances" if fmt == "jsonl" else "cases"
    assert (code, err) == (0, f"vecsearch: resuming {out}: 4 of 6 {unit} already answered\n")
    clean = tmp_path / "clean"
    assert run("batch", *args, "-o", str(clean))[0] == 0
    if fmt == "judge":
        assert out.read_text() == clean.read_text()
    else:
        assert sorted(json.loads(line)["id"] for line in out.read_text().splitlines()) == list(range(1, 7))


def test_the_cli_offers_every_method_of_the_registry():
    from vecsearch.cli import build_parser
    from vecsearch.engine.batch.methods import METHODS

    parser = build_parser()
    for name in ("auto", *METHODS):
        assert parser.parse_args(["batch", "eight", "in.txt", "--method", name]).method == name


@pytest.mark.slow  # a batch on a cluster
def test_dask_local_cluster_equals_the_local_run(tmp_path, cluster_client):
    import vecsearch as vs
    from vecsearch.batch_io import run_jsonl
    from vecsearch.engine.batch.instances import instances_from

    rng = random.Random(3)
    puzzle = vs.get_puzzle("sliding-2x4")
    cells = list(range(8))
    items = []
    for i in range(400):
        rng.shuffle(cells)
        start = " ".join(map(str, cells))
        rng.shuffle(cells)
        items.append({"id": i, "start": start, "goal": " ".join(map(str, cells)) if i % 2 else None})
    local = vs.solve_many(puzzle, items, chunk_size=50)
    remote = vs.solve_many(puzzle, items, chunk_size=50, client=cluster_client)
    out = tmp_path / "out.jsonl"
    instances, _ = instances_from(puzzle, items)
    assert run_jsonl(puzzle, instances, [], str(out), chunk_size=50, client=cluster_client) == len(items)
    assert list(remote.ids) == list(local.ids)
    assert remote.lengths.tolist() == local.lengths.tolist()
    assert all(remote.moves_of(i) == local.moves_of(i) for i in range(len(items)))
    streamed = {r["id"]: r["length"] for r in map(json.loads, out.read_text().splitlines())}
    assert streamed == {i: (None if n < 0 else n) for i, n in zip(local.ids, local.lengths.tolist(), strict=True)}


@pytest.mark.slow  # a local cluster of two worker processes
def test_workers_solve_on_a_local_cluster_what_the_local_run_solves(tmp_path):
    source = eight_file(tmp_path / "in.txt", 60, seed=5)
    local = run("batch", "eight", str(source), "--format", "judge")
    code, out, err = run("batch", "eight", str(source), "--format", "judge", "--workers", "2", "--chunk-size", "15")
    assert (code, err) == (0, "") and local[0] == 0
    assert out == local[1] and len(out.splitlines()) == 60
    code, _, err = run("batch", "eight", str(source), "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "argument --scheduler: not allowed with argument --workers" in err
