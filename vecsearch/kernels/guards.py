"""What the guards of ``guard_template`` and the value adapters share: where things sit in the
kernel tables of a user's puzzle, rule codes, ``broken`` and ``whole``.

A user's puzzle hands its kernels ``tables`` as ``(the puzzle's tables, guard)``
(``vecsearch.engine.runtime.guarded.kernel_tables``), ``guard`` being ``(limits, fields, ranking,
functions...)``: ``limits`` holds the puzzle's number in ``BrokenRule.describing``
(``LIMIT_PUZZLE``) and what the outputs are checked against: ``max_moves``,
``max_predecessors``, ``rank_size`` (0 without a rank) and, for values, the size of a ``Subset``
(-1: any); ``fields`` and ``ranking`` how values are packed and ranked (``ValuePuzzle``; empty
otherwise); then, at the slot of each role (``SLOT_<ROLE>``, the order of
``vecsearch.contract.ROLES``), the user's function compiled with bounds checks, as a
``first_class.Compiled`` (so that the kernels are compiled once for every puzzle of the same
types, and cached), or None. The rule codes ``RULE_*`` index ``BrokenRule.RULES``. The guards
land in one module with the templates: their names are prefixed so as not to collide.
"""

from numba.core import errors, types
from numba.extending import overload

from vecsearch._numba import called
from vecsearch.contract import ROLES
from vecsearch.errors import BrokenRule

(RULE_RAISED, RULE_COUNT, RULE_MOVE, RULE_RESERVED, RULE_RANK, RULE_BOUND, RULE_VALUE, RULE_PERMUTATION,
 RULE_SUBSET) = range(len(BrokenRule.RULES))
USER_TABLES, GUARD = 0, 1  # the kernel tables of a user's puzzle
LIMITS, FIELDS, RANKING = 0, 1, 2  # in its guard, before the functions
LIMIT_PUZZLE, LIMIT_MOVES, LIMIT_PREDECESSORS, LIMIT_RANKS, LIMIT_SUBSET = range(5)
SLOTS = {role.name: RANKING + 1 + slot for slot, role in enumerate(ROLES)}
(SLOT_EXPAND, SLOT_PREDECESSORS, SLOT_RANK, SLOT_COMPONENT, SLOT_UNRANK, SLOT_EXPAND_RANKED, SLOT_PREDECESSORS_RANKED,
 SLOT_EXPAND_RANK, SLOT_PREDECESSORS_RANK, SLOT_NEAR_RANK, SLOT_NEAR_PREDECESSORS_RANK, SLOT_IS_GOAL, SLOT_HEURISTIC,
 SLOT_HEURISTIC_UPDATE, SLOT_HEURISTIC_CHILDREN) = (SLOTS[role.name] for role in ROLES)
FAILED = -(1 << 62)  # what a guard's count holds when the user's function raised


@called
def broken(puzzle, role, rule, state, value=0, index=0, limit=0, position=-1):
    """Raise ``BrokenRule``: one compiled function for every raise of every guard (each raise
    inlined would cost compile time in every kernel)."""
    raise BrokenRule(puzzle, role, rule, state, value, index, limit, position)


def whole(value, role):
    """``value`` (a count, a rank, a bound) as an int64; a value of another type is refused when
    the kernel compiles, naming ``role`` (a string constant) and the type it returned."""
    return int(value)


@overload(whole, prefer_literal=True)
def _whole(value, role):
    if isinstance(value, (types.Integer, types.Boolean)):
        return lambda value, role: int(value)
    name = role.literal_value if isinstance(role, types.StringLiteral) else "a function"
    raise errors.TypingError(f"{name} returned {value}; expected an int (a count, rank or bound)")
