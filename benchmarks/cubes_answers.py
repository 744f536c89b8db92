"""An independent check of Cubic Eight-Puzzle (POJ 3131) answers, for the benchmarks that time them.

The fewest rolls that show each top pattern from each of the nine starts come from the C++
program ``benchmarks/reference/cubic8.cpp`` (``cubic8 patterns X Y FILE``: one breadth-first
enumeration per start, no vecsearch code); an answer is right when it is -1 exactly for the
patterns more than 30 rolls away, and otherwise as long as that distance. Every move string is
also replayed by the tests' plain-Python rules (``tests/reference_cubes.py``) and must show the
pattern.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
from measure import reference

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
import reference_cubes  # noqa: E402  (plain-Python rules: an independent replay)

LIMIT = 30  # the judge's: more steps print -1


@cache
def fewest_rolls(x: int, y: int) -> np.ndarray:
    """Per top pattern code (base 4 over the cells, cell 0 first, W B R E = 0..3), the fewest
    rolls that show it from the start with the empty square at column x, row y (255: never)."""
    binary = reference("cubic8")
    assert binary is not None, "the cubes answers are checked with benchmarks/reference/cubic8.cpp: g++ is needed"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "patterns.bin"
        subprocess.run([str(binary), "patterns", str(x), str(y), str(out)], check=True, capture_output=True)
        return np.fromfile(out, np.uint8)


def code(pattern: str) -> int:
    value = 0
    for letter in pattern:
        value = value * 4 + "WBRE".index(letter)
    return value


def check(datasets: list[tuple[int, int, str]], lengths: list[int], moves: list[str | None] | None = None) -> None:
    """``datasets[i]`` = (x, y, pattern of 9 letters); ``lengths[i]``: the answer (-1 beyond 30
    rolls); ``moves[i]``: its move string (u d l r, the way the rolled cube travels), if any."""
    assert len(lengths) == len(datasets), f"{len(lengths)} answers for {len(datasets)} datasets"
    for i, (x, y, pattern) in enumerate(datasets):
        distance = int(fewest_rolls(x, y)[code(pattern)])
        expected = distance if distance <= LIMIT else -1
        assert lengths[i] == expected, f"dataset {i} ({x} {y} {pattern}): answered {lengths[i]}, expected {expected}"
        if moves is not None and expected >= 0:
            assert len(moves[i]) == expected, f"dataset {i}: {moves[i]!r} has not {expected} rolls"
            shown = reference_cubes.tops(reference_cubes.replay(reference_cubes.start(x, y), moves[i]))
            assert shown == pattern, f"dataset {i}: {moves[i]!r} shows {shown}, not {pattern}"
