"""The names every kernel template calls, declared once; code generation binds them per family.

The kernel templates (``*_template.py`` beside this module) are ordinary modules: they import
the names below from here, so they import, lint and read like any other code. A template on its
own compiles nothing useful, though: ``vecsearch.engine.codegen`` emits one module per puzzle
*family* in which that single ``from vecsearch.kernels.roles import (...)`` statement is replaced
by a header binding each role to the family's own function (and the decorators to cached or
uncached ones). Everything else in the templates is used as written.

Roles (the puzzle contract of ``vecsearch.puzzle``, per state; ``tables`` is the puzzle's tuple):
  expand_state(state, tables, kids, moves) -> count       children and the moves that made them
  predecessors_state(state, tables, kids, moves) -> count  states one move *before* ``state``
  rank_state(state, tables) -> rank                        perfect rank within the component
  component_state(state, tables) -> component              invariant no move changes (0: none)
  expand_ranked_state(state, tables, kids, moves, ranks) -> count   children and their ranks
  predecessors_ranked_state(...)                           the same for predecessors
  unrank_state(rank, component, tables) -> state
  expand_rank_state(rank, component, tables, ranks) -> count       children's ranks from a rank
  predecessors_rank_state(rank, component, tables, ranks) -> count
  near_rank_state(rank, component, tables, ranks) -> count          some children's ranks, found
                            without unranking (a pull looks among them first)
  near_predecessors_rank_state(rank, component, tables, ranks) -> count
  heuristic_state(state, htables) -> bound                 admissible bound (heuristic kernels)
  heuristic_update_state(parent, info, child, htables) -> (bound, info)   the bound of a child
                            from what its parent's evaluation left in ``info`` (< 0: nothing)

Optional roles a family lacks are bound to ``None``; the templates then supply a default built
from the others (e.g. ``expand_ranked_state``: expand, then rank each child).

Constants of a family (they shape the compiled code, so a change means another module):
  WIDTH             64-bit words per state (1: narrow)
  MAX_MOVES         room for children per state: the family's move capacity, >= every member's
  HAS_PREDECESSORS  False when predecessors are the children (reversible puzzles): branches on
                    ``backward`` are then pruned before the rules are inlined, so each rule is
                    compiled once per kernel instead of twice

State-shape helpers (``vecsearch.kernels.state_words``): the narrow forms here, the wide ones for
families with ``WIDTH > 1``.
"""

from vecsearch._numba import kernel, loop, parallel_kernel, state_function
from vecsearch.kernels.state_words import (
    narrow_copy_at as copy_at,
    narrow_empty_at as empty_at,
    narrow_equal_at as equal_at,
    narrow_first_word as first_word,
    narrow_hash_at as hash_at,
    narrow_less_at as less_at,
    narrow_new_states as new_states,
    narrow_state_hash as state_hash,
    narrow_states_equal as states_equal,
)

WIDTH = 1
MAX_MOVES = 4
HAS_PREDECESSORS = False

SHAPE_HELPERS = ("empty_at", "hash_at", "equal_at", "less_at", "copy_at", "new_states", "first_word", "state_hash",
                 "states_equal")
DECORATORS = ("kernel", "loop", "parallel_kernel", "state_function")
CONSTANTS = ("WIDTH", "MAX_MOVES", "HAS_PREDECESSORS")


def _unbound(role):
    raise NotImplementedError(f"{role} is bound per puzzle family by vecsearch.engine.codegen")


@state_function
def expand_state(state, tables, kids, moves):
    return _unbound("expand_state")


@state_function
def predecessors_state(state, tables, kids, moves):
    return _unbound("predecessors_state")


@state_function
def rank_state(state, tables):
    return _unbound("rank_state")


@state_function
def component_state(state, tables):
    return _unbound("component_state")


@state_function
def expand_ranked_state(state, tables, kids, moves, ranks):
    return _unbound("expand_ranked_state")


@state_function
def predecessors_ranked_state(state, tables, kids, moves, ranks):
    return _unbound("predecessors_ranked_state")


@state_function
def unrank_state(rank, component, tables):
    return _unbound("unrank_state")


@state_function
def expand_rank_state(rank, component, tables, ranks):
    return _unbound("expand_rank_state")


@state_function
def predecessors_rank_state(rank, component, tables, ranks):
    return _unbound("predecessors_rank_state")


@state_function
def near_rank_state(rank, component, tables, ranks):
    return _unbound("near_rank_state")


@state_function
def near_predecessors_rank_state(rank, component, tables, ranks):
    return _unbound("near_predecessors_rank_state")


@state_function
def heuristic_state(state, htables):
    return _unbound("heuristic_state")


@state_function
def heuristic_update_state(parent, info, child, htables):
    return _unbound("heuristic_update_state")


ROLES = ("expand_state", "predecessors_state", "rank_state", "component_state", "expand_ranked_state",
         "predecessors_ranked_state", "unrank_state", "expand_rank_state", "predecessors_rank_state",
         "near_rank_state", "near_predecessors_rank_state", "heuristic_state", "heuristic_update_state")

__all__ = [  # everything a template may import from here
    "expand_state", "predecessors_state", "rank_state", "component_state", "expand_ranked_state",
    "predecessors_ranked_state", "unrank_state", "expand_rank_state", "predecessors_rank_state", "near_rank_state",
    "near_predecessors_rank_state", "heuristic_state", "heuristic_update_state",
    "WIDTH", "MAX_MOVES", "HAS_PREDECESSORS", "kernel", "loop", "parallel_kernel", "state_function",
    "empty_at", "hash_at", "equal_at", "less_at", "copy_at", "new_states", "first_word", "state_hash", "states_equal",
]
