"""Independent checks of Solitaire (POJ 1198) and chessboard (CEOI 1999) answers, for the
benchmarks that time them.

The reference answers come from the hand-written C++ programs in ``benchmarks/reference/``
(``solitaire.cpp``: YES or NO per pair; ``chessboard.cpp``: the fewest swaps per case), run on
the same judge-format input (no vecsearch code); every chessboard swap list is also replayed by
the tests' plain-Python rules (``tests/reference_chessboard.py``) and must reach the final
position in that many swaps.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from measure import reference

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
import reference_chessboard  # noqa: E402  (plain-Python rules: an independent replay)


def reference_output(program: str, judge_input: str) -> str:
    """What the C++ program ``program`` prints for ``judge_input``."""
    binary = reference(program)
    assert binary is not None, f"answers are checked with benchmarks/reference/{program}.cpp: g++ is needed"
    return subprocess.run([str(binary)], input=judge_input, capture_output=True, text=True, check=True).stdout


def solitaire_verdicts(judge_input: str) -> list[bool]:
    """Per pair of ``judge_input``: whether the second is reachable within 8 moves (C++)."""
    return [line == "YES" for line in reference_output("solitaire", judge_input).split()]


def check_solitaire(judge_input: str, answers: list[bool]) -> None:
    expected = solitaire_verdicts(judge_input)
    assert len(answers) == len(expected), f"{len(answers)} answers for {len(expected)} pairs"
    wrong = [i for i, (a, e) in enumerate(zip(answers, expected, strict=True)) if a != e]
    assert not wrong, f"{len(wrong)} wrong Solitaire answers, the first: pair {wrong[0]}"


def chessboard_cases(judge_input: str) -> list[tuple[str, str]]:
    """(start, final) per case: 16 characters of 0/1 each."""
    rows = judge_input.split()
    return [("".join(rows[i:i + 4]), "".join(rows[i + 4:i + 8])) for i in range(0, len(rows) - 7, 8)]


def chessboard_judge_output(output: str) -> tuple[list[int], list[list[str] | None]]:
    """Lengths and swap lists of a judge-format chessboard output."""
    lines = output.splitlines()
    lengths, swaps, at = [], [], 0
    while at < len(lines):
        length = int(lines[at])
        lengths.append(length)
        swaps.append(lines[at + 1:at + 1 + length] if length >= 0 else None)
        at += 1 + max(length, 0)
    return lengths, swaps


def check_chessboard(judge_input: str, lengths: list[int], swaps: list[list[str] | None]) -> None:
    """``lengths[i]``: the fewest swaps (-1: the stone counts differ); ``swaps[i]``: one list of
    ``"R1 C1 R2 C2"`` of that length."""
    cases = chessboard_cases(judge_input)
    expected, _ = chessboard_judge_output(reference_output("chessboard", judge_input))
    assert len(lengths) == len(cases) == len(expected), f"{len(lengths)} answers, {len(expected)} expected"
    for i, ((start, final), length, want) in enumerate(zip(cases, lengths, expected, strict=True)):
        assert length == want, f"case {i}: {length} swaps, the C++ reference says {want}"
        if length < 0:
            continue
        assert len(swaps[i]) == length, f"case {i}: {len(swaps[i])} swaps listed for {length}"
        position = start
        for swap in swaps[i]:
            position = dict(reference_chessboard.neighbours(position))[swap]
        assert position == final, f"case {i}: the swaps end at {position}, not {final}"
