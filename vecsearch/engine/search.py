"""Breadth-first and bidirectional search over layers.

Each side of a search (forward from the starts, backward from the goals over predecessors) grows
one layer at a time against its own visited set. A new layer that contains a state the other
side holds is a meeting; because the two sides never met before this layer, every meeting state
lies in the other side's last layer and gives a shortest path, rebuilt from the stored layers
(``vecsearch.engine.paths``). A forward search towards a goal set is the same thing with a
backward side that never grows.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from vecsearch.engine import jit, paths
from vecsearch.engine.layers import Layer
from vecsearch.engine.profile import LayerRecord, Profile
from vecsearch.engine.progress import layer_progress
from vecsearch.engine.solution import Solution
from vecsearch.engine.visited import GROW_BELOW, make_visited
from vecsearch.errors import InvalidPuzzleInput, MemoryLimitError, VecsearchError

STRATEGIES = ("smaller", "alternate", "forward")
UNLIMITED = 1 << 30  # "no depth limit" as a layer count


@dataclass
class SearchResult:
    """What a search found: a shortest ``solution`` (or None) and the ``profile`` of every layer.

    ``length`` is the shortest distance found (None: no path); the ``solution`` is rebuilt
    unless the search was asked for the distance only (``path=False``). ``complete`` is True
    when the answer is definitive: a path was found, or a side ran out of states (the goal is
    unreachable). It is False when a depth limit stopped the search.
    ``layers`` are the layers kept of the ``side`` searched from the starts (all of them when a
    path may be needed; otherwise the last one, whose states are the farthest from the start).
    """

    puzzle: object
    profile: Profile
    solution: Solution | None = None
    complete: bool = False
    layers: list[Layer] = field(default_factory=list)
    side: str = "forward"
    length: int | None = None

    @property
    def found(self) -> bool:
        return self.length is not None

    @property
    def distance(self) -> int | None:
        return self.length

    @property
    def layer_sizes(self) -> list[int]:
        """States first reached at each depth of the searched side (trailing empty layer dropped)."""
        sizes = self.profile.layer_sizes(self.side)
        return sizes[:-1] if len(sizes) > 1 and sizes[-1] == 0 else sizes

    @property
    def total_states(self) -> int:
        return sum(self.layer_sizes)

    @property
    def depth(self) -> int:
        """The deepest depth with states (the eccentricity after a complete BFS)."""
        return len(self.layer_sizes) - 1

    @property
    def last_layer(self) -> Layer | None:
        return self.layers[-1] if self.layers else None


class _Side:
    """One direction of a search: its visited set, frontier and (optionally) stored layers.

    ``budget`` (a ``MemoryBudget``) stops the search before a growing layer or hash table would
    take it over its memory limit; ``restored`` (from ``snapshot``) continues a checkpoint."""

    def __init__(self, puzzle, name, backward, kind, starts, keep_layers, limit, profile, on_layer, sink,
                 budget=None, restored=None):
        self.puzzle = puzzle
        self.name = name
        self.backward = backward
        self.limit = limit
        self.keep_layers = keep_layers
        self.profile = profile
        self.on_layer = on_layer
        self.sink = sink
        began = time.perf_counter()
        compiled = jit.compile_seconds()
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
        self._record(len(starts), 0, time.perf_counter() - began - (jit.compile_seconds() - compiled))

    @property
    def exhausted(self) -> bool:
        return len(self.frontier) == 0

    @property
    def nbytes(self) -> int:
        return self.visited.nbytes + self.layer_bytes

    def step(self, other, max_layers: int = 1) -> int:
        """Grow one layer, or up to ``max_layers`` while they stay small (see
        ``visited.grow``; such layers share the kernel call's time in proportion to their
        children); returns how many states of the last one ``other`` holds."""
        began = time.perf_counter()
        compiled = jit.compile_seconds()
        if max_layers > 1 and len(self.frontier) < GROW_BELOW:
            grown = self.visited.grow(self.frontier, self.backward, other, max_layers)
        else:
            grown = [self.visited.expand(self.frontier, self.backward, other)]
        seconds = time.perf_counter() - began - (jit.compile_seconds() - compiled)
        children = sum(generated for _, generated, _ in grown)
        for layer, generated, meets in grown:
            frontier = len(self.frontier)
            self.depth += 1
            self.frontier = layer
            if len(layer):  # an empty layer only says the side is exhausted
                self.layers = self.layers + [layer] if self.keep_layers else [layer]
                self.layer_bytes = layer.nbytes + (self.layer_bytes if self.keep_layers else 0)
            self._record(frontier, generated, seconds * (generated / children if children else 1 / len(grown)))
        return meets

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

    def _record(self, frontier, generated, seconds):
        new = len(self.frontier)
        record = LayerRecord(
            side=self.name, depth=self.depth, states=new, frontier=frontier, generated=generated,
            duplicates=generated - new if self.depth else 0, seconds=seconds, bytes=self.nbytes,
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
    if needed > _memory_bytes() / 4:
        if visited == "bitset":
            raise MemoryLimitError(
                f"{puzzle.name}: {sides} bitset(s) of {puzzle.rank_size:,} bits need {needed / 2**30:.1f} GiB,"
                f" more than a quarter of this machine's {_memory_bytes() / 2**30:.1f} GiB"
            )
        return "hash"
    return "bitset"


def _memory_bytes() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


@contextlib.contextmanager
def _threads(threads: int | None):
    if threads is None:
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def _prepare(puzzle, start, goal, need_goal):
    starts = puzzle.start_states() if start is None else puzzle.states(start)
    if len(starts) == 0:
        raise InvalidPuzzleInput("no start state given")
    components = jit.call(puzzle.kernels.components, starts, puzzle.tables)
    if len(set(components.tolist())) > 1:
        raise InvalidPuzzleInput(f"{puzzle.name}: the start states lie in different components"
                                 " (they can never reach one another); search them separately")
    if not need_goal:
        return starts, None
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    goal_components = jit.call(puzzle.kernels.components, goals, puzzle.tables)
    return starts, goals[goal_components == components[0]]


def bfs(puzzle, start=None, goal=None, *, max_depth=None, keep_layers=None, backward=False,
        visited="auto", threads=None, on_layer=None, path=True, mode="auto", max_memory=None, checkpoint=None,
        resume=None, keep_farthest=None, progress=False, _layer_sink=None) -> SearchResult:
    """Breadth-first search from ``start`` (one state or many; default: the puzzle's start).

    With ``goal`` (a state or a set), stops at the first layer that reaches it and returns a
    shortest path; without, enumerates every state reachable within ``max_depth`` moves (all of
    them by default). ``backward=True`` searches over predecessors (distances *to* the starts).

    Enumeration options (``vecsearch.engine.enumeration``): ``mode`` ``"layers"`` (stored
    layers, a bitset or hash set), ``"twobit"`` (2 bits per rank, distance mod 3; needs rank and
    unrank) or ``"auto"`` (what the memory planner prefers under ``max_memory``: bytes, or text
    like ``"2G"``; default most of the available memory); ``checkpoint=DIR`` saves after every
    layer, ``resume=DIR`` continues such a search; the two-bit mode keeps ``keep_farthest``
    states of the last layer in ``result.layers``. Ctrl-C raises ``SearchInterrupted``.
    ``on_layer(record)`` is called with each ``LayerRecord`` as it is made; ``progress=True``
    shows a tqdm progress bar.
    """
    puzzle = _resolve(puzzle)
    if goal is not None:
        if backward:
            raise ValueError("backward search towards a goal: swap start and goal instead")
        if mode == "twobit" or checkpoint is not None or resume is not None:
            raise ValueError("a search towards a goal runs in layers, without checkpoints")
        return bidirectional(puzzle, start, goal, max_depth=max_depth, max_backward=0, visited=visited,
                             threads=threads, on_layer=on_layer, strategy="forward", path=path, progress=progress)
    from vecsearch.engine.enumeration import KEEP_FARTHEST, enumerate_space

    with layer_progress(progress, on_layer, f"bfs {puzzle.name}") as on_layer:
        return enumerate_space(
            puzzle, start, max_depth=max_depth, keep_layers=keep_layers, backward=backward, visited=visited,
            threads=threads, on_layer=on_layer, mode=mode, max_memory=max_memory, checkpoint=checkpoint,
            resume=resume, keep_farthest=KEEP_FARTHEST if keep_farthest is None else keep_farthest,
            layer_sink=_layer_sink,
        )


def bidirectional(puzzle, start=None, goal=None, *, max_depth=None, max_forward=None, max_backward=None,
                  strategy="smaller", visited="auto", threads=None, on_layer=None, path=True,
                  progress=False) -> SearchResult:
    """Shortest path from ``start`` to ``goal`` (a state or a set; default: the puzzle's goal).

    Grows a forward side from the starts and a backward side from the goals until a new layer
    meets the other side. ``max_forward`` / ``max_backward`` cap each side's depth and
    ``max_depth`` their sum (the longest path looked for). ``strategy`` picks the side to grow:
    ``"smaller"`` (default) the smaller frontier, ``"alternate"`` each in turn, ``"forward"``
    only forward (a plain BFS towards the goal set). ``path=False`` finds the distance only
    (``SearchResult.length``), skipping the rebuild of the path. ``on_layer`` and ``progress``
    as in ``bfs``.
    """
    puzzle = _resolve(puzzle)
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if strategy == "forward":
        max_backward = 0
    if not puzzle.searchable_backward and max_backward != 0:
        if max_backward is not None:
            raise VecsearchError(f"{puzzle.name} is directed and has no predecessor function:"
                                 " it cannot search backwards")
        max_backward = 0
    starts, goals = _prepare(puzzle, start, goal, need_goal=True)
    profile = Profile(visited=choose_visited(puzzle, visited, sides=2))
    compiled = jit.compile_seconds()
    if len(goals) == 0:  # every goal is in another component: unreachable, no search needed
        return SearchResult(puzzle, profile, None, True, [])
    with _threads(threads), layer_progress(progress, on_layer, f"bidirectional {puzzle.name}") as on_layer:
        forward = _Side(puzzle, "forward", False, profile.visited, starts, True, max_forward, profile, on_layer, None)
        back = _Side(puzzle, "backward", True, profile.visited, goals, True, max_backward, profile, on_layer, None)
        meet = back.visited.first_member(forward.frontier)
        complete = meet is not None
        turn = 0
        while meet is None:
            side, room = _next_side(forward, back, max_depth, strategy, turn)
            if side is None:
                break
            turn += 1
            other = back if side is forward else forward
            if side.step(other.visited, room):
                meet = other.visited.first_member(side.frontier)
                complete = True
            elif side.exhausted:
                complete = True
                break
        solution = None
        length = None if meet is None else forward.depth + back.depth
        if meet is not None and path:
            halves = (paths.forward_half(puzzle, forward.layers, meet), paths.backward_half(puzzle, back.layers, meet))
            states, moves = paths.join(puzzle, *halves)
            solution = Solution(puzzle, states, moves, profile)
    profile.compile_seconds = jit.compile_seconds() - compiled
    forward.visited.release(forward.layers)
    back.visited.release(back.layers)
    return SearchResult(puzzle, profile, solution, complete, forward.layers, length=length)


def _next_side(forward, back, max_depth, strategy, turn):
    """The side to grow and how many layers it may grow before the choice is made again (all
    it is allowed when the other side cannot grow any more)."""
    def room(side, other):
        if side.exhausted:
            return 0
        left = UNLIMITED if side.limit is None else side.limit - side.depth
        return min(left, UNLIMITED if max_depth is None else max_depth - side.depth - other.depth)

    rooms = {forward: room(forward, back), back: room(back, forward)}
    options = [s for s in (forward, back) if rooms[s] > 0]
    if len(options) < 2:
        return (options[0], rooms[options[0]]) if options else (None, 0)
    if strategy == "alternate":
        return options[turn % 2], 1
    return (forward if len(forward.frontier) <= len(back.frontier) else back), 1


def _resolve(puzzle):
    if isinstance(puzzle, str):
        from vecsearch.registry import get_puzzle

        return get_puzzle(puzzle)
    return puzzle
