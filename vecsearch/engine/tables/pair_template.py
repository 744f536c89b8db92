"""Many independent bidirectional searches in one kernel call.

An ordinary module; its roles are declared in ``vecsearch.kernels.roles`` and bound per family by
``vecsearch.engine.runtime.codegen``, in the same generated module as ``layer_template``.

Each worker owns two depth tables (``depth_f``/``depth_b`` rows, one byte per rank, ``UNSEEN``
where not reached) and answers the pairs ``w, w + workers, ...`` one after another: a
bidirectional breadth-first search that grows the smaller frontier, stops at the first state
both sides hold, and walks both depth tables down to write the moves. Before the next pair the
worker resets the entries of the ranks it stored beside the states, so the tables are never
cleared in full and a pair costs only the states it touches.

Seeding a side, growing one and writing the path are kernels the worker calls, not inlined into it:
each side's calls share one compiled body (the pocket cube's worker compiled in 10.3 s instead of
12.7 s), at no cost in speed (a call per layer).
"""

import numpy as np

from vecsearch.engine.runtime.layer_template import next_ranked
from vecsearch.kernels.roles import (
    MAX_MOVES,
    WIDTH,
    component_state,
    copy_at,
    kernel,
    new_states,
    rank_state,
    state_function,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("pair_searches_worker",)

UNSEEN = 255
MAX_SIDE_DEPTH = 254  # deeper sides answer TOO_DEEP; the caller searches those pairs otherwise
FOUND_NONE, UNREACHABLE, TOO_DEEP = -2, -1, -3  # statuses besides a path length
FORWARD, BACKWARD = np.bool_(False), np.bool_(True)  # grow_side's direction: numpy booleans, one signature for both


@state_function
def grow_states(buffer, needed):
    """``buffer``, or a copy at least twice as long when it holds fewer than ``needed`` rows."""
    if needed <= buffer.shape[0]:
        return buffer
    bigger = new_states(max(needed, 2 * buffer.shape[0]), WIDTH)
    for i in range(buffer.shape[0]):  # a loop: parallel=True mis-checks the sizes of a slice copy
        copy_at(bigger, i, buffer, i)
    return bigger


@state_function
def grow_ranks(buffer, needed):
    """``grow_states`` for a 1-D int64 array."""
    if needed <= buffer.shape[0]:
        return buffer
    bigger = np.empty(max(needed, 2 * buffer.shape[0]), np.int64)
    for i in range(buffer.shape[0]):
        bigger[i] = buffer[i]
    return bigger


@kernel
def seed_side(buffer, stored, states, lo, hi, tables, component, depth):
    """Store the states ``states[lo:hi]`` of ``component`` at depth 0, their ranks in ``stored``;
    returns ``(buffer, stored, count)``."""
    end = 0
    for i in range(lo, hi):
        if component_state(states[i], tables) != component:
            continue
        r = rank_state(states[i], tables)
        if depth[r] == UNSEEN:
            depth[r] = 0
            buffer = grow_states(buffer, end + 1)
            stored = grow_ranks(stored, end + 1)
            copy_at(buffer, end, states, i)
            stored[end] = r
            end += 1
    return buffer, stored, end


@kernel
def grow_side(buffer, stored, lo, hi, tables, backward, depth, other, new_depth, last, kids, moves, ranks):
    """Store the unseen children (predecessors when ``backward``) of ``buffer[lo:hi]`` after it
    at ``new_depth``, their ranks in ``stored``. Returns ``(buffer, stored, end, meet)``:
    ``meet`` is the index of the first stored state that ``other`` holds (the search stops
    there), or -1. The ``last`` layer the budget allows is only looked up in ``other``: of its
    states just the meeting one is stored."""
    end = hi
    for i in range(lo, hi):
        c = next_ranked(buffer[i], tables, backward, kids, moves, ranks)
        buffer = grow_states(buffer, end + c)
        stored = grow_ranks(stored, end + c)
        for j in range(c):
            r = ranks[j]
            if depth[r] == UNSEEN and (not last or other[r] != UNSEEN):
                depth[r] = new_depth
                copy_at(buffer, end, kids, j)
                stored[end] = r
                end += 1
                if other[r] != UNSEEN:
                    return buffer, stored, end, end - 1
    return buffer, stored, end, -1


@kernel
def ranked_neighbours(state, tables, backward, kids, moves, ranks):
    """``next_ranked``, compiled once for ``write_path``'s three calls rather than a puzzle's rules
    inlined at each (the pocket cube's worker compiled in 4.4 s instead of 5.8 s); a path is a
    call per step."""
    return next_ranked(state, tables, backward, kids, moves, ranks)


@kernel
def write_path(meet, meet_rank, tables, depth_f, depth_b, a, b, moves_out, kids, moves, ranks):
    """Moves of a path through ``meet`` (of rank ``meet_rank``; ``a`` moves from a start, ``b``
    to a goal): walk the forward depths down through predecessors, each step's move the one
    whose child, from the predecessor, has the rank stepped from; then the backward depths down
    through children."""
    state = meet.copy()
    rank = meet_rank
    for k in range(a, 0, -1):  # the forward half, last move first
        c = ranked_neighbours(state[0], tables, BACKWARD, kids, moves, ranks)
        for j in range(c):
            if depth_f[ranks[j]] == k - 1:
                parent = kids[j:j + 1].copy()
                parent_rank = ranks[j]
                c2 = ranked_neighbours(parent[0], tables, FORWARD, kids, moves, ranks)
                for j2 in range(c2):
                    if ranks[j2] == rank:
                        moves_out[k - 1] = moves[j2]
                        break
                state = parent
                rank = parent_rank
                break
    state = meet.copy()
    for k in range(b, 0, -1):
        c = ranked_neighbours(state[0], tables, FORWARD, kids, moves, ranks)
        for j in range(c):
            if depth_b[ranks[j]] == k - 1:
                moves_out[a + b - k] = moves[j]
                state = kids[j:j + 1].copy()
                break


@state_function
def forget(stored, end, depth):
    """Reset the depths of the ranks ``stored[:end]``."""
    for i in range(end):
        depth[stored[i]] = UNSEEN


@kernel
def pair_searches_worker(w, workers, starts, start_offsets, goals, goal_offsets, tables, max_forward, max_backward,
                         max_depth, depth_f, depth_b, lengths, moves_out):
    """The pairs ``w, w + workers, ...`` of ``pair_searches``, with worker ``w``'s depth tables."""
    n = start_offsets.shape[0] - 1
    kids = new_states(MAX_MOVES, WIDTH)
    moves = np.empty(MAX_MOVES, np.int64)
    ranks = np.empty(MAX_MOVES, np.int64)
    forward = new_states(1024, WIDTH)
    backward = new_states(1024, WIDTH)
    stored_f = np.empty(1024, np.int64)
    stored_b = np.empty(1024, np.int64)
    offsets_f = np.zeros(MAX_SIDE_DEPTH + 2, np.int64)
    offsets_b = np.zeros(MAX_SIDE_DEPTH + 2, np.int64)
    dist_f = depth_f[w]
    dist_b = depth_b[w]
    for i in range(w, n, workers):
        component = component_state(starts[start_offsets[i]], tables)
        forward, stored_f, seeded = seed_side(forward, stored_f, starts, start_offsets[i], start_offsets[i + 1],
                                              tables, component, dist_f)
        offsets_f[1] = seeded
        backward, stored_b, seeded = seed_side(backward, stored_b, goals, goal_offsets[i], goal_offsets[i + 1],
                                               tables, component, dist_b)
        offsets_b[1] = seeded
        a = 0
        b = 0
        meet = -1  # index of the first shared state, in `forward` or else in `backward`
        meet_forward = False
        status = UNREACHABLE if offsets_b[1] == 0 else FOUND_NONE
        for j in range(offsets_b[1]):
            if dist_f[stored_b[j]] == 0:
                meet = j
                break
        while meet < 0 and offsets_b[1] > 0:
            size_f = offsets_f[a + 1] - offsets_f[a]
            size_b = offsets_b[b + 1] - offsets_b[b]
            if size_f == 0 or size_b == 0:
                status = UNREACHABLE  # a side holds every state it can reach, and none is shared
                break
            room = a + b < max_depth
            grow_f = room and a < max_forward and a < MAX_SIDE_DEPTH
            grow_b = room and b < max_backward and b < MAX_SIDE_DEPTH
            if not grow_f and not grow_b:
                status = TOO_DEEP if room and (a == MAX_SIDE_DEPTH or b == MAX_SIDE_DEPTH) else FOUND_NONE
                break
            last = a + b + 1 == max_depth
            if grow_f and (not grow_b or size_f <= size_b):
                forward, stored_f, end, meet = grow_side(forward, stored_f, offsets_f[a], offsets_f[a + 1], tables,
                                                         FORWARD, dist_f, dist_b, a + 1, last, kids, moves, ranks)
                meet_forward = True
                a += 1
                offsets_f[a + 1] = end
            else:
                backward, stored_b, end, meet = grow_side(backward, stored_b, offsets_b[b], offsets_b[b + 1],
                                                          tables, BACKWARD, dist_b, dist_f, b + 1, last, kids, moves,
                                                          ranks)
                meet_forward = False
                b += 1
                offsets_b[b + 1] = end
            if last and meet < 0:
                break  # status stays FOUND_NONE: the budget is spent
        if meet >= 0:
            found = forward[meet:meet + 1].copy() if meet_forward else backward[meet:meet + 1].copy()
            r = stored_f[meet] if meet_forward else stored_b[meet]
            to_start = np.int64(dist_f[r])
            to_goal = np.int64(dist_b[r])
            write_path(found, r, tables, dist_f, dist_b, to_start, to_goal, moves_out[i], kids, moves, ranks)
            status = to_start + to_goal
        lengths[i] = status
        forget(stored_f, offsets_f[a + 1], dist_f)
        forget(stored_b, offsets_b[b + 1], dist_b)
