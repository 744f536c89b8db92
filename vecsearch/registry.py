"""Names of the built-in puzzles and contest problems.

Each module in ``PUZZLE_MODULES`` provides:
- ``from_name(name) -> Puzzle | None``: the puzzle called ``name``, if it is one of its own;
- ``PUZZLES``: ``{name or pattern: description}`` for ``vecsearch list``;
- ``PROBLEMS``: ``{problem name: factory}`` of its judge formats (``vecsearch solve NAME``);
- optionally ``problem_from_name(name) -> JudgeProblem | None`` for families of problems named
  by pattern (``sliding-4x4``).
A problem name also names its puzzle (``vecsearch bfs eight`` enumerates ``sliding-3x3``).

A user's puzzle is named by where it lives (``user_puzzle``): ``module:attribute`` (an importable
module) or ``path/to/file.py:attribute`` (``path/to/file.py`` alone: its ``puzzle``), the
attribute a ``Puzzle`` or a function of no arguments returning one.
The modules are imported one at a time until one knows the name, the module named like it first
(``gap``, ``sliding-3x4``), then the others in order: a lookup loads only the families it tries
(and the engine modules they import), not every built-in. No two modules know the same name, so
the order changes what a lookup costs, never what it finds.
"""

from __future__ import annotations

import importlib
import inspect
import py_compile
import sys
import sysconfig
import traceback
from functools import cache
from importlib.util import cache_from_source
from pathlib import Path

from vecsearch.errors import PuzzleDefinitionError, UnknownPuzzle

PUZZLE_MODULES = (
    "vecsearch.puzzles.sliding",
    "vecsearch.puzzles.solitaire",
    "vecsearch.puzzles.chessboard",
    "vecsearch.puzzles.cubes",
    "vecsearch.puzzles.gap",
    "vecsearch.puzzles.permutation.builtins",
)
# The definition files a puzzle name may be (``PATH.tws[:METRIC]``: read by the permutation
# puzzles, the one module asked about them), never taken for a user's ``module:attribute``.
DEFINITION_SUFFIXES = (".tws", ".def", ".json")
DEFINITION_MODULE = "vecsearch.puzzles.permutation.builtins"

# One member of every built-in family for ``vecsearch warm-up --all``, with a second size where
# sizes call different kernels (parallel ones, a hash set); members whose kernels an earlier one
# compiled are skipped (``engine.batch.warmup.kernel_set``).
WARM_UP_EXAMPLES = (
    "sliding-3x3", "sliding-3x4", "sliding-4x4", "solitaire", "chessboard", "cubes", "gap",
    "pocket-htm", "pocket-full", "pancake-9", "pancake-11", "topspin-10-4", "lrx-9",
)


def _modules(name: str | None = None):
    """The puzzle modules, each imported when the loop reaches it: the one whose last name begins
    ``name`` first (``vecsearch.puzzles.gap`` for ``gap``), then the others in order; for a
    definition file (and its metric), only the module that reads them."""
    if name is not None and is_definition_file(name):
        return iter((importlib.import_module(DEFINITION_MODULE),))
    named = [m for m in PUZZLE_MODULES if name is not None and name.startswith(m.rsplit(".", 1)[1])]
    return (importlib.import_module(m) for m in (*named, *(m for m in PUZZLE_MODULES if m not in named)))


def _check_name(name) -> None:
    if not isinstance(name, str):
        raise TypeError(f"a puzzle or problem is named by a str, not a {type(name).__name__} ({name!r})")


def is_definition_file(name: str) -> bool:
    """Whether ``name`` names a definition file (``PATH.tws``, ``PATH.tws:METRIC``): no
    problem's name, and no user's ``module:attribute``."""
    source = name.rpartition(":")[0] if ":" in name else name
    return source.endswith(DEFINITION_SUFFIXES)


def puzzle_catalogue() -> dict[str, str]:
    """Every built-in puzzle name and what it is."""
    return {name: text for module in _modules() for name, text in module.PUZZLES.items()}


def problem_catalogue() -> dict[str, str]:
    """Every built-in problem (judge format) name and its title."""
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
    _check_name(name)
    if is_definition_file(name):
        raise UnknownPuzzle(f"{name} is a definition file, not a problem; problems have judge formats (see"
                            " `vecsearch list`)")
    for module in _modules(name):
        if name in module.PROBLEMS:
            return module.PROBLEMS[name]()
    for module in _modules(name):
        finder = getattr(module, "problem_from_name", None)
        problem = finder(name) if finder is not None else None
        if problem is not None:
            return problem
    known = ", ".join(name for module in _modules() for name in module.PROBLEMS)
    raise UnknownPuzzle(f"unknown problem {name!r}; known problems: {known}")


def puzzle_of(puzzle):
    """``puzzle`` itself, or the puzzle its name names (``get_puzzle``): what every entry point
    taking "a puzzle or its name" resolves; anything else is a ``TypeError`` saying so."""
    from vecsearch.puzzle import Puzzle

    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        return get_puzzle(puzzle)
    raise TypeError(f"expected a Puzzle or the name of one (a str), not a {type(puzzle).__name__}")


def get_puzzle(name: str):
    """The puzzle called ``name``, or the puzzle of a problem.

    Parameters
    ----------
    name : str
        A built-in family member (``"sliding-3x4"``, ``"pancake-12"``, ``"pocket-htm"``), a
        problem (``"eight"``), a definition file (``"puzzle.tws"``, ``.def``,
        ``.kpuzzle.json``, with ``:METRIC``), or a user's puzzle: ``"module:attribute"`` or
        ``"path/to/file.py[:attribute]"`` (a `Puzzle`, or a function of no arguments returning
        one; default attribute ``puzzle``). ``vecsearch list`` names the built-ins.

    Returns
    -------
    Puzzle
        The puzzle.

    Raises
    ------
    UnknownPuzzle
        No puzzle has that name.
    PuzzleDefinitionError
        A user's code fails as it is imported or called: the message names the line, the
        original exception is its ``__cause__``.

    Examples
    --------
    >>> puzzle = vs.get_puzzle("sliding-3x4")
    >>> puzzle.name, puzzle.rank_size
    ('sliding-3x4', 239500800)
    """
    _check_name(name)
    found = user_puzzle(name)
    if found is not None:
        return found
    for module in _modules(name):
        puzzle = module.from_name(name)
        if puzzle is not None:
            return puzzle
        if name in module.PROBLEMS:
            return get_problem(name).puzzle
    known = ", ".join(puzzle_catalogue())
    raise UnknownPuzzle(f"unknown puzzle {name!r}; known puzzles: {known} (see `vecsearch list`)")


def user_puzzle(spec: str):
    """The puzzle ``spec`` names in a user's code, or None when ``spec`` names none that way:
    ``module:attribute`` or ``path/to/file.py:attribute`` (``path/to/file.py``: its ``puzzle``).
    A file is imported as a module named after it, its folder added last to ``sys.path`` (so the
    kernels generated for it, and worker processes, import it by that name; its neighbours
    shadow no module); a module of that name found first is refused."""
    from vecsearch.puzzle import Puzzle

    if is_definition_file(spec):
        return None  # a definition file and its metric (``rotation.tws:given``)
    source, colon, attribute = spec.rpartition(":") if ":" in spec else (spec, "", "puzzle")
    if source.endswith(".py"):
        module = _file_module(source, spec)
    elif colon and source and all(part.isidentifier() for part in source.split(".")):
        try:
            module = importlib.import_module(source)
        except ModuleNotFoundError as error:
            if error.name is None or not (source == error.name or source.startswith(f"{error.name}.")):
                raise _raised_by_users_code(spec, error) from error  # a module the user's module imports
            raise UnknownPuzzle(f"{spec}: no module {error.name!r} to import (give path/to/file.py:{attribute} for"
                                " a file that is not on the Python path)") from None
        except Exception as error:  # the user's module fails as it is imported
            raise _raised_by_users_code(spec, error) from error
    else:
        return None
    if not attribute.isidentifier() or not hasattr(module, attribute):
        offered = sorted(k for k, v in vars(module).items() if isinstance(v, Puzzle) and not k.startswith("_"))
        raise UnknownPuzzle(f"{spec}: {module.__name__} has no {attribute!r};"
                            f" its puzzles: {', '.join(offered) or 'none'}")
    value = getattr(module, attribute)
    if callable(value) and not isinstance(value, Puzzle) and _takes_no_arguments(value):
        try:
            value = value()
        except Exception as error:  # the user's function fails
            raise _raised_by_users_code(spec, error) from error
    if not isinstance(value, Puzzle):
        raise UnknownPuzzle(f"{spec}: {attribute} is a {type(value).__name__}, not a vecsearch Puzzle (or a function"
                            " of no arguments returning one)")
    return value


def _takes_no_arguments(function) -> bool:
    try:
        return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   for p in inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # no signature to read
        return False


def _file_module(path: str, spec: str):
    file = Path(path).resolve()
    if not file.is_file():
        raise UnknownPuzzle(f"{spec}: no file {path}")
    name = file.stem
    if not name.isidentifier():
        raise UnknownPuzzle(f"{spec}: {file.name} cannot be imported by its name; rename it (letters, digits, _)")
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "").resolve() != file:
        raise UnknownPuzzle(f"{spec}: a module named {name!r} is already imported from {loaded.__file__}; rename"
                            f" {file.name}")
    if str(file.parent) not in sys.path:
        sys.path.append(str(file.parent))  # last: the folder's other files shadow no module imported later
    _hash_checked_bytecode(file)
    try:
        module = importlib.import_module(name)
    except Exception as error:  # the user's file does not compile, or fails as it runs
        raise _raised_by_users_code(spec, error) from error
    found = getattr(module, "__file__", None)
    if found is None or Path(found).resolve() != file:
        raise UnknownPuzzle(f"{spec}: the module named {name!r} is {found or 'a package'}, found first on the"
                            f" Python path; rename {file.name}")
    return module


def _raised_by_users_code(spec: str, error: Exception) -> PuzzleDefinitionError:
    """``error``, raised as the user's code named by ``spec`` was imported or called, as a
    ``PuzzleDefinitionError`` that says where in that code (the innermost line of a file that is
    neither vecsearch's nor Python's nor an installed package's) and what (the original is its
    cause)."""
    if isinstance(error, SyntaxError):
        file, line, function, what = error.filename or "?", error.lineno, "<module>", error.msg
    else:
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if _users_file(frame.filename)]
        file, line, function = (frames[-1].filename, frames[-1].lineno, frames[-1].name) if frames else ("", 0, "")
        what = str(error)
    where = ""
    if file:
        named = spec.rpartition(":")[0] if ":" in spec else spec  # a file's lines need not name it again
        same = named.endswith(".py") and Path(named).resolve() == Path(file).resolve()
        where = "" if same else f"{Path(file).name}, "
        where += f"line {line}" + (f", in {function}" if function != "<module>" else "") + ": "
    return PuzzleDefinitionError(f"{spec}: {where}{type(error).__name__}: {what}")


def _users_file(filename: str) -> bool:
    if filename.startswith("<"):  # frozen modules, code compiled from strings
        return False
    path = Path(filename).resolve()
    paths = sysconfig.get_paths()
    roots = [Path(__file__).parent, *(Path(paths[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib"))]
    return not any(path.is_relative_to(root.resolve()) for root in roots)


def _hash_checked_bytecode(file: Path) -> None:
    """Write the bytecode of ``file`` checked against the hash of its source. Python otherwise
    trusts bytecode while its source keeps its size and its modification time in whole seconds,
    so a puzzle file rewritten twice within a second (a sweep changing one digit) would run its
    old rules, here and in the worker processes that import it by name. Nothing is written where
    Python is told not to write bytecode, or cannot."""
    if sys.dont_write_bytecode:
        return
    try:
        py_compile.compile(str(file), cfile=cache_from_source(str(file)), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except (py_compile.PyCompileError, OSError):
        pass  # the import reports a syntax error; an unwritable folder keeps Python's own bytecode
