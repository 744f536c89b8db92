"""Names of the built-in puzzles and contest problems.

Each module in ``PUZZLE_MODULES`` provides:
- ``from_name(name) -> Puzzle | None``: the puzzle called ``name``, if it is one of its own;
- ``PUZZLES``: ``{name or pattern: description}`` for ``vecsearch list``;
- ``PROBLEMS``: ``{problem name: factory}`` of its judge formats (``vecsearch solve NAME``);
- optionally ``problem_from_name(name) -> JudgeProblem | None`` for families of problems named
  by pattern (``sliding-4x4``).
A problem name also names its puzzle (``vecsearch bfs eight`` enumerates ``sliding-3x3``).
"""

from __future__ import annotations

import importlib
from functools import cache

from vecsearch.errors import UnknownPuzzle

PUZZLE_MODULES = (
    "vecsearch.puzzles.sliding",
    "vecsearch.puzzles.solitaire",
    "vecsearch.puzzles.chessboard",
    "vecsearch.puzzles.cubes",
    "vecsearch.puzzles.gap",
    "vecsearch.puzzles.permutation.builtins",
)


@cache
def _modules():
    return [importlib.import_module(name) for name in PUZZLE_MODULES]


def puzzle_catalogue() -> dict[str, str]:
    return {name: text for module in _modules() for name, text in module.PUZZLES.items()}


def problem_catalogue() -> dict[str, str]:
    return {name: get_problem(name).title for module in _modules() for name in module.PROBLEMS}


@cache
def get_problem(name: str):
    """The contest problem called ``name`` (``"eight"``, ...)."""
    for module in _modules():
        if name in module.PROBLEMS:
            return module.PROBLEMS[name]()
    for module in _modules():
        finder = getattr(module, "problem_from_name", None)
        problem = finder(name) if finder is not None else None
        if problem is not None:
            return problem
    known = ", ".join(name for module in _modules() for name in module.PROBLEMS)
    raise UnknownPuzzle(f"unknown problem {name!r}; known problems: {known}")


def get_puzzle(name: str):
    """The puzzle called ``name`` (``"sliding-3x4"``), or the puzzle of a problem (``"eight"``)."""
    for module in _modules():
        puzzle = module.from_name(name)
        if puzzle is not None:
            return puzzle
        if name in module.PROBLEMS:
            return get_problem(name).puzzle
    known = ", ".join(puzzle_catalogue())
    raise UnknownPuzzle(f"unknown puzzle {name!r}; known puzzles: {known} (see `vecsearch list`)")
