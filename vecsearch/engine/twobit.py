"""Two-bit breadth-first search: the distance mod 3 of every rank, and nothing else.

The table has 2 bits per rank of the start's component (``vecsearch.kernels.rank_space_template``
describes the layout): 3 for "not reached", else the distance mod 3. Layer ``d`` is never stored:
its states are the ranks whose cell is ``d mod 3``. (Those include layers ``d-3``, ``d-6``... whose
children are all reached already, so expanding them again finds nothing new: correct, and cheap
while layers grow.) Each layer is found one of two ways, recorded in the profile as ``method``:

- ``push``: expand every frontier rank (unranked to a state) and set its unreached children;
- ``pull``: when fewer ranks are unreached than hold the frontier's value (layers ``d``,
  ``d-3``, ...: what a push would expand), look at each unreached rank and set it if one of its
  predecessors (its children, for reversible puzzles) is in the frontier. Needs predecessors,
  so directed puzzles without them always push.

A path can still be read off the table: from a state whose cell is ``v``, a neighbour whose
cell is ``(v - 1) mod 3`` is one move closer (``DistanceTable(storage="mod3")``). The ranks of
the newest layer are kept as found, up to ``keep`` of them: the farthest states at the end.
"""

from __future__ import annotations

import time

import numpy as np

from vecsearch.engine import blocks, jit
from vecsearch.engine.codegen import layer_kernels
from vecsearch.engine.profile import LayerRecord
from vecsearch.puzzle import signed64

LOW_BITS = 0x5555555555555555
PATTERNS = tuple(signed64((3 - v) * LOW_BITS & ((1 << 64) - 1)) for v in range(3))  # select cells == v
ROUND_WORDS = 1 << 18  # table words per kernel call (8 Mi ranks): Ctrl-C is noticed between calls
BLOCK_WORDS = 1 << 12  # words per block a thread takes (131,072 ranks); one block: no thread is woken


def table_bytes(rank_size: int) -> int:
    return 8 * ((rank_size + 31) // 32)


class TwoBitSearch:
    """The table of one search side, its layer counts and its newest layer's ranks."""

    def __init__(self, puzzle, component: int, backward: bool, keep: int, side: str):
        self.puzzle = puzzle
        self.kernels = layer_kernels(puzzle)
        self.component = int(component)
        self.backward = bool(backward)
        self.side = side
        self.table = np.full((puzzle.rank_size + 31) // 32, -1, np.int64)
        tail = puzzle.rank_size - 32 * (len(self.table) - 1)
        self.last_mask = signed64(LOW_BITS & ((1 << (2 * tail)) - 1))
        self.can_pull = backward or puzzle.searchable_backward
        self.counts: list[int] = []
        self.stash = np.empty(keep, np.int64)
        self.fill = np.zeros(1, np.int64)
        self.newest = np.empty(0, np.int64)

    @property
    def depth(self) -> int:
        return len(self.counts) - 1

    @property
    def seen(self) -> int:
        return sum(self.counts)

    @property
    def exhausted(self) -> bool:
        return self.counts[-1] == 0 or self.seen == self.puzzle.rank_size

    @property
    def nbytes(self) -> int:
        return self.table.nbytes + self.stash.nbytes

    def seed(self, starts: np.ndarray) -> LayerRecord:
        """Distance 0 for ``starts`` (one component)."""
        ranks = np.unique(jit.call(self.kernels.ranks, starts, self.puzzle.tables))
        np.bitwise_and.at(self.table, ranks >> 5, ~(np.int64(3) << ((ranks & 31) << 1)))
        self.counts = [len(ranks)]
        self.newest = ranks[:len(self.stash)]
        return self._record(len(starts), 0, 0.0, "push")

    def step(self) -> LayerRecord:
        """Find the next layer."""
        began = time.perf_counter()
        compiled = jit.compile_seconds()
        depth = self.depth
        frontier = self.counts[depth]
        holding = sum(self.counts[depth::-3])  # cells with the frontier's value: layers d, d-3, d-6...
        pull = self.can_pull and self.puzzle.rank_size - self.seen < holding
        seek, newv = depth % 3, (depth + 1) % 3
        self.fill[0] = 0
        generated = new = 0
        kernel = self.kernels.twobit_range
        fixed = (pull, self.last_mask, seek if pull else PATTERNS[seek], newv, self.component, self.puzzle.tables,
                 self.backward, self.stash, self.fill)
        jit.warm(kernel, self.table, 0, 0, *fixed)  # compiles (or loads) outside the timing
        words = len(self.table)
        for lo in range(0, words, ROUND_WORDS):
            hi = min(words, lo + ROUND_WORDS)
            for _, g, n in blocks.map_blocks(lambda a, b: kernel(self.table, lo + a, lo + b, *fixed), hi - lo,
                                             BLOCK_WORDS):
                generated += g
                new += n
        self.counts.append(int(new))
        if new:  # an empty layer leaves the farthest states as they were
            self.newest = self.stash[:min(int(self.fill[0]), len(self.stash))].copy()
        seconds = time.perf_counter() - began - (jit.compile_seconds() - compiled)
        return self._record(frontier, int(generated), seconds, "pull" if pull else "push")

    def _record(self, frontier, generated, seconds, method) -> LayerRecord:
        new = self.counts[-1]
        return LayerRecord(side=self.side, depth=self.depth, states=new, frontier=frontier, generated=generated,
                           duplicates=generated - new if self.depth else 0, seconds=seconds, bytes=self.nbytes,
                           method=method)

    def newest_states(self) -> np.ndarray:
        """The kept states of the newest layer (all of it if it had at most ``keep``)."""
        return jit.call(self.kernels.unrank_many, self.newest, self.component, self.puzzle.tables)

    # --- checkpoints --------------------------------------------------------------------------
    def arrays(self) -> dict:
        return {"table": self.table, "counts": np.array(self.counts, np.int64), "newest": self.newest}

    def restore(self, arrays: dict) -> None:
        if arrays["table"].shape != self.table.shape:
            raise ValueError("the checkpoint's table does not fit this puzzle's rank space")
        self.table = np.ascontiguousarray(arrays["table"], dtype=np.int64)
        self.counts = [int(c) for c in arrays["counts"]]
        self.newest = arrays["newest"][:len(self.stash)].astype(np.int64)
