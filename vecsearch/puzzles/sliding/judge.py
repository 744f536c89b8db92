"""The sliding puzzles as judge problems: ``eight`` (POJ 1077) and ``sliding-RxC``."""

from __future__ import annotations

import numpy as np

from vecsearch._numba import kernel
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.judge import JudgeProblem
from vecsearch.puzzles.sliding.board import GOAL_CONVENTIONS, MOVE_NAMES, goal_order
from vecsearch.puzzles.sliding.puzzle import from_name, sliding


@kernel
def encode_rows(values, counts, letter, zero_is_blank, states, ok):
    """Pack rows of tile tokens (``letter`` or, if ``zero_is_blank``, 0 for the blank) into
    states; ``ok[i]`` is False where row ``i`` is not one of each tile and one blank."""
    cells = values.shape[1]
    for i in range(values.shape[0]):
        seen = 0
        state = 0
        valid = counts[i] == cells
        for cell in range(cells):
            v = values[i, cell]
            if v == letter or (v == 0 and zero_is_blank):
                v = 0
            elif v <= 0 or v >= cells:
                valid = False
                v = 0
            seen |= 1 << v
            state |= v << (4 * cell)
        states[i] = state
        ok[i] = valid and seen == (1 << cells) - 1


class SlidingJudge(JudgeProblem):
    """One puzzle per line (R*C tokens, any whitespace); answer: a shortest move string of
    ``u d l r`` (the blank's direction), or ``unsolvable``. Eight (POJ 1077) is the 3x3 case.

    Goal conventions: ``default`` (tiles 1..N-1 row by row, then the blank) and ``korf`` (the
    blank first, then 1..N-1: Korf's 15-puzzle instances)."""

    goal_conventions = GOAL_CONVENTIONS

    def __init__(self, name: str, rows: int, cols: int, blank_tokens=("x",), goal: str = "default"):
        self.name = name
        self.puzzle = sliding(rows, cols)
        self.title = (f"{rows}x{cols} sliding puzzle, one per line ({self.puzzle.cells} tokens,"
                      f" blank {'/'.join(blank_tokens)})")
        self.blank_tokens = blank_tokens
        self.goal = goal

    def with_goal(self, name: str) -> SlidingJudge:
        if name not in self.goal_conventions:
            super().with_goal(name)
        return SlidingJudge(self.name, self.puzzle.rows, self.puzzle.cols, self.blank_tokens, name)

    def goal_state(self) -> int:
        return self.puzzle.encode(goal_order(self.puzzle.cells, self.goal))

    def instance(self, data):
        return data, self.goal_state()

    def output(self, length, moves):
        return self.puzzle.format_moves(moves) if length >= 0 else "unsolvable"

    def notes(self, instances, lengths, method):
        """Which heuristic IDA* used (the databases on disk decide it), on the first answer."""
        if method != "idastar" or not len(instances):
            return {}
        from vecsearch.engine import resolve_heuristic

        return {int(instances.ids[0]): f"IDA* with {resolve_heuristic(self.puzzle, instances.goals).description}"}

    def read_instances(self, data):
        """All lines read in one pass (``kernels.text``) and checked in bulk; only the lines that
        fail are read again one by one, for their message. A bad line does not stop the rest."""
        from vecsearch.engine import Instances
        from vecsearch.kernels.text import token_lines

        data = data.encode("utf-8") if isinstance(data, str) else data
        cells = self.puzzle.cells
        letter = 1 << 20  # what a letter blank reads as
        values, counts, lines = token_lines(data, cells, {t: letter for t in self.blank_tokens if not t.isdigit()})
        states = np.empty(len(values), np.int64)
        ok = np.empty(len(values), np.bool_)
        encode_rows(values, counts, letter, "0" in self.blank_tokens, states, ok)
        numbers = np.arange(1, len(states) + 1)
        errors = []
        if not ok.all():
            text = data.decode("utf-8", errors="replace").splitlines()
            for row in np.flatnonzero(~ok).tolist():
                try:
                    self.puzzle.parse_state(text[lines[row] - 1], blank_tokens=self.blank_tokens)
                    error = InvalidPuzzleInput("unreadable line")
                except InvalidPuzzleInput as bad:
                    error = bad
                errors.append(error.located(line=int(lines[row]), case=int(numbers[row])))
        goal = np.array([self.goal_state()], np.int64)
        return Instances(numbers[ok], states[ok], goal), errors

    def batch_output(self, lengths, moves):
        """The move strings (or ``unsolvable``) of a chunk, built in bulk."""
        from vecsearch.kernels.text import move_lines

        return move_lines(lengths, moves, "".join(MOVE_NAMES), "unsolvable")


PROBLEMS = {"eight": lambda: SlidingJudge("eight", 3, 3)}


def problem_from_name(name: str) -> SlidingJudge | None:
    """``sliding-RxC`` as a problem: one puzzle per line, blank ``x`` or ``0``; IDA* with pattern
    databases for the 4x4, distance tables or bidirectional search below."""
    puzzle = from_name(name)
    return None if puzzle is None else SlidingJudge(name, puzzle.rows, puzzle.cols, blank_tokens=("x", "0"))
