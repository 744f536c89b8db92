"""Puzzle definition files: group ranks, identical pieces, each checked and measured beside its reference.

- M24 (``benchmarks/data/m24conway.tws``, twsearch's sample): its whole space, 244,823,040
  states, whole process; counts against twsearch's ``-g`` (layers 0-14, as it printed them before
  its last layer ran past 50 minutes here) and the published order of M24 for the rest.
- The 4x4x4's centres with the U and D ones told apart (``benchmarks/data/4x4x4-centres-ud.tws``,
  identical pieces, 51,482,970 states): whole process against twsearch ``-g`` on the same file
  (``$TWSEARCH`` names its binary), runs alternating; counts checked against twsearch's.
- Identical pieces against distinct ones, in-process two-bit searches (kernels loaded first):
  an identical-piece space whose arrangement has a move table (``puzzlerchallenger``, 10 moves)
  against the pocket cube (distinct pieces, a similar size, 9 moves), and the 4x4x4 centres (its
  arrangement stepped by masks, 36 moves) against ``pocket-full`` (18 moves): seconds per child
  generated (the states per second are printed too).
"""

import json
import os
import re
import sys
from pathlib import Path

import measure
from bench_enumeration import csv_counts
from run import Benchmark

HERE = Path(__file__).parent
DATA = HERE / "data"
M24 = json.loads((DATA / "m24conway.json").read_text())
CENTRES = json.loads((DATA / "4x4x4-centres-ud.json").read_text())
PUZZLER = HERE.parent / "tests" / "data" / "definitions" / "twsearch-main-puzzlerchallenger.tws"


def vecsearch_bfs(path):
    return [sys.executable, "-m", "vecsearch", "bfs", str(path), "--mode", "twobit", "--csv"]


def m24():
    def check(_, out):
        assert csv_counts(out) == M24["counts"], "M24's layer counts differ from twsearch's"

    runs = measure.processes({"vecsearch": vecsearch_bfs(DATA / "m24conway.tws")}, 1, check)["vecsearch"]
    return runs.median, (f"whole process, {runs}; 244,823,040 states = |M24|, layers as twsearch -g; twsearch -g"
                         " not run: it took over 50 min here, its last layer unfinished"), runs.peak


def centres_against_twsearch(repeat=2):
    binary = os.environ.get("TWSEARCH")
    if not binary:
        raise RuntimeError("set TWSEARCH to twsearch's binary (github.com/cubing/twsearch)")

    def check(name, out):
        counts = csv_counts(out) if name == "vecsearch" else \
            [int(c) for c in re.findall(r"^Dist \d+ cnt (\d+)", out, re.M) if int(c)]
        assert counts == CENTRES["counts"], f"{name}'s layer counts differ from the golden ones"

    runs = measure.processes({"vecsearch": vecsearch_bfs(DATA / "4x4x4-centres-ud.tws"),
                              "twsearch": [binary, "--nosymmetry", "-g", str(DATA / "4x4x4-centres-ud.tws")]},
                             repeat, check)
    ours, theirs = runs["vecsearch"], runs["twsearch"]
    return ours.median / theirs.median, (f"whole process: vecsearch {ours}; twsearch -g {theirs}; 51,482,970"
                                         " states, counts equal"), ours.peak


def searched(puzzle, repeat):
    import vecsearch as vs

    vs.bfs(puzzle, mode="twobit", max_depth=2)  # kernels loaded (or compiled) outside the timing
    results = [vs.bfs(puzzle, mode="twobit") for _ in range(repeat)]
    best = min(results, key=lambda r: r.profile.seconds)
    generated = sum(record.generated for record in best.profile.records)
    return best, best.profile.seconds, generated


def identical_tabled_against_distinct():
    import vecsearch as vs

    same, seconds, children = searched(vs.get_puzzle(str(PUZZLER)), 5)
    other, other_seconds, other_children = searched(vs.get_puzzle("pocket-htm"), 5)
    assert same.total_states == 2_910_600 and other.total_states == 3_674_160
    ours, theirs = seconds / children, other_seconds / other_children
    return ours / theirs, (f"in-process, best of 5: puzzlerchallenger (identical pieces, {same.puzzle.representation})"
                           f" {same.total_states / seconds / 1e6:.1f} M states/s, {1e9 * ours:.1f} ns/child;"
                           f" pocket-htm (distinct) {other.total_states / other_seconds / 1e6:.1f} M states/s,"
                           f" {1e9 * theirs:.1f} ns/child")


def identical_masked_against_distinct():
    import vecsearch as vs

    same, seconds, children = searched(vs.get_puzzle(str(DATA / "4x4x4-centres-ud.tws")), 1)
    other, other_seconds, other_children = searched(vs.get_puzzle("pocket-full"), 1)
    assert same.layer_sizes == CENTRES["counts"] and other.total_states == 88_179_840
    ours, theirs = seconds / children, other_seconds / other_children
    return ours / theirs, (f"in-process: 4x4x4 U/D centres (identical pieces, arrangement by masks)"
                           f" {same.total_states / seconds / 1e6:.1f} M states/s, {1e9 * ours:.1f} ns/child;"
                           f" pocket-full (distinct) {other.total_states / other_seconds / 1e6:.1f} M states/s,"
                           f" {1e9 * theirs:.1f} ns/child")


BENCHMARKS = [
    Benchmark("definitions: M24 whole space (group rank), whole process", 60.0, "s", m24, peak_mib=600),
    Benchmark("definitions: 4x4x4 U/D centres, whole process / twsearch -g", 1.0, "x", centres_against_twsearch),
    Benchmark("definitions: identical (tabled) / distinct, s per child", 1.2, "x", identical_tabled_against_distinct),
    Benchmark("definitions: identical (masks) / distinct, s per child", 1.2, "x", identical_masked_against_distinct),
]
