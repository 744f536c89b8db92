"""The names every kernel template calls, declared once; code generation binds them per family.

The kernel templates (``*_template.py`` beside this module) are ordinary modules: they import
the names below from here, so they import, lint and read like any other code. A template on its
own compiles nothing useful, though: ``vecsearch.engine.runtime.codegen`` emits one module per puzzle
*family* in which that single ``from vecsearch.kernels.roles import (...)`` statement is replaced
by a header binding each role to the family's own function (and the decorators to cached or
uncached ones). Everything else in the templates is used as written.

Roles: one per role declared in ``vecsearch.contract.ROLES``, under its kernel name
(``expand_state(state, tables, kids, moves) -> count``, ``rank_state(state, tables)``, ...). In
the kernels of a user's puzzle, each is a guard around the user's function (``guard_template``).

Optional roles a family lacks are bound to ``None``; the templates then supply a default built
from the others (e.g. ``expand_ranked_state``: expand, then rank each child).

Constants of a family (they shape the compiled code, so a change means another module):
  WIDTH             64-bit words per state (1: narrow)
  MAX_MOVES         room for children (and predecessors) per state: the family's move capacity,
                    >= every member's
  HAS_PREDECESSORS  False when predecessors are the children (reversible puzzles): branches on
                    ``backward`` are then pruned before the rules are inlined, so each rule is
                    compiled once per kernel instead of twice
  FAMILY            what the compile notice calls the family
  LAYOUT, MAX_FIELDS, CHILD_CELLS   a ValuePuzzle's layout and the room of its adapters' scratch

State-shape helpers (``vecsearch.kernels.state_words``): the narrow forms here, the wide ones for
families with ``WIDTH > 1``.
"""

from vecsearch._numba import inner_loop as loop
from vecsearch._numba import kernel, state_function
from vecsearch.contract import ROLES as CONTRACT_ROLES
from vecsearch.kernels.state_words import (
    narrow_copy_at as copy_at,
)
from vecsearch.kernels.state_words import (
    narrow_empty_at as empty_at,
)
from vecsearch.kernels.state_words import (
    narrow_equal_at as equal_at,
)
from vecsearch.kernels.state_words import (
    narrow_first_word as first_word,
)
from vecsearch.kernels.state_words import (
    narrow_hash_at as hash_at,
)
from vecsearch.kernels.state_words import (
    narrow_less_at as less_at,
)
from vecsearch.kernels.state_words import (
    narrow_new_states as new_states,
)
from vecsearch.kernels.state_words import (
    narrow_state_hash as state_hash,
)
from vecsearch.kernels.state_words import (
    narrow_states_equal as states_equal,
)

WIDTH = 1
MAX_MOVES = 4
HAS_PREDECESSORS = False
FAMILY = "puzzle"  # what the family is called (the compile notice says it)
LAYOUT = 0  # a ValuePuzzle's layout (vecsearch.values): its adapters' packing and rank
MAX_FIELDS = 64  # values a ValuePuzzle's state may hold (stack scratch of its adapters)
CHILD_CELLS = 64 * 4  # values its children may hold: MAX_FIELDS x MAX_MOVES

SHAPE_HELPERS = ("empty_at", "hash_at", "equal_at", "less_at", "copy_at", "new_states", "first_word", "state_hash",
                 "states_equal")
DECORATORS = ("kernel", "loop", "state_function")
CONSTANTS = ("WIDTH", "MAX_MOVES", "HAS_PREDECESSORS", "FAMILY", "LAYOUT", "MAX_FIELDS", "CHILD_CELLS")
ROLES = tuple(role.kernel_name for role in CONTRACT_ROLES)


def _stub(name):
    def unbound(*args):
        raise NotImplementedError(f"{name} is bound per puzzle family by vecsearch.engine.runtime.codegen")

    unbound.__name__ = name
    return state_function(unbound)


globals().update({name: _stub(name) for name in ROLES})

__all__ = [*ROLES, *CONSTANTS, *DECORATORS, *SHAPE_HELPERS]  # everything a template may import from here
