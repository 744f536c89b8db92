"""Heuristic-search kernels (IDA*, A*).

An ordinary module; ``vecsearch.engine.heuristic.evaluation`` binds its roles (``expand_state``,
``heuristic_state`` and, optionally, ``heuristic_update_state`` and ``heuristic_children_state``,
declared in ``vecsearch.kernels.roles``) per (puzzle family, heuristic) through
``vecsearch.engine.runtime.codegen``. IDA* evaluates a node's children at once by
``heuristic_children_state`` (a heuristic of table lookups stages them, its reads prefetched, and
stops at a child once it exceeds the bound), or each by ``heuristic_update_state`` from its
parent's ``info`` (a heuristic without one is evaluated whole: ``bound_from_scratch``). A child
beyond the bound may get any admissible bound beyond it: the next bound is then at most the least
f above the bound, never more, which keeps IDA* optimal.

``sequences[s, m]`` is the state of the move-sequence automaton after move ``m`` from state
``s`` (state 0: no move yet), or -1 when IDA* does not play ``m`` there (it undoes the previous
move, or repeats or reorders moves that commute: ``engine.heuristic.sequences``). A* leaves out the child
undoing the previous move (``inverse[m]``: the move undoing ``m``, -1: none). ``goals`` is the
goal layer; a state is tested against it only when its heuristic is 0 (an admissible heuristic
is 0 on every goal).
"""

import numpy as np

from vecsearch.kernels.intrinsics import atomic_add
from vecsearch.kernels.roles import (
    MAX_MOVES,
    WIDTH,
    copy_at,
    expand_state,
    first_word,
    heuristic_children_state,
    heuristic_state,
    heuristic_update_state,
    kernel,
    loop,
    new_states,
    state_function,
    state_hash,
    states_equal,
)

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("ida_subtrees_worker", "ida_many_worker", "heuristic_values", "astar_insert", "astar_run", "astar_rehash",
           "astar_path")

NO_BOUND = np.int64(1) << 40  # "no node exceeded the bound": the tree below is exhausted
START = np.int64(0)  # the sequence automaton's state before any move (an int64: ``bounded_dfs``'s one signature)
G_BITS = 20  # A* priority = f << G_BITS | (G_MASK - g): smallest f first, then deepest g
G_MASK = (np.int64(1) << G_BITS) - 1


@state_function
def is_goal(state, goals):
    for i in range(goals.shape[0]):
        if states_equal(goals[i], state):
            return True
    return False


@state_function
def bound_from_scratch(parent, info, child, htables):
    return heuristic_state(child, htables), np.int64(0)


if heuristic_update_state is None:
    heuristic_update_state = bound_from_scratch


@state_function
def children_one_by_one(parent, info, kids, first, count, htables, limit, bounds, infos):
    """Each child's bound from its parent's ``info`` (``heuristic_update_state``), all exact."""
    for j in range(first, first + count):
        bounds[j], infos[j] = heuristic_update_state(parent, info, kids[j], htables)


if heuristic_children_state is None:
    heuristic_children_state = children_one_by_one


@state_function
def expand_level(state, info, sequence, level, limit, tables, htables, sequences, kids, kid_moves, kid_h, kid_info,
                 count, cursor):
    """Children of ``state`` (the moves ``sequences`` allows after the automaton's state
    ``sequence``) and their heuristic values (``heuristic_children_state``, from ``info``, what
    the evaluation of ``state`` left; exact up to ``limit``) into the ``level``-th block of the
    stack, least heuristic first (in the last iteration the goal is met sooner); returns how many."""
    base = level * MAX_MOVES
    spare = kids.shape[0] - 1  # the stack's last slot holds the child being placed
    c = expand_state(state, tables, kids[base:], kid_moves[base:])
    allowed = sequences[sequence]
    k = 0
    for j in range(c):
        m = kid_moves[base + j]
        if allowed[m] >= 0:
            if k != j:
                copy_at(kids, base + k, kids, base + j)
                kid_moves[base + k] = m
            k += 1
    heuristic_children_state(state, info, kids, base, k, htables, limit, kid_h, kid_info)
    for j in range(base + 1, base + k):  # insertion, stable: a few children
        h = kid_h[j]
        if kid_h[j - 1] <= h:
            continue
        copy_at(kids, spare, kids, j)
        m = kid_moves[j]
        child_info = kid_info[j]
        at = j
        while at > base and kid_h[at - 1] > h:
            copy_at(kids, at, kids, at - 1)
            kid_moves[at] = kid_moves[at - 1]
            kid_h[at] = kid_h[at - 1]
            kid_info[at] = kid_info[at - 1]
            at -= 1
        copy_at(kids, at, kids, spare)
        kid_moves[at] = m
        kid_h[at] = h
        kid_info[at] = child_info
    count[level] = k
    cursor[level] = 0
    return k


@state_function
def dfs_stack(max_bound):
    """The stack of ``bounded_dfs`` for bounds up to ``max_bound``."""
    levels = max_bound + 1
    kids = new_states(levels * MAX_MOVES + 1, WIDTH)
    kid_moves = np.empty(levels * MAX_MOVES, np.int64)
    kid_h = np.empty(levels * MAX_MOVES, np.int64)
    kid_info = np.empty(levels * MAX_MOVES, np.int64)
    count = np.zeros(levels, np.int64)
    cursor = np.zeros(levels, np.int64)
    at = np.empty(levels + 1, np.int64)  # the automaton's state of the node expanded at each level
    return kids, kid_moves, kid_h, kid_info, count, cursor, at


@loop
def bounded_dfs(root, root_h, sequence, bound, tables, htables, sequences, goals, path, stop, kids, kid_moves, kid_h,
                kid_info, count, cursor, at):
    """One IDA* iteration: depth-first from ``root`` (in the sequence automaton's state
    ``sequence``) through nodes with ``g + h <= bound``, on a ``dfs_stack`` at least that deep.
    A loop that counts no references (``vecsearch._numba.loop``): it allocates nothing.

    Returns ``(length, next_bound, expanded, generated)``: ``length`` >= 0 when a goal was found
    (its moves in ``path[:length]``), else -1; ``next_bound`` is the least f above the bound
    (``NO_BOUND``: nothing above it, the reachable tree is exhausted). Gives up (returning -1)
    as soon as ``stop[0]`` is set: another task found a goal.
    """
    at[0] = sequence
    if root_h > bound:
        return -1, root_h, 0, 0
    if root_h == 0 and is_goal(root, goals):
        return 0, bound, 0, 0
    next_bound = NO_BOUND
    expanded = 1
    generated = 0
    _, node_info = heuristic_update_state(root, np.int64(-1), root, htables)
    node = root  # the node whose children fill level depth next: one call site, so the rules compile once
    descended = True
    depth = 0
    while depth >= 0:
        if descended:
            generated += expand_level(node, node_info, at[depth], depth, bound - depth - 1, tables, htables, sequences,
                                      kids, kid_moves, kid_h, kid_info, count, cursor)
            descended = False
        if stop[0]:
            break
        if cursor[depth] == count[depth]:
            depth -= 1
            continue
        j = depth * MAX_MOVES + cursor[depth]
        cursor[depth] += 1
        h = kid_h[j]
        f = depth + 1 + h
        if f > bound:  # and so are the level's children left, sorted by their bounds
            next_bound = min(next_bound, f)
            cursor[depth] = count[depth]
            continue
        path[depth] = kid_moves[j]
        if h == 0 and is_goal(kids[j], goals):
            return depth + 1, bound, expanded, generated
        at[depth + 1] = sequences[at[depth], kid_moves[j]]
        depth += 1
        expanded += 1
        node = kids[j]
        node_info = kid_info[j]
        descended = True
    return -1, next_bound, expanded, generated


@kernel
def ida_subtrees_worker(claims, roots, roots_h, at, depths, tables, htables, sequences, goals, bound, stop, paths,
                        outputs):
    """One IDA* iteration within ``bound`` below each of ``roots`` (nodes of one instance at
    ``depths``, in the sequence automaton's states ``at``; a single root: the whole iteration):
    root ``i``'s path in ``paths[i]``, and in ``outputs[:, i]`` its ``bounded_dfs`` results (the
    next bound counted from the instance's start). Every thread calling it claims roots one at a
    time through ``claims[0]``; the first to reach a goal sets ``stop``, and the others give up
    and claim no more (the outputs of a root never claimed are left as they were)."""
    kids, kid_moves, kid_h, kid_info, count, cursor, levels_at = dfs_stack(bound)
    while not stop[0]:
        i = atomic_add(claims, 0, 1)
        if i >= roots.shape[0]:
            break
        length, next_bound, e, g = bounded_dfs(roots[i], roots_h[i], at[i], bound - depths[i], tables, htables,
                                               sequences, goals, paths[i], stop, kids, kid_moves, kid_h, kid_info,
                                               count, cursor, levels_at)
        outputs[0, i] = length
        outputs[1, i] = next_bound + depths[i] if next_bound != NO_BOUND else NO_BOUND
        outputs[2, i] = e
        outputs[3, i] = g
        if length >= 0:
            stop[0] = 1


@kernel
def ida_many_worker(claims, starts, skip, tables, htables, sequences, goals, max_bound, defer_from, moves_out, lengths,
                    resume, expanded, generated):
    """Complete IDA* for every start not marked in ``skip``; every thread calling it claims
    starts one at a time through ``claims[0]``.

    ``lengths[i]``: the optimal length, -1 if none exists (tree exhausted), -2 if none within
    ``max_bound``, -3 if an iteration expanded ``defer_from`` nodes without reaching the goal: the
    search stops there, to be finished by the caller (its iterations split across threads) from
    the bound ``resume[i]``. ``expanded[i, b]`` / ``generated[i, b]``: nodes of the iteration with
    bound ``b``.
    """
    path = np.empty(max_bound + 1, np.int64)
    never = np.zeros(1, np.int64)
    kids, kid_moves, kid_h, kid_info, count, cursor, levels_at = dfs_stack(max_bound)
    while True:
        i = atomic_add(claims, 0, 1)
        if i >= starts.shape[0]:
            break
        lengths[i] = -1
        if skip[i]:
            continue
        lengths[i] = -2
        h = heuristic_state(starts[i], htables)
        bound = h
        while bound <= max_bound:
            length, next_bound, e, g = bounded_dfs(starts[i], h, START, bound, tables, htables, sequences, goals, path,
                                                   never, kids, kid_moves, kid_h, kid_info, count, cursor, levels_at)
            expanded[i, bound] = e
            generated[i, bound] = g
            if length >= 0:
                lengths[i] = length
                for k in range(length):  # not a slice assignment (kernels/state_words: copying states)
                    moves_out[i, k] = path[k]
                break
            if next_bound == NO_BOUND:
                lengths[i] = -1
                break
            bound = next_bound
            if e >= defer_from and bound <= max_bound:
                lengths[i] = -3
                resume[i] = bound
                break


@kernel
def heuristic_values(states, htables):
    """The heuristic of every state."""
    out = np.empty(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        out[i] = heuristic_state(states[i], htables)
    return out


# --- A*: an open-addressing table of reached states and a binary heap of open ones -----------

@state_function
def table_slot(keys, state):
    """Slot of ``state`` in the table, or of the empty slot where it would go."""
    mask = keys.shape[0] - 1
    slot = state_hash(state) & mask
    while first_word(keys[slot]) != -1 and not states_equal(keys[slot], state):
        slot = (slot + 1) & mask
    return slot


@state_function
def heap_push(prio, heap, size, key, states, j):
    """Push ``states[j]`` with priority ``key`` on a heap of ``size`` entries."""
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if prio[parent] <= key:
            break
        prio[i] = prio[parent]
        copy_at(heap, i, heap, parent)
        i = parent
    prio[i] = key
    copy_at(heap, i, states, j)


@state_function
def heap_pop_root(prio, heap, size):
    """Remove the root of a heap of ``size`` entries (the caller read it first)."""
    last = size - 1
    key = prio[last]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= last:
            break
        if child + 1 < last and prio[child + 1] < prio[child]:
            child += 1
        if prio[child] >= key:
            break
        prio[i] = prio[child]
        copy_at(heap, i, heap, child)
        i = child
    prio[i] = key
    copy_at(heap, i, heap, last)


@kernel
def astar_insert(keys, parents, g, moves, closed, prio, heap, counters, state, htables):
    """Put the start ``state[0]`` in the table (g = 0) and on the heap."""
    slot = table_slot(keys, state[0])
    copy_at(keys, slot, state, 0)
    copy_at(parents, slot, state, 0)
    g[slot] = 0
    moves[slot] = -1
    closed[slot] = 0
    heap_push(prio, heap, counters[0], heuristic_state(state[0], htables) << G_BITS | G_MASK, state, 0)
    counters[0] += 1
    counters[1] += 1


@kernel
def astar_run(tables, htables, inverse, goals, keys, parents, g, moves, closed, prio, heap, counters, f_limit,
              expanded, generated):
    """Expand open states in order of f (then deepest first) while f <= ``f_limit``.

    ``counters``: heap size, table entries, goal slot. Returns 1 when a goal is popped (its slot
    in ``counters[2]``), 0 when the open list is empty, 2 when the next f exceeds ``f_limit``,
    3 when the table or the heap must grow first. ``expanded[f]`` / ``generated[f]`` count per f.
    """
    kids = new_states(MAX_MOVES, WIDTH)
    kid_moves = np.empty(MAX_MOVES, np.int64)
    while counters[0] > 0:
        key = prio[0]
        f = key >> G_BITS
        if f > f_limit:
            return 2
        if 2 * (counters[1] + MAX_MOVES) > keys.shape[0] or counters[0] + MAX_MOVES > prio.shape[0]:
            return 3
        state = heap[0:1].copy()
        heap_pop_root(prio, heap, counters[0])
        counters[0] -= 1
        depth = G_MASK - (key & G_MASK)
        slot = table_slot(keys, state[0])
        if closed[slot] or g[slot] < depth:
            continue  # a stale entry: the state was reached more cheaply since
        closed[slot] = 1
        if is_goal(state[0], goals):
            counters[2] = slot
            return 1
        expanded[f] += 1
        c = expand_state(state[0], tables, kids, kid_moves)
        undo = inverse[moves[slot]] if moves[slot] >= 0 else -1
        for j in range(c):
            if kid_moves[j] == undo:
                continue
            generated[f] += 1
            child = table_slot(keys, kids[j])
            fresh = first_word(keys[child]) == -1
            if fresh or depth + 1 < g[child]:
                if fresh:
                    copy_at(keys, child, kids, j)
                    counters[1] += 1
                copy_at(parents, child, state, 0)
                g[child] = depth + 1
                moves[child] = kid_moves[j]
                closed[child] = 0
                child_f = depth + 1 + heuristic_state(kids[j], htables)
                heap_push(prio, heap, counters[0], child_f << G_BITS | (G_MASK - depth - 1), kids, j)
                counters[0] += 1
    return 0


@kernel
def astar_rehash(keys, parents, g, moves, closed, new_keys, new_parents, new_g, new_moves, new_closed):
    """Move every entry of a table into a larger empty one."""
    for i in range(keys.shape[0]):
        if first_word(keys[i]) != -1:
            slot = table_slot(new_keys, keys[i])
            copy_at(new_keys, slot, keys, i)
            copy_at(new_parents, slot, parents, i)
            new_g[slot] = g[i]
            new_moves[slot] = moves[i]
            new_closed[slot] = closed[i]


@kernel
def astar_path(keys, parents, moves, goal_slot, out):
    """The moves from the start to the state in ``goal_slot``, into ``out``; returns how many."""
    n = 0
    slot = goal_slot
    while moves[slot] >= 0:
        out[n] = moves[slot]
        n += 1
        slot = table_slot(keys, parents[slot])
    for k in range(n // 2):  # reversed in place, not by a slice assignment (kernels/state_words)
        out[k], out[n - 1 - k] = out[n - 1 - k], out[k]
    return n
