"""Visited sets: which states one side of a search has reached, and layer expansion against them.

- ``BitsetVisited``: one bit per rank of the puzzle's perfect rank (within one component).
  Expansion is one fused kernel over blocks of the frontier on several threads: expand, rank,
  prefetch, claim with atomic fetch-or.
- ``HashVisited``: an open-addressing table of whole states, for puzzles without a compact
  rank (wide states included). Children are generated in parallel blocks, then inserted
  serially.

Both expand a frontier in rounds of ``ROUND`` states so the scratch buffer stays bounded, and
count how many new states the *other* side (or the goal set) already holds: a meeting. A
frontier below ``GROW_BELOW`` states may instead ``grow`` several layers in one serial kernel
call, which saves the per-layer round trip to Python that dominates searches of small layers;
a bitset search with at most ``TOGETHER_STATES`` states left to reach grows all of them in one
call of several workers that wait for each other after every layer (``blocks.together``).
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.runtime import blocks, jit
from vecsearch.engine.runtime.caches import BITSETS
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.large_arrays import table_array
from vecsearch.engine.runtime.layers import Layer, LayerBuilder, empty_states
from vecsearch.engine.runtime.phase_clock import PhaseClock

ROUND = 1 << 16  # frontier states per kernel call
BLOCK = 8192  # frontier states per block a thread takes
GROW_BELOW = 8192  # smaller frontiers may grow several layers in one serial kernel call
POOL_BYTES = 256 << 20  # zeroed bitsets kept for reuse by later searches
GROW_LAYERS = 256  # most layers one ``grow`` call returns
TOGETHER_STATES = 1 << 22  # frontier and states left (8 bytes each, held at once) for a grow of all workers
TOGETHER_FROM = 1 << 15  # fewer states left grow on one thread: waking the others costs more
CLAIM_PART = 1 << 16  # a hash table grows when fewer than this many more states (or those offered) would fit


def expand_blocks(kernel, items, fixed: tuple, scratch, stride: int) -> list[tuple]:
    """``kernel(items, lo, hi, *fixed, scratch, lo * stride)`` over blocks of ``BLOCK`` items on
    several threads (``vecsearch.engine.runtime.blocks``): each block writes its states at ``lo * stride``
    of ``scratch``. Returns ``(offset, result)`` per block. The kernel compiles (or loads) on
    empty inputs first, so that stays off the search's clock."""
    jit.warm(kernel, items[:0], 0, 0, *fixed, scratch, 0)
    return blocks.map_blocks(lambda lo, hi: (lo * stride, kernel(items, lo, hi, *fixed, scratch, lo * stride)),
                             len(items), BLOCK)


class FrontierRounds:
    """A frontier in rounds of ``ROUND`` states. With ``consume`` (a search keeping only its last
    layer) its chunks leave it as they are expanded, so that a layer and the one it makes are not
    held whole at once; a chunk is freed only once the new layer has a state: until then the
    frontier may be the last layer, and ``finish(0)`` puts it back whole."""

    def __init__(self, frontier: Layer, builder: LayerBuilder, consume: bool):
        self.frontier = frontier
        self.builder = builder  # the new layer's
        self.consume = consume
        self.held: list[np.ndarray] = []

    def __iter__(self):
        for chunk in self._chunks():
            for lo in range(0, len(chunk), ROUND):
                yield chunk[lo:lo + ROUND]

    def _chunks(self):
        if not self.consume:
            yield from self.frontier.chunks
            return
        while self.frontier.chunks:
            self.held.append(self.frontier.pop_chunk())
            yield self.held[-1]
            if self.builder.count:
                self.held.clear()

    def finish(self, new_states: int) -> None:
        if not new_states:
            self.frontier.put_back(self.held)
        self.held = []


def state_key(state: np.ndarray):
    """What orders states (a one-state array): its words in order, as int64."""
    return state[0].tolist() if state.ndim > 1 else int(state[0])


def least_state(states):
    """The least of ``states`` (one-state arrays; ``state_key``), copied, or None: a choice among
    a layer's states that does not depend on their order there, which depends on the threads
    that made the layer."""
    least = min(states, key=state_key, default=None)
    return None if least is None else least.copy()


def make_visited(puzzle, kind: str):
    """An empty visited set of ``kind`` (``"bitset"`` or ``"hash"``) for ``puzzle``."""
    return BitsetVisited(puzzle) if kind == "bitset" else HashVisited(puzzle)


class _Visited:
    kind = ""

    def __init__(self, puzzle):
        self.puzzle = puzzle
        self.kernels = layer_kernels(puzzle)
        self.tables = kernel_tables(puzzle)
        self.width = puzzle.width
        self._scratch = empty_states(self.width)
        self.guard = None  # told the bytes a growing layer or table is about to take; may raise

    def scratch_for(self, frontier_size: int) -> np.ndarray:
        needed = min(frontier_size, ROUND) * self.puzzle.max_children
        if len(self._scratch) < needed:
            self._scratch = empty_states(self.width, needed)
        return self._scratch

    def grows(self, frontier: int) -> bool:
        """Whether layers after a frontier of this many states are ``grow``n several at a time."""
        return frontier < GROW_BELOW

    def grow(self, frontier: Layer, backward: bool, other, max_layers: int,
             clock: PhaseClock | None = None) -> list[tuple[Layer, int, int]]:
        """Up to ``max_layers`` layers after a frontier that ``grows`` (at least one), each with
        its children generated and meetings with ``other``; stops after a meeting or an empty
        layer, and (but grown together) before a frontier of ``GROW_BELOW`` states. ``clock``
        gets the phases' cycles."""
        n = len(frontier)
        left = self._together_left(n)
        room = n + left if left else n + max(8 * n * self.puzzle.max_children, 4096)
        if left and self.guard is not None:
            self.guard(8 * self.width * room)
        buffer = empty_states(self.width, room)
        buffer[:n] = frontier.states
        stats = np.zeros((min(max_layers, GROW_LAYERS), 3), dtype=np.int64)
        grown = self._grow(buffer, n, backward, other, stats, (clock or PhaseClock()).cycles, bool(left))
        total = int(stats[:grown, 1].sum())
        kept = buffer[n:n + total]
        if 4 * total < 3 * (len(buffer) - n):  # a small part of the buffer: do not hold the rest
            kept = kept.copy()
        out, at = [], 0
        for generated, new, meets in stats[:grown].tolist():
            out.append((Layer.of(kept[at:at + new], self.width), generated, meets))
            at += new
        self.count += at
        return out

    def _together_left(self, frontier: int) -> int:
        """The states left to reach when layers after ``frontier`` states grow with all workers
        (0: they do not)."""
        return 0


class BitsetVisited(_Visited):
    """One bit per rank; memory ``rank_size / 8`` bytes."""

    kind = "bitset"

    def __init__(self, puzzle):
        super().__init__(puzzle)
        words = (puzzle.rank_size + 63) // 64
        pool = BITSETS.get(words, list)
        self.bits = pool.pop() if pool else table_array(words, np.uint64)
        self.count = 0

    @property
    def nbytes(self) -> int:
        return self.bits.nbytes + self._scratch.nbytes

    def bytes_holding(self, count: int) -> int:
        return self.nbytes

    def add(self, states: np.ndarray) -> np.ndarray:
        """Mark ``states``; returns those not seen before (duplicates removed)."""
        states = states.copy()
        new = self.kernels.claim_ranks(states, self.tables, self.bits)
        self.count += new
        return states[:new]

    def expand(self, frontier: Layer, backward: bool, other, clock: PhaseClock | None = None,
               consume: bool = False) -> tuple[Layer, int, int]:
        """The next layer after ``frontier``, children generated, and meetings with ``other``;
        ``clock`` gets the time of the phases; ``consume``: see ``FrontierRounds``."""
        clock = clock or PhaseClock()
        kernel = self.kernels.expand_claim_range
        other_bits = other.bits if other is not None else np.zeros(1, np.uint64)
        check = other is not None
        builder = LayerBuilder(self.width, len(frontier) * self.puzzle.max_children, self.guard)
        generated = meets = 0
        fixed = (self.tables, backward, self.bits, other_bits, check, clock.cycles)
        rounds = FrontierRounds(frontier, builder, consume)
        for part in rounds:
            with clock.timing("compact"):
                room = builder.room(len(part) * self.puzzle.max_children)  # the kernels write the new states there
            jit.warm(kernel, part[:0], 0, 0, *fixed, *room)
            def expand(lo, hi, part=part, room=room):
                return kernel(part, lo, hi, *fixed, *room)

            for g, m in blocks.map_blocks(expand, len(part), BLOCK):
                generated += g
                meets += m
        with clock.timing("compact"):
            layer = builder.finish()
        rounds.finish(len(layer))
        self.count += len(layer)
        return layer, generated, meets

    def grows(self, frontier: int) -> bool:
        return frontier < GROW_BELOW or self._together_left(frontier) > 0

    def _together_left(self, frontier: int) -> int:
        """States left for workers that grow layers together (0: not them). Never for a user's
        puzzle: its guards may raise, and the others would wait for a worker that stopped."""
        left = self.puzzle.rank_size - self.count
        return left if blocks.workers() > 1 and TOGETHER_FROM <= left and frontier + left <= TOGETHER_STATES \
            and self.puzzle.trusted else 0

    def _grow(self, buffer, n, backward, other, stats, cycles, together) -> int:
        check = other is not None
        other_bits = other.bits if check else np.zeros(1, np.uint64)
        limits = (GROW_BELOW, self.puzzle.max_children)  # frontiers that may grow; room for children per state
        if together:
            kernel = self.kernels.bitset_grow_together
            fixed = (self.tables, backward, self.bits, other_bits, check, cycles, len(stats))
            jit.warm(kernel, 0, 1, buffer, 0, 0, *fixed, np.zeros(3, np.int64), np.zeros(3, np.int64))
            jit.warm(self.kernels.bitset_grow, buffer, 0, 0, *fixed, 0, 0, stats)  # for when the team is busy
            sync = np.array([n, 0, 0], np.int64)
            grown = blocks.together(lambda w, workers: kernel(w, workers, buffer, 0, n, *fixed, stats.reshape(-1),
                                                              sync), blocks.workers())
            if grown is not None:
                return grown[0]
            limits = (1 << 62, 0)  # the team is busy: grow alone; the buffer holds every state left
        args = (self.tables, backward, self.bits, other_bits, check, cycles, len(stats), *limits, stats)
        return self.kernels.bitset_grow(buffer, 0, n, *args)
    def arrays(self) -> dict:
        return {"bits": self.bits}

    def restore(self, arrays: dict, count: int) -> None:
        if arrays["bits"].shape != self.bits.shape:
            raise ValueError("the checkpoint's bitset does not fit this puzzle's rank space")
        self.bits = np.ascontiguousarray(arrays["bits"], dtype=np.uint64)
        self.count = count

    def least_member(self, layer: Layer):
        """The least state of ``layer`` (``least_state``) that this set holds, or None."""
        return least_state(chunk[i:i + 1] for chunk in layer.chunks
                           for i in [self.kernels.least_in_bits(chunk, self.tables, self.bits)] if i >= 0)

    def release(self, layers) -> None:
        """Hand the bitset back for reuse by a later search (up to ``POOL_BYTES`` in all).

        It is cleared bit by bit via the stored ``layers`` when they hold every state and are
        few, else wholesale; either is cheaper than a fresh allocation, whose pages the kernel
        must fault in and zero again on first touch."""
        pool = BITSETS.get(len(self.bits), list)
        if sum(len(b) for p in BITSETS.entries.values() for b in p) * 8 + self.bits.nbytes > POOL_BYTES:
            return
        stored = sum(len(layer) for layer in layers)
        if stored == self.count and stored * 16 <= len(self.bits):
            for layer in layers:
                for chunk in layer.chunks:
                    self.kernels.clear_ranks(chunk, self.tables, self.bits)
        else:
            self.bits.fill(0)
        pool.append(self.bits)
        self.bits = None


class HashVisited(_Visited):
    """Open addressing over whole states (``hash_template``: a wide state kept in a store that
    its key indexes), kept at most half full (at least an eighth)."""

    kind = "hash"

    def __init__(self, puzzle):
        super().__init__(puzzle)
        self.keys, self.store = self._empty_table(1024)
        self._no_keys, self._no_store = self._empty_table(1)  # stand for "no other side" in hash_claim
        self.count = 0

    def _empty_table(self, capacity: int) -> tuple[np.ndarray, np.ndarray]:
        """``capacity`` empty slots, on huge pages when large (``table_array``: each insert reads
        a random slot), and the store of the wide states they may hold (as many as half the
        slots; its memory is taken as states are written)."""
        stored = capacity // 2 if self.width > 1 else 0
        return table_array(capacity, np.int64, fill=-1), empty_states(self.width, stored)

    def _stored_bytes(self, count: int) -> int:
        return 8 * self.width * count if self.width > 1 else 0

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self._stored_bytes(self.count) + self._scratch.nbytes

    def bytes_holding(self, count: int) -> int:
        """The peak bytes on the way to holding ``count`` states: the old and the grown table
        (with its copy of the store) side by side while it rehashes."""
        capacity = self._capacity_for(count)
        grown = 0 if capacity == len(self.keys) else 8 * capacity + self._stored_bytes(count)
        return self.nbytes + self._stored_bytes(count - self.count) + grown

    def _capacity_for(self, count: int) -> int:
        capacity = len(self.keys)
        while 2 * count > capacity:
            capacity *= 4  # rather than 2: a third of the rehashing, for at most twice the slots
        return capacity

    def _reserve(self, incoming: int) -> None:
        capacity = self._capacity_for(self.count + incoming)
        if capacity != len(self.keys):
            if self.guard is not None:
                self.guard(8 * capacity + self._stored_bytes(self.count))
            keys, store = self._empty_table(capacity)
            store[:self.count] = self.store[:self.count]
            self.kernels.hash_rehash(self.keys, keys, store, self.count)
            self.keys, self.store = keys, store

    def _claim(self, states: np.ndarray, count: int, other) -> tuple[int, int]:
        """Insert ``states[:count]``, the new ones compacted to the front; ``(new, meets)``.

        The table grows with the states it takes, not with the states it is offered: they go in
        parts that fit it at most half full, and it grows (fourfold) only when the next part would
        not fit. A layer's children are mostly states seen before: the clock's third layer offers
        20 M children and takes 5 M, a table of 16 M slots rather than 64 M."""
        other_keys, other_store = (other.keys, other.store) if other is not None else (self._no_keys, self._no_store)
        new = meets = taken = 0
        while taken < count:
            room = len(self.keys) // 2 - self.count
            if room < min(count - taken, CLAIM_PART):
                self._reserve(min(count - taken, max(CLAIM_PART, self.count)))
                room = len(self.keys) // 2 - self.count
            part = states[taken:taken + min(count - taken, room)]
            fresh, met = self.kernels.hash_claim(part, len(part), self.keys, self.store, self.count, other_keys,
                                                 other_store, other is not None)
            if new < taken:
                states[new:new + fresh] = part[:fresh]
            self.count += fresh
            new, meets, taken = new + fresh, meets + met, taken + len(part)
        return new, meets

    def add(self, states: np.ndarray) -> np.ndarray:
        states = states.copy()
        new, _ = self._claim(states, len(states), None)
        return states[:new]

    def expand(self, frontier: Layer, backward: bool, other, clock: PhaseClock | None = None,
               consume: bool = False) -> tuple[Layer, int, int]:
        clock = clock or PhaseClock()
        scratch = self.scratch_for(len(frontier))
        builder = LayerBuilder(self.width, len(frontier) * self.puzzle.max_children, self.guard)
        generated = meets = 0
        rounds = FrontierRounds(frontier, builder, consume)
        for part in rounds:
            children = 0
            with clock.timing("expand"):
                blocks_out = expand_blocks(self.kernels.expand_all_range, part, (self.tables, backward), scratch,
                                           self.puzzle.max_children)
            with clock.timing("compact"):
                for out, count in blocks_out:
                    scratch[children:children + count] = scratch[out:out + count]  # numpy copes with the overlap
                    children += count
            with clock.timing("claim"):
                new, m = self._claim(scratch, children, other)
            with clock.timing("compact"):
                builder.append(scratch[:new])
            generated += children
            meets += m
        with clock.timing("compact"):
            layer = builder.finish()
        rounds.finish(len(layer))
        return layer, generated, meets

    def _grow(self, buffer, n, backward, other, stats, cycles, together) -> int:
        self._reserve(n * self.puzzle.max_children)
        other_keys, other_store = (other.keys, other.store) if other is not None else (self._no_keys, self._no_store)
        args = (self.tables, backward, self.keys, self.store, self.count, other_keys, other_store, other is not None,
                cycles, len(stats), GROW_BELOW, self.puzzle.max_children, stats)
        return self.kernels.hash_grow(buffer, 0, n, *args)
    def arrays(self) -> dict:
        return {"keys": self.keys, "store": self.store[:self.count]}

    def restore(self, arrays: dict, count: int) -> None:
        keys = np.asarray(arrays["keys"], dtype=np.int64)
        if self.width > 1 and "store" not in arrays:  # saved before stores: a table of whole states
            self.keys, self.store = self._empty_table(1024)
            self.count = 0
            self.add(keys[keys[:, 0] != -1])
            return
        self.keys, self.store = self._empty_table(len(keys))
        self.keys[:] = keys
        if self.width > 1:
            self.store[:count] = np.asarray(arrays["store"], dtype=np.int64)[:count]
        self.count = count

    def least_member(self, layer: Layer):
        return least_state(chunk[i:i + 1] for chunk in layer.chunks
                           for i in [self.kernels.least_in_hash(chunk, self.keys, self.store)] if i >= 0)

    def release(self, layers) -> None:
        self.keys = self.store = None
