"""A*: best-first search under an admissible heuristic, in numba.

Reached states live in an open-addressing table (state, parent state, g, move, closed flag);
open states in a binary heap ordered by f, then deepest g first. A state reached again more
cheaply is updated and pushed again (so an inconsistent heuristic still gives optimal paths).
The kernel runs one f-value at a time, so the profile records the nodes expanded per f-value
and their seconds; the table and heap grow between calls. Memory grows with the states reached
(about ``16 * width + 20`` bytes each at half load): for deep instances prefer IDA*.
"""

from __future__ import annotations

import time

import numpy as np

from vecsearch.engine.heuristic.evaluation import inverse_table, resolve_heuristic, search_kernels
from vecsearch.engine.heuristic.idastar import solution_along
from vecsearch.engine.results.profile import BoundRecord, Profile
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.endpoints import as_puzzle, endpoints
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.layers import empty_states
from vecsearch.errors import InvalidPuzzleInput, MemoryLimitError

FOUND, EXHAUSTED, NEXT_F, GROW = 1, 0, 2, 3
MAX_F = (1 << 43) - 1  # f is packed above 20 bits of g in a 64-bit priority


class _Tables:
    """The table of reached states and the heap of open ones, grown by doubling."""

    def __init__(self, width: int, capacity: int):
        self.width = width
        self.keys = empty_states(width, capacity)
        self.keys.fill(-1)
        self.parents = empty_states(width, capacity)
        self.g = np.zeros(capacity, np.int64)
        self.moves = np.zeros(capacity, np.int64)
        self.closed = np.zeros(capacity, np.uint8)
        self.prio = np.zeros(capacity, np.int64)
        self.heap = empty_states(width, capacity)
        self.counters = np.zeros(3, np.int64)  # heap size, table entries, goal slot

    @property
    def arrays(self):
        return self.keys, self.parents, self.g, self.moves, self.closed, self.prio, self.heap, self.counters

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.arrays)

    def grow(self, kernels, max_bytes) -> None:
        if 2 * self.nbytes > max_bytes:
            raise MemoryLimitError(f"A* needs more than {max_bytes / 2**20:,.0f} MiB for its tables"
                                   " (raise max_bytes, or use IDA*, which needs almost none)")
        bigger = _Tables(self.width, 2 * len(self.keys))
        kernels.astar_rehash(*self.arrays[:5], *bigger.arrays[:5])
        size = self.counters[0]
        bigger.prio[:size] = self.prio[:size]
        bigger.heap[:size] = self.heap[:size]
        bigger.counters[:] = self.counters
        self.__dict__.update(bigger.__dict__)


def astar(puzzle, start=None, goal=None, *, heuristic=None, max_depth=None, max_bytes=8 << 30,
          on_bound=None) -> SearchResult:
    """An optimal path from ``start`` to ``goal`` by A*.

    ``heuristic`` as for ``idastar``; ``max_depth`` caps the path length (no node with a larger
    f is expanded); ``max_bytes`` caps the memory of the tables (``MemoryLimitError`` beyond).
    """
    puzzle = as_puzzle(puzzle)
    starts, goals = endpoints(puzzle, start, goal, need_goal=True)
    if len(starts) != 1:
        raise InvalidPuzzleInput("A* searches from one start state; use solve_many for many")
    profile = Profile(visited="hash")
    watch = jit.Stopwatch()
    if len(goals) == 0:
        return SearchResult(puzzle, profile, None, True, [])
    chosen = resolve_heuristic(puzzle, goals, heuristic)
    kernels = search_kernels(puzzle, chosen)
    fixed = (kernel_tables(puzzle), chosen.tables, inverse_table(puzzle), goals)
    cap = MAX_F if max_depth is None else max_depth
    state = _Tables(puzzle.width, 1 << 12)
    kernels.astar_insert(*state.arrays, starts, chosen.tables)
    expanded = np.zeros(64, np.int64)
    generated = np.zeros(64, np.int64)
    kernels.astar_run(*fixed, *state.arrays, -1, expanded, generated)  # compile: f <= -1 stops at once
    status, solution = NEXT_F, None
    while status in (NEXT_F, GROW) and state.counters[0] > 0:
        f = int(state.prio[0] >> 20)
        if f > cap:
            break
        if f >= len(expanded):
            expanded, generated = (np.concatenate([a, np.zeros(f + 64, np.int64)]) for a in (expanded, generated))
        before = (int(expanded[f]), int(generated[f]))
        began = time.perf_counter()
        status = kernels.astar_run(*fixed, *state.arrays, f, expanded, generated)
        seconds = time.perf_counter() - began
        if status == GROW:
            state.grow(kernels, max_bytes)
        record = BoundRecord("astar", f, int(expanded[f]) - before[0], int(generated[f]) - before[1], seconds,
                             state.nbytes + chosen.nbytes)
        if profile.records and profile.records[-1].bound == f:  # one record per f, summed over growth pauses
            last = profile.records.pop()
            record = BoundRecord("astar", f, last.expanded + record.expanded, last.generated + record.generated,
                                 last.seconds + record.seconds, record.bytes)
        profile.add(record)
        if on_bound is not None and status != GROW:
            on_bound(record)
    if status == FOUND:
        moves = np.empty(state.counters[1], np.int64)
        length = kernels.astar_path(state.keys, state.parents, state.moves, state.counters[2], moves)
        solution = solution_along(puzzle, starts, moves[:length].tolist(), profile)
    profile.compile_seconds = watch.compile_seconds
    return SearchResult(puzzle, profile, solution, status in (FOUND, EXHAUSTED), [], "astar")
