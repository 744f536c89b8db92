"""One side of a layered search: a visited set, a frontier and the stored layers.

``Side`` is the layer machinery every layered search shares (``bfs``, ``bidirectional``, the
enumeration, distance tables): it grows one layer at a time against its own visited set and
records a ``LayerRecord`` per layer. ``choose_visited`` picks its visited set.
"""

from __future__ import annotations

from vecsearch.engine.results.profile import LayerRecord
from vecsearch.engine.runtime import jit, planner
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.runtime.phase_clock import PhaseClock
from vecsearch.engine.runtime.visited import ROUND, make_visited
from vecsearch.errors import MemoryLimitError, VecsearchError

UNLIMITED = 1 << 30  # "no depth limit" as a layer count


class Side:
    """One direction of a search: its visited set, frontier and (optionally) stored layers.

    ``name``: the side's name in the profile; ``backward``: grow over predecessors; ``kind``:
    ``"bitset"`` or ``"hash"`` (``choose_visited``); ``keep_layers``: store every layer;
    ``limit``: the deepest layer (None: no limit); ``on_layer``: called with each record;
    ``sink``: takes each finished layer; ``budget`` (a ``MemoryBudget``) stops the search before
    a growing layer or hash table would take it over its memory limit; ``restored`` (from
    ``snapshot``) continues a checkpoint."""

    def __init__(self, puzzle, name, starts, profile, *, kind, backward=False, keep_layers=True, limit=None,
                 on_layer=None, sink=None, budget=None, restored=None):
        self.puzzle = puzzle
        self.name = name
        self.backward = backward
        self.limit = limit
        self.keep_layers = keep_layers
        self.profile = profile
        self.on_layer = on_layer
        self.sink = sink
        self.consume_frontier = False  # drop the frontier's chunks as they are expanded (no layers kept)
        self.frontier_lost = False  # a step that consumed the frontier failed: no last layer to give
        watch = jit.Stopwatch()
        self.visited = make_visited(puzzle, kind)
        self.layers = []
        if budget is not None:
            self.visited.guard = lambda extra: budget.check(self.nbytes + extra)
        if restored is not None:
            self._restore(*restored)
            return
        self.frontier = Layer.of(self.visited.add(starts), puzzle.width)
        self.layers = [self.frontier]
        self.layer_bytes = self.frontier.nbytes
        self.depth = 0
        seconds = watch.search_seconds
        self._record(len(starts), 0, seconds, {"claim": seconds})  # the starts' bits

    @property
    def exhausted(self) -> bool:
        return not self.frontier_lost and len(self.frontier) == 0

    @property
    def nbytes(self) -> int:
        return self.visited.nbytes + self.layer_bytes

    def projected_bytes(self, new_states: int) -> int:
        """The peak bytes of growing a layer of ``new_states`` new states: the visited set on its
        way to holding them, the layers held, and the new layer's buffers and final copy."""
        layer = 8 * self.puzzle.width * new_states
        last_round = min(len(self.frontier), ROUND) * self.puzzle.max_children  # children claimed at once
        return self.visited.bytes_holding(self.visited.count + new_states + last_round) + self.layer_bytes + 2 * layer

    def step(self, other, max_layers: int = 1) -> int:
        """Grow one layer, or up to ``max_layers`` while they stay small (see
        ``visited.grow``; such layers share the kernel call's time in proportion to their
        children); returns how many states of the last one ``other`` holds."""
        watch = jit.Stopwatch()
        clock = PhaseClock()
        frontier = len(self.frontier)  # before an expansion that may consume it
        if max_layers > 1 and self.visited.grows(len(self.frontier)):
            grown = self.visited.grow(self.frontier, self.backward, other, max_layers, clock)
        else:
            consume = self.consume_frontier and not self.keep_layers
            try:
                grown = [self.visited.expand(self.frontier, self.backward, other, clock, consume)]
            except BaseException:  # Ctrl-C, a memory limit: the frontier is partly gone
                self.frontier_lost = consume
                raise
        seconds = watch.search_seconds
        children = sum(generated for _, generated, _ in grown)
        phases = clock.split(seconds)
        for layer, generated, _ in grown:
            self.depth += 1
            self.frontier = layer
            if len(layer):  # an empty layer only says the side is exhausted
                self.layers = self.layers + [layer] if self.keep_layers else [layer]
                self.layer_bytes = layer.nbytes + (self.layer_bytes if self.keep_layers else 0)
            share = generated / children if children else 1 / len(grown)
            self._record(frontier, generated, seconds * share, {p: t * share for p, t in phases.items()})
            frontier = len(layer)
        return grown[-1][2]  # the meets of the last layer grown

    def snapshot(self) -> tuple[dict, dict]:
        """What a checkpoint needs: ``(meta, arrays)``."""
        arrays = {f"visited_{k}": v for k, v in self.visited.arrays().items()}
        arrays.update({f"layer_{i}": layer.states for i, layer in enumerate(self.layers)})
        meta = {"depth": self.depth, "count": self.visited.count, "layers": len(self.layers),
                "frontier_empty": len(self.frontier) == 0}
        return meta, arrays

    def _restore(self, meta: dict, arrays: dict) -> None:
        self.visited.restore({k[len("visited_"):]: v for k, v in arrays.items() if k.startswith("visited_")},
                             meta["count"])
        self.layers = [Layer.of(arrays[f"layer_{i}"], self.puzzle.width) for i in range(meta["layers"])]
        self.frontier = Layer.of(self.layers[-1].states[:0], self.puzzle.width) if meta["frontier_empty"] \
            else self.layers[-1]
        self.layer_bytes = sum(layer.nbytes for layer in self.layers)
        self.depth = meta["depth"]

    def _record(self, frontier, generated, seconds, phases=None):
        new = len(self.frontier)
        record = LayerRecord(
            side=self.name, depth=self.depth, states=new, frontier=frontier, generated=generated,
            duplicates=generated - new if self.depth else 0, seconds=seconds, bytes=self.nbytes, **(phases or {}),
        )
        self.profile.add(record)
        if self.sink is not None:
            self.sink(self.depth, self.frontier)
        if self.on_layer is not None:
            self.on_layer(record)


def choose_visited(puzzle, visited: str = "auto", sides: int = 1) -> str:
    """``"bitset"`` when the puzzle has a rank whose bitsets fit in a quarter of the RAM, else
    ``"hash"``; an explicit choice is checked."""
    if visited not in ("auto", "bitset", "hash"):
        raise ValueError(f"visited must be 'auto', 'bitset' or 'hash', not {visited!r}")
    if visited == "hash":
        return "hash"
    if not puzzle.has_rank:
        if visited == "bitset":
            raise VecsearchError(f"{puzzle.name} has no rank, so it cannot use a bitset")
        return "hash"
    needed = sides * puzzle.rank_size / 8
    if needed > planner.physical_bytes() / 4:
        if visited == "bitset":
            raise MemoryLimitError(
                f"{puzzle.name}: {sides} bitset(s) of {puzzle.rank_size:,} bits need {needed / 2**30:.1f} GiB,"
                f" more than a quarter of this machine's {planner.physical_bytes() / 2**30:.1f} GiB"
            )
        return "hash"
    return "bitset"
