"""Enumeration modulo symmetry through a quotient by the rotations: a class is an orbit of the
quotient's states under the symmetries, with one fibre element of its representative (the terms:
``puzzles/permutation/quotient``).

What a quotient gives the engine (``symmetry.quotient(component)``): ``order`` (symmetries),
``fibre`` (rotations, at most 63: a fibre's elements are the bits of a uint64), ``size`` (quotient
states); ``tables``: ``coords`` (per coordinate of the quotient's rank: size, weight, offset into
``steps``), ``steps`` (int32: per coordinate value and move, the value after the move),
``move_maps`` (each move's fibre map) and ``maps`` (``maps[m, r]``: fibre map ``m``'s image of
element ``r``; map 0 is the identity); ``orbits()``: per quotient state its orbit and the fibre
map to the orbit's representative's fibre (``entry``, int32 or int64: orbit << ``map_bits + 1``
| whether the representative's stabiliser holds more than the identity << ``map_bits`` | map),
``representatives`` (their quotient states), and each representative's stabiliser as fibre maps
(``stabiliser_at``, ``stabiliser_maps``, the identity left out); ``split(ranks)`` (a position's
quotient state and fibre element) and ``join(states, elements)`` (back).

The search keeps, per orbit, a mask of the fibre elements of its representative reached so far
(``visited``). A layer is a list of orbits, each with the mask of the elements it first reached
(``class_kernels.expand_fibres``): every move takes the representative to a quotient state and the
mask through the move's fibre map; that state's entry names its orbit and the fibre map into the
orbit's representative's fibre; the mask, closed under the representative's stabiliser, is OR-ed
into the orbit's ``visited`` mask, and the bits it sets join the orbit's mask in the next layer.
An element stands for ``order / |stabiliser|`` positions (its conjugates in the other fibres of
the orbit); the classes are the stabiliser's orbits among the elements (``count_fibres``). The
quotient's orbits are found first (``Quotient.orbits``), in the search's seconds
(``setup_seconds``).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from vecsearch.engine.layered.class_kernels import BLOCK, count_fibres, expand_fibres, settle_fibres
from vecsearch.engine.results.classes import ClassEnumeration, ClassLayer
from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.blocks import map_blocks, thread_limit


class FibreSearch:
    """The state of one search through ``quotient``: its orbit table and visited masks."""

    def __init__(self, quotient):
        self.quotient = quotient
        self.table = quotient.orbits()
        orbits = len(self.table.representatives)
        self.visited = np.zeros(orbits, np.uint64)
        self.arrived = np.zeros(orbits, np.uint64)
        self.found = np.empty(orbits, np.int64)
        self.count = np.zeros(1, np.int64)
        tables = quotient.tables
        self.claim = (self.table.entry, np.int64(self.table.map_bits), tables.maps, self.table.stabiliser_at,
                      self.table.stabiliser_maps, self.visited, self.arrived, self.found, self.count)

    def starts(self, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The orbits of positions ``ranks`` and their masks."""
        states, elements = self.quotient.split(ranks)
        settle_fibres(states, np.uint64(1) << elements.astype(np.uint64), *self.claim)
        return self._gather()

    def expand(self, orbits: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The orbits first reached from ``orbits`` with fibre elements ``masks``, and their masks."""
        tables = self.quotient.tables
        frontier = self.table.representatives[orbits]
        map_blocks(lambda lo, hi: expand_fibres(frontier, masks, tables.coords, tables.steps, tables.move_maps,
                                                *self.claim, np.empty(len(tables.move_maps), np.int64), lo, hi),
                   len(frontier), BLOCK)
        return self._gather()

    def _gather(self) -> tuple[np.ndarray, np.ndarray]:
        orbits = np.sort(self.found[:self.count[0]])
        masks = self.arrived[orbits]
        self.arrived[orbits] = 0
        self.count[0] = 0
        return orbits, masks

    def counts(self, orbits: np.ndarray, masks: np.ndarray) -> tuple[int, int]:
        """``(classes, positions)`` of a layer."""
        return count_fibres(orbits, masks, np.int64(self.quotient.order), self.quotient.tables.maps,
                            self.table.stabiliser_at, self.table.stabiliser_maps)



def represent(quotient, symmetry, component: int, representatives: np.ndarray, layer) -> np.ndarray:
    """The canonical representatives (least ranks among conjugates, sorted) of a layer's classes
    (``(orbits, masks)``): every fibre element of the layer as a position, at its least conjugate."""
    orbits, masks = layer
    bits = np.unpackbits(masks.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    rows, elements = np.nonzero(bits)
    ranks = quotient.join(representatives[orbits[rows]], elements.astype(np.int64))
    return np.unique(symmetry.canonical_ranks(ranks, component)[0])


def enumerate_fibres(puzzle, symmetry, quotient, method: str, ranks: np.ndarray, component: int, *, max_depth=None,
                     threads=None, on_layer=None) -> ClassEnumeration:
    """Enumerate the classes of the positions ``ranks`` reach (whole classes) through
    ``quotient`` (see the module's docstring)."""
    result = ClassEnumeration(puzzle, symmetry.order, component=component, method=method)
    compiled = jit.compile_seconds()
    try:
        with thread_limit(threads):
            clock = jit.Stopwatch()
            search = FibreSearch(quotient)
            result.represent = partial(represent, quotient, symmetry, component, search.table.representatives)
            result.setup_seconds = clock.search_seconds
            clock = jit.Stopwatch()
            layer = search.starts(ranks)
            while len(layer[0]):
                classes, positions = search.counts(*layer)
                record = ClassLayer(len(result.records), classes, positions, clock.search_seconds)
                result.records.append(record)
                result.found.append(layer)
                if on_layer is not None:
                    on_layer(record)
                if max_depth is not None and record.depth >= max_depth:
                    break
                clock = jit.Stopwatch()
                layer = search.expand(*layer)
    finally:
        result.compile_seconds = jit.compile_seconds() - compiled
    return result
