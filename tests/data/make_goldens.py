"""Regenerate ``tests/data/reference_goldens.json``: results of the tests' plain-Python references
that take too long to recompute in every test run (imports nothing of vecsearch).

    python tests/data/make_goldens.py        # about two minutes

- ``solitaire``: the layer sizes of every configuration reachable from the sample start
  (``tests/reference_solitaire.py``'s rules, ``tests/reference.py``'s BFS);
- ``solitaire_pairs``: the distances (at most 8, else None) of the slow case of Solitaire's random
  pairs (``reference_solitaire.random_pairs``, checked by ``distance_within``);
- ``solitaire_exact_pairs``: three pairs exactly 8 and three exactly 9 apart
  (``reference_solitaire.pair_at``, seed 8), as the judge's lines;
- ``cubes``: from the start with the empty square in the centre and on an edge, the layer sizes
  and, for every top pattern (sorted), the fewest rolls that show it, as one character each
  (``chr(48 + rolls)``; ``tests/reference_cubes.py``).

The tests that read these also recompute a cheap piece of each (the first layers) with the
reference itself, so a golden that no longer matches its reference fails.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))

import reference  # noqa: E402
import reference_cubes  # noqa: E402
import reference_solitaire  # noqa: E402

OUT = Path(__file__).resolve().parent / "reference_goldens.json"
ABOUT = ("Results of the tests' plain-Python references (no vecsearch code): Solitaire's layers from the sample"
         " start, the distances of its slow random pairs, pairs exactly 8 and 9 apart; the Cubic Eight-Puzzle's"
         " layers and, per top pattern (sorted), the fewest rolls as chr(48 + rolls), from the centre and an edge."
         " Made by: python tests/data/make_goldens.py")
SOLITAIRE_START = "4 4 4 5 5 4 6 5"
CUBES_STARTS = {"centre": (2, 2), "edge": (2, 1)}


def solitaire() -> dict:
    layers = reference.bfs_layers([reference_solitaire.parse(SOLITAIRE_START)], reference_solitaire.neighbours)
    return {"start": SOLITAIRE_START, "layers": [len(layer) for layer in layers]}


def solitaire_pairs(walks: int = 260, strangers: int = 40) -> dict:
    pairs = reference_solitaire.random_pairs(walks, strangers)
    return {"walks": walks, "strangers": strangers,
            "distances": [reference_solitaire.distance_within(a, b, 8) for a, b in pairs]}


def solitaire_exact_pairs(seed: int = 8) -> dict:
    rng = random.Random(seed)
    pairs = {d: [reference_solitaire.pair_at(rng, d) for _ in range(3)] for d in (8, 9)}
    text = reference_solitaire.text
    return {"seed": seed, "pairs": {str(d): [[text(a), text(b)] for a, b in found] for d, found in pairs.items()}}


def cubes(x: int, y: int) -> dict:
    best, layers = reference_cubes.pattern_distances(x, y)
    return {"x": x, "y": y, "layers": layers, "patterns": len(best),
            "rolls": "".join(chr(48 + best[p]) for p in sorted(best))}


def main() -> None:
    goldens = {"_about": ABOUT,
               "solitaire": solitaire(),
               "solitaire_pairs": solitaire_pairs(),
               "solitaire_exact_pairs": solitaire_exact_pairs(),
               "cubes": {name: cubes(*xy) for name, xy in CUBES_STARTS.items()}}
    OUT.write_text(json.dumps(goldens, indent=1) + "\n")


if __name__ == "__main__":
    main()
