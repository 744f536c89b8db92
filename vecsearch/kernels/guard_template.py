"""Checks around a user's per-state functions: a broken rule raises ``BrokenRule``, never a crash.

Code generation (``vecsearch.engine.runtime.codegen``) puts these guards in the kernel module of a user's
puzzle, one per role the puzzle gives, under the role's kernel name (``expand_state``, ...). The
module holds no code of the user's: it serves every user's puzzle whose tables and functions have
the same types, and is cached like a built-in family's. The user's functions come in the kernel
tables (``vecsearch.kernels.guards``), compiled with bounds checks: an index out of range in one
raises instead of writing outside an array. A guard hands the function the puzzle's own tables
and checks what comes back against the contract (``vecsearch.contract.CHECKS``): a count within
the room, moves in range, no first word -1, ranks in range, a heuristic >= 0.

An exception in the user's function cannot be re-raised from inside ``except`` in compiled code,
so each guard notes it and raises after the ``try``. The guards of the rank-space roles take the
kernels' ``memory`` (``vecsearch.contract.RANK_MEMORY``) and call the user's function without it.
"""

from vecsearch.kernels.guards import (
    FAILED,
    GUARD,
    LIMIT_MOVES,
    LIMIT_PREDECESSORS,
    LIMIT_PUZZLE,
    LIMIT_RANKS,
    LIMITS,
    RULE_BOUND,
    RULE_COUNT,
    RULE_MOVE,
    RULE_RAISED,
    RULE_RANK,
    RULE_RESERVED,
    SLOT_COMPONENT,
    SLOT_EXPAND,
    SLOT_EXPAND_RANK,
    SLOT_EXPAND_RANKED,
    SLOT_HEURISTIC,
    SLOT_IS_GOAL,
    SLOT_NEAR_PREDECESSORS_RANK,
    SLOT_NEAR_RANK,
    SLOT_PREDECESSORS,
    SLOT_PREDECESSORS_RANK,
    SLOT_RANK,
    SLOT_UNRANK,
    USER_TABLES,
    broken,
    whole,
)
from vecsearch.kernels.intrinsics import borrowed, to_fixed_tuple
from vecsearch.kernels.roles import WIDTH, first_word, state_function

# the roles it stands for (code generation binds those a puzzle gives)
__all__ = ("expand_state", "predecessors_state", "expand_ranked_state", "rank_state", "component_state", "unrank_state",
           "expand_rank_state", "predecessors_rank_state", "near_rank_state", "near_predecessors_rank_state",
           "is_goal_state", "heuristic_state")


@state_function
def shown(state):
    """``state`` as an exception can carry it: the int, or the tuple of its words."""
    if WIDTH == 1:
        return state
    return to_fixed_tuple(state, WIDTH)


@state_function
def checked_children(role, count, state, tables, kids, moves, room):
    limits = tables[GUARD][LIMITS]
    count = whole(count, role)
    if count < 0 or count > room:
        broken(limits[LIMIT_PUZZLE], role, RULE_COUNT, shown(state), count, 0, room)
    for k in range(count):
        if moves[k] < 0 or moves[k] >= limits[LIMIT_MOVES]:
            broken(limits[LIMIT_PUZZLE], role, RULE_MOVE, shown(state), moves[k], k, limits[LIMIT_MOVES])
        if first_word(kids[k]) == -1:
            broken(limits[LIMIT_PUZZLE], role, RULE_RESERVED, shown(state), -1, k, 0)
    return count


@state_function
def checked_ranks(role, count, rank, component, tables, ranks, room):
    limits = tables[GUARD][LIMITS]
    count = whole(count, role)
    if count < 0 or count > room:
        broken(limits[LIMIT_PUZZLE], role, RULE_COUNT, (rank, component), count, 0, room)
    for k in range(count):
        if ranks[k] < 0 or ranks[k] >= limits[LIMIT_RANKS]:
            broken(limits[LIMIT_PUZZLE], role, RULE_RANK, (rank, component), ranks[k], k, limits[LIMIT_RANKS])
    return count


@state_function
def called_children(role, user, room, state, tables, kids, moves):
    """The children ``user`` (the function of ``role``: expand, predecessors) writes, checked."""
    count = FAILED
    try:
        count = user(state, borrowed(tables[USER_TABLES]), borrowed(kids), borrowed(moves))
    except Exception:
        count = FAILED
    if count == FAILED:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], role, RULE_RAISED, shown(state), 0, 0, room)
    return checked_children(role, count, state, tables, kids, moves, room)


@state_function
def called_ranks(role, user, room, rank, component, tables, ranks):
    """The ranks ``user`` (the function of ``role``: expand_rank, near_rank...) writes, checked."""
    count = FAILED
    try:
        count = user(rank, component, borrowed(tables[USER_TABLES]), borrowed(ranks))
    except Exception:
        count = FAILED
    if count == FAILED:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], role, RULE_RAISED, (rank, component), 0, 0, room)
    return checked_ranks(role, count, rank, component, tables, ranks, room)


@state_function
def expand_state(state, tables, kids, moves):
    guard = tables[GUARD]
    return called_children("expand", guard[SLOT_EXPAND], guard[LIMITS][LIMIT_MOVES], state, tables, kids, moves)


@state_function
def predecessors_state(state, tables, kids, moves):
    guard = tables[GUARD]
    return called_children("predecessors", guard[SLOT_PREDECESSORS], guard[LIMITS][LIMIT_PREDECESSORS], state, tables,
                           kids, moves)


@state_function
def expand_ranked_state(state, tables, kids, moves, ranks):
    count = FAILED
    user = tables[GUARD][SLOT_EXPAND_RANKED]
    try:
        count = user(state, borrowed(tables[USER_TABLES]), borrowed(kids), borrowed(moves), borrowed(ranks))
    except Exception:
        count = FAILED
    limits = tables[GUARD][LIMITS]
    if count == FAILED:
        broken(limits[LIMIT_PUZZLE], "expand_ranked", RULE_RAISED, shown(state), 0, 0, limits[LIMIT_MOVES])
    count = checked_children("expand_ranked", count, state, tables, kids, moves, limits[LIMIT_MOVES])
    for k in range(count):
        if ranks[k] < 0 or ranks[k] >= limits[LIMIT_RANKS]:
            broken(limits[LIMIT_PUZZLE], "expand_ranked", RULE_RANK, shown(state), ranks[k], k, limits[LIMIT_RANKS])
    return count


@state_function
def rank_state(state, tables):
    r = 0
    failed = False
    user = tables[GUARD][SLOT_RANK]
    try:
        r = whole(user(state, borrowed(tables[USER_TABLES])), "rank")
    except Exception:
        failed = True
    limits = tables[GUARD][LIMITS]
    if failed:
        broken(limits[LIMIT_PUZZLE], "rank", RULE_RAISED, shown(state), 0, 0, 0)
    if r < 0 or r >= limits[LIMIT_RANKS]:
        broken(limits[LIMIT_PUZZLE], "rank", RULE_RANK, shown(state), r, 0, limits[LIMIT_RANKS])
    return r


@state_function
def component_state(state, tables):
    c = 0
    failed = False
    user = tables[GUARD][SLOT_COMPONENT]
    try:
        c = whole(user(state, borrowed(tables[USER_TABLES])), "component")
    except Exception:
        failed = True
    if failed:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], "component", RULE_RAISED, shown(state), 0, 0, 0)
    return c


@state_function
def unrank_state(rank, component, tables):
    failed = False
    user = tables[GUARD][SLOT_UNRANK]
    try:
        state = user(rank, component, borrowed(tables[USER_TABLES]))
    except Exception:
        failed = True
    if failed:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], "unrank", RULE_RAISED, (rank, component), 0, 0, 0)
    if first_word(state) == -1:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], "unrank", RULE_RESERVED, (rank, component), -1, 0, 0)
    return state


@state_function
def expand_rank_state(rank, component, tables, ranks, memory):
    guard = tables[GUARD]
    return called_ranks("expand_rank", guard[SLOT_EXPAND_RANK], guard[LIMITS][LIMIT_MOVES], rank, component, tables,
                        ranks)


@state_function
def predecessors_rank_state(rank, component, tables, ranks, memory):
    guard = tables[GUARD]
    return called_ranks("predecessors_rank", guard[SLOT_PREDECESSORS_RANK], guard[LIMITS][LIMIT_PREDECESSORS], rank,
                        component, tables, ranks)


@state_function
def near_rank_state(rank, component, tables, ranks, memory):
    guard = tables[GUARD]
    return called_ranks("near_rank", guard[SLOT_NEAR_RANK], guard[LIMITS][LIMIT_MOVES], rank, component, tables, ranks)


@state_function
def near_predecessors_rank_state(rank, component, tables, ranks, memory):
    guard = tables[GUARD]
    return called_ranks("near_predecessors_rank", guard[SLOT_NEAR_PREDECESSORS_RANK], guard[LIMITS][LIMIT_PREDECESSORS],
                        rank, component, tables, ranks)


@state_function
def is_goal_state(state, tables):
    goal = False
    failed = False
    user = tables[GUARD][SLOT_IS_GOAL]
    try:
        goal = bool(user(state, borrowed(tables[USER_TABLES])))
    except Exception:
        failed = True
    if failed:
        broken(tables[GUARD][LIMITS][LIMIT_PUZZLE], "is_goal", RULE_RAISED, shown(state), 0, 0, 0)
    return goal


@state_function
def heuristic_state(state, htables):
    """The user's heuristic; ``htables``: ``(its tables, functions, limits)``
    (``engine.heuristic.evaluation``)."""
    h = 0
    failed = False
    user = htables[GUARD][SLOT_HEURISTIC]
    try:
        h = whole(user(state, borrowed(htables[USER_TABLES])), "heuristic")
    except Exception:
        failed = True
    if failed:
        broken(htables[GUARD][LIMITS][LIMIT_PUZZLE], "heuristic", RULE_RAISED, shown(state), 0, 0, 0)
    if h < 0:
        broken(htables[GUARD][LIMITS][LIMIT_PUZZLE], "heuristic", RULE_BOUND, shown(state), h, 0, 0)
    return h
