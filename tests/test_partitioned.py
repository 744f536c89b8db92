"""The partitioned two-bit search: the same layer counts as a plain search on threads, on a dask
LocalCluster, out of core, after a worker is killed, and after the client is stopped and resumed."""

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from clusters import wait_for_workers
from command_line import HANG
from distributed.comm.core import CommClosedError
from reference import bfs_layers, pancake_neighbours, sliding_goal, sliding_neighbours

import vecsearch as vs
from vecsearch.engine.twobit import segments
from vecsearch.engine.twobit.segment_tasks import new_table, warm

SWAP_TWS = "Name swap\nSet S 6 2\nMove X\nS\n2 1 3 4 5 6\n1 0 0 0 0 0\nEnd\nMove C\nS\n2 3 4 5 6 1\nEnd\n"


def reference_sizes(start, neighbours):
    return [len(layer) for layer in bfs_layers([start], neighbours)]


@pytest.fixture
def client(cluster_client):
    return cluster_client


def test_segments_on_threads_count_what_the_reference_counts():
    pancakes = vs.bfs("pancake-7", segments=5, threads=2)
    assert pancakes.layer_sizes == reference_sizes(tuple(range(1, 8)), pancake_neighbours(7))
    assert {r.method for r in pancakes.profile.records[1:]} == {"push", "pull"}  # both ways of making a layer
    sliding = vs.bfs("sliding-2x4", segments=3, threads=2)
    assert sliding.layer_sizes == reference_sizes(sliding_goal(2, 4), sliding_neighbours(2, 4))
    assert sliding.complete and isinstance(sliding.profile.records[-1], vs.engine.results.profile.PartitionedRecord)


def test_a_segment_count_that_means_nothing_is_refused_and_a_small_table_takes_fewer(tmp_path):
    for count in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match=rf"^segments must be a whole number, 1 or more .or None., not {count}$"):
            vs.bfs("pancake-7", segments=count)
    with pytest.raises(vs.VecsearchError, match=r"^pancake-7: 159 segments for a table of 158 words .32 ranks"
                                                r" each.: give at most 158$"):  # a million of them took minutes
        vs.bfs("pancake-7", segments=159)
    assert vs.bfs("pancake-7", segments=158).layer_sizes == reference_sizes(tuple(range(1, 8)), pancake_neighbours(7))
    tiny = vs.bfs("pancake-3", spill=tmp_path / "spill")  # one word: the default segments (4 a thread) are one
    assert tiny.layer_sizes == reference_sizes((1, 2, 3), pancake_neighbours(3))


@pytest.mark.slow  # searches on a cluster
def test_a_local_cluster_counts_what_the_local_search_counts(client, tmp_path):
    definition = tmp_path / "swap.tws"
    definition.write_text(SWAP_TWS)
    for name in ("sliding-3x3", "pancake-8", str(definition)):
        puzzle = vs.get_puzzle(name)
        local = vs.bfs(puzzle, mode="twobit")
        remote = vs.bfs(puzzle, client=client, segments=4)
        assert remote.layer_sizes == local.layer_sizes, name
        records = remote.profile.records[1:]
        assert sum(r.routed for r in records) > 0 and all(0 < r.slowest <= r.seconds for r in records)
    far = vs.bfs("pancake-8", client=client, keep_farthest=3).last_layer.states
    assert len(far) == 3 and all(s in set(vs.bfs("pancake-8", mode="twobit").last_layer.states) for s in far)


def test_workers_warm_up_one_per_host_first_then_the_rest():
    """The first worker of each host compiles; the others load from their host's kernel cache."""
    from vecsearch.engine.twobit.segment_tasks import warm_workers

    class Scheduler:
        @staticmethod
        def identity(n_workers):
            return {"workers": {"tcp://a:1": {"host": "a"}, "tcp://a:2": {"host": "a"}, "tcp://b:1": {"host": "b"},
                                "tcp://a:3": {"host": "a"}}}

    class Client:
        scheduler = Scheduler()

        def __init__(self):
            self.waves = []

        def sync(self, call, **kwargs):  # the scheduler's identity, as the engine asks for it
            return call(**kwargs)

        def run(self, function, job, workers):
            self.waves.append(sorted(workers))
            return {address: function(job) + len(self.waves) for address in workers}

    client = Client()
    assert warm_workers(client, lambda job: 10.0 * job, 1) == 12.0
    assert client.waves == [["tcp://a:1", "tcp://b:1"], ["tcp://a:2", "tcp://a:3"]]


def test_spilling_fits_a_table_over_the_memory_limit(tmp_path):
    puzzle = vs.get_puzzle("pancake-10")  # a table of 907,200 bytes
    with pytest.raises(vs.MemoryLimitError, match=r"over its memory limit of 512.0 KiB: give --spill DIR"):
        vs.bfs(puzzle, segments=4, max_memory="512K")
    spilled = vs.bfs(puzzle, spill=tmp_path / "spill", max_memory="512K")
    assert spilled.layer_sizes == vs.bfs(puzzle, mode="twobit").layer_sizes
    left = sorted(p.name for p in (tmp_path / "spill").iterdir())  # the last table and the state: to resume
    assert len(left) == 2 and left[0] == "search.json" and left[1].startswith("table-")


@pytest.mark.slow  # a worker killed and restarted
def test_a_worker_killed_mid_search_costs_a_redo_not_the_counts(client):
    puzzle = vs.get_puzzle("pancake-10")
    expected = vs.bfs(puzzle, mode="twobit").layer_sizes
    before = client.run(os.getpid)
    victim = min(before.values())
    killed = []

    def kill_during_the_next_layer(record):
        if record.depth == 5 and not killed:
            threading.Timer(0.02, lambda: (os.kill(victim, signal.SIGKILL), killed.append(victim))).start()

    result = vs.bfs(puzzle, client=client, segments=8, on_layer=kill_during_the_next_layer)
    assert killed and result.layer_sizes == expected
    wait_for_workers(client)  # the nanny restarts it, for the next test
    assert victim not in client.run(os.getpid).values()


@pytest.mark.slow  # a worker killed and restarted
def test_a_worker_killed_as_it_warms_up_costs_its_warm_up_not_the_search(client, tmp_path, monkeypatch):
    puzzle = vs.get_puzzle("pancake-8")
    before = client.run(os.getpid)
    killed = tmp_path / "killed"

    def warm_or_die(job):  # the first worker to warm up dies (created at once, or found made)
        try:
            os.close(os.open(killed, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return warm(job)
        os._exit(3)

    monkeypatch.setattr(segments, "warm", warm_or_die)
    result = vs.bfs(puzzle, client=client, segments=4)
    assert killed.exists() and result.layer_sizes == reference_sizes(tuple(range(1, 9)), pancake_neighbours(8))
    wait_for_workers(client)  # the nanny restarts it, for the next test
    assert len(set(before.values()) - set(client.run(os.getpid).values())) == 1


@pytest.mark.slow  # the only worker killed and restarted
def test_a_killed_worker_that_held_the_only_copy_of_the_job_costs_a_redo():
    """The job is sent to the workers once: when every worker holding it dies, it is sent
    again, else each retry of the layer waits on a lost copy."""
    from vecsearch.engine.runtime.cluster import local_cluster

    puzzle = vs.get_puzzle("pancake-8")
    expected = vs.bfs(puzzle, mode="twobit").layer_sizes
    killed = []
    with local_cluster(1) as client:
        victim = next(iter(client.run(os.getpid).values()))

        def kill_during_the_next_layer(record):
            if record.depth == 4 and not killed:
                threading.Timer(0.02, lambda: (os.kill(victim, signal.SIGKILL), killed.append(victim))).start()

        result = vs.bfs(puzzle, client=client, segments=4, on_layer=kill_during_the_next_layer)
        assert killed and result.layer_sizes == expected
        assert victim not in client.run(os.getpid).values()


def test_a_stopped_search_resumes_with_the_same_counts(tmp_path):
    puzzle = vs.get_puzzle("pancake-9")
    expected = vs.bfs(puzzle, mode="twobit").layer_sizes

    def stop_at_depth_4(record):
        if record.depth == 4:
            raise KeyboardInterrupt

    with pytest.raises(vs.SearchInterrupted) as stop:
        vs.bfs(puzzle, segments=3, checkpoint=tmp_path, on_layer=stop_at_depth_4)
    assert stop.value.checkpoint == str(tmp_path) and stop.value.result.layer_sizes == expected[:5]
    assert vs.bfs(puzzle, resume=tmp_path, segments=5).layer_sizes == expected  # any segment count


def test_a_disk_that_fills_stops_the_search_at_a_whole_layer_and_a_resume_finishes_it(tmp_path, monkeypatch):
    puzzle = vs.get_puzzle("pancake-8")
    reserve = os.posix_fallocate

    def full_from_table_4(descriptor, offset, length):  # the disk, as the new tables find it
        if os.readlink(f"/proc/self/fd/{descriptor}").endswith("table-4.bin"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        reserve(descriptor, offset, length)

    monkeypatch.setattr(os, "posix_fallocate", full_from_table_4)
    stopped = (r"^pancake-8: layer 4 could not be written \(No space left on device\);"
               rf" the layers to depth 3 are whole in {tmp_path}: make room and resume")
    with pytest.raises(vs.VecsearchError, match=stopped):
        vs.bfs(puzzle, segments=3, checkpoint=tmp_path)
    monkeypatch.undo()
    resumed = vs.bfs(puzzle, resume=tmp_path, segments=3)
    assert resumed.layer_sizes == reference_sizes(tuple(range(1, 9)), pancake_neighbours(8))

    def connection_closed(runner, depth, pull):  # dask's errors are OSErrors too, but no disk's
        raise CommClosedError("in <TCP (closed)>: Stream is closed")

    monkeypatch.setattr(segments.ThreadRunner, "layer", connection_closed)
    with pytest.raises(CommClosedError):
        vs.bfs(puzzle, segments=3)


def test_the_range_a_table_file_is_written_in_is_reserved_on_disk_and_the_rest_is_sparse(tmp_path):
    # a page of a memory-mapped file the disk cannot hold is a SIGBUS when written: reserved, a full disk is an OSError
    words = 1 << 20
    new_table(tmp_path / "table-1.bin", words, words // 4, words // 2)
    made = os.stat(tmp_path / "table-1.bin")
    assert made.st_size == 8 * words
    assert 8 * words // 4 <= 512 * made.st_blocks < 8 * words // 2


@pytest.mark.slow  # a client process killed and run again
def test_a_killed_client_process_resumes_from_its_last_layer(tmp_path):
    command = [sys.executable, "-m", "vecsearch", "bfs", "pancake-10", "--segments", "4", "--csv"]
    state = tmp_path / "search.json"
    child = subprocess.Popen(command + ["--checkpoint", str(tmp_path)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline and child.poll() is None:
        if state.exists() and len(json.loads(state.read_text())["records"]) > 5:
            break
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    stopped_at = len(json.loads(state.read_text())["records"]) - 1
    done = subprocess.run(command + ["--resume", str(tmp_path)], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    counts = [int(row.split(",")[2]) for row in done.stdout.splitlines()[1:]]
    assert 5 <= stopped_at < len(counts) - 1 and counts == vs.bfs("pancake-10", mode="twobit").layer_sizes


def _tables_built():
    from vecsearch.engine.runtime.caches import DISTANCE_TABLES

    return len(DISTANCE_TABLES)


def test_group_by_start_sends_each_starts_instances_to_one_worker():
    import numpy as np

    from vecsearch.engine.batch.distributed import group_by_start
    from vecsearch.engine.batch.instances import Instances

    starts = np.array([5, 3, 5, 7, 3, 5, 9, 9, 5, 1, 5, 5, 5], np.int64)
    chunks = group_by_start(Instances(list(range(len(starts))), starts), 3, 2)
    assert sorted(np.concatenate([positions for positions, _ in chunks]).tolist()) == list(range(len(starts)))
    assert all(len(positions) <= 3 for positions, _ in chunks)
    owners = {}
    for positions, worker in chunks:
        for start in starts[positions].tolist():
            assert owners.setdefault(start, worker) == worker  # every chunk of a start: one worker
    assert {w: sum(len(p) for p, v in chunks if v == w) for w in (0, 1)} == {0: 7, 1: 6}  # balanced


def test_a_batch_on_a_cluster_builds_each_starts_table_once(client):
    """Work stealing is off on the shared cluster (tests/conftest.py): each chunk runs where it
    was sent."""
    import random

    puzzle = vs.get_puzzle("sliding-2x4")
    rng = random.Random(5)
    starts = [" ".join(map(str, rng.sample(range(8), 8))) for _ in range(6)]
    goals = [" ".join(map(str, rng.sample(range(8), 8))) for _ in range(240)]
    items = [{"id": i, "start": starts[i % 6], "goal": goal} for i, goal in enumerate(goals)]  # starts interleaved
    local = vs.solve_many(puzzle, items, method="start-tables", chunk_size=25)
    client.run(vs.clear_caches, "distance_tables")  # a shared cluster: only this batch's tables counted
    remote = vs.solve_many(puzzle, items, method="start-tables", chunk_size=25, client=client)
    built = sum(client.run(_tables_built).values())
    assert remote.lengths.tolist() == local.lengths.tolist() and list(remote.ids) == list(local.ids)
    assert all(remote.moves_of(i) == local.moves_of(i) for i in range(len(items)))
    assert built == 6  # one per distinct start in the whole cluster (without grouping: 12; stealing may add some)


@pytest.mark.slow  # a process starting a cluster
def test_the_command_line_runs_a_local_cluster_and_says_what_spilling_takes(tmp_path):
    from command_line import run

    # one worker: the command starts a cluster of its own (the counts on two: the tests above)
    code, out, err = run("bfs", "pancake-7", "--workers", "1", "--segments", "3", "--spill", str(tmp_path), "--csv")
    assert code == 0 and out.splitlines()[0].endswith(",routed,slowest")
    assert [int(row.split(",")[2]) for row in out.splitlines()[1:]] == vs.bfs("pancake-7", mode="twobit").layer_sizes
    assert f"pancake-7: spilling to {tmp_path}: two tables of 1.2 KiB on disk" in err


def test_the_command_lines_cluster_waits_for_a_lost_worker_as_long_as_a_search_does(monkeypatch):
    """dask's ``LocalCluster`` closes a lost worker's nanny after ``lost-worker-timeout`` (15 s by
    default): a worker that took longer to restart on a busy machine never came back. The
    cluster of ``--workers`` keeps it for as long as an owner-local search waits for an owner."""
    import dask
    import distributed

    from vecsearch.engine.runtime.cluster import WORKER_WAIT, local_cluster

    made = {}

    class Recorded:  # records how the cluster was asked for, and while its config held what
        def __init__(self, *args, **kwargs):
            made[type(self).__name__] = (args, kwargs)

        def __enter__(self):
            made["timeout"] = dask.config.get("distributed.deploy.lost-worker-timeout")
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(distributed, "LocalCluster", type("LocalCluster", (Recorded,), {}))
    monkeypatch.setattr(distributed, "Client", type("Client", (Recorded,), {}))
    with local_cluster(3):
        pass
    assert made["LocalCluster"][1]["n_workers"] == 3 and made["LocalCluster"][1]["threads_per_worker"] == 1
    assert dask.utils.parse_timedelta(made["timeout"]) == WORKER_WAIT >= 60
    assert dask.config.get("distributed.deploy.lost-worker-timeout") != made["timeout"]  # only while it lives
