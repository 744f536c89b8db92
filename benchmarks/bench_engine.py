"""Engine core on sliding-tile puzzles (issue: engine core); the 3x3 and the 3x4 against C++: ``bench_enumeration``."""

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import eight_answers
from run import Benchmark


def full_bfs_3x4():
    import vecsearch as vs

    vs.bfs("sliding-2x3")  # loads the shared sliding kernels: compile time is not search time
    result = vs.bfs("sliding-3x4")
    assert result.total_states == 239_500_800 and result.depth == 53
    return result.profile.seconds, f"{result.total_states:,} states, {result.depth + 1} layers; peak RSS target 600 MiB"


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
        command = [sys.executable, "-m", "vecsearch", "solve", "eight", handle.name]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout  # fills the cache too
        eight_answers.check(Path(handle.name).read_text().splitlines(),
                            [None if line == "unsolvable" else line for line in out.splitlines()])
        seconds = _wall(command, repeat=3)
    finally:
        os.unlink(handle.name)
    return seconds, ("whole process, 100,000 random lines (half unsolvable); every answer's length checked against"
                     " a plain-Python BFS, 10,000 replayed")


BENCHMARKS = [
    Benchmark("engine: sliding-3x4 full BFS (in-process)", 7.0, "s", full_bfs_3x4, peak_mib=600),
    Benchmark("engine: `solve eight` sample, cached, over import", 0.3, "s", eight_cli_start),
    Benchmark("engine: 100,000 Eight puzzles, one input", 3.0, "s", many_eight_puzzles),
]
