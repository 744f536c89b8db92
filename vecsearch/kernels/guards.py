"""What the guards of ``guard_template`` share: rule codes, where the limits sit, ``whole``.

The limits array (``Puzzle.kernel_tables``' second entry) holds, at ``LIMIT_MOVES``,
``LIMIT_PREDECESSORS`` and ``LIMIT_RANKS``: ``max_moves``, ``max_predecessors`` and ``rank_size``
(0 without a rank). The rule codes ``RULE_*`` index ``vecsearch.errors.BrokenRule.RULES``. The
guards land in one module with the templates: their names are prefixed so as not to collide.
"""

from numba.core import errors, types
from numba.extending import overload

from vecsearch.errors import BrokenRule

(RULE_RAISED, RULE_COUNT, RULE_MOVE, RULE_RESERVED, RULE_RANK, RULE_BOUND, RULE_VALUE, RULE_PERMUTATION,
 RULE_SUBSET) = range(len(BrokenRule.RULES))
LIMIT_MOVES, LIMIT_PREDECESSORS, LIMIT_RANKS, LIMIT_SUBSET = 0, 1, 2, 3  # the last for values (``ValuePuzzle``)
FAILED = -(1 << 62)  # what a guard's count holds when the user's function raised


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
