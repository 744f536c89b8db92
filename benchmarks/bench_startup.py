"""Fixed costs a user meets around a search: compiling a family, start-up, a user's own puzzle.

Whole processes (``vecsearch`` on the command line or ``python -c``), each group with its own
empty kernel caches (``NUMBA_CACHE_DIR``, ``VECSEARCH_CACHE_DIR`` in a temporary directory), so
"cold" means what a new machine, container or CI run pays. Figures are medians of repeated
processes where the process is short.
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

TESTS = Path(__file__).parent.parent / "tests"
sys.path.insert(0, str(TESTS))
import reference  # noqa: E402  (the tests' plain-Python BFS: an independent answer)

VECSEARCH = [str(Path(sys.executable).parent / "vecsearch")]  # the installed command, as users run it


def _env(cache: str) -> dict:
    return dict(os.environ, NUMBA_CACHE_DIR=f"{cache}/numba", VECSEARCH_CACHE_DIR=f"{cache}/kernels")


def _wall(command, env, stdin=None, cwd=None, check_output=None) -> float:
    """Seconds of a whole process; ``check_output(stdout)`` checks what it printed."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, input=stdin, cwd=cwd, capture_output=True, check=True, text=True)
    seconds = time.perf_counter() - started
    if check_output is not None:
        check_output(done.stdout)
    return seconds


def _median(command, env, stdin=None, repeat=5, cwd=None, check_output=None) -> float:
    return statistics.median(_wall(command, env, stdin, cwd, check_output) for _ in range(repeat))


EIGHT = "2 3 4 1 5 x 7 6 8"


def _check_eight(stdout: str) -> None:
    """The answer is a shortest move string: it replays to the goal (plain-Python rules) and is
    as long as the plain-Python BFS's distance."""
    moves = stdout.strip()
    start = reference.sliding_tuple(EIGHT)
    assert reference.replay(start, moves, reference.sliding_neighbours(3, 3)) == reference.sliding_goal(3, 3), moves
    assert len(moves) == reference.goal_distances(3, 3)[start], moves


def eight_one_line_over_import():
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        line = EIGHT + "\n"
        _wall([*VECSEARCH, "solve", "eight"], env, line, check_output=_check_eight)  # fills the kernel cache
        solve = _median([*VECSEARCH, "solve", "eight"], env, line, check_output=_check_eight)
        imports = _median([sys.executable, "-c", "import numpy, numba"], env)
    return solve - imports, f"solve {solve:.2f} s, import numpy+numba {imports:.2f} s (medians of 5 processes," \
        " answers replayed and their lengths checked by a plain-Python BFS)"


def _cold_then_warm(env, *args) -> tuple[float, float]:
    cold = _wall([*VECSEARCH, "bfs", *args], env)
    warm = min(_wall([*VECSEARCH, "bfs", *args], env) for _ in range(2))
    return cold, warm


def family_first_member():
    with tempfile.TemporaryDirectory() as cache:
        cold, warm = _cold_then_warm(_env(cache), "pancake-11", "--mode", "twobit")
    return cold - warm, f"pancake-11 --mode twobit, empty caches {cold:.1f} s, warm {warm:.1f} s"


def family_other_members():
    """With one member's kernels compiled, the first run of each other member over its warm run."""
    groups = {("pancake-11", "--mode", "twobit"): [("pancake-9",), ("topspin-10-4",), ("lrx-9",)],
              ("pocket-htm", "--mode", "twobit"): [("pocket-qtm",), (str(_bundled_tws()),)],
              ("sliding-3x3", "--mode", "twobit"): [("sliding-2x4",), ("sliding-2x5",)],
              ("sliding-3x3", "--mode", "layers"): [("sliding-2x4",), ("sliding-2x5",)]}
    extra, details = [], []
    for first, members in groups.items():
        with tempfile.TemporaryDirectory() as cache:
            env = _env(cache)
            _wall([*VECSEARCH, "bfs", *first], env)
            for member in members:
                cold, warm = _cold_then_warm(env, *member, *first[1:])
                extra.append(cold - warm)
                details.append(f"{Path(member[0]).name} {first[-1]} +{cold - warm:.2f} s")
    return max(extra), "worst of: " + ", ".join(details)


def _bundled_tws() -> Path:
    import vecsearch

    return Path(vecsearch.__file__).parent / "data" / "2x2x2.tws"


def _compile_seconds(env, *args) -> float:
    done = subprocess.run([*VECSEARCH, "bfs", *args], env=env, capture_output=True, text=True, check=True)
    last = [line for line in done.stdout.splitlines() if "compile" in line][-1]
    return float(last.split(" s compile")[0].split("+ ")[-1])


def sliding_3x4_compile():
    figures = {}
    for mode in ("layers", "twobit"):
        with tempfile.TemporaryDirectory() as cache:
            figures[mode] = _compile_seconds(_env(cache), "sliding-3x4", "--mode", mode, "--max-depth", "20")
    return max(figures.values()), ", ".join(f"{mode} {s:.1f} s" for mode, s in figures.items()) + \
        " (compile seconds of a depth-20 run, empty caches)"


HANOI = Path(__file__).parent.parent / "tests" / "data" / "hanoi.py"  # plain functions in a module


def user_module_second_process():
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        Path(cache, "hanoi.py").write_text(HANOI.read_text())
        code = "import hanoi, vecsearch as vs; print(len(vs.solve(hanoi.puzzle(8), 0)))"
        first = _wall([sys.executable, "-c", code], dict(env, PYTHONPATH=cache))
        second = _median([sys.executable, "-c", code], dict(env, PYTHONPATH=cache), repeat=3)
    return second, (f"Tower of Hanoi (8 discs) as plain functions in a module: first process {first:.1f} s,"
                    f" then {second:.2f} s")


LIGHTS_OUT = textwrap.dedent('''
    import time
    started = time.perf_counter()
    import numpy as np
    import vecsearch as vs
    from numba import njit

    N = 3
    PRESS = np.array([sum(1 << (r * N + c) for r, c in [(i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)]
                          if 0 <= r < N and 0 <= c < N) for i in range(N) for j in range(N)], np.int64)

    @njit
    def expand(state, tables, children, moves):
        for m in range(tables[0].shape[0]):
            children[m] = state ^ tables[0][m]
            moves[m] = m
        return tables[0].shape[0]

    @njit
    def rank(state, tables):
        return state

    puzzle = vs.Puzzle("lights-out-3", expand, 9, rank=vs.Rank(rank, 512), tables=(PRESS,), goal=0, start=511)
    vs.validate(puzzle)
    vs.warm_up(puzzle)
    assert len(vs.solve(puzzle, 511)) == 5
    print(time.perf_counter() - started)
''')


def lights_out_fresh_process():
    with tempfile.TemporaryDirectory() as cache:
        env = _env(cache)
        seconds = [float(subprocess.run([sys.executable, "-c", LIGHTS_OUT], env=env, capture_output=True, text=True,
                                        check=True).stdout.split()[-1]) for _ in range(3)]
    return statistics.median(seconds), ("README's Lights Out defined in __main__: validate + warm_up + solve,"
                                        " median of 3")


BENCHMARKS = [
    Benchmark("startup: one-line eight solve over import", 0.25, "s", eight_one_line_over_import),
    Benchmark("startup: first run of a family over warm", 8.0, "s", family_first_member),
    Benchmark("startup: other family members, first over warm", 1.0, "s", family_other_members),
    Benchmark("startup: sliding-3x4 compile per mode", 8.0, "s", sliding_3x4_compile),
    Benchmark("startup: user module puzzle, second process", 1.0, "s", user_module_second_process),
    Benchmark("startup: Lights Out validate+warm_up+solve", 1.5, "s", lights_out_fresh_process),
]
