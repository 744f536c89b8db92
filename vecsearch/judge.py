"""Contest problems: a judge's input and output format on top of a puzzle.

A ``JudgeProblem`` reads a whole input into cases and answers them in one batch so shared work (a
distance table, a warmed kernel) is done once. ``vecsearch solve NAME`` is this, on a file. A
malformed case gets its own output line, ``marker``, and a message on standard error, so the
answers keep their places: formats of one case per line go on after it; formats whose cases span
several lines stop there (what follows cannot be told apart). ``vecsearch batch`` writes the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from vecsearch.errors import InvalidPuzzleInput


@dataclass(frozen=True)
class Case:
    number: int  # 1-based position in the input
    line: int  # 1-based line where the case starts
    data: object  # what the problem parsed (a state, a pair of states, ...)


@dataclass(frozen=True)
class Answer:
    output: str  # the judge output for the case (may span lines)
    note: str | None = None  # an explanation for standard error (e.g. why -1)


class JudgeProblem:
    """Subclasses set ``name``, ``title`` and ``puzzle``, and implement ``read`` and ``answer``."""

    name = ""
    title = ""
    goal_conventions: dict[str, str] = {}  # --goal names the problem accepts: {name: description}
    marker = "error"  # the output line of a malformed case

    def with_goal(self, name: str) -> JudgeProblem:
        """The same problem towards another goal convention (``vecsearch solve --goal NAME``)."""
        if not self.goal_conventions:
            raise InvalidPuzzleInput(f"{self.name} has one goal; it takes no --goal")
        raise InvalidPuzzleInput(f"{self.name}: unknown goal {name!r}; choose one of"
                                 f" {', '.join(self.goal_conventions)}")

    def read(self, text: str) -> tuple[list[Case], InvalidPuzzleInput | None]:
        """The cases of ``text`` up to the first malformed one, and the error there (or None).
        Formats of one case per line override ``read_all`` instead, to go on after it."""
        raise NotImplementedError

    def read_all(self, text: str) -> tuple[list[Case], list[InvalidPuzzleInput]]:
        """The cases of ``text`` and the errors of the malformed ones, each located by its case
        number (by default: up to the first malformed case)."""
        cases, error = self.read(text)
        return cases, [] if error is None else [error]

    def answer(self, cases: list[Case]) -> list[Answer]:
        raise NotImplementedError

    def solve_text(self, text: str) -> tuple[list[Answer], list[InvalidPuzzleInput]]:
        """An answer per case, in input order (a malformed one: ``marker``, its error as the
        note), and the errors."""
        cases, errors = self.read_all(text)
        answers = dict(zip((case.number for case in cases), self.answer(cases), strict=True))
        answers.update({error.case: Answer(self.marker, str(error)) for error in errors})
        return [answers[number] for number in sorted(answers)], errors

    # --- batch solving (``vecsearch batch``): cases as instances of the puzzle ----------------
    max_depth: int | None = None  # the judge's limit: longer answers count as none

    def instance(self, data) -> tuple:
        """A case's ``(start, goal)`` for the puzzle (goal None: the puzzle's own)."""
        raise NotImplementedError(f"{self.name} does not describe its cases as instances")

    def output(self, length: int, moves) -> str:
        """The judge output for an answer of ``length`` moves (-1: none)."""
        raise NotImplementedError

    def batch_instances(self, data: bytes):
        """The cases of a whole input as ``Instances`` (ids: case numbers), and ``(id, message)``
        for the malformed case that stopped the reading (formats of one case per line may
        report several and go on)."""
        from vecsearch.engine.batch.instances import instances_from

        cases, errors = self.read_all(data.decode("utf-8"))
        instances, bad = instances_from(self.puzzle, [(case.number, *self.instance(case.data)) for case in cases])
        return instances, bad + [(error.case, str(error)) for error in errors]

    def batch_output(self, lengths, moves) -> list[str] | bytes:
        """The judge output of answered instances, in order (a list of texts, or bytes: one line
        per instance)."""
        return [self.output(int(length), row[:max(0, length)].tolist())
                for length, row in zip(lengths, moves, strict=True)]

    def sample(self) -> str:
        """The problem statement's sample input, bundled with the package."""
        try:
            return resources.files("vecsearch").joinpath("data", f"{self.name}.txt").read_text()
        except FileNotFoundError:
            raise InvalidPuzzleInput(f"{self.name} has no bundled sample input") from None


def line_cases(text: str, parse) -> tuple[list[Case], list[InvalidPuzzleInput]]:
    """One case per non-blank line (case ``k``: the ``k``-th), ``parse(line) -> data``; a
    malformed line's error, located, and on to the next."""
    cases: list[Case] = []
    errors: list[InvalidPuzzleInput] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        case = len(cases) + len(errors) + 1
        try:
            cases.append(Case(case, number, parse(line)))
        except InvalidPuzzleInput as error:
            errors.append(error.located(line=number, case=case))
    return cases, errors


class Lines:
    """The non-blank lines of an input, taken one at a time with their 1-based line numbers,
    for formats whose cases span several lines. ``take`` at the end of the input raises an
    ``InvalidPuzzleInput`` located just past the last line."""

    def __init__(self, text: str):
        self._lines = [(n, line.split()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        self._next = 0
        self._end = len(text.splitlines()) + 1

    @property
    def at_end(self) -> bool:
        return self._next == len(self._lines)

    @property
    def line(self) -> int:
        """Number of the line ``take`` returns next (past the end: one after the last line)."""
        return self._lines[self._next][0] if not self.at_end else self._end

    def take(self, expected: str) -> tuple[int, list[str]]:
        """The next line's number and tokens."""
        if self.at_end:
            raise InvalidPuzzleInput(f"reached the end of the input; expected {expected}", line=self._end)
        self._next += 1
        return self._lines[self._next - 1]
