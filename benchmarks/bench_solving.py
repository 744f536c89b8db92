"""Optimal solves of permutation puzzles from their ``.tws`` file, side by side with twsearch.

The scrambles and twsearch's optimal lengths are ``tests/data/tws_solve_lengths.json`` (with the
command that produced them): the 3x3x3 at 13-14 random moves, the pyraminx and the skewb at 40
(their 8 and 92 more made the same way, whose lengths are checked against twsearch's in the
same run). A process's start-up still weighs: twsearch answers the skewb's 100 in 0.1-0.3 s, less
than Python takes to import numpy and numba; the skewb's row of 2,000 scrambles (on request)
shows the time per solve once start-up weighs little.
Whole processes, alternating: ``vecsearch batch FILE.tws SCRAMBLES --method idastar`` (IDA*,
canonical sequences, the default pattern databases: for the 3x3x3 the corners and two 6-edge
windows, 87 MB; for the pyraminx its tips with its edges and its centres with its edges; for the
skewb the exact distance table over its group, 19 MB) against ``twsearch -M MB -s FILE.tws <
SCRAMBLES`` (``$TWSEARCH`` names its binary; ``-M`` the memory of its tables). The tables of both
are built before the timed runs (vecsearch's cached on disk, twsearch's written by
``--writeprunetables always`` into a cache directory), so the runs time loading and solving.
Every answer is checked: vecsearch's lengths equal twsearch's. Figure: vecsearch's seconds per
solve over twsearch's.
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import measure
from run import Benchmark

HERE = Path(__file__).parent
TESTS = HERE.parent / "tests" / "data"
GOLDEN = json.loads((TESTS / "tws_solve_lengths.json").read_text())
TABLE_MB = 256  # twsearch's -M; vecsearch's default databases for the 3x3x3 take 87 MB (173 M entries, two a byte)


def more_scrambles(path, count, length=40):
    """``count`` further scrambles of ``length`` random moves (``random.Random(26)``), as the
    goldens' were made (``tests/data/make_tws_solve_lengths.py``)."""
    from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle
    from vecsearch.puzzles.permutation.textformat import load_definition

    moves = [m.name for m in PermutationPuzzle(load_definition(str(path)), representation="labels").move_list]
    rng = random.Random(26)
    return [" ".join(rng.choice(moves) for _ in range(length)) for _ in range(count)]


def against_twsearch(name, lengths=None, repeat=2, more=0):
    """Solve the goldens' scrambles of ``name`` (those of ``lengths`` moves, default all) and
    ``more`` further ones (their lengths checked against twsearch's in the same run)."""
    def run():
        binary = os.environ.get("TWSEARCH")
        if not binary:
            raise RuntimeError("set TWSEARCH to twsearch's binary (github.com/cubing/twsearch)")
        cases = [c for c in GOLDEN["puzzles"][name] if lengths is None or len(c["scramble"].split()) in lengths]
        path = TESTS / "definitions" / f"twsearch-main-{name}.tws"
        cases += [{"scramble": s, "length": None} for s in more_scrambles(path, more)]
        work = Path(tempfile.mkdtemp(prefix="bench-solving-"))
        scrambles = work / "scrambles.txt"
        scrambles.write_text("".join(c["scramble"] + "\n" for c in cases))
        instances = work / "instances.jsonl"
        instances.write_text("".join(json.dumps({"id": i, "start": c["scramble"]}) + "\n" for i, c in enumerate(cases)))
        ours = [sys.executable, "-m", "vecsearch", "batch", str(path), str(instances), "--method", "idastar"]
        theirs = ["sh", "-c", f"{binary} -M {TABLE_MB} --cachedir {work} --writeprunetables always -s {path}"
                              f" < {scrambles}"]
        subprocess.run(ours, check=True, capture_output=True)  # tables built and cached, kernels compiled
        subprocess.run(theirs, check=True, capture_output=True)
        want = [c["length"] for c in cases]
        found = {}

        def check(who, out):
            if who == "vecsearch":
                got = [json.loads(line)["length"] for line in out.splitlines() if line.startswith("{")]
            else:
                lines = out.splitlines()
                got = [len(lines[i - 1].split()) for i, line in enumerate(lines)
                       if re.match(r"Found \d+ solutions? ", line)]  # two at once: the last of them
            golden = [(g, w) for g, w in zip(got, want, strict=True) if w is not None]
            assert len(got) == len(want) and all(g == w for g, w in golden), \
                f"{who}'s lengths {got} differ from twsearch's golden ones {want}"
            found[who] = got
            if len(found) == 2:
                assert found["vecsearch"] == found["twsearch"], f"lengths differ: {found}"

        runs = measure.processes({"vecsearch": ours, "twsearch": theirs}, repeat, check)
        a, b = runs["vecsearch"], runs["twsearch"]
        golden = sum(w is not None for w in want)
        return a.median / b.median, (f"{len(cases)} solves, whole processes: vecsearch {a} ({a.median / len(cases):.3f}"
                                     f" s a solve); twsearch -M {TABLE_MB} {b} ({b.median / len(cases):.3f} s a solve);"
                                     f" lengths equal: {golden} to the goldens, all {len(cases)} to twsearch's in"
                                     f" this run"), a.peak
    return run


BENCHMARKS = [
    Benchmark("solving: 3x3x3 13-14 moves, per solve / twsearch", 1.0, "x", against_twsearch("3x3x3", (13, 14)),
              on_request=True),
    Benchmark("solving: pyraminx random, per solve / twsearch", 1.0, "x", against_twsearch("pyraminx", more=92)),
    Benchmark("solving: skewb random, per solve / twsearch", 1.0, "x", against_twsearch("skewb", more=92)),
    Benchmark("solving: skewb 2,000 random, per solve / twsearch", 1.0, "x", against_twsearch("skewb", more=1992),
              on_request=True),
]
