"""Enumeration modulo symmetry: layer counts of classes and of positions, with a canonical
representative per class.

A symmetry group acts on states by conjugation and keeps distances (the puzzle's side checks
that: ``puzzles/permutation/symmetry``), so every state of a class lies in the same layer. The
search keeps one state per class in its frontier. Expanding it (``visited.BitsetVisited``, over
the ranks of the states generated) gives children not generated before; each is brought to its
class's canonical representative, the least rank among its conjugates, and a second bitset over
those ranks tells new classes from known ones (``class_kernels.claim_classes``). A class's
size is the group's order over its stabiliser (the symmetries that fix a state), so the
positions per layer come with the classes.

What a symmetry gives the engine (``PermutationPuzzle.symmetry``): ``order``,
``canonical_ranks(ranks, component)``: the canonical rank of each state and how many symmetries
fix it, and optionally ``puzzle``: the puzzle whose ranks those are (the same puzzle in another
form) with ``restate(states)``: the given puzzle's states packed as that one packs them. A
puzzle offers symmetries by a method ``symmetry(spec)`` that makes one of text
(``"rotations"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vecsearch.engine.layered.class_kernels import claim_classes
from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle, endpoints
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.runtime.visited import BitsetVisited
from vecsearch.errors import VecsearchError


@dataclass(frozen=True)
class ClassLayer:
    """One layer: its depth, classes, positions (states), and the seconds it took."""

    depth: int
    classes: int
    positions: int
    seconds: float
    side = "forward"  # what a progress bar names

    @property
    def states(self) -> int:
        """The positions (what a progress bar counts)."""
        return self.positions


@dataclass(repr=False)
class ClassEnumeration:
    """What ``bfs(puzzle, symmetry=...)`` returns: per layer, the classes and the positions.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle enumerated.
    order : int
        The symmetry group's order.
    records : list of ClassLayer
        One per layer.
    representatives : list of numpy.ndarray
        Per layer, the canonical representative of each class: the least rank among its
        conjugates (sorted).
    compile_seconds : float
        Kernel compile (or cache load) time, apart from the layers' seconds.
    component : int
        The starts' component (the rank's invariants), for unranking representatives.

    Examples
    --------
    Two swaps ``A`` and ``B`` that a rotation ``x`` exchanges: ``A`` and ``B`` are one class.

    >>> pair = vs.PermutationDefinition("pair", [vs.Orbit("P", 4, 2)],
    ...     {"A": {"P": ([1, 0, 2, 3], [1, 1, 0, 0])}, "B": {"P": ([0, 1, 3, 2], [0, 0, 1, 1])}},
    ...     rotations={"x": {"P": [2, 3, 0, 1]}})
    >>> result = vs.bfs(vs.PermutationPuzzle(pair), symmetry="rotations")
    >>> [(r.classes, r.positions) for r in result.records], result.order
    ([(1, 1), (1, 2), (1, 1)], 2)
    """

    puzzle: object
    order: int
    records: list = field(default_factory=list)
    representatives: list = field(default_factory=list)
    compile_seconds: float = 0.0
    component: int = 0

    @property
    def classes(self) -> int:
        """Classes in all layers."""
        return sum(r.classes for r in self.records)

    @property
    def positions(self) -> int:
        """Positions (states) in all layers, recovered from the classes' sizes."""
        return sum(r.positions for r in self.records)

    @property
    def depth(self) -> int:
        """The deepest layer's depth."""
        return self.records[-1].depth

    @property
    def seconds(self) -> float:
        """Search seconds (compile time apart)."""
        return sum(r.seconds for r in self.records)

    def representative_states(self, depth: int) -> np.ndarray:
        """The packed states of layer ``depth``'s canonical representatives."""
        kernels = layer_kernels(self.puzzle)
        return kernels.unrank_many(self.representatives[depth], self.component, kernel_tables(self.puzzle))

    def __str__(self) -> str:
        lines = [f"{self.puzzle.name} modulo {self.order} symmetries",
                 f"{'depth':>5} {'classes':>14} {'positions':>16}"]
        lines += [f"{r.depth:>5} {r.classes:>14,} {r.positions:>16,}" for r in self.records]
        lines.append(f"{'total':>5} {self.classes:>14,} {self.positions:>16,}   {self.seconds:.3f} s"
                     f" (compile {self.compile_seconds:.2f} s)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<ClassEnumeration {self.puzzle.name}: {self.classes:,} classes, {self.positions:,} positions,"
                f" depth {self.depth}, {self.order} symmetries>")


def enumerate_classes(puzzle, symmetry, start=None, *, max_depth=None, threads=None,
                      on_layer=None) -> ClassEnumeration:
    """Enumerate what ``start`` reaches modulo ``symmetry`` (see the module's docstring).

    ``symmetry``: what the puzzle's ``symmetry`` method makes, or a name it takes
    (``"rotations"``)."""
    puzzle = as_puzzle(puzzle)
    if isinstance(symmetry, str):
        if not hasattr(puzzle, "symmetry"):
            raise VecsearchError(f"{puzzle.name}: this puzzle declares no symmetries")
        symmetry = puzzle.symmetry(symmetry)
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
    result = ClassEnumeration(puzzle, symmetry.order, component=component)
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
        result.representatives.pop()
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
    jit.warm(claim_classes, none, bits, none)


def _settle(states, kernels, tables, symmetry, component, found, result, depth, clock, on_layer):
    """Find the classes of ``states`` (new states of layer ``depth``), record the layer, and
    return one state per new class: the next frontier."""
    if states.ndim == 1:
        states.sort()  # neighbouring ranks: the symmetry's tables are read in order
    ranks = kernels.ranks(states, tables)
    canonical, fixing = symmetry.canonical_ranks(ranks, component)
    new = np.empty(len(ranks), np.int64)
    claim_classes(canonical, found, new)
    kept = new.astype(bool)
    positions = int((symmetry.order // fixing[kept]).sum())
    record = ClassLayer(depth, int(kept.sum()), positions, clock.search_seconds)
    result.records.append(record)
    result.representatives.append(np.sort(canonical[kept]))
    if on_layer is not None and record.classes:
        on_layer(record)
    return states[kept]
