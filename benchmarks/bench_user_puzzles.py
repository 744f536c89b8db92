"""A user's own puzzle (issue 24): the value-based definitions against the hand-packed ones, what the
contract check costs the built-in puzzles, and how soon a user's puzzle answers in a new process.

The value-based puzzles are ``examples/rush_hour.py`` and ``examples/jugs.py``; the hand-packed
ones, ``packed_puzzles.py`` (what an expert writes: bit fields, a mixed-radix rank). Both are a
user's puzzles, so both run behind the guards. Search times are the profiles' own (compile time
apart), the two alternating, medians of repeated whole-space searches; the layer counts of every
search are checked against a plain-Python BFS (``tests/reference_values.py``).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from run import Benchmark

ROOT = Path(__file__).parent.parent
sys.path[:0] = [str(ROOT / "examples"), str(ROOT / "tests")]

RUSH_CARD = ["CC...G", "AADD.G", "XX....", "FF....", "..BB..", "...EE."]  # 51,000 positions, the largest found
JUGS = (50, 37, 23, 17, 11, 5)  # 415,253 ways to share 50 litres


def _reference_sizes(start, neighbours) -> list[int]:
    from reference import bfs_layers

    return [len(layer) for layer in bfs_layers([start], neighbours)]


def _alternating(puzzles, expected, repeat=9) -> list[float]:
    """The median search seconds of each puzzle (whole-space BFS), runs alternating; each run's
    layer counts checked."""
    import vecsearch as vs

    seconds = [[] for _ in puzzles]
    for puzzle in puzzles:
        vs.warm_up(puzzle)
    for _ in range(repeat):
        for i, puzzle in enumerate(puzzles):
            result = vs.bfs(puzzle, mode="layers")
            if result.layer_sizes != expected:
                raise AssertionError(f"{puzzle.name}: {result.layer_sizes} != {expected}")
            seconds[i].append(result.profile.seconds)
    return [statistics.median(s) for s in seconds]


def rush_hour_values_over_packed():
    import packed_puzzles
    import rush_hour
    from reference_values import rush_hour as rush_reference

    expected = _reference_sizes(*rush_reference(RUSH_CARD))
    value, packed = _alternating([rush_hour.card(RUSH_CARD), packed_puzzles.rush_card(RUSH_CARD)], expected)
    return value / packed, (f"whole-space BFS of a {sum(expected):,}-position card: by values {value * 1e3:.1f} ms,"
                            f" hand-packed {packed * 1e3:.1f} ms (medians of 9, alternating)")


def jugs_values_over_packed():
    import jugs
    import packed_puzzles
    from reference_values import jugs as jug_reference

    start = [JUGS[0]] + [0] * (len(JUGS) - 1)
    expected = _reference_sizes(tuple(start), jug_reference(JUGS))
    value, packed = _alternating([jugs.jugs(list(JUGS), start, start), packed_puzzles.jugs(list(JUGS), start, start)],
                                 expected)
    return value / packed, (f"whole-space BFS of jugs {'-'.join(map(str, JUGS))} ({sum(expected):,} states): by"
                            f" values {value * 1e3:.1f} ms, hand-packed {packed * 1e3:.1f} ms (medians of 9,"
                            " alternating)")


def contract_check_on_built_ins():
    """What the contract check (``probe_once``) and the kernel tables' lookup add to a built-in
    puzzle's search: their time per search over the search's own, solving Eight instances."""
    import numpy as np

    import vecsearch as vs
    from vecsearch.engine.runtime.endpoints import as_puzzle
    from vecsearch.engine.runtime.guarded import kernel_tables

    puzzle = vs.get_puzzle("eight")
    rng = np.random.default_rng(24)
    starts = []
    while len(starts) < 200:
        cells = list(rng.permutation(9))
        text = " ".join(str(c) if c else "x" for c in cells)
        if sum(a > b for i, a in enumerate(cells) for b in cells[i + 1:] if a and b) % 2 == 0:
            starts.append(text)
    vs.solve(puzzle, starts[0])
    began = time.perf_counter()
    lengths = [len(vs.solve(puzzle, start)) for start in starts]
    searches = time.perf_counter() - began
    calls = 50  # as_puzzle and kernel tables are asked several times a search: 50 is well above
    began = time.perf_counter()
    for _ in range(calls * len(starts)):
        as_puzzle(puzzle)
        kernel_tables(puzzle)
    checks = time.perf_counter() - began
    if max(lengths) > 31:
        raise AssertionError("an Eight solution longer than the puzzle's diameter")
    share = 100 * checks / searches
    return share, (f"{len(starts)} Eight solves {searches:.2f} s; {calls} contract checks and table lookups per"
                   f" solve {checks * 1e3:.1f} ms in all")


def _env(cache: str) -> dict:
    return dict(os.environ, NUMBA_CACHE_DIR=f"{cache}/numba", VECSEARCH_CACHE_DIR=f"{cache}/kernels",
                PYTHONPATH=str(ROOT / "examples"))


def _seconds(code: str, env) -> float:
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


FIRST_ANSWER = textwrap.dedent("""
    import time
    started = time.perf_counter()
    import jugs, vecsearch as vs
    assert len(vs.solve(jugs.puzzle)) == 7
    print(time.perf_counter() - started)
""")


def first_answer_module_on_disk():
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        first = _seconds(FIRST_ANSWER, env)
        then = statistics.median(_seconds(FIRST_ANSWER, env) for _ in range(5))
        baseline = statistics.median(_seconds("import time; s = time.perf_counter(); import numpy, numba;"
                                              " print(time.perf_counter() - s)", env) for _ in range(5))
    return then, (f"examples/jugs.py, a new process: {then:.2f} s to the answer (median of 5; the first process"
                  f" {first:.1f} s with empty caches; `import numpy, numba` alone {baseline:.2f} s)")


LIGHTS_OUT_MAIN = textwrap.dedent("""
    import time
    started = time.perf_counter()
    import numpy as np
    import vecsearch as vs

    def press(lights, tables, after, moves):
        for m in range(len(lights)):
            for i in range(len(lights)):
                after[m, i] = (lights[i] + tables[0][m, i]) % 2
            moves[m] = m
        return len(lights)

    toggled = np.array([[int(abs(m // 3 - i // 3) + abs(m % 3 - i % 3) <= 1) for i in range(9)] for m in range(9)])
    puzzle = vs.ValuePuzzle("lights-out", vs.Subset(9), press, 9, tables=(toggled,), start=[1] * 9, goal=[0] * 9)
    vs.validate(puzzle)
    vs.warm_up(puzzle)
    assert len(vs.solve(puzzle)) == 5
    print(time.perf_counter() - started)
""")


def lights_out_by_values_in_main():
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        first = _seconds(LIGHTS_OUT_MAIN, env)
        then = statistics.median(_seconds(LIGHTS_OUT_MAIN, env) for _ in range(3))
    return then, (f"Lights Out by values defined in __main__, validate + warm_up + solve: {then:.2f} s (median of 3;"
                  f" the first process, compiling the kernels every user puzzle shares, {first:.1f} s)")


BENCHMARKS = [
    Benchmark("user puzzles: Rush Hour by values over hand-packed", 1.2, "x", rush_hour_values_over_packed),
    Benchmark("user puzzles: jugs by values over hand-packed", 1.2, "x", jugs_values_over_packed),
    Benchmark("user puzzles: contract check on built-ins", 2.0, "%", contract_check_on_built_ins),
    Benchmark("user puzzles: first answer, module on disk", 0.8, "s", first_answer_module_on_disk),
    Benchmark("user puzzles: Lights Out by values in __main__", 1.5, "s", lights_out_by_values_in_main),
]
