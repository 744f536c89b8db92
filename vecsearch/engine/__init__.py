"""The engine: every search, in rooms that import downwards only.

==============  ==========================================================================
``runtime/``    the machinery every search uses: layers, visited sets, blocks of threads, the
                memory planner, kernel code generation, a user's functions guarded, goals,
                caches, compile time, progress bars, checkpoints, endpoints
``results/``    what searches return: per-layer profiles, ``SearchResult``, ``Solution`` (paths
                rebuilt from stored layers), ``ManySolutions``
``twobit/``     two bits per rank: whole spaces, and the partitioned search over segments
``layered/``    ``bfs`` and ``bidirectional``: sides growing layers; enumeration of a space
``tables/``     ``DistanceTable``, ``solve_pairs``, ``distances_between``
``heuristic/``  heuristics, IDA*, A*, pattern databases, move-sequence automata
``batch/``      the methods, ``solve``, ``solve_many``, chunks on dask, ``warm_up``
==============  ==========================================================================

Each room keeps the kernel templates its modules drive beside them (``*_template.py``); the
numba blocks they share are in ``vecsearch.kernels``. The engine's public API, what ``vecsearch``
exports and what puzzles use (a puzzle imports nothing else of the engine), is in
``__init__.pyi``: each name imported from the module that defines it, loaded on first use.
"""

from vecsearch.lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
