"""Writes class_counts.json: the classes per depth of the all-faces 2x2x2 (twsearch's
samples/symm/2x2x2.tws, ``benchmarks/data/2x2x2-rotations.tws``) modulo its rotations, and with
the mirror (L R), and of Jing's pyraminx (``Jing_pyraminx.tws``) modulo its rotations, and with
the mirror (L R)(FRD FDL), counted by vecsearch's search by least conjugates
(``engine.layered.classes``; the quotient's search is taken away here, so that the tests check
one method against the other).

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
PUZZLES = {"2x2x2": (HERE.parent.parent.parent / "benchmarks" / "data" / "2x2x2-rotations.tws", "(L R)"),
           "Jing_pyraminx": (HERE / "Jing_pyraminx.tws", "(L R)(FRD FDL)")}
counts = {}
for name, (path, mirror) in PUZZLES.items():
    puzzle = vs.get_puzzle(str(path))
    counts[name] = {}
    for spec in ("rotations", f"rotations, mirror {mirror}"):
        result = vs.bfs(puzzle, symmetry=spec)
        assert result.method.startswith("conjugates")
        counts[name][spec] = [r.classes for r in result.records]
(HERE / "class_counts.json").write_text(json.dumps(counts, indent=1) + "\n")
