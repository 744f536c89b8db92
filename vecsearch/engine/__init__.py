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
numba blocks they share are in ``vecsearch.kernels``. The names below are the engine's public
API: what ``vecsearch`` exports and what puzzles use (a puzzle imports nothing else of the
engine). Each loads its module on first use.
"""

from __future__ import annotations

import importlib

# public name -> (module, attribute)
PUBLIC = {
    "bfs": ("layered.search", "bfs"), "bidirectional": ("layered.search", "bidirectional"),
    "ClassEnumeration": ("results.classes", "ClassEnumeration"),
    "SearchResult": ("results.result", "SearchResult"), "Solution": ("results.solution", "Solution"),
    "BoundRecord": ("results.profile", "BoundRecord"), "LayerRecord": ("results.profile", "LayerRecord"),
    "Profile": ("results.profile", "Profile"), "ManySolutions": ("results.answers", "ManySolutions"),
    "DistanceTable": ("tables.distance", "DistanceTable"), "solve_pairs": ("tables.pairs", "solve_pairs"),
    "distances_between": ("tables.between", "distances_between"), "distances_in": ("tables.between", "distances_in"),
    "solve": ("batch.solve", "solve"), "distance_table": ("batch.solve", "distance_table"),
    "solve_many": ("batch.many", "solve_many"), "METHODS": ("batch.methods", "METHODS"),
    "Instances": ("batch.instances", "Instances"), "warm_up": ("batch.warmup", "warm_up"),
    "clear_caches": ("runtime.caches", "clear_caches"), "layer_kernels": ("runtime.codegen", "layer_kernels"),
    "components": ("runtime.endpoints", "components"),
    "map_blocks": ("runtime.blocks", "map_blocks"), "layer_progress": ("runtime.progress", "layer_progress"),
    "resolve_heuristic": ("heuristic.evaluation", "resolve"),
    "canonical_automaton": ("heuristic.sequences", "canonical_automaton"),
    "undo_automaton": ("heuristic.sequences", "undo_automaton"),
    "Abstraction": ("heuristic.pdb", "Abstraction"), "enumerate_distances": ("heuristic.pdb", "enumerate_distances"),
    "cached_array": ("heuristic.pdb", "cached_array"), "database_path": ("heuristic.pdb", "database_path"),
    "UNREACHED": ("heuristic.pdb", "UNREACHED"),
}
__all__ = sorted(PUBLIC)


def __getattr__(name: str):
    """A public name not loaded yet: import its module, keep the name here, return it."""
    if name not in PUBLIC:
        raise AttributeError(f"module 'vecsearch.engine' has no attribute {name!r}")
    module, attribute = PUBLIC[name]
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
