"""Canonical move sequences of a permutation puzzle, from its definition (``engine.heuristic.sequences``).

Two moves *commute* when playing them in either order makes the same move (compared as moves of
the definition, pieces and twists: moves that commute there commute on every state). A pair
*merges* when the one then the other is the identity or a move of the move set (``U`` then
``U2`` is ``U'``). A definition with illegal states or blocks plays a move only where it is
allowed, so its sequences only leave out a move undoing the previous one.
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine import canonical_automaton, undo_automaton


def _key(move) -> tuple:
    """What ``move`` does, comparable: its changes of the orbits it does not leave alone."""
    return tuple(sorted((o, (p, t)) for o, (p, t) in move.changes.items() if p != tuple(range(len(p))) or any(t)))


def move_relations(definition, moves) -> tuple[np.ndarray, np.ndarray]:
    """``(commute, merges)`` over ``moves`` (boolean matrices, see the module)."""
    keys = {_key(m) for m in moves} | {()}
    n = len(moves)
    commute = np.zeros((n, n), bool)
    merges = np.zeros((n, n), bool)
    for i, a in enumerate(moves):
        for j, b in enumerate(moves):
            ab = _key(definition.then(a, b))
            commute[i, j] = ab == _key(definition.then(b, a))
            merges[i, j] = ab in keys
    return commute, merges


def canonical_sequences(definition, moves) -> np.ndarray:
    """The automaton of the sequences IDA* plays on ``moves`` (a move set of ``definition``)."""
    commute, merges = move_relations(definition, moves)
    if definition.constrained:
        identity = [next((j for j in range(len(moves)) if _key(definition.then(m, moves[j])) == ()), -1)
                    for m in moves]
        return undo_automaton(identity, len(moves))
    return canonical_automaton(commute, merges)
