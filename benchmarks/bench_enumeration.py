"""Full-space enumeration (issue: two-bit BFS, permutation puzzles as data).

Times are the search part of in-process ``bfs`` calls (kernels loaded first), best of several
runs: this machine is shared and noisy. C++ references measured here are in
``benchmarks/reference/README.md`` (pocket cube, fixed corner, HTM: 0.93 s median).
"""

import json
import subprocess
import sys

from run import Benchmark


def _best(name, mode, repeat, **options):
    import vecsearch as vs

    vs.bfs(name, mode=mode, max_depth=2)  # load the kernels: compile time is not search time
    results = [vs.bfs(name, mode=mode, **options) for _ in range(repeat)]
    best = min(results, key=lambda r: r.profile.seconds)
    return best, sorted(r.profile.seconds for r in results)


def pocket_htm():
    result, times = _best("pocket-htm", "twobit", 7)
    assert result.total_states == 3_674_160 and result.depth == 11
    layered, layered_times = _best("pocket-htm", "layers", 3)
    return times[0], (f"two-bit, best of 7 (median {times[3]:.2f} s); layers mode best {layered_times[0]:.2f} s;"
                      " C++ queue+bitset here 0.93 s")


def pocket_full():
    result, times = _best("pocket-full", "twobit", 3)
    assert result.layer_sizes[-1] == 64_736 and result.total_states == 88_179_840
    pulled = [r.depth for r in result.profile.records if r.method == "pull"]
    return times[0], (f"88,179,840 states, best of 3 ({', '.join(f'{t:.2f}' for t in times)} s);"
                      f" pull at depths {pulled[0]}-{pulled[-1]}; twsearch (C++) 2.69 s on 2 threads")


def _layered_in_subprocess(name):
    code = ("import json, resource, vecsearch as vs; vs.bfs('sliding-2x3'); r = vs.bfs(%r, mode='layers');"
            "print(json.dumps([r.profile.seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))" % name)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def sliding_3x4_twobit():
    result, times = _best("sliding-3x4", "twobit", 1)
    assert result.total_states == 239_500_800 and result.depth == 53
    layered_seconds, layered_mib = _layered_in_subprocess("sliding-3x4")
    return times[0], (f"two-bit table 57 MiB; peak RSS target 250 MiB; layers mode {layered_seconds:.1f} s"
                      f" at {layered_mib:.0f} MiB peak")


def pancake_12():
    result, times = _best("pancake-12", "twobit", 1)
    assert result.total_states == 479_001_600 and result.depth == 14
    return times[0], f"479,001,600 states to depth 14, two-bit table 114 MiB; layer sizes {result.layer_sizes}"


BENCHMARKS = [
    Benchmark("enumeration: pocket-htm full BFS (in-process)", 0.4, "s", pocket_htm),
    Benchmark("enumeration: pocket-full two-bit BFS (in-process)", 2.7, "s", pocket_full),
    Benchmark("enumeration: sliding-3x4 two-bit BFS (in-process)", 120.0, "s", sliding_3x4_twobit, peak_mib=250),
    Benchmark("enumeration: pancake-12 two-bit BFS (in-process)", 900.0, "s", pancake_12, peak_mib=400),
]
