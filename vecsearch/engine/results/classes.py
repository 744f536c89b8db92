"""What an enumeration modulo symmetry returns: per layer, its classes and positions, and a
canonical representative per class (``engine.layered.classes``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables

if TYPE_CHECKING:
    from vecsearch.puzzle import Puzzle


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


def _as_found(layer):
    return layer


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
    compile_seconds : float
        Kernel compile (or cache load) time, apart from the layers' seconds.
    component : int
        The starts' component (the rank's invariants), for unranking representatives.
    method : str
        How the classes were found: by the least conjugate of each state (``"conjugates"``; over a
        two-bit table, ``"two-bit ..."``, partitioned or not), or through a quotient by the
        rotations (``"quotient: ..."``, naming the piece it fixes).
    setup_seconds : float
        Search seconds spent before the first layer (the quotient's orbits), counted in
        ``seconds``.
    found : list
        Per layer, what the search kept of its classes; ``representatives`` reads it.
    represent : callable
        Turns one layer's ``found`` into its representatives (sorted ranks).
    keep : int, optional
        None: ``representatives`` holds every class's; else (the two-bit searches) at most this
        many per layer, the least.

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

    puzzle: Puzzle
    order: int
    records: list = field(default_factory=list)
    compile_seconds: float = 0.0
    component: int = 0
    method: str = "conjugates"
    setup_seconds: float = 0.0
    found: list = field(default_factory=list)
    represent: Callable = _as_found
    keep: int | None = None

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
        """Search seconds (compile time apart), ``setup_seconds`` included."""
        return self.setup_seconds + sum(r.seconds for r in self.records)

    @cached_property
    def representatives(self) -> list[np.ndarray]:
        """Per layer, the canonical representative of each class: the least rank among its
        conjugates (sorted); of a two-bit search, the least ``keep`` of them."""
        return [self.represent(layer) for layer in self.found]

    def representative_states(self, depth: int) -> np.ndarray:
        """The packed states of layer ``depth``'s canonical representatives."""
        kernels = layer_kernels(self.puzzle)
        return kernels.unrank_many(self.representatives[depth], self.component, kernel_tables(self.puzzle))

    def __str__(self) -> str:
        lines = [f"{self.puzzle.name} modulo {self.order} symmetries ({self.method})",
                 f"{'depth':>5} {'classes':>14} {'positions':>16}"]
        lines += [f"{r.depth:>5} {r.classes:>14,} {r.positions:>16,}" for r in self.records]
        setup = f", {self.setup_seconds:.3f} s of it the quotient's orbits" if self.setup_seconds else ""
        lines.append(f"{'total':>5} {self.classes:>14,} {self.positions:>16,}   {self.seconds:.3f} s{setup}"
                     f" (compile {self.compile_seconds:.2f} s)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"<ClassEnumeration {self.puzzle.name}: {self.classes:,} classes, {self.positions:,} positions,"
                f" depth {self.depth}, {self.order} symmetries>")
