"""Contest problems: a judge's input and output format on top of a puzzle.

A ``JudgeProblem`` has one path from input to output, the same for ``vecsearch solve NAME`` and
``vecsearch batch NAME``: it parses the input into cases (``read_all``), maps each case to an
instance of the puzzle (``instance``: a start and a goal, canonicalised there), lets the engine
answer the instances (``solve_text``: a batch of one chunk, so shared work such as a distance
table is done once) and formats each answer (``output``, or ``batch_output`` in bulk). A
malformed case gets its own output line, ``marker``, and a message on standard error, so the
answers keep their places: formats of one case per line go on after it; formats whose cases span
several lines stop there (what follows cannot be told apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import numpy as np

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
    """Subclasses set ``name``, ``title`` and ``puzzle`` (and ``max_depth``, the judge's limit),
    and implement ``read`` (or ``read_all``), ``instance`` and ``output``."""

    name = ""
    title = ""
    goal_conventions: dict[str, str] = {}  # --goal names the problem accepts: {name: description}
    marker = "error"  # the output line of a malformed case
    max_depth: int | None = None  # the judge's limit: longer answers count as none

    def with_goal(self, name: str) -> JudgeProblem:
        """The same problem towards another goal convention (``vecsearch solve --goal NAME``)."""
        if not self.goal_conventions:
            raise InvalidPuzzleInput(f"{self.name} has one goal; it takes no --goal")
        raise InvalidPuzzleInput(f"{self.name}: unknown goal {name!r}; choose one of"
                                 f" {', '.join(self.goal_conventions)}")

    # --- parse ----------------------------------------------------------------------------------
    def read(self, text: str) -> tuple[list[Case], InvalidPuzzleInput | None]:
        """The cases of ``text`` up to the first malformed one, and the error there (or None).
        Formats of one case per line override ``read_all`` instead, to go on after it."""
        raise NotImplementedError

    def read_all(self, text: str) -> tuple[list[Case], list[InvalidPuzzleInput]]:
        """The cases of ``text`` and the errors of the malformed ones, each located by its case
        number (by default: up to the first malformed case)."""
        cases, error = self.read(text)
        return cases, [] if error is None else [error]

    # --- map a case to an instance --------------------------------------------------------------
    def instance(self, data) -> tuple:
        """A case's ``(start, goal)`` for the puzzle (goal None: the puzzle's own), or
        ``(start, goal, moves_back)`` for a case mapped to an equivalent one (a canonical form
        under a symmetry): ``moves_back[m]`` is the case's move that move ``m`` stands for."""
        raise NotImplementedError(f"{self.name} does not describe its cases as instances")

    def read_instances(self, data: str | bytes):
        """The cases of a whole input as ``Instances`` (ids: case numbers), and the errors of the
        malformed cases (``InvalidPuzzleInput``, located by case)."""
        from vecsearch.engine.batch.instances import instances_from

        text = data.decode("utf-8") if isinstance(data, bytes) else data
        cases, errors = self.read_all(text)
        mapped = {case.number: self.instance(case.data) for case in cases}
        instances, bad = instances_from(self.puzzle, [(number, *m[:2]) for number, m in mapped.items()])
        if any(len(m) == 3 for m in mapped.values()):
            identity = np.arange(self.puzzle.max_moves)
            instances.moves_back = np.array([mapped[number][2] if len(mapped[number]) == 3 else identity
                                             for number in instances.ids], np.int64).reshape(len(instances), -1)
        errors += [InvalidPuzzleInput(message).located(case=number) for number, message in bad]
        return instances, sorted(errors, key=lambda error: error.case)

    def batch_instances(self, data: bytes):
        """``read_instances`` with each error as ``(case number, message)``, as batches report
        them."""
        instances, errors = self.read_instances(data)
        return instances, [(error.case, str(error)) for error in errors]

    # --- format an answer -----------------------------------------------------------------------
    def output(self, length: int, moves) -> str:
        """The judge output for an answer of ``length`` moves (-1: none)."""
        raise NotImplementedError

    def batch_output(self, lengths, moves) -> list[str] | bytes:
        """The judge output of answered instances, in order (a list of texts, or bytes: one line
        per instance)."""
        return [self.output(int(length), row[:max(0, length)].tolist())
                for length, row in zip(lengths, moves, strict=True)]

    def notes(self, instances, lengths, method: str) -> dict:
        """Remarks for standard error on some answers, by instance id (none by default)."""
        return {}

    # --- the whole path -------------------------------------------------------------------------
    def solve_text(self, text: str) -> tuple[list[Answer], list[InvalidPuzzleInput]]:
        """An answer per case, in input order (a malformed one: ``marker``, its error as the
        note), and the errors: the instances answered as one chunk of a batch."""
        from vecsearch.engine.batch.many import iter_many

        instances, errors = self.read_instances(text)
        answers = {}
        if len(instances):
            chunk = next(iter_many(self.puzzle, instances, max_depth=self.max_depth, chunk_size=len(instances)))
            texts = self.batch_output(chunk.lengths, chunk.moves)
            if isinstance(texts, bytes):  # one line per instance
                texts = texts.decode("utf-8").split("\n")[:-1]
            notes = self.notes(instances, chunk.lengths, chunk.method)
            ids = [int(number) for number in instances.ids]
            answers = {number: Answer(out, notes.get(number)) for number, out in zip(ids, texts, strict=True)}
        answers.update({error.case: Answer(self.marker, str(error)) for error in errors})
        return [answers[number] for number in sorted(answers)], errors

    def sample(self) -> str:
        """The problem statement's sample input, bundled with the package."""
        try:
            return resources.files("vecsearch").joinpath("data", f"{self.name}.txt").read_text()
        except FileNotFoundError:
            raise InvalidPuzzleInput(f"{self.name} has no bundled sample input") from None


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
