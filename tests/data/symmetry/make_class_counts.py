"""Writes class_counts.json: the classes per depth of the all-faces 2x2x2 (twsearch's
samples/symm/2x2x2.tws, ``benchmarks/data/2x2x2-rotations.tws``) modulo its rotations, and with
the mirror (L R), counted by vecsearch's search by least conjugates (``engine.layered.classes``;
the quotient's search is taken away here, so that the tests check one method against the other).

    python make_class_counts.py
"""

import json
import warnings
from pathlib import Path

import vecsearch as vs
from vecsearch.puzzles.permutation.symmetry import PuzzleSymmetry

HERE = Path(__file__).parent
PuzzleSymmetry.quotient = lambda self, component: (None, "taken away")
warnings.simplefilter("ignore", vs.errors.DefinitionNote)
cube = vs.get_puzzle(str(HERE.parent.parent.parent / "benchmarks" / "data" / "2x2x2-rotations.tws"))
counts = {}
for spec in ("rotations", "rotations, mirror (L R)"):
    result = vs.bfs(cube, symmetry=spec)
    assert result.method.startswith("conjugates")
    counts[spec] = [r.classes for r in result.records]
(HERE / "class_counts.json").write_text(json.dumps({"2x2x2": counts}, indent=1) + "\n")
