"""Two-bit breadth-first search: 2 bits per rank of the start's component, and nothing else.

The table's layout is described in ``vecsearch.engine.twobit.rank_space_template``; a cell is 3 for
"not reached". What the other values mean depends on what the table is for:

- **frontier cells** (enumeration, ``bfs``): 1 or 2 for the frontier, alternating with the depth
  (layer ``d`` holds ``1 + d % 2``), the other one for the layer being found, 0 for every state
  reached before. A push retires the frontier's cells word by word as it expands them, so every
  state is expanded exactly once;
- **distance mod 3** (``mod3=True``, ``DistanceTable(storage="mod3")``): the cell is the distance
  mod 3, so a path can be read off the table: from a state whose cell is ``v``, a neighbour whose
  cell is ``(v - 1) mod 3`` is one move closer. Layer ``d`` is never stored: its states are the
  ranks whose cell is ``d mod 3``. Those include layers ``d-3``, ``d-6``..., whose children are all
  reached already, so a push expands them again and finds nothing new: correct, but up to 3x the
  work on spaces with many layers, which is why enumeration does not keep distances.

Each layer is found one of two ways, recorded in the profile as ``method``:

- ``push``: expand every frontier rank (unranked to a state) and set its unreached children;
- ``pull``: look at each unreached rank and set it if one of its predecessors (its children, for
  reversible puzzles) is in the frontier. Needs predecessors, so directed puzzles without them
  always push. The choice is made from measured costs (``MethodCosts``).

The ranks of the newest layer are kept as found, up to ``keep`` of them: the farthest states at
the end.
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.results.profile import LayerRecord
from vecsearch.engine.runtime import blocks, jit, planner
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.large_arrays import table_array
from vecsearch.engine.runtime.phase_clock import PhaseClock
from vecsearch.engine.twobit.segment_cells import retire_cells
from vecsearch.puzzle import signed64

LOW_BITS = 0x5555555555555555
PATTERNS = tuple(signed64((3 - v) * LOW_BITS & ((1 << 64) - 1)) for v in range(3))  # select cells == v
ROUND_WORDS = 1 << 23  # table words (256 Mi ranks) per round of calls: Ctrl-C is noticed between rounds
# Per block a thread takes (one block: no thread is woken): a call costs ~10 us of Python, under the GIL, so a
# block of the table is large enough for a sparse layer's scan to outweigh it (2 MiB of ranks: 1.36 G words per
# 7x2 layer were 333 k calls at 4 Ki words); a listed rank is expanded, so a list's blocks are short
BLOCK_WORDS = 1 << 16
BLOCK_LISTED = 1 << 12
NOTHING = np.empty(0, np.int64)  # no list: the kernel scans the table


class MethodCosts:
    """Seconds per state of the two ways to find a layer, as last measured on a layer large
    enough to time: a push pays per frontier state (cells expanded), a pull per unreached rank
    looked at. Until both are known, pull when fewer ranks are unreached than a push expands."""

    MIN_STATES = 1 << 16  # smaller layers time mostly their overheads

    def __init__(self):
        self.per_state = {"push": None, "pull": None}

    def record(self, method: str, states: int, seconds: float) -> None:
        if states >= self.MIN_STATES:
            self.per_state[method] = seconds / states

    def pull(self, expanded: int, unreached: int) -> bool:
        push, pull = self.per_state["push"], self.per_state["pull"]
        if push is None or pull is None:
            return unreached < expanded
        return unreached * pull < expanded * push


class TwoBitSearch:
    """The table of one search side, its layer counts and its newest layer's ranks."""

    def __init__(self, puzzle, component: int, backward: bool, keep: int, side: str, mod3: bool = False):
        self.puzzle = puzzle
        self.mod3 = mod3
        self.kernels = layer_kernels(puzzle)
        self.component = int(component)
        self.backward = bool(backward)
        self.side = side
        self.table = table_array(planner.two_bit_words(puzzle.rank_size), np.int64, -1)
        tail = puzzle.rank_size - 32 * (len(self.table) - 1)
        self.last_mask = signed64(LOW_BITS & ((1 << (2 * tail)) - 1))
        self.can_pull = backward or puzzle.searchable_backward
        self.counts: list[int] = []
        self.stash = np.empty(keep, np.int64)
        self.fill = np.zeros(1, np.int64)
        self.newest = np.empty(0, np.int64)
        self.costs = MethodCosts()
        self.settled = True  # False while a layer is being found: the table is half-updated

    def value(self, depth: int) -> int:
        """The cell value of layer ``depth``'s states while it is the newest."""
        return depth % 3 if self.mod3 else 1 + (depth & 1)

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
        ranks = np.unique(self.kernels.ranks(starts, kernel_tables(self.puzzle)))
        np.bitwise_and.at(self.table, ranks >> 5, ~(np.int64(3 ^ self.value(0)) << ((ranks & 31) << 1)))
        self.counts = [len(ranks)]
        self.newest = ranks[:len(self.stash)]
        return self._record(len(starts), 0, 0.0, "push")

    def step(self) -> LayerRecord:
        """Find the next layer."""
        watch = jit.Stopwatch()
        self.settled = False
        depth = self.depth
        frontier = self.counts[depth]
        expanding = sum(self.counts[depth::-3]) if self.mod3 else frontier  # the cells a push would expand
        unreached = self.puzzle.rank_size - self.seen
        pull = self.can_pull and self.costs.pull(expanding, unreached)
        seek, newv = self.value(depth), self.value(depth + 1)
        self.fill[0] = 0
        expanded = generated = new = 0
        clock = PhaseClock()
        kernel = self.kernels.twobit_range
        # a push whose whole frontier is in ``newest`` takes it from there instead of scanning the table
        listed = self.newest if not (pull or self.mod3) and frontier <= len(self.newest) else NOTHING
        fixed = (pull, self.last_mask, seek if pull else PATTERNS[seek], newv, not (self.mod3 or pull), self.component,
                 kernel_tables(self.puzzle), self.backward, self.stash, self.fill, clock.cycles, listed)
        jit.warm(kernel, self.table, 0, 0, *fixed)  # compiles (or loads) outside the timing
        jit.warm(retire_cells, self.table, 0, 0, PATTERNS[seek])
        span = len(listed) or len(self.table)
        for lo in range(0, span, ROUND_WORDS):
            hi = min(span, lo + ROUND_WORDS)
            for e, g, n in blocks.map_blocks(lambda a, b, lo=lo: kernel(self.table, lo + a, lo + b, *fixed), hi - lo,
                                             BLOCK_LISTED if len(listed) else BLOCK_WORDS):
                expanded += e
                generated += g
                new += n
        if pull and not self.mod3:  # the frontier was only read: retire it now
            with clock.timing("scan"):
                blocks.map_blocks(lambda a, b: retire_cells(self.table, a, b, PATTERNS[seek]), len(self.table),
                                  ROUND_WORDS)
        self.counts.append(int(new))
        self.settled = True
        if new:  # an empty layer leaves the farthest states as they were
            self.newest = self.stash[:min(int(self.fill[0]), len(self.stash))].copy()
        seconds = watch.search_seconds
        method = "pull" if pull else "push"
        self.costs.record(method, int(expanded), seconds)
        return self._record(frontier, int(generated), seconds, method, clock.split(seconds))

    def _record(self, frontier, generated, seconds, method, phases=None) -> LayerRecord:
        new = self.counts[-1]
        return LayerRecord(side=self.side, depth=self.depth, states=new, frontier=frontier, generated=generated,
                           duplicates=generated - new if self.depth else 0, seconds=seconds, bytes=self.nbytes,
                           method=method, **(phases or {}))

    def newest_states(self) -> np.ndarray:
        """The kept states of the newest layer (all of it if it had at most ``keep``)."""
        return self.kernels.unrank_many(self.newest, self.component, kernel_tables(self.puzzle))

    # --- checkpoints --------------------------------------------------------------------------
    def arrays(self) -> dict:
        return {"table": self.table, "counts": np.array(self.counts, np.int64), "newest": self.newest}

    def restore(self, arrays: dict) -> None:
        """Continue from ``arrays`` (``arrays()``'s); the table may be a ``checkpoint.Stored``,
        read into this search's table."""
        table = arrays["table"]
        if tuple(table.shape) != self.table.shape:
            raise ValueError("the checkpoint's table does not fit this puzzle's rank space")
        if isinstance(table, np.ndarray):
            self.table[...] = table
        else:
            table.read_into(self.table)
        self.counts = [int(c) for c in arrays["counts"]]
        self.newest = arrays["newest"][:len(self.stash)].astype(np.int64)
