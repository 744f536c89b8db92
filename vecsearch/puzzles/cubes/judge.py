"""The Cubic Eight-Puzzle's judge format (POJ 3131): datasets until ``0 0``.

Each dataset is a line ``x y`` (the start's empty square, 1..3) and three lines of three top
colours (``W``, ``B``, ``R``, one ``E``). The answer is the minimum number of rolls if it is at
most 30, else ``-1``.
"""

from __future__ import annotations

from vecsearch.errors import InvalidPuzzleInput
from vecsearch.judge import Case, JudgeProblem, Lines
from vecsearch.puzzles.cubes.puzzle import cubic_puzzle
from vecsearch.puzzles.cubes.rules import JUDGE_LIMIT, Dataset
from vecsearch.puzzles.cubes.symmetry import canonical

PATTERN_TOKENS = ("W", "B", "R", "E")


class CubesJudge(JudgeProblem):
    name = "cubes"
    title = "Cubic Eight-Puzzle (POJ 3131): datasets 'x y' + 3 pattern rows, until '0 0'"

    def __init__(self):
        self.puzzle = cubic_puzzle()

    def read(self, text: str):
        lines = Lines(text)
        cases: list[Case] = []
        while True:
            number = len(cases) + 1
            try:
                first = lines.line
                dataset = read_dataset(lines)
            except InvalidPuzzleInput as error:
                return cases, error.located(case=number)
            if dataset is None:
                return cases, None
            cases.append(Case(number, first, dataset))

    max_depth = JUDGE_LIMIT

    def instance(self, data):
        """The dataset mapped by a board symmetry to one of three starts (distances do not
        change), so that datasets share starts; the engine picks how to use that. Its moves map
        back by the symmetry."""
        symmetry, image = canonical(data)
        return (*image.instance(), symmetry.moves_back)

    def output(self, length, moves):
        return str(length)


def read_dataset(lines: Lines) -> Dataset | None:
    """The next dataset, or None at the terminating ``0 0``."""
    number, tokens = lines.take("a dataset's 'x y' (1..3) or the terminating '0 0'")
    if len(tokens) != 2:
        raise InvalidPuzzleInput(f"expected 'x y' (the empty square, 1..3) or '0 0', got {len(tokens)} tokens",
                                 line=number)
    if tokens == ["0", "0"]:
        return None
    x, y = (_coordinate(token, axis, number) for token, axis in zip(tokens, ("x", "y"), strict=True))
    pattern = ""
    empties = []
    for row in range(1, 4):
        number, tokens = lines.take(f"pattern row {row} (three of W, B, R, E)")
        if len(tokens) != 3:
            raise InvalidPuzzleInput(f"pattern row {row} has {len(tokens)} tokens; expected 3 (W, B, R or E)",
                                     line=number)
        for token in tokens:
            if token not in PATTERN_TOKENS:
                raise InvalidPuzzleInput(f"token {token!r} is not a colour; expected W, B, R or E", line=number)
            if token == "E":
                empties.append(row)
                if len(empties) > 1:
                    raise InvalidPuzzleInput(f"a second E (rows {empties[0]} and {row}); expected exactly one E",
                                             line=number)
        pattern += "".join(tokens)
    if not empties:
        raise InvalidPuzzleInput("the pattern has no E; expected exactly one E (the empty square)", line=number)
    return Dataset(x, y, pattern)


def _coordinate(token: str, axis: str, line: int) -> int:
    if token in ("1", "2", "3"):
        return int(token)
    raise InvalidPuzzleInput(f"token {token!r} is not a coordinate; expected {axis} in 1..3", line=line)
