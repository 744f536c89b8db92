"""Cubic Eight-Puzzle (POJ 3131) and Gap (POJ 2046) (issue 3).

Hard inputs are found with the engine, not picked by hand: for the cubes, a full enumeration
from each kind of start (corner, edge, centre) gives every pattern's distance, so the deepest
patterns are known; for Gap, hill-climbing over card swaps grows long answers and large
unsolvable components. Figures are the best of several runs (this VM is noisy); in-process
figures come after a warm-up that loads the kernels. Gap answers are checked against the tests'
plain-Python BFS (``tests/reference_gap.py``); cubes answers against the C++ ``cubic8``'s
enumerations from each start (``cubes_answers``), and the enumeration against its counts, run
in the same run.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cubes_answers
import numpy as np
from run import Benchmark

TESTS = Path(__file__).parent.parent / "tests"
sys.path.insert(0, str(TESTS))
import reference_gap  # noqa: E402  (the tests' plain-Python Gap: an independent answer)

START_KINDS = {"corner": (1, 1), "edge": (2, 1), "centre": (2, 2)}
CARDS = [10 * s + v for s in range(1, 5) for v in range(1, 8)]


def best_of(function, repeat):
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def wall(args, path, expected, repeat=5):
    """Best whole-process time of ``vecsearch ARGS PATH``, after a first run (which fills the
    kernel cache) has printed ``expected``."""
    command = [sys.executable, "-m", "vecsearch", *args, path]
    first = subprocess.run(command, capture_output=True, text=True, check=True)
    assert first.stdout == expected, "wrong answers"
    return best_of(lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=True), repeat)


def import_baseline():
    return best_of(lambda: subprocess.run([sys.executable, "-c", "import numpy, numba"], check=True), 3)


def with_file(text, run):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(text)
    try:
        return run(handle.name)
    finally:
        os.unlink(handle.name)


# --- Cubic Eight-Puzzle ---------------------------------------------------------------------------

def pattern_text(code):
    return "".join("WBRE"[(code >> (2 * (8 - c))) & 3] for c in range(9))


def cube_datasets(rng, depths, count, pick):
    """``count`` datasets from random starts whose distance satisfies ``pick``."""
    from vecsearch.puzzles.cubes import Dataset

    out = []
    for _ in range(count):
        x, y = rng.randint(1, 3), rng.randint(1, 3)
        codes = np.flatnonzero(pick(depths[x, y]))
        code = int(rng.choice(list(codes)))
        out.append((Dataset(x, y, pattern_text(code)), int(depths[x, y][code])))
    return out


def all_depths():
    """Pattern depths for all nine starts, from the C++ reference's enumerations (``cubic8 patterns``)."""
    return {(x, y): cubes_answers.fewest_rolls(x, y) for x in range(1, 4) for y in range(1, 4)}


def dataset_text(datasets):
    lines = []
    for d in datasets:
        lines.append(f"{d.x} {d.y}")
        lines += [" ".join(d.pattern[r * 3:r * 3 + 3]) for r in range(3)]
    return "\n".join(lines + ["0 0"]) + "\n"


def cubes_enumeration():
    from bench_enumeration import in_process_against_cpp

    centre = json.loads((TESTS / "data" / "cubes_layers.json").read_text())["centre"]  # the puzzle's default start
    return in_process_against_cpp("cubes", "auto", "cubic8", centre["counts"], 11)


def cubes_hardest():
    import vecsearch as vs
    from vecsearch.engine.batch.methods import ball_radius
    from vecsearch.engine.batch.solve import distance_table
    from vecsearch.puzzles import cubes

    puzzle = cubes.cubic_puzzle()

    def alone_distance(dataset):
        image = cubes.canonical(dataset)[1]
        return vs.bidirectional(puzzle, *image.instance(), max_depth=30, path=False).length

    def ball_distance(dataset, radius):
        image = cubes.canonical(dataset)[1]
        start, goals = image.instance()
        return distance_table(puzzle, start, max_depth=radius).search(goals, max_depth=30, path=False).length

    hardest = []
    for kind, (x, y) in START_KINDS.items():
        depths = cubes_answers.fewest_rolls(x, y)
        for wanted in (29, 30, 31, int(depths[depths < 255].max())):
            code = int(np.flatnonzero(depths == wanted)[0])
            hardest.append((kind, wanted, cubes.Dataset(x, y, pattern_text(code))))
    radius = ball_radius(200, 30)
    alone_distance(hardest[0][2])  # warm-up: loads the kernels
    alone, shared = [], []
    for _, wanted, dataset in hardest:
        expected = wanted if wanted <= 30 else None
        assert alone_distance(dataset) == expected and ball_distance(dataset, radius) == expected
        alone.append(best_of(lambda dataset=dataset: alone_distance(dataset), 7))
        shared.append(best_of(lambda dataset=dataset: ball_distance(dataset, radius), 7))
    worst = int(np.argmax(alone))
    return max(alone) * 1e3, (f"{len(hardest)} datasets (answers 29, 30, 31 and the deepest, from a corner, an edge and"
                              f" the centre), each alone (bidirectional); worst: {hardest[worst][0]} at"
                              f" {hardest[worst][1]}; with a shared ball they take at most {max(shared) * 1e3:.1f} ms")


def cubes_minus_one_file():
    rng = random.Random(15)
    datasets = [d for d, _ in cube_datasets(rng, all_depths(), 15, lambda depths: (depths > 30) & (depths < 255))]
    seconds = with_file(dataset_text(datasets), lambda path: wall(["solve", "cubes"], path, "-1\n" * 15))
    return seconds, (f"whole process, 15 datasets of -1 from random starts; `import numpy, numba` alone"
                     f" {import_baseline():.2f} s")


def cubes_mixed_file():
    rng = random.Random(200)
    depths = all_depths()
    cases = cube_datasets(rng, depths, 150, lambda depths: depths < 255)
    cases += cube_datasets(rng, depths, 50, lambda depths: (depths >= 28) & (depths < 255))
    rng.shuffle(cases)
    expected = "".join(f"{d if d <= 30 else -1}\n" for _, d in cases)
    seconds = with_file(dataset_text([d for d, _ in cases]), lambda path: wall(["solve", "cubes"], path, expected))
    return seconds, (f"whole process, 150 random + 50 hard (28..-1) datasets;"
                     f" `import numpy, numba` alone {import_baseline():.2f} s")


# --- Gap ---------------------------------------------------------------------------------------------

def gap_rows(cards):
    return [cards[7 * r:7 * r + 7] for r in range(4)]


def gap_climb(rng, better, steps):
    """Hill-climbing over swaps of two cards: keeps a swap when ``better(old, new)`` holds for
    the searches before and after it."""
    import vecsearch as vs
    from vecsearch.puzzles import gap

    def search(cards):
        return vs.bfs(gap.gap_puzzle(), gap.set_up(gap_rows(cards)), gap.GOAL, path=False)

    cards = CARDS[:]
    rng.shuffle(cards)
    current = search(cards)
    for _ in range(steps):
        i, j = rng.sample(range(28), 2)
        cards[i], cards[j] = cards[j], cards[i]
        candidate = search(cards)
        if better(current, candidate):
            current = candidate
        else:
            cards[i], cards[j] = cards[j], cards[i]
    return gap_rows(cards), current


def longer(old, new):
    return new.length is not None and (old.length is None or new.length >= old.length)


def larger_unsolvable(old, new):
    return new.length is None and (old.length is not None or new.profile.total_states >= old.profile.total_states)


def gap_hard_layouts():
    from vecsearch.puzzles import gap

    rng = random.Random(46)
    hard = [("sample 3", gap.ROWS_APART, 60)]
    for _ in range(2):
        rows, result = gap_climb(rng, longer, 300)
        hard.append(("long", rows, result.length))
    for _ in range(2):
        rows, result = gap_climb(rng, larger_unsolvable, 300)
        hard.append(("unsolvable", rows, result.profile.total_states - 1))
    return hard


def gap_distance(gap, rows) -> int | None:
    """The fewest moves of a dealt layout (None: unreachable), by a forward BFS without the path."""
    import vecsearch as vs

    return vs.bfs(gap.gap_puzzle(), gap.set_up(rows), gap.GOAL, path=False).length


def gap_hardest():
    from vecsearch.puzzles import gap

    hard = gap_hard_layouts()
    for _, rows, _ in hard:  # against a plain-Python BFS, not vecsearch itself
        expected = reference_gap.solve(rows)[0]
        assert gap_distance(gap, rows) == (None if expected == -1 else expected), "wrong Gap answer"
    times = [best_of(lambda rows=rows: gap_distance(gap, rows), 7) for _, rows, _ in hard]
    described = ", ".join(f"{kind} {size:,}{' moves' if kind != 'unsolvable' else ' layouts'} {t * 1e3:.1f} ms"
                          for (kind, _, size), t in zip(hard, times, strict=True))
    return max(times) * 1e3, described


def gap_file():
    rng = random.Random(100)
    layouts = [rows for _, rows, _ in gap_hard_layouts()]
    while len(layouts) < 100:
        cards = CARDS[:]
        rng.shuffle(cards)
        layouts.append(gap_rows(cards))
    rng.shuffle(layouts)
    text = f"{len(layouts)}\n\n" + "\n\n".join("\n".join(" ".join(map(str, row)) for row in rows) for rows in layouts)
    expected = "".join(f"{reference_gap.solve(rows)[0]}\n" for rows in layouts)
    seconds = with_file(text + "\n", lambda path: wall(["solve", "gap"], path, expected))
    return seconds, (f"whole process, 95 random + 5 hard layouts, answers = a plain-Python BFS"
                     f" (tests/reference_gap.py); `import numpy, numba` alone {import_baseline():.2f} s")


BENCHMARKS = [
    Benchmark("cubes: full enumeration (in-process)", 0.1, "s", cubes_enumeration),
    Benchmark("cubes: hardest datasets, each alone", 20.0, "ms", cubes_hardest),
    Benchmark("cubes: 15 datasets of -1, whole process", 0.5, "s", cubes_minus_one_file),
    Benchmark("cubes: 200 mixed datasets, whole process", 0.95, "s", cubes_mixed_file),
    Benchmark("gap: hardest layouts, each alone", 20.0, "ms", gap_hardest),
    Benchmark("gap: 100 layouts, whole process", 0.45, "s", gap_file),
]
