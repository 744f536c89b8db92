"""Sliding-tile puzzles ``sliding-RxC`` (R, C >= 2, R*C <= 16); Eight (POJ 1077) is ``sliding-3x3``.

- ``board``: geometry, state layout, move numbering, goal conventions, packing (no numba);
- ``rules``: the per-state rules (``@njit``) and their ``SlidingTables``;
- ``puzzle``: ``SlidingPuzzle``, text in and out, ``sliding(rows, cols)``;
- ``patterns``: pattern abstractions (tiles and the blank's region) and their databases;
- ``lookups``: the additive pattern-database bound, evaluated whole or updated from a parent's;
- ``heuristics``: Manhattan, linear conflicts and pattern-database heuristics (partitions:
  6-6-3, 7-8 on the 4x4);
- ``judge``: the problems ``eight`` and ``sliding-RxC``.
"""

from vecsearch.puzzles.sliding.board import MOVE_NAMES
from vecsearch.puzzles.sliding.judge import PROBLEMS, SlidingJudge, problem_from_name
from vecsearch.puzzles.sliding.puzzle import SlidingPuzzle, from_name, sliding
from vecsearch.puzzles.sliding.rules import SlidingTables

PUZZLES = {"sliding-RxC": "R x C sliding-tile puzzle (R, C >= 2, R*C <= 16), e.g. sliding-3x3, sliding-4x4;"
                          " also a problem: `vecsearch solve sliding-4x4 [--goal korf]`, one puzzle per line"}

__all__ = ["MOVE_NAMES", "PROBLEMS", "PUZZLES", "SlidingJudge", "SlidingPuzzle", "SlidingTables", "from_name",
           "problem_from_name", "sliding"]
