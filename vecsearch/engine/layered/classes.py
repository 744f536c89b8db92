"""Enumeration modulo symmetry: layer counts of classes and of positions, with a canonical
representative per class.

A symmetry group acts on states by conjugation and keeps distances (the puzzle's side checks
that: ``puzzles/permutation/symmetry``), so every state of a class lies in the same layer. One of
two searches runs, chosen here once:

- **Through a quotient** (``fibres``), when the symmetry offers one for the starts' component
  (its rotations are positions and fix one piece's placement exactly once: then every position is
  a quotient state turned by a rotation) and its orbit table fits in half the available memory
  (``QUOTIENT_BYTES`` per quotient state): the classes are orbits of quotient states, each with
  masks of rotations, and a move costs a few table lookups per orbit for all its rotations at once.
- **By least conjugates** (here) otherwise. The search keeps one state per class in its frontier.
  Expanding it (``visited.BitsetVisited``, over the ranks of the states generated) gives children
  not generated before; each is brought to its class's canonical representative, the least rank
  among its conjugates, and a second bitset over those ranks tells new classes from known ones
  (``class_kernels.claim_classes``). A class's size is the group's order over its stabiliser (the
  symmetries that fix a state), so the positions per layer come with the classes.

What a symmetry gives the engine (``PermutationPuzzle.symmetry``): ``order``,
``canonical_ranks(ranks, component)``: the canonical rank of each state and how many symmetries
fix it, optionally ``puzzle``: the puzzle whose ranks those are (the same puzzle in another
form) with ``restate(states)``: the given puzzle's states packed as that one packs them, and
optionally ``quotient(component)``: ``(quotient, method)``, a quotient as ``fibres`` reads it or
None, and a line saying which (or why none). A puzzle offers symmetries by a method
``symmetry(spec)`` that makes one of text (``"rotations"``).
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.layered.class_kernels import CLAIM_BLOCK, claim_classes
from vecsearch.engine.layered.enumeration import KEEP_FARTHEST
from vecsearch.engine.layered.fibres import enumerate_fibres
from vecsearch.engine.results.classes import ClassEnumeration, ClassLayer
from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.blocks import map_blocks, thread_limit
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle, endpoints
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.runtime.planner import available_bytes
from vecsearch.engine.runtime.visited import BitsetVisited
from vecsearch.engine.twobit.classes import enumerate_twobit_classes
from vecsearch.engine.twobit.segments import partitioned_classes
from vecsearch.errors import VecsearchError

QUOTIENT_BYTES = 8  # the orbit table's bytes per quotient state


def enumerate_classes(puzzle, symmetry, start=None, *, max_depth=None, threads=None, on_layer=None, mode="auto",
                      keep=KEEP_FARTHEST, max_memory=None, partition=None, checkpoint=None,
                      resume=None) -> ClassEnumeration:
    """Enumerate what ``start`` reaches modulo ``symmetry`` (see the module's docstring).

    ``symmetry``: what the puzzle's ``symmetry`` method makes, or a name it takes
    (``"rotations"``). ``mode="twobit"``: over a two-bit table of classes
    (``engine.twobit.classes``, under ``max_memory``), keeping the least ``keep`` representatives
    of each layer, saved after every layer in ``checkpoint``, continued from ``resume``;
    ``partition``: the same partitioned (``engine.twobit.segments``; what
    ``partitioned_classes`` takes: ``segments``, ``client``, ``directory``, ``owner_local``...)."""
    puzzle = as_puzzle(puzzle)
    if isinstance(symmetry, str):
        if not hasattr(puzzle, "symmetry"):
            raise VecsearchError(f"{puzzle.name}: this puzzle declares no symmetries")
        symmetry = puzzle.symmetry(symmetry)
    elif not hasattr(symmetry, "canonical_ranks"):
        raise VecsearchError(f"{puzzle.name}: symmetry is a name ('rotations') or what the puzzle's symmetry method"
                             f" makes, not {symmetry!r}")
    starts, _ = endpoints(puzzle, start, None, need_goal=False)
    if getattr(symmetry, "puzzle", puzzle) is not puzzle:  # it ranks the same puzzle in another form
        puzzle, starts = symmetry.puzzle, symmetry.restate(starts)
    if puzzle.rank is None:
        raise VecsearchError(f"{puzzle.name}: enumeration modulo symmetry needs a perfect rank")
    kernels, tables = layer_kernels(puzzle), kernel_tables(puzzle)
    components = np.unique(kernels.components(starts, tables))
    if len(components) != 1:
        raise VecsearchError(f"{puzzle.name}: the start states lie in {len(components)} components; give starts of one")
    component = int(components[0])
    _check_closed(puzzle, starts, kernels, tables, symmetry, component)
    if partition is not None:
        if mode == "layers":
            raise VecsearchError("a partitioned enumeration modulo symmetry is a two-bit search: not mode='layers'")
        return partitioned_classes(puzzle, symmetry, starts, max_depth=max_depth, threads=threads, keep=keep,
                                   max_memory=max_memory, on_layer=on_layer, **partition)
    if mode == "twobit":
        return enumerate_twobit_classes(puzzle, symmetry, kernels.ranks(starts, tables), component, keep=keep,
                                        max_depth=max_depth, threads=threads, on_layer=on_layer,
                                        max_memory=max_memory, checkpoint=checkpoint, resume=resume)
    quotient, method = symmetry.quotient(component) if hasattr(symmetry, "quotient") else (None, "no quotient")
    if quotient is not None and quotient.size * QUOTIENT_BYTES > available_bytes() // 2:
        quotient, method = None, "the quotient's orbit table would take over half the available memory"
    if quotient is not None:
        return enumerate_fibres(puzzle, symmetry, quotient, method, kernels.ranks(starts, tables), component,
                                max_depth=max_depth, threads=threads, on_layer=on_layer)
    result = ClassEnumeration(puzzle, symmetry.order, component=component, method=f"conjugates ({method})")
    compiled = jit.compile_seconds()
    visited = BitsetVisited(puzzle)
    found = np.zeros_like(visited.bits)  # the canonical ranks of the classes found
    _warm(symmetry, component, found)
    try:
        with thread_limit(threads):
            clock = jit.Stopwatch()
            frontier = _settle(visited.add(starts), kernels, tables, symmetry, component, found, result, 0, clock,
                               on_layer)
            while len(frontier) and (max_depth is None or result.depth < max_depth):
                clock = jit.Stopwatch()
                layer, _, _ = visited.expand(Layer.of(frontier, puzzle.width), False, None)
                frontier = _settle(layer.states, kernels, tables, symmetry, component, found, result,
                                   result.depth + 1, clock, on_layer)
    finally:
        visited.release([])
        result.compile_seconds = jit.compile_seconds() - compiled
    if not result.records[-1].classes:
        result.records.pop()
        result.found.pop()
    return result


def _check_closed(puzzle, starts, kernels, tables, symmetry, component) -> None:
    """Refuse starts that are not whole classes: a conjugate of a start would then lie at another
    distance from the starts than the start's own class members."""
    ranks = np.unique(kernels.ranks(starts, tables))
    canonical, fixing = symmetry.canonical_ranks(ranks, component)
    classes, first, members = np.unique(canonical, return_index=True, return_counts=True)
    whole = symmetry.order // fixing[first]
    if not np.array_equal(members, whole):
        bad = int(np.flatnonzero(members != whole)[0])
        raise VecsearchError(f"{puzzle.name}: the start states are not closed under the symmetries: a start's class"
                             f" has {int(whole[bad])} states, {int(members[bad])} of them among the starts; start from"
                             " the solved state, or from whole classes")


def _warm(symmetry, component, bits) -> None:
    none = np.empty(0, np.int64)
    jit.compiling("canonical_ranks", lambda: symmetry.canonical_ranks(none, component))
    jit.warm(claim_classes, none, bits, none, 0, 0)


def _settle(states, kernels, tables, symmetry, component, found, result, depth, clock, on_layer):
    """Find the classes of ``states`` (new states of layer ``depth``), record the layer, and
    return one state per new class: the next frontier."""
    if states.ndim == 1:
        states.sort()  # neighbouring ranks: the symmetry's tables are read in order
    ranks = kernels.ranks(states, tables)
    canonical, fixing = symmetry.canonical_ranks(ranks, component)
    new = np.empty(len(ranks), np.int64)
    map_blocks(lambda lo, hi: claim_classes(canonical, found, new, lo, hi), len(canonical), CLAIM_BLOCK)
    kept = new.astype(bool)
    positions = int((symmetry.order // fixing[kept]).sum())
    record = ClassLayer(depth, int(kept.sum()), positions, clock.search_seconds)
    result.records.append(record)
    result.found.append(np.sort(canonical[kept]))
    if on_layer is not None and record.classes:
        on_layer(record)
    return states[kept]
