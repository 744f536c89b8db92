"""Spaces beyond one process: the partitioned two-bit search on a LocalCluster and out of core,
and depth-limited searches of a huge space (issue: enumeration beyond one machine).

Each figure is set beside the local two-bit search of the same puzzle, measured in the same run
(search seconds, kernels loaded first); counts are checked against the local run and, for the
15-puzzle, against the published layer counts (OEIS A089484, ``tests/data/sliding_layers.json``).
"""

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import Benchmark

TESTS_DATA = Path(__file__).parent.parent / "tests" / "data"


def _local(name):
    import vecsearch as vs

    vs.bfs(name, mode="twobit", max_depth=2)  # load the kernels
    return vs.bfs(name, mode="twobit")


def _peak_mib() -> float:
    """This process's peak resident memory: Linux's high-water mark of its address space
    (``VmHWM``). Not ``ru_maxrss``, which a process keeps across ``fork`` and ``execve``: a
    dask worker started from a client holding 437 MiB reported 437 MiB before it held anything."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pancake_12_on_a_cluster(owner_local: bool):
    """pancake-12 on a 2-worker LocalCluster against the local two-bit search (same run);
    ``owner_local``: each worker keeps its segments' tables in a directory of its own."""
    import dask
    import distributed

    import vecsearch as vs

    local = _local("pancake-12")
    assert local.total_states == 479_001_600
    table_mib = 8 * ((local.puzzle.rank_size + 31) // 32) / 2**20
    with tempfile.TemporaryDirectory() as scratch, dask.config.set({"temporary-directory": scratch}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                     local_directory=scratch) as cluster, distributed.Client(cluster) as client:
        options = dict(owner_local=True, spill=str(Path(scratch) / "disk-{worker}")) if owner_local else {}
        vs.bfs("pancake-6", client=client, **options)  # the workers load their kernels (one family: the same)
        baseline = max(client.run(_peak_mib).values())
        began = time.perf_counter()
        remote = vs.bfs("pancake-12", client=client, **options)
        wall = time.perf_counter() - began
        workers = client.run(_peak_mib)
    assert remote.layer_sizes == local.layer_sizes
    routed = sum(r.routed for r in remote.profile.records)
    worst = max(workers.values())
    budget = table_mib / 2 + 250
    return wall / local.profile.seconds, (
        f"2 workers{' (owner-local: separate directories, no shared one)' if owner_local else ''} {wall:.1f} s wall"
        f" ({remote.profile.seconds:.1f} s search) vs local two-bit {local.profile.seconds:.1f} s, in-process both,"
        f" same counts; routed {routed / 2**30:.1f} GiB ({routed / local.total_states:.1f} B/state);"
        f" worker peak RSS {worst:.0f} MiB (target half the table + 250 = {budget:.0f}:"
        f" {'ok' if worst <= budget else 'over'}; a worker with its kernels loaded (pancake-6), before the search:"
        f" {baseline:.0f} MiB)")


def pancake_12_cluster():
    return _pancake_12_on_a_cluster(owner_local=False)


def pancake_12_owner_local():
    return _pancake_12_on_a_cluster(owner_local=True)


def pancake_12_spill():
    import vecsearch as vs

    local = _local("pancake-12")
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as spill:
        began = time.perf_counter()
        spilled = vs.bfs("pancake-12", spill=spill, max_memory="64M")
        wall = time.perf_counter() - began
    assert spilled.layer_sizes == local.layer_sizes
    return wall / local.profile.seconds, (f"--max-memory 64M --spill: {wall:.1f} s vs in-memory two-bit"
                                          f" {local.profile.seconds:.1f} s, same counts")


def sliding_4x4_depth_24():
    published = json.loads((TESTS_DATA / "sliding_layers.json").read_text())["A089484"]["counts"][:25]
    command = [sys.executable, "-m", "vecsearch", "bfs", "sliding-4x4", "--max-depth", "24", "--csv"]
    subprocess.run(command[:-3] + ["--max-depth", "2"], capture_output=True, check=True)  # kernels loaded
    began = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - began
    counts = [int(row.split(",")[2]) for row in done.stdout.splitlines()[1:]]
    assert counts == published, counts
    peak = int(done.stderr.strip().splitlines()[-1]) / 1024
    return wall, f"whole process; A089484 to depth 24 ({sum(counts):,} states); peak RSS {peak:.0f} MiB"


BENCHMARKS = [
    Benchmark("partitioned: pancake-12, 2-worker LocalCluster / local", 2.5, "x", pancake_12_cluster),
    Benchmark("partitioned: pancake-12 owner-local, 2 workers / local", 2.5, "x", pancake_12_owner_local),
    Benchmark("partitioned: pancake-12 --spill --max-memory 64M / local", 3.0, "x", pancake_12_spill),
    Benchmark("partitioned: bfs sliding-4x4 --max-depth 24 (process)", 60.0, "s", sliding_4x4_depth_24),
]
