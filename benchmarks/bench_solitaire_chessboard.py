"""Solitaire (POJ 1198) and A Game on the Chessboard (CEOI 1999) (issue 3).

Single searches are timed in-process after a warm-up (best of N: the machine is shared and
noisy). The batch benchmarks time whole processes (`vecsearch solve ...` on a generated file,
numba start-up included) and the hand-written C++ programs in `benchmarks/reference/` on the
same file, run alternately with ours; every answer timed is checked against those programs'
(``judge_answers``).
"""

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import judge_answers
from measure import reference
from run import Benchmark

from vecsearch.engine.runtime.codegen import layer_kernels

CASES = 1000


def _best(function, repeat=30):
    function()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def _walk(puzzle, state, length, rng):
    import numpy as np

    for _ in range(length):
        children, _ = layer_kernels(puzzle).neighbours(np.array([state], np.int64), puzzle.tables, False)
        state = int(rng.choice(children))
    return state


def _solitaire_pairs(count, seed=1198):
    """Half random walks of 0..30 moves (mixed YES/NO), half unrelated random configurations."""
    from vecsearch.puzzles.solitaire import solitaire

    puzzle = solitaire()
    rng = random.Random(seed)
    squares = [(r, c) for r in range(1, 9) for c in range(1, 9)]
    pairs = []
    for i in range(count):
        first = puzzle.encode(rng.sample(squares, 4))
        second = _walk(puzzle, first, rng.randint(0, 30), rng) if i % 2 else puzzle.encode(rng.sample(squares, 4))
        pairs.append((first, second))
    return puzzle, pairs


def solitaire_no_at_distance_9_plus():
    import vecsearch as vs
    from vecsearch.puzzles.solitaire import reachable

    puzzle, pairs = _solitaire_pairs(400, seed=9)
    far = [(a, b) for a, b in pairs if len(vs.solve(puzzle, a, b)) >= 9][:12]
    times = [_best(lambda a=a, b=b: reachable(a, b), repeat=15) for a, b in far]
    worst = max(range(len(far)), key=times.__getitem__)
    a, b = far[worst]
    distance = len(vs.solve(puzzle, a, b))
    assert all(reachable(a, b) is None for a, b in far)
    return max(times) * 1e3, (f"worst of {len(far)} NO pairs (distances 9..), best of 15 each: "
                              f"{puzzle.format_state(a)} -> {puzzle.format_state(b)} (distance {distance}); "
                              f"median {statistics.median(times) * 1e3:.2f} ms")


def chessboard_distance_20():
    from vecsearch.puzzles.chessboard import shortest

    start, final = "1111 1110 1000 0000", "0000 0001 0111 1111"
    assert len(shortest(start, final)) == 20
    seconds = _best(lambda: shortest(start, final))
    return seconds * 1e3, "corner to opposite corner, 8+8 stones, a 20-swap answer; best of 30"


def _solitaire_file(path):
    puzzle, pairs = _solitaire_pairs(CASES)
    path.write_text("".join(f"{puzzle.format_state(a)}\n{puzzle.format_state(b)}\n" for a, b in pairs))


def _chessboard_file(path):
    rng = random.Random(1999)

    def position(black):
        cells = ["1"] * black + ["0"] * (16 - black)
        rng.shuffle(cells)
        return "\n".join("".join(cells[i:i + 4]) for i in range(0, 16, 4))

    cases = []
    for i in range(CASES):
        k = 8 if i % 10 else rng.randint(0, 16)  # one case in ten: any count (-1 when they differ)
        cases.append(f"{position(k)}\n\n{position(k if i % 20 else rng.randint(0, 16))}\n")
    path.write_text("\n".join(cases))


def _wall(command, stdin_path, repeat):
    times = []
    for _ in range(repeat):
        with open(stdin_path) as stdin:
            started = time.perf_counter()
            subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - started)
    return times


def _batch(problem, make_input, check):
    """Whole `vecsearch solve PROBLEM` processes against the C++ reference of the same name on
    the same file, alternately; ``check(input, output)`` sees vecsearch's answers."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{problem}.txt"
        make_input(path)
        ours = [sys.executable, "-m", "vecsearch", "solve", problem]
        with open(path) as stdin:  # fills the kernel cache; its answers are checked
            out = subprocess.run(ours, stdin=stdin, capture_output=True, text=True, check=True).stdout
        check(path.read_text(), out)
        cpp = [str(reference(problem))]
        mine, theirs = [], []
        for _ in range(5):  # alternate, so both see the same machine load
            mine += _wall(ours, path, 1)
            theirs += _wall(cpp, path, 1)
        baseline = min(_wall([sys.executable, "-c", "import numpy, numba"], path, 3))
    return min(mine), (f"{CASES} cases, whole process, best of 5 (median {statistics.median(mine):.2f} s), every answer"
                       f" checked against the C++ reference; C++ ({problem}.cpp, whole process, same run) best"
                       f" {min(theirs):.2f} s, median {statistics.median(theirs):.2f} s; `import numpy, numba` alone"
                       f" {baseline:.2f} s")


def solitaire_many_pairs():
    return _batch("solitaire", _solitaire_file,
                  lambda text, out: judge_answers.check_solitaire(text, [line == "YES" for line in out.split()]))


def chessboard_many_cases():
    return _batch("chessboard", _chessboard_file,
                  lambda text, out: judge_answers.check_chessboard(text, *judge_answers.chessboard_judge_output(out)))


def solitaire_pairs_in_process():
    import numpy as np

    import vecsearch as vs

    puzzle, pairs = _solitaire_pairs(CASES)
    firsts = np.array([a for a, _ in pairs], np.int64)
    seconds = np.array([b for _, b in pairs], np.int64)
    found = vs.solve_pairs(puzzle, firsts, seconds, max_depth=8)
    best = _best(lambda: vs.solve_pairs(puzzle, firsts, seconds, max_depth=8), repeat=10)
    one = _best(lambda: vs.solve_pairs(puzzle, firsts, seconds, max_depth=8, threads=1), repeat=10)
    judge_answers.check_solitaire("".join(f"{puzzle.format_state(a)}\n{puzzle.format_state(b)}\n" for a, b in pairs),
                                  (found.lengths >= 0).tolist())
    yes = int((found.lengths >= 0).sum())
    return best * 1e3, (f"{CASES} pairs ({yes} YES) in one solve_pairs call, best of 10, every answer checked against"
                        f" the C++ solitaire.cpp; one thread {one * 1e3:.0f} ms")


BENCHMARKS = [
    Benchmark("solitaire: NO at distance 9+ (in-process)", 20.0, "ms", solitaire_no_at_distance_9_plus),
    Benchmark("chessboard: distance 20 (in-process)", 20.0, "ms", chessboard_distance_20),
    Benchmark("solitaire: 1,000 pairs, solve_pairs (in-process)", 150.0, "ms", solitaire_pairs_in_process),
    Benchmark("solitaire: 1,000 pairs, whole process", 1.5, "s", solitaire_many_pairs),
    Benchmark("chessboard: 1,000 cases, whole process", 1.5, "s", chessboard_many_cases),
]
