"""Distance-table kernels: record a layer's distances, find the nearest state, walk down.

A template like ``layer_template`` (its roles are bound per family by ``vecsearch.engine.runtime.codegen``,
in the same generated module). A distance table is an array indexed by rank: the distance to
the goal, or ``unknown`` where not reached (``vecsearch.engine.tables.distance``); or a two-bit table of
distances mod 3 (``rank_space_template``'s cells), walked down by ``descend_mod3_range``.
"""

import numpy as np

from vecsearch.engine.runtime.layer_template import next_ranked
from vecsearch.engine.twobit.rank_space_template import cell_value
from vecsearch.kernels.roles import (
    MAX_MOVES,
    WIDTH,
    component_state,
    copy_at,
    expand_state,
    kernel,
    less_at,
    loop,
    new_states,
    rank_state,
    state_function,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("record_distances", "nearest_in_table", "descend_range", "descend_mod3_range")


@kernel
def record_distances(layer, tables, distances, depth):
    """``distances[rank(s)] = depth`` for every state of the layer."""
    record_loop(layer, tables, distances, depth)


@loop
def record_loop(layer, tables, distances, depth):
    """``record_distances``'s loop, without reference counting (a labels-form rank read the
    puzzle's tables through counted references: the 3x3x3's 6-edge window spent 27.6 s recording
    its 42.6 M distances, more than half its enumeration)."""
    for i in range(layer.shape[0]):
        distances[rank_state(layer[i], tables)] = depth


@kernel
def nearest_in_table(layer, tables, distances, unknown):
    """Index of the state of ``layer`` with the smallest known distance (the least such state,
    ``less_at``), and that distance; ``(-1, unknown)`` when the table knows none of them."""
    return nearest_loop(layer, tables, distances, unknown)


@loop
def nearest_loop(layer, tables, distances, unknown):
    best = -1
    best_distance = unknown
    for i in range(layer.shape[0]):
        d = distances[rank_state(layer[i], tables)]
        if d < best_distance or (d == best_distance and best >= 0 and less_at(layer, i, layer, best)):
            best = i
            best_distance = d
    return best, best_distance


@kernel
def descend_range(distances, unknown, starts, lo, hi, tables, component, moves_out, lengths):
    """Shortest paths to the goal of ``starts[lo:hi]`` by walking down a distance table.

    ``distances[rank]`` is the distance to the goal (``unknown`` where not reached) for states
    of ``component``. For each start, ``lengths[i]`` is its distance (-1: other component or not
    reached) and ``moves_out[i, :length]`` the moves of one shortest path (at each step, the
    first move in move order that goes one step closer).
    """
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    for i in range(lo, hi):
        lengths[i] = -1
        if component_state(starts[i], tables) != component:
            continue
        d = distances[rank_state(starts[i], tables)]
        if d == unknown or d > moves_out.shape[1]:
            continue
        lengths[i] = d
        state = starts[i:i + 1].copy()
        for step in range(d):
            c = expand_state(state[0], tables, kids, moves)
            for j in range(c):
                if distances[rank_state(kids[j], tables)] == d - 1 - step:
                    moves_out[i, step] = moves[j]
                    copy_at(state, 0, kids, j)
                    break


@state_function
def sorted_contains(values, x):
    lo = 0
    hi = values.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if values[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo < values.shape[0] and values[lo] == x


@kernel
def descend_mod3_range(table, goal_ranks, starts, lo, hi, tables, component, moves_out, lengths):
    """Shortest paths to the goals of ``starts[lo:hi]`` by walking down a distance-mod-3 table.

    From a state whose cell is ``v``, a child whose cell is ``(v + 2) % 3`` is one move closer
    (children of a state at distance d lie at d - 1, d or d + 1). Walks until the state is a
    goal (``goal_ranks``, sorted); ``lengths[i]`` is the distance (-1: other component, not
    reached, or deeper than ``moves_out`` is wide) and ``moves_out[i, :length]`` the moves.
    """
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    ranks = np.empty(MAX_MOVES, np.int64)
    for i in range(lo, hi):
        lengths[i] = -1
        if component_state(starts[i], tables) != component:
            continue
        state = starts[i:i + 1].copy()
        r = rank_state(state[0], tables)
        v = cell_value(table, r)
        steps = 0
        while v != 3 and not sorted_contains(goal_ranks, r) and steps < moves_out.shape[1]:
            c = next_ranked(state[0], tables, False, kids, moves, ranks)  # ranked children, or the fallback
            want = (v + 2) % 3
            v = 3
            for j in range(c):
                if cell_value(table, ranks[j]) == want:
                    moves_out[i, steps] = moves[j]
                    copy_at(state, 0, kids, j)
                    r = ranks[j]
                    v = want
                    steps += 1
                    break
        if v != 3 and sorted_contains(goal_ranks, r):
            lengths[i] = steps
