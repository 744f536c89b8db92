"""Compiled adapters of a puzzle whose states are values (``vecsearch.values``).

Code generation puts these functions in the kernel module of a ``ValuePuzzle``'s family, under
the roles' kernel names, instead of the guards of ``guard_template``: each unpacks a packed state
into its values, calls the user's function over them (compiled with bounds checks, in the kernel
tables: ``vecsearch.kernels.guards``), checks what comes back and packs it. The guard in the
kernel tables holds ``fields`` (each value's range, word, shift, mask and mixed-radix weight)
and ``ranking`` (the factorials of a ``Permutation``, the binomials of a ``Subset``). Scratch
lives on the stack (``intrinsics.stack_empty``): no allocation per state; each row of the
children's starts as a copy of the state's values (``intrinsics.repeat_first_row``).

A child is packed whole, without a branch per value (its mixed-radix rank on the way); a
permutation or subset is ranked by its Lehmer code or colex rank. A value outside its range, a
child that is not a permutation (or not a subset of the size given), a count past the room or a
move out of range raises ``BrokenRule``.
"""

import numpy as np

from vecsearch.kernels.guards import (
    FAILED,
    FIELDS,
    GUARD,
    LIMIT_MOVES,
    LIMIT_PREDECESSORS,
    LIMIT_PUZZLE,
    LIMIT_SUBSET,
    LIMITS,
    RANKING,
    RULE_BOUND,
    RULE_COUNT,
    RULE_MOVE,
    RULE_PERMUTATION,
    RULE_RAISED,
    RULE_SUBSET,
    RULE_VALUE,
    SLOT_COMPONENT,
    SLOT_EXPAND,
    SLOT_HEURISTIC,
    SLOT_IS_GOAL,
    SLOT_PREDECESSORS,
    USER_TABLES,
    broken,
    whole,
)
from vecsearch.kernels.intrinsics import borrowed, popcount, repeat_first_row, stack_empty, stack_matrix, to_fixed_tuple
from vecsearch.kernels.ranking import permutation_rank, permutation_unrank, subset_rank, subset_unrank
from vecsearch.kernels.roles import CHILD_CELLS, LAYOUT, MAX_FIELDS, WIDTH, state_function
from vecsearch.values import MASK, PERMUTATION, RANGE, SHIFT, SUBSET, WEIGHT, WORD

# the roles it stands for (code generation binds those a puzzle gives)
__all__ = ("expand_ranked_state", "expand_state", "predecessors_ranked_state", "predecessors_state", "rank_state",
           "unrank_state", "component_state", "is_goal_state", "heuristic_state")


@state_function
def word_of(state, w):
    if WIDTH == 1:
        return state
    return state[w]


@state_function
def unpack(state, fields, buffer):
    """The values of ``state``, in ``buffer`` (a stack array of ``MAX_FIELDS``)."""
    n = fields.shape[1]
    words, shifts, masks = fields[WORD], fields[SHIFT], fields[MASK]
    for i in range(n):
        buffer[i] = (word_of(state, words[i]) >> shifts[i]) & masks[i]
    return buffer[:n]


@state_function
def shown(state):
    """``state`` as an exception can carry it: the int, or the tuple of its words (``BrokenRule``
    shows it as the values: ``ValuePuzzle.format_state``)."""
    if WIDTH == 1:
        return state
    return to_fixed_tuple(state, WIDTH)


@state_function
def vector_rank(values, fields):
    rank = 0
    for i in range(values.shape[0]):
        rank += values[i] * fields[WEIGHT, i]
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
def pack(child, fields, kids, k):
    """Pack the values ``child`` into ``kids[k]`` (no branch: every value is written); returns
    their mixed-radix rank and whether each is in its range."""
    ranges, shifts, weights = fields[RANGE], fields[SHIFT], fields[WEIGHT]
    outside = False
    rank = 0
    if WIDTH == 1:
        packed = 0
        for i in range(child.shape[0]):
            v = child[i]
            outside |= np.uint64(v) >= np.uint64(ranges[i])  # a negative value too
            packed |= v << shifts[i]
            rank += v * weights[i]
        kids[k] = packed
    else:
        words = fields[WORD]
        for w in range(WIDTH):
            kids[k, w] = 0
        for i in range(child.shape[0]):
            v = child[i]
            outside |= np.uint64(v) >= np.uint64(ranges[i])
            kids[k, words[i]] |= v << shifts[i]
            rank += v * weights[i]
    return rank, not outside


@state_function
def outside_value(child, fields):
    """The position of the first value of ``child`` outside its range."""
    for i in range(child.shape[0]):
        if child[i] < 0 or child[i] >= fields[RANGE, i]:
            return i
    return -1


@state_function
def packed_children(role, count, state, grid, tables, kids, moves, ranks, with_ranks):
    """Check the children the user's function wrote to ``grid`` (values) and pack them into
    ``kids`` (with their ranks in ``ranks`` when ``with_ranks``)."""
    limits, fields, ranking = tables[GUARD][LIMITS], tables[GUARD][FIELDS], tables[GUARD][RANKING]
    room = grid.shape[0]
    n = grid.shape[1]
    count = whole(count, role)
    if count < 0 or count > room:
        broken(limits[LIMIT_PUZZLE], role, RULE_COUNT, shown(state), count, 0, room)
    for k in range(count):
        if moves[k] < 0 or moves[k] >= limits[LIMIT_MOVES]:
            broken(limits[LIMIT_PUZZLE], role, RULE_MOVE, shown(state), moves[k], k, limits[LIMIT_MOVES])
        rank, inside = pack(grid[k], fields, kids, k)
        if not inside:
            i = outside_value(grid[k], fields)
            broken(limits[LIMIT_PUZZLE], role, RULE_VALUE, shown(state), grid[k, i], k, fields[RANGE, i], i)
        if LAYOUT == PERMUTATION:
            seen = 0
            for i in range(n):
                seen |= np.int64(1) << grid[k, i]
            if seen != (np.int64(1) << n) - 1:
                broken(limits[LIMIT_PUZZLE], role, RULE_PERMUTATION, shown(state), 0, k, n)
            if with_ranks:
                ranks[k] = permutation_rank(kids[k], n, 4, ranking[0])
        elif LAYOUT == SUBSET and limits[LIMIT_SUBSET] >= 0:
            if popcount(word_of(kids[k], 0)) != limits[LIMIT_SUBSET]:
                broken(limits[LIMIT_PUZZLE], role, RULE_SUBSET, shown(state), 0, k, limits[LIMIT_SUBSET])
            if with_ranks:
                ranks[k] = subset_rank(kids[k], ranking)
        elif with_ranks:
            ranks[k] = rank
    return count


@state_function
def scratch(state, tables, room):
    """The state's values and room for ``room`` children's values, on the stack, each row a copy
    of the state's (a move writes only what it changes)."""
    values = unpack(state, tables[GUARD][FIELDS], stack_empty(MAX_FIELDS))
    n = values.shape[0]
    grid = stack_matrix(CHILD_CELLS, room, n)
    if room > 0:
        for i in range(n):
            grid[0, i] = values[i]
        repeat_first_row(grid)
    return values, grid


@state_function
def called_values(role, user, room, state, tables, kids, moves, ranks, with_ranks):
    """The children ``user`` (the function of ``role``: expand, predecessors) writes over values,
    checked and packed (with their ranks in ``ranks`` when ``with_ranks``)."""
    values, grid = scratch(state, tables, room)
    count = FAILED
    try:
        count = user(values, borrowed(tables[USER_TABLES]), grid, borrowed(moves))
    except Exception:
        count = FAILED
    if count == FAILED:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], role, RULE_RAISED, shown(state), 0, 0, room)
    return packed_children(role, count, state, grid, tables, kids, moves, ranks, with_ranks)


@state_function
def expand_ranked_state(state, tables, kids, moves, ranks):
    guard = tables[GUARD]
    return called_values("expand", guard[SLOT_EXPAND], guard[LIMITS][LIMIT_MOVES], state, tables, kids, moves, ranks,
                         True)


@state_function
def expand_state(state, tables, kids, moves):
    guard = tables[GUARD]
    return called_values("expand", guard[SLOT_EXPAND], guard[LIMITS][LIMIT_MOVES], state, tables, kids, moves, moves,
                         False)


@state_function
def predecessors_ranked_state(state, tables, kids, moves, ranks):
    guard = tables[GUARD]
    return called_values("predecessors", guard[SLOT_PREDECESSORS], guard[LIMITS][LIMIT_PREDECESSORS], state, tables,
                         kids, moves, ranks, True)


@state_function
def predecessors_state(state, tables, kids, moves):
    guard = tables[GUARD]
    return called_values("predecessors", guard[SLOT_PREDECESSORS], guard[LIMITS][LIMIT_PREDECESSORS], state, tables,
                         kids, moves, moves, False)


@state_function
def rank_state(state, tables):
    fields = tables[GUARD][FIELDS]
    return packed_rank(state, unpack(state, fields, stack_empty(MAX_FIELDS)), fields, tables[GUARD][RANKING],
                       tables[GUARD][LIMITS][LIMIT_SUBSET])


@state_function
def unrank_state(rank, component, tables):
    fields, ranking = tables[GUARD][FIELDS], tables[GUARD][RANKING]
    n = fields.shape[1]
    if LAYOUT == PERMUTATION:
        return permutation_unrank(rank, n, 4, ranking[0])
    if LAYOUT == SUBSET:
        subset = tables[GUARD][LIMITS][LIMIT_SUBSET]
        return rank if subset < 0 else subset_unrank(rank, subset, n, ranking)
    words = stack_empty(WIDTH)
    words[:] = 0
    for i in range(n):
        words[fields[WORD, i]] |= ((rank // fields[WEIGHT, i]) % fields[RANGE, i]) << fields[SHIFT, i]
    if WIDTH == 1:
        return words[0]
    return words


@state_function
def component_state(state, tables):
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, tables[GUARD][FIELDS], buffer)
    c = 0
    failed = False
    user = tables[GUARD][SLOT_COMPONENT]
    try:
        c = whole(user(values, borrowed(tables[USER_TABLES])), "component")
    except Exception:
        failed = True
    if failed:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], "component", RULE_RAISED, shown(state), 0, 0, 0)
    return c


@state_function
def is_goal_state(state, tables):
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, tables[GUARD][FIELDS], buffer)
    goal = False
    failed = False
    user = tables[GUARD][SLOT_IS_GOAL]
    try:
        goal = bool(user(values, borrowed(tables[USER_TABLES])))
    except Exception:
        failed = True
    if failed:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], "is_goal", RULE_RAISED, shown(state), 0, 0, 0)
    return goal


@state_function
def heuristic_state(state, htables):
    buffer = stack_empty(MAX_FIELDS)
    values = unpack(state, htables[GUARD][FIELDS], buffer)
    h = 0
    failed = False
    user = htables[GUARD][SLOT_HEURISTIC]
    try:
        h = whole(user(values, borrowed(htables[USER_TABLES])), "heuristic")
    except Exception:
        failed = True
    if failed:
        broken(htables[GUARD][LIMITS][LIMIT_PUZZLE], "heuristic", RULE_RAISED, shown(state), 0, 0, 0)
    if h < 0:
        broken(htables[GUARD][LIMITS][LIMIT_PUZZLE], "heuristic", RULE_BOUND, shown(state), h, 0, 0)
    return h
