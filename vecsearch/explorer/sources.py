"""Where the explorer reads a side of a space from: layers a search stored, or a distance table.

A *side* is a sequence of layers around a root (a search's starts, or a table's goal): layer
``d`` holds the states ``d`` moves away. Both kinds answer the same three questions, without
ever holding more than a page of states outside what they were built from:

- ``sizes``: the number of states at each depth;
- ``states_at(depth, positions)``: the states at the given positions of a layer, in a fixed
  order (``positions`` sorted, each below the layer's size), so that pages and samples are the
  same on every run;
- ``depths(states)``: the depth of each state on this side, -1 where it lies on no layer.

``LayerSide`` keeps a search's layers and sorts each one the first time it is asked (states in
their words' order). ``TableSide`` reads a distance table of one byte per rank: layer ``d`` is
the ranks whose entry is ``d``, paged in rank order and turned into states by ``unrank``. It
counts each layer's ranks per block of ``BLOCK`` ranks once, so that finding the ``k``-th rank
of a layer scans one block: a page of a layer of ``10^8`` states costs milliseconds.
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.errors import VecsearchError

BLOCK = 1 << 20  # ranks per block of a table's per-layer counts


def order_keys(states: np.ndarray) -> np.ndarray:
    """One sortable key per state whose order is the order of the states' words as signed
    integers (first word first): the states themselves when narrow, else big-endian bytes with
    the sign bit flipped, compared as raw bytes."""
    if states.ndim == 1:
        return states
    flipped = (np.ascontiguousarray(states).view(np.uint64) ^ np.uint64(1 << 63)).astype(">u8")
    return flipped.view(np.dtype((np.void, 8 * states.shape[1]))).ravel()


class LayerSide:
    """The layers a search stored (``SearchResult.layers`` or ``backward_layers``).

    ``complete``: whether these are all the layers there are (a search that was not stopped by
    a depth limit). ``label`` says what a depth means (``"moves from the start"``)."""

    def __init__(self, puzzle, layers, *, name: str, label: str, complete: bool):
        if not layers:
            raise VecsearchError("this search kept no layers to explore")
        self.puzzle = puzzle
        self.name = name
        self.label = label
        self.complete = bool(complete)
        self._layers = list(layers)
        self._sorted: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.sizes = [len(layer) for layer in self._layers]

    def _layer(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Layer ``depth``'s states in order, and their keys."""
        if depth not in self._sorted:
            states = self._layers[depth].states
            keys = order_keys(states)
            order = np.argsort(keys, kind="stable")
            self._sorted[depth] = (states[order], keys[order])
        return self._sorted[depth]

    def states_at(self, depth: int, positions: np.ndarray) -> np.ndarray:
        return self._layer(depth)[0][positions]

    def depths(self, states: np.ndarray) -> np.ndarray:
        found = np.full(len(states), -1, dtype=np.int64)
        keys = order_keys(states)
        for depth in range(len(self.sizes)):
            layer_keys = self._layer(depth)[1]
            at = np.minimum(np.searchsorted(layer_keys, keys), len(layer_keys) - 1)
            found[(found < 0) & (layer_keys[at] == keys)] = depth
        return found


class TableSide:
    """A ``DistanceTable`` of one byte (or two) per rank, its layers paged in rank order.

    Needs the puzzle's ``unrank`` (to turn ranks into states) and ``storage="bytes"``: a table
    of distances mod 3 cannot tell which layer a rank is on. ``block``: ranks per block of the
    per-layer counts."""

    def __init__(self, table, *, name: str, label: str, block: int = BLOCK):
        puzzle = table.puzzle
        if table.storage != "bytes":
            raise VecsearchError("exploring a distance table needs its distances: build it with storage='bytes'")
        if not puzzle.has_unrank:
            raise VecsearchError(f"{puzzle.name} has no unrank: its table's layers cannot be turned into states;"
                                 " explore stored layers instead (explore(puzzle, start, max_depth=D))")
        self.puzzle = puzzle
        self.name = name
        self.label = label
        self.complete = bool(table.complete)
        self._table = table
        self._block = block
        distances = table.distances
        depths = table.max_distance + 1
        blocks = (len(distances) + block - 1) // block
        self._counts = np.empty((blocks, depths), dtype=np.int64)
        for b in range(blocks):  # a bincount per block: 0.6 s for 240 M ranks
            self._counts[b] = np.bincount(distances[b * block:(b + 1) * block], minlength=depths)[:depths]
        self._before = np.cumsum(self._counts, axis=0) - self._counts  # ranks of each layer in earlier blocks
        self.sizes = self._counts.sum(axis=0).tolist()

    def states_at(self, depth: int, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        blocks = np.searchsorted(self._before[:, depth], positions, side="right") - 1
        ranks = np.empty(len(positions), dtype=np.int64)
        for b in np.unique(blocks):
            chosen = blocks == b
            in_block = np.flatnonzero(self._table.distances[b * self._block:(b + 1) * self._block] == depth)
            ranks[chosen] = b * self._block + in_block[positions[chosen] - self._before[b, depth]]
        kernels = layer_kernels(self.puzzle)
        return kernels.unrank_many(ranks, self._table.component, kernel_tables(self.puzzle))

    def depths(self, states: np.ndarray) -> np.ndarray:
        kernels = layer_kernels(self.puzzle)
        tables = kernel_tables(self.puzzle)
        found = np.full(len(states), -1, dtype=np.int64)
        same = kernels.components(states, tables) == self._table.component
        if same.any():
            entries = self._table.distances[kernels.ranks(states[same], tables)].astype(np.int64)
            found[same] = np.where(entries == self._table.unknown, -1, entries)
        return found
