"""Two-bit enumeration modulo symmetry in one process: a two-bit table over the puzzle's ranks in
which only classes' canonical representatives are ever marked (``class_cells``), 2 bits per rank
and nothing else, so spaces whose bitset of classes would not fit still do.

A layer, over the table: the frontier's blocks are expanded on several threads
(``class_cells.frontier_children``, about ``1 / order`` of the positions: one representative a
class), a round of blocks at a time; their children are brought to their canonical ranks and
claimed (``segment_cells.claim_next``: ``3`` becomes ``2``, the layer being found, while ``1``
is the frontier still being read); then the frontier is retired and the layer found becomes it
(``advance_cells``), and its classes and positions are read from its cells (``count_layer``).

Push only: a pull looks at the unreached ranks for a neighbour in the frontier, and here every
rank that is not a representative stays unreached (all but ``1 / order`` of the space, every
layer), each of which would have to be brought to its canonical rank to be told apart.

With ``checkpoint``, the table, the layers' counts and kept representatives are saved after
every layer, or less often when the table is slow to write (``runtime.checkpoint``, ``Pacing``:
the previous checkpoint stays whole until the new one is written), and always after the last
layer found, unless a Ctrl-C stopped a layer half-way; ``resume`` continues from one, given the
same symmetry (its order and a digest of its canonical ranks are checked), start states and
``keep``. A Ctrl-C raises ``SearchInterrupted`` with the layers found.
"""

from __future__ import annotations

import hashlib

import numpy as np

from vecsearch.engine.results.classes import ClassEnumeration, ClassLayer
from vecsearch.engine.runtime import blocks, jit, planner
from vecsearch.engine.runtime import checkpoint as checkpoints
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.large_arrays import table_array
from vecsearch.engine.twobit.class_cells import count_layer, frontier_bounds, frontier_children
from vecsearch.engine.twobit.segment_cells import advance_cells, claim_next, claim_ranks
from vecsearch.engine.twobit.segment_tasks import SegmentRanges
from vecsearch.errors import MemoryLimitError, SearchInterrupted, VecsearchError

CLAIM_BLOCK = 1 << 16  # children a thread claims at a time
ADVANCE_WORDS = 1 << 20  # words a thread advances at a time


def enumerate_twobit_classes(puzzle, symmetry, ranks: np.ndarray, component: int, *, keep: int, max_depth=None,
                             threads=None, on_layer=None, max_memory=None, checkpoint=None,
                             resume=None) -> ClassEnumeration:
    """Enumerate the classes of the positions ``ranks`` reach (whole classes) over a two-bit
    table (see the module's docstring); ``representatives`` holds the least ``keep`` of each
    layer."""
    need = planner.two_bit_bytes(puzzle.rank_size)
    limit = planner.default_limit() if max_memory is None else planner.parse_size(max_memory)
    if need > limit:
        raise MemoryLimitError(f"{puzzle.name}: a two-bit table of classes takes {planner.format_size(need)}, over"
                               f" the memory limit of {planner.format_size(limit)}")
    result = ClassEnumeration(puzzle, symmetry.order, component=component,
                              method="two-bit, by least conjugates", keep=keep)
    compiled = jit.compile_seconds()
    search = _Search(puzzle, symmetry, component, keep)
    directory = checkpoint if checkpoint is not None else resume
    starts = np.unique(symmetry.canonical_ranks(ranks, component)[0])
    pacing = checkpoints.Pacing()
    written = [-1]  # the depth of the newest checkpoint

    def save(due: bool = True) -> None:
        if directory is not None and search.settled and written[0] != result.depth and due:
            written[0] = result.depth
            pacing.write(lambda: _save(directory, search, result, starts))

    def found(count, seconds) -> None:
        record = ClassLayer(len(result.records), count.classes, count.positions, seconds)
        result.records.append(record)
        result.found.append(count.representatives())
        save(pacing.due())
        if on_layer is not None:
            on_layer(record)

    try:
        with thread_limit(threads):
            search.warm()
            clock = jit.Stopwatch()
            if resume is not None:
                _restore(resume, search, result, starts)
                checkpoints.not_past(resume, result.depth, max_depth)
                written[0] = result.depth
                count = search.count()
            else:
                count = search.seed(starts)
                found(count, clock.search_seconds)
            while count.classes and (max_depth is None or result.depth < max_depth):
                clock = jit.Stopwatch()
                count = search.step(count.bounds)
                if count.classes:
                    found(count, clock.search_seconds)
            save()
    except KeyboardInterrupt:
        result.compile_seconds = jit.compile_seconds() - compiled
        if not result.records:
            raise
        save()
        raise SearchInterrupted(result, directory) from None
    result.compile_seconds = jit.compile_seconds() - compiled
    return result


CELLS = "classes"  # what a checkpoint's two-bit cells mean: refused by a search that reads them otherwise
PROBE = 4096  # ranks whose canonical ranks identify the symmetry a checkpoint was made with


def _save(directory, search, result: ClassEnumeration, starts: np.ndarray) -> None:
    meta = {"puzzle": search.puzzle.name, "rank_size": search.puzzle.rank_size, "cells": CELLS,
            "order": result.order, "symmetry": _fingerprint(search), "component": result.component, "keep": result.keep,
            "records": [[r.depth, r.classes, r.positions, r.seconds] for r in result.records]}
    kept = [len(f) for f in result.found]
    checkpoints.save(directory, meta, {"table": search.table, "starts": starts, "kept": np.array(kept, np.int64),
                                       "representatives": np.concatenate(result.found)})


def _fingerprint(search) -> str:
    """A digest of the canonical ranks of the first ``PROBE`` ranks: tells symmetry groups apart."""
    probe = np.arange(min(PROBE, search.puzzle.rank_size), dtype=np.int64)
    canonical, fixing = search.symmetry.canonical_ranks(probe, search.component)
    return hashlib.sha256(canonical.tobytes() + fixing.astype(np.int64).tobytes()).hexdigest()


def _restore(directory, search, result: ClassEnumeration, starts: np.ndarray) -> None:
    meta, arrays = checkpoints.load(directory, deferred=("table",))
    if meta.get("cells") != CELLS:
        raise VecsearchError(f"the checkpoint in {directory} is not of an enumeration modulo symmetry")
    found = (meta["puzzle"], meta["rank_size"], meta["order"], meta["keep"])
    expected = (search.puzzle.name, search.puzzle.rank_size, result.order, result.keep)
    if found != expected:
        raise VecsearchError(f"the checkpoint in {directory} enumerates {found[0]!r} ({found[1]:,} ranks) modulo"
                             f" {found[2]} symmetries keeping {found[3]} representatives, not {expected[0]!r}"
                             f" ({expected[1]:,}) modulo {expected[2]} keeping {expected[3]}")
    if meta["symmetry"] != _fingerprint(search):
        raise VecsearchError(f"the checkpoint in {directory} enumerates classes modulo another symmetry group of"
                             f" order {result.order}")
    if not np.array_equal(arrays["starts"], starts):
        raise VecsearchError(f"the checkpoint in {directory} continues a search from other start states")
    arrays["table"].read_into(search.table)
    result.records = [ClassLayer(*r) for r in meta["records"]]
    result.found = np.split(arrays["representatives"], np.cumsum(arrays["kept"])[:-1])


class _Search:
    """The table of one two-bit class search, and what its layers need."""

    def __init__(self, puzzle, symmetry, component: int, keep: int):
        self.puzzle = puzzle
        self.symmetry = symmetry
        self.component = component
        self.keep = keep
        self.layout = SegmentRanges(puzzle.rank_size, 1)
        self.table = table_array(self.layout.words, np.int64, -1)
        self.reading = self.table.view()  # the expansion reads the table through a read-only view: the types
        self.reading.setflags(write=False)  # the partitioned search's kernels are compiled for
        self.expand = layer_kernels(puzzle).frontier_children_range
        self.tables = kernel_tables(puzzle)
        self.settled = True  # False while a layer is being found: the table is half-updated

    def warm(self) -> None:
        """Compile (or load) the kernels outside the layers' timings."""
        none = np.empty(0, np.int64)
        frontier_children(self.expand, self.reading, self.table, 0, 0, self.layout.last_mask(), self.component,
                          self.tables, 0)
        jit.compiling("canonical_ranks", lambda: self.symmetry.canonical_ranks(none, self.component))
        for kernel, args in ((claim_next, (self.table, none, 0, 0)), (advance_cells, (self.table, 0, 0)),
                             (claim_ranks, (self.table, none)), (frontier_bounds, (self.table, 0, 0))):
            jit.warm(kernel, *args)

    def seed(self, starts: np.ndarray):
        """Mark the canonical ranks ``starts``; the start layer's counts."""
        claim_ranks(self.table, starts)
        return self.count()

    def count(self):
        """The frontier's counts (``class_cells.LayerCount``)."""
        return count_layer(self.table, 0, self.layout.words, self.symmetry, self.component, self.keep)

    def step(self, bounds: np.ndarray):
        """Find the next layer from the frontier's blocks ``bounds``; its counts."""
        self.settled = False
        pairs = list(zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True))
        per_round = blocks.workers()
        for first in range(0, len(pairs), per_round):
            self._claim(pairs[first:first + per_round])
        blocks.map_blocks(lambda lo, hi: advance_cells(self.table, lo, hi), self.layout.words, ADVANCE_WORDS)
        count = self.count()
        self.settled = True
        return count

    def _claim(self, pairs) -> None:
        """Expand the blocks ``pairs`` (a block a thread) and claim their children's canonical ranks."""
        children = blocks.map_blocks(lambda i, j: self._children(pairs[i:j]), len(pairs), 1)
        canonical = self.symmetry.canonical_ranks(np.concatenate(children), self.component)[0]
        blocks.map_blocks(lambda lo, hi: claim_next(self.table, canonical, lo, hi), len(canonical), CLAIM_BLOCK)

    def _children(self, pairs) -> np.ndarray:
        found = [frontier_children(self.expand, self.reading, self.table, a, b, self.layout.last_mask(),
                                   self.component, self.tables, self.puzzle.max_children) for a, b in pairs]
        return np.concatenate(found) if found else np.empty(0, np.int64)
