"""Owner-local tables: each segment's tables only on its owner's directory (and memory), children
routed between workers unfiltered, late layers pulled by asking the owners of parents outside a
segment. On a LocalCluster whose workers are given separate directories and no shared one: the
counts of the plain search, after a worker is killed, and after the client is killed and
resumed."""

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
from reference import bfs_layers, pancake_neighbours
from test_partitioned import SWAP_TWS

import vecsearch as vs
from vecsearch.engine.runtime.cluster import cluster_workers


@pytest.fixture
def client(cluster_client):
    return cluster_client


HANG_LOST_RESULTS = 180  # seconds: a search that has not finished by then waits for results that will never come


def owned_files(root):
    """{worker directory: {segment directory: table files}} under ``root``."""
    return {d.name: {s.name: sorted(f.name for f in s.iterdir()) for s in d.iterdir()}
            for d in sorted(root.iterdir()) if d.name.startswith("disk-")}


@pytest.mark.slow  # a cluster's search of three puzzles
def test_each_segment_lives_only_in_its_owners_directory(client, tmp_path):
    definition = tmp_path / "swap.tws"
    definition.write_text(SWAP_TWS)
    for name in ("pancake-8", "sliding-2x3", str(definition)):
        puzzle = vs.get_puzzle(name)
        run = tmp_path / name.replace("/", "_")
        result = vs.bfs(puzzle, client=client, owner_local=True, segments=4, spill=str(run / "disk-{worker}"),
                        checkpoint=run / "client")
        assert result.layer_sizes == vs.bfs(puzzle, mode="twobit").layer_sizes, name
        assert sum(r.routed for r in result.profile.records) > 0
        assert sorted(p.name for p in (run / "client").iterdir()) == ["search.json"]  # the client's state only
        depth = result.depth
        table = [f"table-{depth}.bin"]
        assert owned_files(run) == {"disk-0": {"segment-0": table, "segment-2": table},
                                    "disk-1": {"segment-1": table, "segment-3": table}}
        words = (puzzle.rank_size + 31) // 32
        for table in run.glob("disk-*/segment-*/table-*.bin"):  # sparse: its own quarter, not the whole table
            assert table.stat().st_size == 8 * words and table.stat().st_blocks * 512 <= 2 * words + 8192
    far = vs.bfs("pancake-8", client=client, owner_local=True, segments=2, keep_farthest=3).last_layer.states
    assert far.tolist() == vs.bfs("pancake-8", segments=2, keep_farthest=3).last_layer.states.tolist()


@pytest.mark.slow  # a cluster's search, twice
def test_late_layers_pull_by_asking_the_owners_of_parents(client, tmp_path):
    for n, segments in ((8, 4), (7, 3)):  # 7! ranks: the last word is part full, and so is the last segment
        expected = [len(layer) for layer in bfs_layers([tuple(range(1, n + 1))], pancake_neighbours(n))]
        result = vs.bfs(f"pancake-{n}", client=client, owner_local=True, segments=segments,
                        spill=str(tmp_path / f"{n}" / "disk-{worker}"))
        methods = [r.method for r in result.profile.records[1:]]
        assert "push" in methods and "pull" in methods
        assert result.layer_sizes == expected, n


def test_many_small_rounds_of_a_layer_count_the_same(tmp_path, monkeypatch):
    """Rounds of a few children each, pushed and pulled (an in-process cluster, so that the
    round sizes set here hold in its workers)."""
    import distributed

    from vecsearch.engine.twobit import owned_tables

    monkeypatch.setattr(owned_tables, "ROUND_CHILDREN", 64)
    monkeypatch.setattr(owned_tables, "ASK_WORDS", 2)
    expected = [len(layer) for layer in bfs_layers([tuple(range(1, 8))], pancake_neighbours(7))]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") \
            as cluster, distributed.Client(cluster) as client:
        result = vs.bfs("pancake-7", client=client, owner_local=True, segments=4,
                        spill=str(tmp_path / "disk-{worker}"))
    assert {r.method for r in result.profile.records[1:]} == {"push", "pull"}
    assert result.layer_sizes == expected


def test_owner_local_needs_a_cluster():
    with pytest.raises(vs.VecsearchError, match="owner-local tables live on the workers of a dask cluster"):
        vs.bfs("pancake-5", owner_local=True)


@pytest.mark.slow  # a worker killed and restarted (about 8 s)
def test_a_worker_killed_mid_search_costs_a_redo_not_the_counts(client, tmp_path):
    expected = [len(layer) for layer in bfs_layers([tuple(range(1, 10))], pancake_neighbours(9))]
    victim = min(client.run(os.getpid).values())
    killed = []

    def kill_during_the_next_layer(record):
        if record.depth == 5 and not killed:
            threading.Timer(0.02, lambda: (os.kill(victim, signal.SIGKILL), killed.append(victim))).start()

    result = vs.bfs("pancake-9", client=client, owner_local=True, spill=str(tmp_path / "disk-{worker}"),
                    checkpoint=tmp_path / "client", on_layer=kill_during_the_next_layer)
    assert killed and result.layer_sizes == expected
    wait_for_workers(client)  # the nanny restarts it, for the next test
    assert victim not in client.run(os.getpid).values()


@pytest.mark.slow  # a worker killed and restarted
def test_an_owner_killed_between_its_tasks_and_their_gather_costs_a_redo(client, tmp_path, monkeypatch):
    """The owner of half the segments dies after its tasks of a round, before the client has
    their results: the results are lost with it, and the tasks that made them may run on it only.
    The search must notice, not wait for them."""
    import distributed

    expected = [len(layer) for layer in bfs_layers([tuple(range(1, 9))], pancake_neighbours(8))]
    victim_address, victim = min(client.run(os.getpid).items(), key=lambda item: item[1])
    armed, killed, outcome = [], [], []
    gather = client.gather

    def gather_once_its_owner_is_dead(futures, *args, **kwargs):
        if armed and not killed:
            distributed.wait(list(futures.values()) if isinstance(futures, dict) else futures)
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
            deadline = time.monotonic() + 60
            while victim_address in cluster_workers(client) and time.monotonic() < deadline:
                time.sleep(0.05)
        return gather(futures, *args, **kwargs)

    def arm_from_layer_3(record):
        if record.depth >= 3:
            armed.append(record.depth)

    def search():
        try:
            outcome.append(vs.bfs("pancake-8", client=client, owner_local=True, segments=4,
                                  spill=str(tmp_path / "disk-{worker}"), on_layer=arm_from_layer_3))
        except BaseException as error:  # the test's thread reports it
            outcome.append(error)

    monkeypatch.setattr(client, "gather", gather_once_its_owner_is_dead)
    searching = threading.Thread(target=search, daemon=True)
    searching.start()
    searching.join(HANG_LOST_RESULTS)
    assert killed and not searching.is_alive(), "the search still waits for results lost with their owner"
    assert outcome[0].layer_sizes == expected
    wait_for_workers(client)  # the nanny restarts it, for the next test


@pytest.mark.slow  # a client process killed and run again
def test_a_killed_client_resumes_from_its_last_layer(local_cluster, client, tmp_path):
    command = [sys.executable, "-m", "vecsearch", "bfs", "pancake-9", "--scheduler", local_cluster.scheduler_address,
               "--owner-local", "--segments", "4", "--spill", str(tmp_path / "disk-{worker}"), "--csv"]
    state = tmp_path / "client" / "search.json"
    child = subprocess.Popen(command + ["--checkpoint", str(tmp_path / "client")], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline and child.poll() is None:
        if state.exists() and len(json.loads(state.read_text())["records"]) > 4:
            break
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    stopped_at = len(json.loads(state.read_text())["records"]) - 1
    resumed = vs.bfs("pancake-9", client=client, resume=tmp_path / "client")
    assert 4 <= stopped_at < resumed.depth and resumed.layer_sizes == vs.bfs("pancake-9", mode="twobit").layer_sizes
