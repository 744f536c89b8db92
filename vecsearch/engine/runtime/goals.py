"""Goals given as a condition (``Puzzle(goal=is_goal)``): tested on layers, or turned into states.

A forward search stops at the first layer holding a state the condition accepts (``least_goal``).
Methods that need the goal states themselves (a backward side, distance tables, pairs, A* and
IDA*) get them from ``goal_layer``: every rank of the starts' component whose state the
condition accepts, found by scanning the rank space (unrank each rank, test its state) in blocks
on all threads, and kept for the process (``caches.GOAL_LAYERS``). Every rank the condition
accepts is then a goal, so the condition must accept only states of the puzzle (a Rush Hour
condition on the red car alone also accepts cars that overlap: search such puzzles forwards).
A puzzle without ``unrank``, or with more than ``SCAN_RANKS`` ranks, is refused with the reason.
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.runtime import blocks
from vecsearch.engine.runtime.caches import GOAL_LAYERS
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.visited import least_state
from vecsearch.errors import VecsearchError

SCAN_RANKS = 1 << 32  # ranks a goal condition may be scanned over (about a minute)
SCAN_BLOCK = 1 << 20


def least_goal(puzzle, layer) -> np.ndarray | None:
    """The least state of ``layer`` (a ``Layer``) the goal condition accepts, as a 1-state
    layer, or None."""
    kernel = layer_kernels(puzzle).least_goal
    return least_state(chunk[i:i + 1] for chunk in layer.chunks
                       for i in [kernel(chunk, kernel_tables(puzzle))] if i >= 0)


def default_goals(puzzle, starts: np.ndarray | None = None) -> np.ndarray:
    """The puzzle's goal layer: its goal states, or for a goal condition the states it accepts
    in the component of ``starts`` (else of the puzzle's start, else component 0)."""
    if not puzzle.has_goal_condition:
        return puzzle.goal_states()
    if starts is None and puzzle.has_default_start:
        starts = puzzle.start_states()
    component = 0 if starts is None else int(layer_kernels(puzzle).components(starts[:1],
                                                                              kernel_tables(puzzle))[0])
    return goal_layer(puzzle, component)


def goal_layer(puzzle, component: int = 0) -> np.ndarray:
    """The states of ``component`` the goal condition accepts (a layer), scanned once."""
    if not puzzle.has_unrank:
        raise VecsearchError(f"{puzzle.name}'s goal is a condition, and without unrank its states cannot be listed"
                             " for a search from the goal: search forwards (method='bfs'), or give goal states")
    if puzzle.rank_size > SCAN_RANKS:
        raise VecsearchError(f"{puzzle.name}'s goal is a condition over {puzzle.rank_size:,} ranks, more than the"
                             f" {SCAN_RANKS:,} a scan may cover to list its states: search forwards"
                             " (method='bfs'), or give goal states")
    return GOAL_LAYERS.get((puzzle, component), lambda: _scan(puzzle, component))


def _scan(puzzle, component: int) -> np.ndarray:
    kernels = layer_kernels(puzzle)
    tables = kernel_tables(puzzle)
    kernels.goal_ranks_range(0, 0, component, tables, np.empty(0, np.int64))

    def block(lo, hi):
        found = np.empty(hi - lo, np.int64)
        return found[:kernels.goal_ranks_range(lo, hi, component, tables, found)].copy()

    ranks = np.concatenate(blocks.map_blocks(block, puzzle.rank_size, SCAN_BLOCK))
    return kernels.unrank_many(ranks, component, tables)
