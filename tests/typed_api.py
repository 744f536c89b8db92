"""What a type checker sees of the public API: checked by mypy (pyproject's ``[tool.mypy]``, in
CI), never run. ``assert_type`` fails on a name the checker sees as ``Any``: one it cannot follow
to the module defining it (``vecsearch/__init__.pyi``)."""

from typing import assert_type

import vecsearch as vs
from vecsearch.engine.results.answers import ManySolutions
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.results.solution import Solution
from vecsearch.puzzle import Puzzle


def searches(puzzle: vs.Puzzle) -> None:
    assert_type(puzzle, Puzzle)
    assert_type(vs.bfs(puzzle), SearchResult)
    assert_type(vs.solve(puzzle, "1 2 3 4 5 6 7 8 x"), Solution)
    assert_type(vs.solve_many(puzzle, ["1 2 3 4 5 6 7 8 x"]), ManySolutions)
    assert_type(vs.SearchResult, type[SearchResult])


def errors(error: Exception) -> bool:
    return isinstance(error, (vs.VecsearchError, vs.InvalidPuzzleInput, vs.UnknownPuzzle))
