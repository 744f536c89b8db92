"""Enumeration modulo symmetry: the all-faces 2x2x2 (``benchmarks/data/2x2x2-rotations.tws``,
twsearch's ``samples/symm/2x2x2.tws``: six faces, 88,179,840 positions) in classes under its 24
rotations, and under 48 with the mirror ``(L R)``; seconds of search (kernels loaded first; the
quotient's orbit table, ``setup_seconds``, included), beside the unreduced two-bit enumeration of
the same puzzle measured in the same run. Checked: the positions recovered from the classes per
layer equal the unreduced enumeration's and twsearch's ``-g``
(tests/data/symmetry/twsearch_counts.json); the classes per layer equal those of the search by
least conjugates (tests/data/symmetry/class_counts.json) and are at least positions / order; the
group has the order asked for.

The two-bit rows time the same classes over a two-bit table (``mode="twobit"``: 2 bits per rank,
against the bitset's 1 bit per rank for the positions generated and 1 for the classes) as a
ratio to the bitset search by least conjugates (the same algorithm; the symmetry offered without
its quotient), measured in the same run; checked as above, and the classes, positions and
representatives per layer equal the bitset search's.
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


class WithoutQuotient:
    """A symmetry as the engine takes it, without the quotient: the search by least conjugates."""

    def __init__(self, symmetry):
        self.order, self.canonical_ranks = symmetry.order, symmetry.canonical_ranks
        self.puzzle, self.restate = symmetry.puzzle, symmetry.restate


def twobit_classes(spec: str, order: int):
    def run():
        import numpy as np

        import vecsearch as vs

        warnings.simplefilter("ignore", vs.errors.DefinitionNote)
        cube = vs.get_puzzle(str(CUBE))
        conjugates = WithoutQuotient(cube.symmetry(spec))
        vs.bfs(cube, symmetry=spec, mode="twobit", max_depth=2)  # kernels compiled or loaded
        vs.bfs(cube, symmetry=conjugates, max_depth=2)
        bitset = vs.bfs(cube, symmetry=conjugates)
        result = vs.bfs(cube, symmetry=spec, mode="twobit")
        assert result.order == order, result.order
        assert [r.positions for r in result.records] == TWSEARCH, "positions differ from twsearch -g"
        assert [r.classes for r in result.records] == CLASSES[spec], "classes differ from the least conjugates'"
        assert [(r.classes, r.positions) for r in result.records] == [(r.classes, r.positions) for r in bitset.records]
        assert all(np.array_equal(a, b[:result.keep]) for a, b in zip(result.representatives, bitset.representatives,
                                                                       strict=True)), "representatives differ"
        ratio = result.seconds / bitset.seconds
        return ratio, (f"{result.classes:,} classes of {result.positions:,} positions in {result.seconds:.2f} s over a"
                       f" two-bit table; the bitset search by least conjugates {bitset.seconds:.2f} s")
    return run


BENCHMARKS = [
    Benchmark("symmetry: 2x2x2 all faces mod 24 rotations", 0.3, "s", classes("rotations", 24)),
    Benchmark("symmetry: 2x2x2 all faces mod 48 (mirror)", 0.3, "s", classes("rotations, mirror (L R)", 48)),
    Benchmark("symmetry: 2x2x2 mod 24 two-bit / bitset by conjugates", 1.2, "x", twobit_classes("rotations", 24)),
]
