"""Compiled adapters of a puzzle whose states are values (``vecsearch.values``).

Code generation puts these functions in the kernel module of a ``ValuePuzzle``'s family, under
the roles' kernel names, instead of the guards of ``guard_template``: each unpacks a packed state
into its values, calls the user's function over them (``user_<role>``, compiled with bounds
checks), checks what comes back and packs it. The kernels receive ``tables`` as ``(the user's
tables, limits, fields, ranking)`` (``ValuePuzzle.kernel_tables``); ``fields`` gives each value's
range, word, shift, mask and mixed-radix weight, ``ranking`` the factorials (``Permutation``) or
binomials (``Subset``). Scratch vectors live on the stack (``intrinsics.stack_empty``): no
allocation per state.

A child is packed from its parent: only the values that differ are written, and a vector's rank
moves by their change times their weight (mixed radix); a permutation or subset is ranked whole
(Lehmer code, colex rank). A value outside its range, a child that is not a permutation (or not
a subset of the size given), a count past the room or a move out of range raises ``BrokenRule``.
"""

import numpy as np
from numba.np.unsafe.ndarray import to_fixed_tuple

from vecsearch.errors import BrokenRule
from vecsearch.kernels.guards import (FAILED, LIMIT_MOVES, LIMIT_PREDECESSORS, LIMIT_SUBSET, RULE_BOUND, RULE_COUNT,
                                      RULE_MOVE, RULE_PERMUTATION, RULE_RAISED, RULE_SUBSET, RULE_VALUE, whole)
from vecsearch.kernels.intrinsics import popcount, stack_empty
from vecsearch.kernels.ranking import permutation_rank, permutation_unrank, subset_rank, subset_unrank
from vecsearch.kernels.roles import (
    CHILD_CELLS,
    LAYOUT,
    MAX_FIELDS,
    PUZZLE_NAME,
    WIDTH,
    state_function,
    user_component_state,
    user_expand_state,
    user_heuristic_state,
    user_is_goal_state,
    user_predecessors_state,
)
from vecsearch.values import MASK, PERMUTATION, RANGE, SHIFT, SUBSET, WEIGHT, WORD


@state_function
def word_of(state, w):
    if WIDTH == 1:
        return state
    return state[w]


@state_function
def unpack(state, fields, buffer):
    """The values of ``state``, in ``buffer`` (a stack array of ``MAX_FIELDS``)."""
    n = fields.shape[0]
    for i in range(n):
        buffer[i] = (word_of(state, fields[i, WORD]) >> fields[i, SHIFT]) & fields[i, MASK]
    return buffer[:n]


@state_function
def shown(buffer, n):
    """What a ``BrokenRule`` carries of a state: its values (it keeps the first ``n``)."""
    return to_fixed_tuple(buffer, MAX_FIELDS), n


@state_function
def vector_rank(values, fields):
    rank = 0
    for i in range(values.shape[0]):
        rank += values[i] * fields[i, WEIGHT]
    return rank


@state_function
def packed_rank(state, values, fields, ranking, subset):
    """The rank of ``state`` (whose values are ``values``)."""
    if LAYOUT == PERMUTATION:
        return permutation_rank(state, values.shape[0], 4, ranking[0])
    if LAYOUT == SUBSET:
        return state if subset < 0 else subset_rank(state, ranking)
    return vector_rank(values, fields)


@state_function
def pack_child(role, state, values, fields, child, kids, k, buffer):
    """Write the values ``child`` (one from ``state``, whose values are ``values``) packed into
    ``kids[k]``; returns the change of the mixed-radix rank."""
    if WIDTH == 1:
        kids[k] = state
    else:
        for w in range(WIDTH):
            kids[k, w] = state[w]
    change = 0
    for i in range(values.shape[0]):
        v = child[i]
        if v != values[i]:
            if v < 0 or v >= fields[i, RANGE]:
                raise BrokenRule(PUZZLE_NAME, role, RULE_VALUE, shown(buffer, values.shape[0]), v, k,
                                 fields[i, RANGE], i)
            w = fields[i, WORD]
            cleared = word_of(kids[k], w) & ~(fields[i, MASK] << fields[i, SHIFT])
            if WIDTH == 1:
                kids[k] = cleared | (v << fields[i, SHIFT])
            else:
                kids[k, w] = cleared | (v << fields[i, SHIFT])
            change += (v - values[i]) * fields[i, WEIGHT]
    return change


@state_function
def packed_children(role, count, state, values, buffer, grid, tables, kids, moves, ranks, with_ranks):
    """Check the children the user's function wrote to ``grid`` (values) and pack them into
    ``kids`` (with their ranks in ``ranks`` when ``with_ranks``)."""
    limits, fields, ranking = tables[1], tables[2], tables[3]
    room = grid.shape[0]
    n = values.shape[0]
    count = whole(count, role)
    if count < 0 or count > room:
        raise BrokenRule(PUZZLE_NAME, role, RULE_COUNT, shown(buffer, n), count, 0, room)
    rank = packed_rank(state, values, fields, ranking, limits[LIMIT_SUBSET]) if with_ranks and LAYOUT != PERMUTATION \
        else 0
    for k in range(count):
        if moves[k] < 0 or moves[k] >= limits[LIMIT_MOVES]:
            raise BrokenRule(PUZZLE_NAME, role, RULE_MOVE, shown(buffer, n), moves[k], k, limits[LIMIT_MOVES])
        change = pack_child(role, state, values, fields, grid[k], kids, k, buffer)
        if LAYOUT == PERMUTATION:
            seen = 0
            for i in range(n):
                seen |= np.int64(1) << grid[k, i]
            if seen != (np.int64(1) << n) - 1:
                raise BrokenRule(PUZZLE_NAME, role, RULE_PERMUTATION, shown(buffer, n), 0, k, n)
            if with_ranks:
                ranks[k] = permutation_rank(kids[k], n, 4, ranking[0])
        elif LAYOUT == SUBSET and limits[LIMIT_SUBSET] >= 0:
            if popcount(word_of(kids[k], 0)) != limits[LIMIT_SUBSET]:
                raise BrokenRule(PUZZLE_NAME, role, RULE_SUBSET, shown(buffer, n), 0, k, limits[LIMIT_SUBSET])
            if with_ranks:
                ranks[k] = subset_rank(kids[k], ranking)
        elif with_ranks:
            ranks[k] = rank + change
    return count


@state_function
def scratch(state, tables, room):
    """The state's values and room for ``room`` children's values, on the stack."""
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, tables[2], buffer)
    grid = stack_empty(CHILD_CELLS)[:room * values.shape[0]].reshape((room, values.shape[0]))
    return buffer, values, grid


@state_function
def expand_ranked_state(state, tables, kids, moves, ranks):
    room = tables[1][LIMIT_MOVES]
    buffer, values, grid = scratch(state, tables, room)
    count = FAILED
    try:
        count = user_expand_state(values, tables[0], grid, moves[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "expand", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, room)
    return packed_children("expand", count, state, values, buffer, grid, tables, kids, moves, ranks, True)


@state_function
def expand_state(state, tables, kids, moves):
    room = tables[1][LIMIT_MOVES]
    buffer, values, grid = scratch(state, tables, room)
    count = FAILED
    try:
        count = user_expand_state(values, tables[0], grid, moves[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "expand", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, room)
    return packed_children("expand", count, state, values, buffer, grid, tables, kids, moves, moves, False)


@state_function
def predecessors_ranked_state(state, tables, kids, moves, ranks):
    room = tables[1][LIMIT_PREDECESSORS]
    buffer, values, grid = scratch(state, tables, room)
    count = FAILED
    try:
        count = user_predecessors_state(values, tables[0], grid, moves[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "predecessors", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, room)
    return packed_children("predecessors", count, state, values, buffer, grid, tables, kids, moves, ranks, True)


@state_function
def predecessors_state(state, tables, kids, moves):
    room = tables[1][LIMIT_PREDECESSORS]
    buffer, values, grid = scratch(state, tables, room)
    count = FAILED
    try:
        count = user_predecessors_state(values, tables[0], grid, moves[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "predecessors", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, room)
    return packed_children("predecessors", count, state, values, buffer, grid, tables, kids, moves, moves, False)


@state_function
def rank_state(state, tables):
    buffer = stack_empty(MAX_FIELDS)
    return packed_rank(state, unpack(state, tables[2], buffer), tables[2], tables[3], tables[1][LIMIT_SUBSET])


@state_function
def unrank_state(rank, component, tables):
    fields, ranking = tables[2], tables[3]
    n = fields.shape[0]
    if LAYOUT == PERMUTATION:
        return permutation_unrank(rank, n, 4, ranking[0])
    if LAYOUT == SUBSET:
        subset = tables[1][LIMIT_SUBSET]
        return rank if subset < 0 else subset_unrank(rank, subset, n, ranking)
    words = stack_empty(WIDTH)
    words[:] = 0
    for i in range(n):
        words[fields[i, WORD]] |= ((rank // fields[i, WEIGHT]) % fields[i, RANGE]) << fields[i, SHIFT]
    if WIDTH == 1:
        return words[0]
    return words


@state_function
def component_state(state, tables):
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, tables[2], buffer)
    c = 0
    failed = False
    try:
        c = whole(user_component_state(values, tables[0]), "component")
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "component", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, 0)
    return c


@state_function
def is_goal_state(state, tables):
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, tables[2], buffer)
    goal = False
    failed = False
    try:
        goal = bool(user_is_goal_state(values, tables[0]))
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "is_goal", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, 0)
    return goal


@state_function
def heuristic_state(state, htables):
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, htables[1], buffer)
    h = 0
    failed = False
    try:
        h = whole(user_heuristic_state(values, htables[0]), "heuristic")
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "heuristic", RULE_RAISED, shown(buffer, values.shape[0]), 0, 0, 0)
    if h < 0:
        raise BrokenRule(PUZZLE_NAME, "heuristic", RULE_BOUND, shown(buffer, values.shape[0]), h, 0, 0)
    return h
