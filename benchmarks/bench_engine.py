"""Engine core on sliding-tile puzzles (issue: engine core)."""

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from run import Benchmark


def full_bfs_3x4():
    import vecsearch as vs

    vs.bfs("sliding-2x3")  # loads the shared sliding kernels: compile time is not search time
    result = vs.bfs("sliding-3x4")
    assert result.total_states == 239_500_800 and result.depth == 53
    return result.profile.seconds, f"{result.total_states:,} states, {result.depth + 1} layers; peak RSS target 600 MiB"


def full_bfs_3x3():
    import vecsearch as vs

    vs.bfs("sliding-3x3")
    times = []
    for _ in range(30):
        started = time.perf_counter()
        result = vs.bfs("sliding-3x3")
        times.append(time.perf_counter() - started)
    assert result.total_states == 181_440
    return statistics.median(times) * 1e3, f"median of 30 whole bfs() calls; search part {result.profile.seconds * 1e3:.1f} ms"


def _wall(command, env=None, stdin=None, repeat=5):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, env=env, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def eight_cli_start():
    cli = [sys.executable, "-m", "vecsearch", "solve", "eight", "--sample"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, VECSEARCH_CACHE_DIR=cache)
        cold = _wall(cli, env, repeat=1)
        warm = _wall(cli, env)
    baseline = _wall([sys.executable, "-c", "import numpy, numba"])
    return warm - baseline, (f"second process {warm:.2f} s vs `import numpy, numba` {baseline:.2f} s;"
                             f" first-ever run (cold cache) {cold:.1f} s")


def many_eight_puzzles():
    rng = random.Random(1)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        for _ in range(100_000):
            cells = [str(t) for t in range(1, 9)] + ["x"]
            rng.shuffle(cells)
            handle.write("  ".join(cells) + "\n")
    try:
        with open(handle.name) as stdin:
            _wall([sys.executable, "-m", "vecsearch", "solve", "eight"], stdin=stdin, repeat=1)  # fill the cache
        with open(handle.name) as stdin:
            seconds = _wall([sys.executable, "-m", "vecsearch", "solve", "eight", handle.name], repeat=3)
    finally:
        os.unlink(handle.name)
    return seconds, "whole process, 100,000 random lines (half unsolvable), optimal strings"


BENCHMARKS = [
    Benchmark("engine: sliding-3x4 full BFS (in-process)", 7.0, "s", full_bfs_3x4, peak_mib=600),
    Benchmark("engine: sliding-3x3 full BFS (in-process)", 10.0, "ms", full_bfs_3x3),
    Benchmark("engine: `solve eight` sample, cached, over import", 0.3, "s", eight_cli_start),
    Benchmark("engine: 100,000 Eight puzzles, one input", 3.0, "s", many_eight_puzzles),
]
