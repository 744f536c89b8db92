"""Regenerate ``tests/data/tws_solve_lengths.json``: optimal lengths of random scrambles from
twsearch (``tests/test_pruning.py``, ``benchmarks/bench_solving.py``).

    python tests/data/make_tws_solve_lengths.py   # twsearch at /work/tools/twsearch; minutes
"""

import json
import random
import subprocess
from pathlib import Path

from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle
from vecsearch.puzzles.permutation.textformat import load_definition

out = {}
specs = {"3x3x3": [(10, 4), (11, 4), (13, 5), (14, 5)], "pyraminx": [(40, 8)], "skewb": [(40, 8)]}
for name, groups in specs.items():
    path = str(Path(__file__).parent / "definitions" / f"twsearch-main-{name}.tws")
    d = load_definition(path)
    moves = [m.name for m in PermutationPuzzle(d, representation="labels").move_list]
    rng = random.Random(25)
    scrambles = []
    for length, count in groups:
        for _ in range(count):
            scrambles.append(" ".join(rng.choice(moves) for _ in range(length)))
    cmd = ["/work/tools/twsearch", "-M", "1024", "-t", "1", "-s", path]
    res = subprocess.run(cmd, input="\n".join(scrambles) + "\n", capture_output=True, text=True, timeout=3000)
    lines = res.stdout.splitlines()
    answers = []
    for i, line in enumerate(lines):
        if line.startswith("Found 1 solution"):
            answers.append(lines[i - 1].strip())
    assert len(answers) == len(scrambles), (name, len(answers), len(scrambles))
    out[name] = [{"scramble": s, "twsearch": a, "length": len(a.split())}
                 for s, a in zip(scrambles, answers, strict=True)]
    print(name, [len(a.split()) for a in answers], flush=True)
COMMAND = ("twsearch -M 1024 -t 1 -s FILE.tws < SCRAMBLES (twsearch built from github.com/cubing/twsearch at 0a8bfb0;"
           " FILE: its samples/main at 007a8cd, copied to tests/data/definitions/twsearch-main-NAME.tws); scrambles:"
           " random moves of the half-turn metric, random.Random(25); length: the moves of twsearch's optimal solution")
json.dump({"command": COMMAND, "puzzles": out}, open(Path(__file__).parent / "tws_solve_lengths.json", "w"), indent=1)
