"""Names of the built-in puzzles and contest problems.

Each module in ``PUZZLE_MODULES`` provides:
- ``from_name(name) -> Puzzle | None``: the puzzle called ``name``, if it is one of its own;
- ``PUZZLES``: ``{name or pattern: description}`` for ``vecsearch list``;
- ``PROBLEMS``: ``{problem name: factory}`` of its judge formats (``vecsearch solve NAME``);
- optionally ``problem_from_name(name) -> JudgeProblem | None`` for families of problems named
  by pattern (``sliding-4x4``).
A problem name also names its puzzle (``vecsearch bfs eight`` enumerates ``sliding-3x3``).
The modules are imported one at a time, in order, until one knows the name: a lookup loads only
the families before it (and the engine modules they import), not every built-in.
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

# One member of every built-in family for ``vecsearch warm-up --all``, with a second size where
# sizes call different kernels (parallel ones, a hash set); members whose kernels an earlier one
# compiled are skipped (``engine.warmup.kernel_set``).
WARM_UP_EXAMPLES = (
    "sliding-3x3", "sliding-3x4", "sliding-4x4", "solitaire", "chessboard", "cubes", "gap",
    "pocket-htm", "pocket-full", "pancake-9", "pancake-11", "topspin-10-4", "lrx-9",
)


def _modules():
    """The puzzle modules in order, each imported when the loop reaches it."""
    return (importlib.import_module(name) for name in PUZZLE_MODULES)


def puzzle_catalogue() -> dict[str, str]:
    return {name: text for module in _modules() for name, text in module.PUZZLES.items()}


def problem_catalogue() -> dict[str, str]:
    return {name: get_problem(name).title for module in _modules() for name in module.PROBLEMS}


@cache
def get_problem(name: str):
    """The contest problem called ``name``: its judge format and its puzzle.

    Parameters
    ----------
    name : str
        ``"eight"``, ``"solitaire"``, ``"chessboard"``, ``"cubes"`` or ``"gap"``
        (``vecsearch list`` names them all).

    Returns
    -------
    JudgeProblem
        Reads the judge's cases and formats the answers as the judge wants them.

    Raises
    ------
    UnknownPuzzle
        No problem has that name.

    Examples
    --------
    >>> problem = vs.get_problem("eight")
    >>> problem.title
    '3x3 sliding puzzle, one per line (9 tokens, blank x)'
    """
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
    """The puzzle called ``name``, or the puzzle of a problem.

    Parameters
    ----------
    name : str
        A built-in family member (``"sliding-3x4"``, ``"pancake-12"``, ``"pocket-htm"``), a
        problem (``"eight"``), or a definition file (``"puzzle.tws"``, ``.def``,
        ``.kpuzzle.json``, with ``:METRIC``); ``vecsearch list`` names them.

    Returns
    -------
    Puzzle
        The puzzle.

    Raises
    ------
    UnknownPuzzle
        No puzzle has that name.

    Examples
    --------
    >>> puzzle = vs.get_puzzle("sliding-3x4")
    >>> puzzle.name, puzzle.rank_size
    ('sliding-3x4', 239500800)
    """
    for module in _modules():
        puzzle = module.from_name(name)
        if puzzle is not None:
            return puzzle
        if name in module.PROBLEMS:
            return get_problem(name).puzzle
    known = ", ".join(puzzle_catalogue())
    raise UnknownPuzzle(f"unknown puzzle {name!r}; known puzzles: {known} (see `vecsearch list`)")
