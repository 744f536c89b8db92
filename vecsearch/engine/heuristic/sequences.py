"""The move sequences a depth-first search plays: an automaton over move indices.

``table[s, m]`` is the automaton's state after move ``m`` from state ``s``, or -1 when the
search does not play ``m`` there; state 0 is the start (no move yet). IDA* walks it beside the
path, so a whole class of redundant sequences is never generated.

- ``undo_automaton``: the state is the last move; a move that undoes it is not played
  (``Puzzle.inverse_moves``). Every puzzle gets at least this.
- ``canonical_automaton``: twsearch's *canonical sequences*, for puzzles whose moves form a
  group and cost one each. The state is the set of moves played since the last move that did
  not commute with all of them (each of them could be carried forward to the present). A move
  ``m`` is not played when some move ``i`` of that set combines with it into nothing or into a
  single move (``i m`` is the identity or in the move set: a shorter sequence exists), or when
  ``i`` comes after ``m`` in move order and commutes with it (the other order is the one
  played). Each position is still reached by a shortest sequence: of the sequences equal to a
  shortest one up to swapping neighbours that commute, one passes (the 3x3x3 in the half-turn
  metric: 1, 18, 243, 3,240, 43,254 sequences of length 0..4, against 18^4 = 104,976 plain).
  When the sets exceed ``MAX_STATES`` (many mutually commuting moves), the state is the last
  move alone (the same rules against it).
"""

from __future__ import annotations

import numpy as np

MAX_STATES = 1 << 12  # automaton states kept before falling back to the last move alone


def undo_automaton(inverse_moves, moves: int) -> np.ndarray:
    """States ``0`` (start) and ``1 + m`` (the last move was ``m``); ``inverse_moves[m]`` is not
    played after ``m`` (``None`` or -1: every move is played)."""
    table = np.tile(np.arange(1, moves + 1, dtype=np.int32), (moves + 1, 1))
    if inverse_moves is not None:
        for m, back in enumerate(inverse_moves):
            if back >= 0:
                table[1 + m, back] = -1
    return table


def canonical_automaton(commute: np.ndarray, merges: np.ndarray, *, max_states: int = MAX_STATES) -> np.ndarray:
    """The canonical-sequence automaton of moves with ``commute[i, m]`` (moves ``i`` and ``m``
    commute) and ``merges[i, m]`` (``i`` then ``m`` is the identity or a single move)."""
    moves = len(commute)
    commute, merges = np.asarray(commute, bool), np.asarray(merges, bool)

    def step(played: frozenset, m: int):
        if any(merges[i, m] or (i > m and commute[i, m]) for i in played):
            return None
        return frozenset([m, *(i for i in played if commute[i, m])])

    index, order = {frozenset(): 0}, [frozenset()]
    rows = []
    while len(rows) < len(order):
        row = []
        for m in range(moves):
            after = step(order[len(rows)], m)
            if after is not None and after not in index:
                if len(order) >= max_states:
                    return _last_move_automaton(commute, merges)
                index[after] = len(order)
                order.append(after)
            row.append(-1 if after is None else index[after])
        rows.append(row)
    return np.array(rows, dtype=np.int32).reshape(len(rows), moves)


def _last_move_automaton(commute, merges) -> np.ndarray:
    """The canonical rules against the last move only (state ``1 + m``)."""
    moves = len(commute)
    table = undo_automaton(None, moves)
    for last in range(moves):
        for m in range(moves):
            if merges[last, m] or (last > m and commute[last, m]):
                table[1 + last, m] = -1
    return table


def sequence_table(puzzle) -> np.ndarray:
    """The automaton IDA* walks for ``puzzle``: its own (``Puzzle.move_sequences``), else the
    undo automaton of its ``inverse_moves``."""
    own = puzzle.move_sequences
    if own is not None:
        return own
    return undo_automaton(puzzle.inverse_moves, puzzle.max_moves)


def sequence_counts(table: np.ndarray, depth: int) -> list[int]:
    """How many sequences of each length ``0 .. depth`` the automaton plays."""
    at = np.zeros(len(table), dtype=object)
    at[0] = 1
    counts = [1]
    for _ in range(depth):
        after = np.zeros(len(table), dtype=object)
        for s in np.flatnonzero(at):
            for nxt in table[s]:
                if nxt >= 0:
                    after[nxt] += at[s]
        at = after
        counts.append(int(at.sum()))
    return counts
