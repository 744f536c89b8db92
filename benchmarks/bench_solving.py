"""Optimal solves of permutation puzzles from their ``.tws`` file, side by side with twsearch.

The scrambles and twsearch's optimal lengths are ``tests/data/tws_solve_lengths.json`` (with the
command that produced them): the 3x3x3 at 13-14 random moves, the pyraminx and the skewb at 40
(the pyraminx's 8 with 92 more, the skewb's 8 with 1,992 more, made the same way, whose lengths
are checked against twsearch's in the same run).
Whole processes, alternating: ``vecsearch batch FILE.tws SCRAMBLES --method idastar`` (IDA*,
canonical sequences, the default pattern databases: for the 3x3x3 the corners and two 6-edge
windows, 87 MB; for the pyraminx its tips with its edges and its centres with its edges; for the
skewb the exact distance table over its group, 19 MB) against ``twsearch -M MB -s FILE.tws <
SCRAMBLES`` (``$TWSEARCH`` names its binary; ``-M`` the memory of its tables). The tables of both
are built before the timed runs (vecsearch's cached on disk, twsearch's written by
``--writeprunetables always`` into a cache directory), so the runs time loading and solving.
Every answer is checked: vecsearch's lengths equal twsearch's.

Figure: vecsearch's time per solve over twsearch's, each program's time per solve being what a
further solve adds to a whole process: (the median process solving all ``n`` scrambles minus the
median process solving the first alone) / (``n`` - 1). A process's start-up is left out of it
(it is the start-up's own target, ``bench_startup``): twsearch starts in about 0.1 s, less than
Python takes to import numpy and numba, and answers the skewb's 2,000 in well under a second, so a
ratio of whole processes would time mostly the two start-ups. The detail gives both processes'
whole times.
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


def against_twsearch(name, lengths=None, repeat=3, more=0):
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

        def commands(some, label):
            """Both programs' commands solving the cases ``some`` (files named by ``label``)."""
            scrambles = work / f"{label}.txt"
            scrambles.write_text("".join(c["scramble"] + "\n" for c in some))
            instances = work / f"{label}.jsonl"
            instances.write_text("".join(json.dumps({"id": i, "start": c["scramble"]}) + "\n"
                                         for i, c in enumerate(some)))
            return ([sys.executable, "-m", "vecsearch", "batch", str(path), str(instances), "--method", "idastar"],
                    ["sh", "-c", f"{binary} -M {TABLE_MB} --cachedir {work} --writeprunetables always -s {path}"
                                 f" < {scrambles}"])

        ours, theirs = commands(cases, "all")
        ours_one, theirs_one = commands(cases[:1], "first")
        subprocess.run(ours, check=True, capture_output=True)  # tables built and cached, kernels compiled
        subprocess.run(theirs, check=True, capture_output=True)
        found = {}

        def check(who, out):
            want = [c["length"] for c in (cases[:1] if who.endswith("one") else cases)]
            if who.startswith("vecsearch"):
                got = [json.loads(line)["length"] for line in out.splitlines() if line.startswith("{")]
            else:
                lines = out.splitlines()
                got = [len(lines[i - 1].split()) for i, line in enumerate(lines)
                       if re.match(r"Found \d+ solutions? ", line)]  # two at once: the last of them
            golden = [(g, w) for g, w in zip(got, want, strict=True) if w is not None]
            assert len(got) == len(want) and all(g == w for g, w in golden), \
                f"{who}'s lengths {got} differ from twsearch's golden ones {want}"
            found[who] = got
            if "vecsearch" in found and "twsearch" in found:
                assert found["vecsearch"] == found["twsearch"], f"lengths differ: {found}"

        runs = measure.processes({"vecsearch": ours, "twsearch": theirs, "vecsearch one": ours_one,
                                  "twsearch one": theirs_one}, repeat, check)
        n = len(cases)
        per_solve = {who: (runs[who].median - runs[f"{who} one"].median) / (n - 1) for who in ("vecsearch", "twsearch")}
        a, b = runs["vecsearch"], runs["twsearch"]
        golden = sum(c["length"] is not None for c in cases)
        return per_solve["vecsearch"] / per_solve["twsearch"], (
            f"{n} solves, whole processes: vecsearch {a}, one solve {runs['vecsearch one'].median:.2f} s, so"
            f" {per_solve['vecsearch'] * 1000:.3f} ms a solve; twsearch -M {TABLE_MB} {b}, one solve"
            f" {runs['twsearch one'].median:.2f} s, so {per_solve['twsearch'] * 1000:.3f} ms a solve; lengths"
            f" equal: {golden} to the goldens, all {n} to twsearch's in this run"), a.peak
    return run


BENCHMARKS = [
    Benchmark("solving: 3x3x3 13-14 moves, per solve / twsearch", 1.0, "x", against_twsearch("3x3x3", (13, 14)),
              on_request=True),
    Benchmark("solving: pyraminx random, per solve / twsearch", 1.0, "x", against_twsearch("pyraminx", more=92)),
    Benchmark("solving: skewb 2,000 random, per solve / twsearch", 1.0, "x", against_twsearch("skewb", more=1992)),
]
