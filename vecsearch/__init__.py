"""vecsearch: exhaustive state-space search for combinatorial puzzles.

Every layer of a breadth-first search is a numpy array of packed states; numba kernels expand
a whole layer at once and deduplicate it against a bitset (or a hash set), and bidirectional
search meets in the middle. Paths are rebuilt from the stored layers.

``import vecsearch`` loads the errors and the registry, neither numpy nor numba; every other
public name loads its module on first use (the command line sets up its process before numpy
loads: ``cli.command_line``).

Module map:
  puzzle             the puzzle contract (state layout, moves, rank) and the ``Puzzle`` class
  registry           built-in puzzles and contest problems by name
  judge              contest input/output formats on top of puzzles
  errors             the exceptions users meet
  cli                the ``vecsearch`` command
  contract           the roles a puzzle supplies, declared once; the records Rules, Moves, Rank
  values             puzzles whose states are values (Vector, Permutation, Subset): packed for you
  validation         ``validate(puzzle)``: probes a puzzle's functions, precise errors
  svg                pictures of states and solutions (puzzles supply ``draw(state)``)
  plots              matplotlib pictures of one or several profiles (lazy import)
  optional           lazy imports of optional dependencies, errors naming the extra
  engine             every search, in rooms that import downwards (``vecsearch.engine`` lists its public
                     names; a room keeps the kernel templates its modules drive beside them):
    runtime/         layers, visited sets, threads over blocks, the memory planner, kernel code generation,
                     a user's functions guarded, goals, caches, compile time, progress, checkpoints, endpoints
    results/         per-layer profiles, ``SearchResult``, ``Solution`` (paths from stored layers), ``ManySolutions``
    twobit/          two bits per rank: whole spaces, the partitioned search over segments (threads or dask)
    layered/         ``bfs``, ``bidirectional``: sides growing layers; a whole space enumerated, checkpointed;
                     enumeration modulo symmetry (``ClassEnumeration``)
    tables/          ``DistanceTable``, ``solve_pairs``, ``distances_between``
    heuristic/       heuristics by name, IDA*, A*, pattern databases, move-sequence automata
    batch/           the methods (``METHODS``), ``solve``, ``solve_many``, chunks on dask, ``warm_up``
  batch_io           batch files: JSON lines / judge formats in and out, streaming, resuming
  heuristics         ``Heuristic``: an admissible bound and its tables (part of the contract)
  fingerprint        digests of what a puzzle computes (its functions' code, tables, moves): resumes
  kernels/*          numba building blocks the templates share (their roles declared in kernels/roles),
                     the guards around a user's functions
                     and the adapters of puzzles over values (guard / value templates), intrinsics,
                     ranks, state words, nibbles, text (batch lines read and written in bulk)
  puzzles/*          one module per puzzle family (rules, encoding, judge format)
  puzzles/permutation  puzzles as data: orbits and moves (Python, .tws / ksolve .def text, KPuzzle
                     JSON), identical pieces, group ranks, patterns and ``phases``; pocket cube,
                     pancakes, TopSpin, LRX
  explorer/*         ``explore``: layers, pages of states as pictures, neighbours, solutions, frontiers, in
                     a widget or a standalone page; ``to_networkx`` (explorer/graph)
"""

import importlib

from vecsearch.errors import (
    InvalidPuzzleInput,
    MemoryLimitError,
    NoSolution,
    PuzzleDefinitionError,
    SearchInterrupted,
    UnknownPuzzle,
    VecsearchError,
)
from vecsearch.registry import get_problem, get_puzzle

# Everything else loads on first use (PEP 562): ``import vecsearch`` stays cheap for the CLI.
_LAZY = {
    "Moves": "vecsearch.contract", "Rank": "vecsearch.contract", "Rules": "vecsearch.contract",
    "Puzzle": "vecsearch.puzzle",
    "Heuristic": "vecsearch.heuristics",
    "solve_pairs": "vecsearch.engine",
    "BoundRecord": "vecsearch.engine", "LayerRecord": "vecsearch.engine",
    "Profile": "vecsearch.engine",
    "SearchResult": "vecsearch.engine", "bfs": "vecsearch.engine",
    "bidirectional": "vecsearch.engine",
    "Solution": "vecsearch.engine",
    "ManySolutions": "vecsearch.engine", "distance_table": "vecsearch.engine",
    "solve": "vecsearch.engine", "solve_many": "vecsearch.engine", "METHODS": "vecsearch.engine",
    "DistanceTable": "vecsearch.engine",
    "ClassEnumeration": "vecsearch.engine", "SymmetryGroup": "vecsearch.puzzles.permutation.symmetry",
    "plot_profiles": "vecsearch.plots",
    "validate": "vecsearch.validation", "clear_caches": "vecsearch.engine", "warm_up": "vecsearch.engine",
    "Explorer": "vecsearch.explorer", "explore": "vecsearch.explorer", "to_networkx": "vecsearch.explorer.graph",
    "Orbit": "vecsearch.puzzles.permutation", "PermutationDefinition": "vecsearch.puzzles.permutation",
    "PermutationPuzzle": "vecsearch.puzzles.permutation", "load_definition": "vecsearch.puzzles.permutation",
    "Pattern": "vecsearch.puzzles.permutation", "phases": "vecsearch.puzzles.permutation",
    "distances_between": "vecsearch.engine",
    "ValuePuzzle": "vecsearch.values", "Vector": "vecsearch.values", "Permutation": "vecsearch.values",
    "Subset": "vecsearch.values",
}

__all__ = [
    "BoundRecord", "ClassEnumeration", "DistanceTable", "Explorer", "Heuristic", "InvalidPuzzleInput", "LayerRecord",
    "METHODS", "ManySolutions", "MemoryLimitError", "NoSolution", "Moves", "Orbit", "Pattern", "Permutation",
    "PermutationDefinition", "PermutationPuzzle", "Profile", "Puzzle", "PuzzleDefinitionError", "Rank", "Rules",
    "SearchInterrupted", "SearchResult", "Solution", "Subset", "SymmetryGroup", "UnknownPuzzle", "ValuePuzzle",
    "VecsearchError", "Vector",
    "bfs", "bidirectional", "clear_caches", "distance_table", "distances_between", "explore", "get_problem",
    "get_puzzle", "load_definition", "phases", "plot_profiles", "solve", "solve_many", "solve_pairs", "to_networkx",
    "validate", "warm_up",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    """A public name not loaded yet: import its module, keep the name here, return it."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'vecsearch' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
