"""Checks around a user's per-state functions: a broken rule raises ``BrokenRule``, never a crash.

Code generation (``vecsearch.engine.codegen``) puts these guards in the kernel module of a family
whose functions are not vecsearch's own, one per role the family gives, under the role's kernel
name (``expand_state``, ...), and binds the user's function to ``user_<role>``, compiled with
bounds checks (``vecsearch._numba.checked_function``): an index out of range in it raises instead
of writing outside an array. The kernels of such a family receive ``tables`` as ``(the puzzle's
tables, limits)`` (``Puzzle.kernel_tables``); a guard hands the user's function the puzzle's own,
and its outputs cut to their room (``limits``: ``LIMIT_MOVES``, ``LIMIT_PREDECESSORS``, ``LIMIT_RANKS``), and
checks what comes back against the contract (``vecsearch.contract.CHECKS``): a count within the
room, moves in range, no first word -1, ranks in range, a heuristic >= 0.

An exception in the user's function cannot be re-raised from inside ``except`` in compiled code,
so each guard notes it and raises after the ``try``.
"""

from numba.np.unsafe.ndarray import to_fixed_tuple

from vecsearch.errors import BrokenRule
from vecsearch.kernels.guards import (FAILED, LIMIT_MOVES, LIMIT_PREDECESSORS, LIMIT_RANKS, RULE_BOUND, RULE_COUNT,
                                      RULE_MOVE, RULE_RAISED, RULE_RANK, RULE_RESERVED, whole)
from vecsearch.kernels.roles import (
    PUZZLE_NAME,
    WIDTH,
    first_word,
    state_function,
    user_component_state,
    user_expand_rank_state,
    user_expand_ranked_state,
    user_expand_state,
    user_heuristic_state,
    user_is_goal_state,
    user_near_predecessors_rank_state,
    user_near_rank_state,
    user_predecessors_rank_state,
    user_predecessors_state,
    user_rank_state,
    user_unrank_state,
)


@state_function
def shown(state):
    """``state`` as an exception can carry it: the int, or the tuple of its words."""
    if WIDTH == 1:
        return state
    return to_fixed_tuple(state, WIDTH)


@state_function
def checked_children(role, count, state, kids, moves, room, max_moves):
    count = whole(count, role)
    if count < 0 or count > room:
        raise BrokenRule(PUZZLE_NAME, role, RULE_COUNT, shown(state), count, 0, room)
    for k in range(count):
        if moves[k] < 0 or moves[k] >= max_moves:
            raise BrokenRule(PUZZLE_NAME, role, RULE_MOVE, shown(state), moves[k], k, max_moves)
        if first_word(kids[k]) == -1:
            raise BrokenRule(PUZZLE_NAME, role, RULE_RESERVED, shown(state), -1, k, 0)
    return count


@state_function
def checked_ranks(role, count, where, ranks, room, size):
    count = whole(count, role)
    if count < 0 or count > room:
        raise BrokenRule(PUZZLE_NAME, role, RULE_COUNT, where, count, 0, room)
    for k in range(count):
        if ranks[k] < 0 or ranks[k] >= size:
            raise BrokenRule(PUZZLE_NAME, role, RULE_RANK, where, ranks[k], k, size)
    return count


@state_function
def expand_state(state, tables, kids, moves):
    room = tables[1][LIMIT_MOVES]
    count = FAILED
    try:
        count = user_expand_state(state, tables[0], kids[:room], moves[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "expand", RULE_RAISED, shown(state), 0, 0, room)
    return checked_children("expand", count, state, kids, moves, room, tables[1][LIMIT_MOVES])


@state_function
def predecessors_state(state, tables, kids, moves):
    room = tables[1][LIMIT_PREDECESSORS]
    count = FAILED
    try:
        count = user_predecessors_state(state, tables[0], kids[:room], moves[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "predecessors", RULE_RAISED, shown(state), 0, 0, room)
    return checked_children("predecessors", count, state, kids, moves, room, tables[1][LIMIT_MOVES])


@state_function
def expand_ranked_state(state, tables, kids, moves, ranks):
    room = tables[1][LIMIT_MOVES]
    count = FAILED
    try:
        count = user_expand_ranked_state(state, tables[0], kids[:room], moves[:room], ranks[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "expand_ranked", RULE_RAISED, shown(state), 0, 0, room)
    count = checked_children("expand_ranked", count, state, kids, moves, room, tables[1][LIMIT_MOVES])
    for k in range(count):
        if ranks[k] < 0 or ranks[k] >= tables[1][LIMIT_RANKS]:
            raise BrokenRule(PUZZLE_NAME, "expand_ranked", RULE_RANK, shown(state), ranks[k], k, tables[1][LIMIT_RANKS])
    return count


@state_function
def rank_state(state, tables):
    r = 0
    failed = False
    try:
        r = whole(user_rank_state(state, tables[0]), "rank")
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "rank", RULE_RAISED, shown(state), 0, 0, 0)
    if r < 0 or r >= tables[1][LIMIT_RANKS]:
        raise BrokenRule(PUZZLE_NAME, "rank", RULE_RANK, shown(state), r, 0, tables[1][LIMIT_RANKS])
    return r


@state_function
def component_state(state, tables):
    c = 0
    failed = False
    try:
        c = whole(user_component_state(state, tables[0]), "component")
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "component", RULE_RAISED, shown(state), 0, 0, 0)
    return c


@state_function
def unrank_state(rank, component, tables):
    failed = False
    try:
        state = user_unrank_state(rank, component, tables[0])
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "unrank", RULE_RAISED, (rank, component), 0, 0, 0)
    if first_word(state) == -1:
        raise BrokenRule(PUZZLE_NAME, "unrank", RULE_RESERVED, (rank, component), -1, 0, 0)
    return state


@state_function
def expand_rank_state(rank, component, tables, ranks):
    room = tables[1][LIMIT_MOVES]
    count = FAILED
    try:
        count = user_expand_rank_state(rank, component, tables[0], ranks[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "expand_rank", RULE_RAISED, (rank, component), 0, 0, room)
    return checked_ranks("expand_rank", count, (rank, component), ranks, room, tables[1][LIMIT_RANKS])


@state_function
def predecessors_rank_state(rank, component, tables, ranks):
    room = tables[1][LIMIT_PREDECESSORS]
    count = FAILED
    try:
        count = user_predecessors_rank_state(rank, component, tables[0], ranks[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "predecessors_rank", RULE_RAISED, (rank, component), 0, 0, room)
    return checked_ranks("predecessors_rank", count, (rank, component), ranks, room, tables[1][LIMIT_RANKS])


@state_function
def near_rank_state(rank, component, tables, ranks):
    room = tables[1][LIMIT_MOVES]
    count = FAILED
    try:
        count = user_near_rank_state(rank, component, tables[0], ranks[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "near_rank", RULE_RAISED, (rank, component), 0, 0, room)
    return checked_ranks("near_rank", count, (rank, component), ranks, room, tables[1][LIMIT_RANKS])


@state_function
def near_predecessors_rank_state(rank, component, tables, ranks):
    room = tables[1][LIMIT_PREDECESSORS]
    count = FAILED
    try:
        count = user_near_predecessors_rank_state(rank, component, tables[0], ranks[:room])
    except Exception:
        count = FAILED
    if count == FAILED:
        raise BrokenRule(PUZZLE_NAME, "near_predecessors_rank", RULE_RAISED, (rank, component), 0, 0, room)
    return checked_ranks("near_predecessors_rank", count, (rank, component), ranks, room, tables[1][LIMIT_RANKS])


@state_function
def is_goal_state(state, tables):
    goal = False
    failed = False
    try:
        goal = bool(user_is_goal_state(state, tables[0]))
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "is_goal", RULE_RAISED, shown(state), 0, 0, 0)
    return goal


@state_function
def heuristic_state(state, htables):
    h = 0
    failed = False
    try:
        h = whole(user_heuristic_state(state, htables), "heuristic")
    except Exception:
        failed = True
    if failed:
        raise BrokenRule(PUZZLE_NAME, "heuristic", RULE_RAISED, shown(state), 0, 0, 0)
    if h < 0:
        raise BrokenRule(PUZZLE_NAME, "heuristic", RULE_BOUND, shown(state), h, 0, 0)
    return h
