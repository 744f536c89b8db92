"""Checkpoints: a search stopped at any layer (Ctrl-C, a callback, a depth limit) and resumed
gives the same counts and farthest states as one that ran straight through."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from command_line import HANG

import vecsearch as vs
from vecsearch.engine.runtime import checkpoint as checkpoints


def stop_at(depth):
    def on_layer(record):
        if record.depth == depth:
            raise KeyboardInterrupt

    return on_layer


@pytest.mark.parametrize("name,mode,stops", [
    ("pocket-htm", "twobit", [0, 4, 10]),
    ("pocket-htm", "layers", [1, 7]),
    ("sliding-3x3", "twobit", [5, 29]),
    ("sliding-3x3", "layers", [0, 12, 30]),
])
def test_resume_after_interruptions_at_several_depths(name, mode, stops, tmp_path):
    straight = vs.bfs(name, mode=mode)
    directory = tmp_path / "ck"
    for number, depth in enumerate(stops):
        options = dict(resume=directory) if number else dict(checkpoint=directory, mode=mode)
        with pytest.raises(vs.SearchInterrupted) as stop:
            vs.bfs(name, on_layer=stop_at(depth), **options)
        assert stop.value.result.depth == depth and stop.value.checkpoint == directory
        assert stop.value.result.layer_sizes == straight.layer_sizes[:depth + 1]
    resumed = vs.bfs(name, resume=directory)
    assert resumed.layer_sizes == straight.layer_sizes and resumed.complete
    assert [r.depth for r in resumed.profile.records] == [r.depth for r in straight.profile.records]
    assert {int(s) for s in resumed.last_layer.states} == {int(s) for s in straight.last_layer.states}
    assert vs.bfs(name, resume=directory).layer_sizes == straight.layer_sizes  # a finished search resumes as is


def test_a_depth_limit_then_resume_continues_where_it_stopped(tmp_path):
    directory = tmp_path / "ck"
    first = vs.bfs("pancake-8", mode="twobit", max_depth=4, checkpoint=directory)
    assert not first.complete and first.depth == 4
    second = vs.bfs("pancake-8", resume=directory, max_depth=7)
    assert second.depth == 7 and [r.depth for r in second.profile.records] == list(range(8))
    assert vs.bfs("pancake-8", resume=directory).layer_sizes == vs.bfs("pancake-8").layer_sizes


@pytest.mark.parametrize("options", [dict(mode="twobit"), dict(mode="layers"), dict(segments=2)],
                         ids=["twobit", "layers", "partitioned"])
def test_a_search_saved_past_the_depth_limit_asked_is_not_resumed_as_if_within_it(tmp_path, options):
    directory = tmp_path / "ck"
    vs.bfs("pancake-7", max_depth=5, checkpoint=directory, **options)
    with pytest.raises(vs.VecsearchError, match=f"^the search in {directory} reached depth 5, past max_depth 3:"
                                                f" resume it with a max_depth of 5 or more, or none$"):
        vs.bfs("pancake-7", resume=directory, max_depth=3)  # it answered with depths 0..5
    assert vs.bfs("pancake-7", resume=directory, max_depth=5).depth == 5


def test_checkpoint_files_are_one_generation_written_atomically(tmp_path):
    directory = tmp_path / "ck"
    vs.bfs("pancake-7", mode="twobit", checkpoint=directory)
    meta = json.loads((directory / checkpoints.MANIFEST).read_text())
    assert meta["format"] == checkpoints.FORMAT and meta["puzzle"] == "pancake-7" and meta["mode"] == "twobit"
    assert sorted(os.listdir(directory)) == sorted([checkpoints.MANIFEST] + list(meta["arrays"].values()))
    assert set(meta["arrays"]) == {"table", "counts", "newest", "starts"}
    assert [r["states"] for r in meta["records"]] == vs.bfs("pancake-7").layer_sizes


def test_resume_refuses_another_puzzle_mode_or_start(tmp_path):
    directory = tmp_path / "ck"
    vs.bfs("pancake-6", mode="layers", checkpoint=directory, max_depth=2)
    with pytest.raises(vs.VecsearchError, match="is for puzzle 'pancake-6', not 'pancake-7'"):
        vs.bfs("pancake-7", resume=directory)
    with pytest.raises(vs.VecsearchError, match="continues a layers search, not twobit"):
        vs.bfs("pancake-6", resume=directory, mode="twobit")
    with pytest.raises(vs.VecsearchError, match="from other start states"):
        vs.bfs("pancake-6", "2 1 3 4 5 6", resume=directory)
    with pytest.raises(vs.VecsearchError, match="no checkpoint in"):
        vs.bfs("pancake-6", resume=tmp_path / "nothing-here")
    manifest = directory / checkpoints.MANIFEST
    manifest.write_text(manifest.read_text().replace(checkpoints.FORMAT, "vecsearch-checkpoint-1"))
    with pytest.raises(vs.VecsearchError, match=r"earlier vecsearch \(vecsearch-checkpoint-1\), whose ranks"):
        vs.bfs("pancake-6", resume=directory)


@pytest.mark.slow  # a process interrupted and run again
def test_ctrl_c_stops_the_command_cleanly_and_resume_finishes_it(tmp_path):
    directory = tmp_path / "ck"
    command = ["bfs", "pancake-8", "--mode", "twobit", "--threads", "1"]
    held = [sys.executable, str(Path(__file__).parent / "held.py"), "depth", "4"]  # held after depth 4 (held.py)
    manifest = directory / checkpoints.MANIFEST
    deadline = time.monotonic() + HANG
    process = subprocess.Popen(held + command + ["--checkpoint", str(directory)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:  # the process never outlives the test
        while not (manifest.exists() and json.loads(manifest.read_text())["depth"] >= 4):
            assert time.monotonic() < deadline, f"the search was not held within {HANG} s"
            assert process.poll() is None, f"the search ended before it was held:\n{process.stderr.read()}"
            time.sleep(0.01)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=HANG)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, err
    assert f"--resume {directory}" in err and "Traceback" not in err
    assert "interrupted after depth 4;" in err
    assert f"total {sum(vs.bfs('pancake-8', max_depth=4).layer_sizes):,} states" in out
    done = subprocess.run([sys.executable, "-m", "vecsearch", *command, "--resume", str(directory), "--csv"],
                          capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    counts = [int(line.split(",")[2]) for line in done.stdout.splitlines()[1:]]
    assert counts == vs.bfs("pancake-8", mode="twobit").layer_sizes


def test_resume_refuses_a_two_bit_table_whose_cells_mean_distances_mod_3(tmp_path):
    directory = tmp_path / "ck"
    vs.bfs("pancake-6", mode="twobit", checkpoint=directory, max_depth=2)
    path = directory / checkpoints.MANIFEST
    meta = json.loads(path.read_text())
    assert meta["cells"] == "frontier"
    del meta["cells"]  # as written before the cells held the frontier
    path.write_text(json.dumps(meta))
    with pytest.raises(vs.VecsearchError, match="written by an earlier vecsearch"):
        vs.bfs("pancake-6", resume=directory)


def test_paced_two_bit_checkpoints_lag_then_resume_to_equal_counts(tmp_path, monkeypatch):
    """A two-bit table slow to write is written less often: a run killed between writes leaves an
    older layer, and resuming from it repeats the layers since and gives the straight counts; an
    interruption between layers and the end of a search write the last layer still."""
    monkeypatch.setattr(checkpoints, "SLOW_WRITE", 0.0)  # every write counts as slow
    monkeypatch.setattr(checkpoints, "WRITE_SHARE", 1e-9)  # and the next one is due only after ages
    straight = vs.bfs("pancake-8", mode="twobit")
    directory, killed = tmp_path / "ck", tmp_path / "killed"
    manifest = directory / checkpoints.MANIFEST
    written = []

    def kill_at_5(record):
        written.append(json.loads(manifest.read_text())["depth"])
        if record.depth == 5:  # what a kill now would leave behind
            shutil.copytree(directory, killed)

    finished = vs.bfs("pancake-8", mode="twobit", checkpoint=directory, on_layer=kill_at_5)
    assert finished.layer_sizes == straight.layer_sizes
    assert written == [0] * len(straight.layer_sizes)  # only the start layer, until the end
    assert json.loads(manifest.read_text())["depth"] == straight.depth  # the end is written
    assert json.loads((killed / checkpoints.MANIFEST).read_text())["depth"] == 0
    stopped = tmp_path / "stopped"
    shutil.copytree(killed, stopped)
    assert vs.bfs("pancake-8", resume=killed).layer_sizes == straight.layer_sizes
    with pytest.raises(vs.SearchInterrupted):  # a stop between layers writes the last one
        vs.bfs("pancake-8", resume=stopped, on_layer=stop_at(6))
    assert json.loads((stopped / checkpoints.MANIFEST).read_text())["depth"] == 6
    assert vs.bfs("pancake-8", resume=stopped).layer_sizes == straight.layer_sizes


def test_a_two_bit_table_is_read_into_place_in_chunks_and_a_truncated_one_is_refused(tmp_path, monkeypatch):
    """Resuming reads the saved table straight into the search's own (never a second copy of a
    table as large as memory), chunk by chunk; a table file cut short is a damaged checkpoint."""
    monkeypatch.setattr(checkpoints.Stored, "CHUNK", 1000)  # many reads, none a whole number of words
    directory = tmp_path / "ck"
    with pytest.raises(vs.SearchInterrupted):
        vs.bfs("pancake-8", mode="twobit", checkpoint=directory, on_layer=stop_at(5))
    meta, arrays = checkpoints.load(directory, deferred=("table",))
    stored = arrays["table"]
    assert isinstance(stored, checkpoints.Stored) and stored.shape == np.load(directory / meta["arrays"]["table"]).shape
    assert vs.bfs("pancake-8", resume=directory).layer_sizes == vs.bfs("pancake-8", mode="twobit").layer_sizes
    table = directory / json.loads((directory / checkpoints.MANIFEST).read_text())["arrays"]["table"]
    table.write_bytes(table.read_bytes()[:-8])
    with pytest.raises(vs.VecsearchError, match="is damaged: .* ends before its array does"):
        vs.bfs("pancake-8", resume=directory)


@pytest.mark.parametrize("mode", ["layers", "twobit", "partitioned"])
def test_a_directory_that_cannot_be_written_is_refused_before_the_first_layer(tmp_path, mode):
    from command_line import run

    a_file = tmp_path / "a-file"
    a_file.write_text("")
    layers = []
    options = dict(segments=2) if mode == "partitioned" else dict(mode=mode)
    for directory, expected in ((a_file, "it is a file, not a directory"), (a_file / "below", "Not a directory")):
        with pytest.raises(vs.VecsearchError, match=f"cannot write checkpoints to {directory}: {expected}"):
            vs.bfs("pancake-6", checkpoint=directory, on_layer=layers.append, **options)
    assert layers == []
    option = ["--segments", "2", "--spill"] if mode == "partitioned" else ["--mode", mode, "--checkpoint"]
    code, out, err = run("bfs", "pancake-6", *option, str(a_file / "below"))
    what = "the search's tables" if mode == "partitioned" else "checkpoints"
    assert (code, out) == (2, "") and err.endswith(f"vecsearch: error: cannot write {what} to {a_file / 'below'}:"
                                                   " Not a directory\n")


def test_a_checkpoint_the_disk_refuses_stops_the_search_naming_it_and_leaves_the_last_one_whole(tmp_path,
                                                                                                monkeypatch):
    directory = tmp_path / "ck"
    vs.bfs("pancake-6", mode="twobit", checkpoint=directory, max_depth=2)
    before = checkpoints.load(directory)[0]
    real_write = checkpoints._write

    def full_disk(path, write):
        if path.suffix == ".npy":
            raise OSError(28, "No space left on device")
        real_write(path, write)

    monkeypatch.setattr(checkpoints, "_write", full_disk)
    with pytest.raises(vs.VecsearchError, match=f"cannot write the checkpoint to {directory}: No space left on"
                                                " device .the one written before it, if any, is whole."):
        vs.bfs("pancake-6", mode="twobit", checkpoint=directory, resume=directory)
    monkeypatch.undo()
    assert checkpoints.load(directory)[0] == before
    assert vs.bfs("pancake-6", mode="twobit", resume=directory).layer_sizes == vs.bfs("pancake-6").layer_sizes
