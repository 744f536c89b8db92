"""vecsearch: exhaustive state-space search for combinatorial puzzles.

Every layer of a breadth-first search is a numpy array of packed states; numba kernels expand
a whole layer at once and deduplicate it against a bitset (or a hash set), and bidirectional
search meets in the middle. Paths are rebuilt from the stored layers.

``import vecsearch`` loads the puzzle contract, the errors and the registry; every other public
name loads its module on first use.

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
  engine/search      ``bfs``, ``bidirectional`` (entry points over the layer machinery)
  engine/sides       ``Side``: one direction of a layered search (visited set, frontier, layers)
  engine/endpoints   puzzles by name, start and goal layers of a search
  engine/result      ``SearchResult``
  engine/caches      process-wide caches by name, ``clear_caches()``
  engine/classes     ``bfs(..., symmetry=...)``: enumeration modulo symmetry, ``ClassEnumeration``
  engine/enumeration ``bfs`` without a goal: layered or two-bit, planned, checkpointed, interruptible
  engine/twobit      two-bit (distance mod 3) search over rank space, push or pull per layer
  engine/planner     memory estimates per mode, the mode that fits, ``MemoryLimitError``
  engine/checkpoint  atomic checkpoint directories (JSON manifest and numpy arrays)
  engine/methods     the one registry of methods: needs, options honoured, ``auto``
  engine/solve       ``solve`` (one instance), ``distance_table`` (kept for reuse)
  engine/many        ``solve_many`` (many instances: method picked once, chunks, dask), ``iter_many``
  engine/instances   ``Instances``: ids, starts, goals in arrays; digests for resumes
  engine/answers     ``ManySolutions``: the one result type for many instances
  engine/strategies  how each method answers a chunk of instances
  engine/distributed chunks of a batch on a dask.distributed cluster (optional)
  batch_io           batch files: JSON lines / judge formats in and out, streaming, resuming
  engine/pairs       ``solve_pairs`` (many instances, each with its own goal, in one kernel call)
  engine/tables      ``DistanceTable``: one backward BFS, answers by descent
  engine/between     ``distances_between``: from a set of starts to the nearest of a goal set
  engine/idastar     IDA* (one instance, or many in parallel); engine/astar: A*
  heuristics         ``Heuristic``: an admissible bound and its tables (part of the contract)
  engine/heuristic   heuristics by name, evaluated in bulk; search kernels per heuristic
  engine/pdb         pattern databases: 0-1 BFS of an abstraction (planned first), memory-mapped numpy files
  engine/paths       path reconstruction from stored layers
  engine/visited     bitset and hash-set visited sets, layer expansion
  engine/layers      layers as chunked arrays
  engine/profile     per-layer records: data, table, HTML, DataFrame, plot
  engine/progress    the one tqdm progress-bar helper (layers, pairs, IDA* iterations, instances)
  engine/solution    ``Solution``: states and moves
  engine/codegen     kernel modules per puzzle family, the templates' roles bound (cached by numba)
  engine/guarded     a user's functions compiled with bounds checks, handed to the kernels in their tables
  engine/goals       goals given as conditions: tested on layers, or listed by a scan of the rank space
  fingerprint        digests of what a puzzle computes (its functions' code, tables, moves): resumes
  engine/blocks      serial range kernels run over blocks of their input on several threads
  engine/jit         compile time kept apart from search time; long compiles announced
  engine/warmup      ``warm_up(puzzle)`` / ``vecsearch warm-up``: miniature runs of what solve and bfs call
  kernels/*          numba building blocks: layer / rank-space / pair / heuristic / pdb templates
                     (their roles declared in kernels/roles), the guards around a user's functions
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
from vecsearch.contract import Moves, Rank, Rules
from vecsearch.puzzle import Puzzle
from vecsearch.registry import get_problem, get_puzzle

# Everything else loads on first use (PEP 562): ``import vecsearch`` stays cheap for the CLI.
_LAZY = {
    "Heuristic": "vecsearch.heuristics",
    "solve_pairs": "vecsearch.engine.pairs",
    "BoundRecord": "vecsearch.engine.profile", "LayerRecord": "vecsearch.engine.profile",
    "Profile": "vecsearch.engine.profile",
    "SearchResult": "vecsearch.engine.result", "bfs": "vecsearch.engine.search",
    "ClassEnumeration": "vecsearch.engine.classes", "SymmetryGroup": "vecsearch.puzzles.permutation.symmetry",
    "bidirectional": "vecsearch.engine.search",
    "Solution": "vecsearch.engine.solution",
    "ManySolutions": "vecsearch.engine.answers", "distance_table": "vecsearch.engine.solve",
    "solve": "vecsearch.engine.solve", "solve_many": "vecsearch.engine.many", "METHODS": "vecsearch.engine.methods",
    "DistanceTable": "vecsearch.engine.tables",
    "plot_profiles": "vecsearch.plots",
    "validate": "vecsearch.validation", "clear_caches": "vecsearch.engine.caches", "warm_up": "vecsearch.engine.warmup",
    "Explorer": "vecsearch.explorer", "explore": "vecsearch.explorer", "to_networkx": "vecsearch.explorer.graph",
    "Orbit": "vecsearch.puzzles.permutation", "PermutationDefinition": "vecsearch.puzzles.permutation",
    "PermutationPuzzle": "vecsearch.puzzles.permutation", "load_definition": "vecsearch.puzzles.permutation",
    "Pattern": "vecsearch.puzzles.permutation", "phases": "vecsearch.puzzles.permutation",
    "distances_between": "vecsearch.engine.between",
    "ValuePuzzle": "vecsearch.values", "Vector": "vecsearch.values", "Permutation": "vecsearch.values",
    "Subset": "vecsearch.values",
}

__all__ = [
    "BoundRecord", "ClassEnumeration", "DistanceTable", "Explorer", "Heuristic", "InvalidPuzzleInput", "LayerRecord", "METHODS", "ManySolutions", "MemoryLimitError", "NoSolution",
    "Moves", "Orbit", "Pattern", "Permutation", "PermutationDefinition", "PermutationPuzzle", "Profile", "Puzzle",
    "PuzzleDefinitionError", "Rank", "Rules",
    "SearchInterrupted", "SearchResult", "Solution", "Subset", "SymmetryGroup", "UnknownPuzzle", "ValuePuzzle", "VecsearchError", "Vector",
    "bfs", "bidirectional", "clear_caches", "distance_table", "distances_between", "explore", "get_problem", "get_puzzle", "load_definition",
    "phases", "plot_profiles", "solve", "solve_many",
    "solve_pairs", "to_networkx", "validate", "warm_up",
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
