"""Enumeration modulo symmetry: the all-faces 2x2x2 (``benchmarks/data/2x2x2-rotations.tws``,
twsearch's ``samples/symm/2x2x2.tws``: six faces, 88,179,840 positions) in classes under its 24
rotations, and under 48 with the mirror ``(L R)``; seconds of search (kernels loaded first; the
quotient's orbit table, ``setup_seconds``, included), beside the unreduced two-bit enumeration of
the same puzzle measured in the same run. Checked: the positions recovered from the classes per
layer equal the unreduced enumeration's and twsearch's ``-g``
(tests/data/symmetry/twsearch_counts.json); the classes per layer equal those of the search by
least conjugates (tests/data/symmetry/class_counts.json) and are at least positions / order; the
group has the order asked for.
"""

import json
import warnings
from pathlib import Path

from run import Benchmark

HERE = Path(__file__).parent
CUBE = HERE / "data" / "2x2x2-rotations.tws"
DATA = HERE.parent / "tests" / "data" / "symmetry"
TWSEARCH = json.loads((DATA / "twsearch_counts.json").read_text())["2x2x2"]
CLASSES = json.loads((DATA / "class_counts.json").read_text())["2x2x2"]


def classes(spec: str, order: int):
    def run():
        import vecsearch as vs

        warnings.simplefilter("ignore", vs.errors.DefinitionNote)
        cube = vs.get_puzzle(str(CUBE))
        vs.bfs(cube, symmetry=spec, max_depth=4)  # kernels compiled or loaded
        vs.bfs(cube, mode="twobit", max_depth=2)
        plain = vs.bfs(cube, mode="twobit")
        plain_seconds = sum(r.seconds for r in plain.profile.records)
        result = vs.bfs(cube, symmetry=spec)
        assert result.order == order, result.order
        assert [r.positions for r in result.records] == plain.layer_sizes == TWSEARCH, "positions differ"
        assert [r.classes for r in result.records] == CLASSES[spec], "classes differ from the least conjugates'"
        assert all(r.classes * order >= r.positions for r in result.records)
        return result.seconds, (f"{result.classes:,} classes of {result.positions:,} positions in"
                                f" {result.seconds:.2f} s ({result.setup_seconds:.2f} s of orbit table) by"
                                f" {result.method.split(':')[0]}; unreduced two-bit enumeration {plain_seconds:.2f} s"
                                f" ({plain_seconds / result.seconds:.2f}x); positions = twsearch -g")
    return run


BENCHMARKS = [
    Benchmark("symmetry: 2x2x2 all faces mod 24 rotations", 0.3, "s", classes("rotations", 24)),
    Benchmark("symmetry: 2x2x2 all faces mod 48 (mirror)", 0.3, "s", classes("rotations, mirror (L R)", 48)),
]
