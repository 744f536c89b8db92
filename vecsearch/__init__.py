"""vecsearch: exhaustive state-space search for combinatorial puzzles.

Every layer of a breadth-first search is a numpy array of packed states; numba kernels expand
a whole layer at once and deduplicate it against a bitset (or a hash set), and bidirectional
search meets in the middle. Paths are rebuilt from the stored layers.

``import vecsearch`` loads neither numpy nor numba: each public name, imported in ``__init__.pyi``
from the module defining it (what IDEs and type checkers read), loads that module on first use
(``vecsearch.lazy``; the command line sets up its process before numpy loads:
``cli.command_line``).

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
  lazy               public names loaded on first use, listed in a package's ``__init__.pyi``
  engine             every search, in rooms that import downwards (``vecsearch.engine`` lists its public
                     names; a room keeps the kernel templates its modules drive beside them):
    runtime/         layers, visited sets, threads over blocks, the memory planner, kernel code generation,
                     a user's functions guarded, goals, caches, compile time, progress, checkpoints, endpoints,
                     arrays saved on disk
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
  cache_folder       where what is made once per machine is kept (kernels, databases, tables)
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

from vecsearch.lazy import attach_stub

# Every public name loads its module on first use (PEP 562): ``import vecsearch`` stays cheap for the CLI.
__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
__version__ = "0.1.0"
