"""The Cubic Eight-Puzzle (POJ 3131): eight cubes rolling on a 3x3 board.

- ``rules``: conventions, the per-state rules (``@njit``) and their ``CubesTables``, packing,
  datasets (a start and a pattern of top colours) and their start and goal states;
- ``puzzle``: ``CubicPuzzle``, text in and out, ``cubic_puzzle()``;
- ``symmetry``: the board's symmetries, which map every dataset to one of three starts (so that
  datasets share starts, and the engine's start tables or balls around them);
- ``judge``: the judge format (``vecsearch solve cubes``).

A dataset is solved by the engine: ``vs.solve(cubic_puzzle(), *dataset.instance())``.
"""

from vecsearch.puzzles.cubes.judge import CubesJudge
from vecsearch.puzzles.cubes.puzzle import CubicPuzzle, cubic_puzzle, from_name
from vecsearch.puzzles.cubes.rules import (
                                           COLOURS,
                                           EMPTY,
                                           JUDGE_LIMIT,
                                           MOVE_NAMES,
                                           ORIENTATIONS,
                                           RANK_SIZE,
                                           CubesTables,
                                           Dataset,
                                           goal_states,
                                           pack,
                                           start_state,
                                           unpack,
)
from vecsearch.puzzles.cubes.symmetry import SYMMETRIES, Symmetry, canonical

PUZZLES = {"cubes": "Cubic Eight-Puzzle: 8 rolling cubes on 3x3 (start: all WBR, empty at the centre)"}
PROBLEMS = {"cubes": CubesJudge}

__all__ = ["COLOURS", "EMPTY", "JUDGE_LIMIT", "MOVE_NAMES", "ORIENTATIONS", "PROBLEMS", "PUZZLES", "RANK_SIZE",
           "SYMMETRIES", "CubesJudge", "CubesTables", "CubicPuzzle", "Dataset", "Symmetry", "canonical",
           "cubic_puzzle", "from_name", "goal_states", "pack", "start_state", "unpack"]
