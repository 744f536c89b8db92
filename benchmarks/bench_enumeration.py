"""Full-space enumeration, each figure beside its reference measured in the same run.

- Whole process against whole process: ``vecsearch bfs`` against the hand-written C++ of
  ``benchmarks/reference`` (queue + bitset with prefetch), runs alternating; the ratio of the
  medians is the figure, the peak RSS is vecsearch's.
- In-process against in-process: a search's own seconds (kernels loaded first) against the C++
  program's own timing line.
- Every answer is checked: layer counts against the published ones (``tests/data``), or the
  reference program's own check of them.
- Each search's split by phase (``Profile.phase_totals``) is printed in the detail, so the table
  says where the time goes, not only how much there is.
"""

import csv
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import measure
from run import Benchmark

DATA = Path(__file__).parent.parent / "tests" / "data"
PUBLISHED = {**json.loads((DATA / "sliding_layers.json").read_text()),
             **json.loads((DATA / "permutation_layers.json").read_text())}


def vecsearch_command(*args):
    return [sys.executable, "-m", "vecsearch", *args]


def csv_counts(out: str) -> list[int]:
    """Layer sizes from ``--csv`` output (a layered search's last row, the empty layer after the
    last, is left out)."""
    return [int(row["states"]) for row in csv.DictReader(io.StringIO(out)) if int(row["states"])]


def split(profile) -> str:
    totals = profile.phase_totals()
    seconds = sum(totals.values()) or 1.0
    return "split " + " ".join(f"{p} {100 * t / seconds:.0f}%" for p, t in totals.items() if t >= seconds / 200)


def searched(name, mode, repeat, check, **options):
    """In-process seconds of ``bfs(name)`` (kernels loaded first) and the last result."""
    import vecsearch as vs

    vs.bfs(name, mode=mode, max_depth=2)
    results = []

    def once():
        results.append(vs.bfs(name, mode=mode, **options))
        return results[-1].profile.seconds

    runs = measure.in_process(once, repeat)
    check(results[-1])
    return runs, results[-1]


def against_cpp(mode: str, repeat: int = 3):
    """``vecsearch bfs sliding-3x4 --mode MODE`` against ``sliding3x4 prefetch``, alternating."""
    binary = measure.reference("sliding3x4")
    if binary is None:
        raise RuntimeError("g++ is needed to build the C++ reference")
    published = PUBLISHED["A090166"]["counts"]

    def check(name, out):
        if name == "vecsearch":
            assert csv_counts(out) == published, "sliding-3x4 counts differ from OEIS A090166"
        else:
            assert "\nOK" in out, "the C++ reference's counts do not match"

    runs = measure.processes({"vecsearch": vecsearch_command("bfs", "sliding-3x4", "--mode", mode, "--csv"),
                              "C++": [str(binary), "prefetch"]}, repeat, check)
    ours, theirs = runs["vecsearch"], runs["C++"]
    detail = (f"whole process: vecsearch {ours}; C++ queue+bitset+prefetch {theirs}; ratio of medians"
              f" (best: {ours.best / theirs.best:.2f}); counts = OEIS A090166")
    return ours.median / theirs.median, detail, ours.peak


def sliding_3x4_layered():
    return against_cpp("layers")


def sliding_3x4_twobit():
    return against_cpp("twobit")


def pancakes(n: int):
    def run():
        published = PUBLISHED["pancake_numbers"]["values"][n - 1]
        runs = measure.processes({"vecsearch": vecsearch_command("bfs", f"pancake-{n}", "--mode", "twobit", "--csv")},
                                 1, lambda _, out: _check_pancakes(out, n, published))
        ours = runs["vecsearch"]
        return ours.median, f"whole process, {ours}; {n}! states, {published} flips at most (OEIS A058986)", ours.peak

    return run


def sliding_2x7():
    """``vecsearch bfs sliding-2x7 --mode twobit`` once, whole process: 43.6 G states in a 10.2 GiB
    table, every layer checked against the GPU program's published counts; states per second of
    the whole process and of the search (its layers' own seconds), and where the search's time went."""
    published = json.loads((Path(__file__).parent / "data" / "sliding-2x7.json").read_text())
    rows = []

    def check(_, out):
        rows.extend(csv.DictReader(io.StringIO(out)))
        assert [int(row["states"]) for row in rows] == published["counts"], "the 7x2's counts differ from the GPU's"

    runs = measure.processes({"vecsearch": vecsearch_command("bfs", "sliding-2x7", "--mode", "twobit", "--csv")}, 1,
                             check)
    ours, states = runs["vecsearch"], sum(published["counts"])
    search = sum(float(row["seconds"]) for row in rows)
    phases = {phase: sum(float(row[phase]) for row in rows) for phase in ("scan", "unrank", "expand", "claim")}
    split = " ".join(f"{phase} {100 * t / search:.0f}%" for phase, t in phases.items())
    pulled = sum(row["method"] == "pull" for row in rows)
    return ours.median, (f"whole process {ours}, {states / ours.median / 1e6:.1f} M states/s; search {search:.0f} s"
                         f" ({states / search / 1e6:.1f} M states/s; split {split}; {pulled} layers pulled); all"
                         f" {len(rows)} layers = the GPU's (SlidingTilesSolver, published:"
                         f" {published['gpu_seconds']:.0f} s on a GTX 1050 Ti, the target)"), ours.peak


def _check_pancakes(out, n, published):
    import math

    counts = csv_counts(out)
    assert sum(counts) == math.factorial(n) and len(counts) - 1 == published, "pancake counts are wrong"


def pocket_full():
    published = PUBLISHED["pocket-full"]["counts"]

    def check(result):
        assert result.layer_sizes == published, "pocket-full counts differ from the published ones"

    runs, result = searched("pocket-full", "twobit", 5, check)
    return runs.median, (f"in-process search, {runs}; 88,179,840 states as published;"
                         f" {split(result.profile)}; {twsearch_pocket(published)}")


RANK_STEP_RANKS = 1 << 21  # ranks stepped a pass: 1 in 4 of a window, in increasing order, as a push takes them


def pancake_13_rank_steps():
    """A pancake-13 state's 12 children's ranks stepped in rank space (``single_orbit_expand_rank``,
    what the two-bit search computes per state), ns a state on one thread over increasing ranks,
    1 in 4 of a window (a large layer's density), through one memory as a search's thread does;
    beside it, the same children by the family's state rules (``pieces_unrank``, ``pieces_expand``,
    ``pieces_rank``), state by state. The search's budget: pancake-13 in 150 s on two threads
    leaves 48 ns a state for everything (steps, claims, the scan), so the steps' target is 40 ns.
    Checked: both give the same children, and those of 2,000 of the ranks equal, in move order,
    the definition's moves applied in plain Python (``PermutationDefinition.apply``,
    ``Layout.rank``)."""
    import time

    import numpy as np

    import vecsearch as vs
    from vecsearch.contract import RANK_MEMORY

    puzzle = vs.get_puzzle("pancake-13")
    tables, moves = puzzle.tables, puzzle.max_moves
    rng = np.random.default_rng(13)
    start = int(rng.integers(0, puzzle.rank_size - 4 * RANK_STEP_RANKS))
    ranks = start + np.flatnonzero(rng.random(4 * RANK_STEP_RANKS) < 0.25)
    stepped, by_states = (np.empty(len(ranks) * moves, np.int64) for _ in range(2))
    harness = _rank_step_harness()
    assert harness.steps(ranks, tables, stepped, np.full(RANK_MEMORY, -1, np.int64)) == len(stepped)
    assert harness.by_states(ranks, tables, by_states, np.empty(moves, np.int64)) == len(by_states)
    assert np.array_equal(stepped, by_states), "rank steps differ from unrank, expand, rank"
    for i in rng.choice(len(ranks), 2000, replace=False):
        state = puzzle.layout.unrank(int(ranks[i]), 0)
        expected = [puzzle.layout.rank(puzzle.definition.apply(state, move))[0] for move in puzzle.move_list]
        assert stepped[i * moves:(i + 1) * moves].tolist() == expected, f"rank {ranks[i]}: children differ"

    def timed(run):
        def once():
            began = time.perf_counter()
            run()
            return (time.perf_counter() - began) / len(ranks) * 1e9
        return measure.in_process(once, 5)

    ours = timed(lambda: harness.steps(ranks, tables, stepped, np.full(RANK_MEMORY, -1, np.int64)))
    theirs = timed(lambda: harness.by_states(ranks, tables, by_states, np.empty(moves, np.int64)))
    return ours.median, (f"one thread, {len(ranks):,} ranks a pass, median of 5 (best {ours.best:.1f});"
                         f" unrank, expand, rank {theirs.median:.1f} ns (best {theirs.best:.1f}); the same"
                         " children, 2,000 states' = the moves applied in plain Python")


def _rank_step_harness():
    """The two loops timed (``loop``: no reference counting per call), compiled on first use."""
    from types import SimpleNamespace

    from vecsearch._numba import loop
    from vecsearch.puzzles.permutation.rank_steps import single_orbit_expand_rank
    from vecsearch.puzzles.permutation.rules import pieces_expand, pieces_rank, pieces_unrank

    @loop
    def steps(ranks, tables, out, memory):
        at = 0
        for i in range(ranks.shape[0]):
            at += single_orbit_expand_rank(ranks[i], 0, tables, out[at:], memory)
        return at

    @loop
    def by_states(ranks, tables, out, moves):
        at = 0
        for i in range(ranks.shape[0]):
            kids = out[at:]  # a narrow state is an int64: the children, each then replaced by its rank
            count = pieces_expand(pieces_unrank(ranks[i], 0, tables), tables, kids, moves)
            for j in range(count):
                out[at + j] = pieces_rank(kids[j], tables)
            at += count
        return at

    return SimpleNamespace(steps=steps, by_states=by_states)


def twsearch_pocket(published, repeat=3) -> str:
    """twsearch's own two-bit God's algorithm on the 2x2x2 with every face turning (``-g``, 2
    threads), from the binary ``$TWSEARCH`` names (its C++ version, built from
    github.com/cubing/twsearch: not part of vecsearch): its own per-layer seconds, summed."""
    binary = os.environ.get("TWSEARCH")
    if not binary:
        return "twsearch not run (set TWSEARCH to its binary)"
    text = (Path(__file__).parent.parent / "vecsearch" / "data" / "2x2x2.tws").read_text()
    solved = "Solved\nCORNERS\n1 2 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\nEnd\n\n"  # twsearch wants it before the moves
    definition = Path(tempfile.mkdtemp()) / "2x2x2.tws"
    definition.write_text(text.replace("Move U\n", solved + "Move U\n", 1))
    seconds = []
    for _ in range(repeat):
        _, _, out = measure.run_process([binary, "-t", "2", "-g", str(definition)])
        layers = re.findall(r"^Dist (\d+) cnt (\d+) tot \d+ in ([0-9.e-]+)", out, re.M)
        assert [int(c) for _, c, _ in layers] == published, "twsearch's counts differ from the published ones"
        seconds.append(sum(float(t) for _, _, t in layers))
    return f"twsearch -g on 2 threads, its own timing: {measure.Runs(seconds, [])}"


def in_process_against_cpp(name, mode, program, published, repeat):
    def check(result):
        assert result.layer_sizes == published, f"{name} counts differ from the published ones"

    runs, result = searched(name, mode, repeat, check)
    binary = measure.reference(program)
    cpp = f"C++ {program}.cpp's own timing: {measure.self_timed(binary)}" if binary else "C++ not built (no g++)"
    return runs.median, f"in-process search, {runs}; {cpp}; {split(result.profile)}"


def pocket_htm():
    return in_process_against_cpp("pocket-htm", "auto", "pocket2x2", PUBLISHED["pocket-htm"]["counts"], 7)


def sliding_3x3():
    return in_process_against_cpp("sliding-3x3", "auto", "sliding3x3", PUBLISHED["A089473"]["counts"], 31)


BENCHMARKS = [
    Benchmark("enumeration: sliding-3x3 full BFS (in-process)", 0.006, "s", sliding_3x3),
    Benchmark("enumeration: pocket-htm full BFS (in-process)", 0.4, "s", pocket_htm),
    Benchmark("enumeration: pocket-full two-bit BFS (in-process)", 1.2, "s", pocket_full),
    Benchmark("enumeration: sliding-3x4 layered, whole process / C++", 0.65, "x", sliding_3x4_layered, peak_mib=450),
    Benchmark("enumeration: sliding-3x4 two-bit, whole process / C++", 1.0, "x", sliding_3x4_twobit, peak_mib=250),
    Benchmark("enumeration: pancake-13 rank steps, ns a state (one thread)", 40.0, "ns", pancake_13_rank_steps),
    Benchmark("enumeration: pancake-12 two-bit BFS, whole process", 25.0, "s", pancakes(12), peak_mib=400),
    Benchmark("enumeration: pancake-13 two-bit BFS, whole process", 150.0, "s", pancakes(13), on_request=True),
    Benchmark("enumeration: sliding-2x7 two-bit BFS, whole process", 1070.0, "s", sliding_2x7, peak_mib=12 * 1024,
              on_request=True),
]
