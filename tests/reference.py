"""Obviously-correct reference searches: plain Python over hashable states, sets and dicts.

Nothing here imports vecsearch. Puzzles are given as ``neighbours(state) -> [(move, state)]``.
"""

from __future__ import annotations

import functools
import math
import random
from collections import deque
from types import MappingProxyType


def bfs_layers(starts, neighbours, max_depth=None) -> list[set]:
    """The BFS layers from ``starts``: ``layers[d]`` = states first reached at depth d."""
    seen = set(starts)
    layers = [set(starts)]
    while layers[-1] and (max_depth is None or len(layers) <= max_depth):
        nxt = set()
        for state in layers[-1]:
            for _, child in neighbours(state):
                if child not in seen:
                    seen.add(child)
                    nxt.add(child)
        layers.append(nxt)
    if not layers[-1]:
        layers.pop()
    return layers


def distances(starts, neighbours) -> dict:
    """Distance from the nearest start to every reachable state."""
    dist = {s: 0 for s in starts}
    queue = deque(starts)
    while queue:
        state = queue.popleft()
        for _, child in neighbours(state):
            if child not in dist:
                dist[child] = dist[state] + 1
                queue.append(child)
    return dist


def replay(start, moves, neighbours):
    """The state reached by playing ``moves``; raises AssertionError on an illegal move."""
    state = start
    for move in moves:
        options = dict(neighbours(state))
        assert move in options, f"move {move!r} is not legal in {state!r}"
        state = options[move]
    return state


# --- sliding-tile puzzles, states as tuples of tiles (0 = blank), row-major ----------------

def sliding_neighbours(rows, cols):
    """Moves named by the direction the blank travels."""
    steps = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}

    def neighbours(state):
        b = state.index(0)
        r, c = divmod(b, cols)
        out = []
        for name, (dr, dc) in steps.items():
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                t = (r + dr) * cols + c + dc
                cells = list(state)
                cells[b], cells[t] = cells[t], 0
                out.append((name, tuple(cells)))
        return out

    return neighbours


@functools.cache
def goal_distances(rows, cols):
    """``distances`` to the usual goal of the rows x cols puzzle, computed once per session and
    shared by the tests (so read-only)."""
    return MappingProxyType(distances([sliding_goal(rows, cols)], sliding_neighbours(rows, cols)))


def sliding_tuple(text):
    return tuple(0 if token in ("x", "0") else int(token) for token in text.split())


def sliding_goal(rows, cols):
    return tuple(range(1, rows * cols)) + (0,)


def sliding_solvable(state, rows, cols, goal):
    """Solvable iff start and goal agree on (tile inversions + blank row) parity for even width,
    or on tile inversion parity for odd width (the textbook rule)."""
    def key(s):
        tiles = [t for t in s if t]
        inversions = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
        if cols % 2:
            return inversions % 2
        return (inversions + s.index(0) // cols) % 2
    return key(state) == key(goal)


def pack_sliding(state) -> int:
    """4 bits per cell, cell i at bits 4i (as a signed 64-bit int)."""
    value = sum(tile << (4 * i) for i, tile in enumerate(state))
    return value - (1 << 64) if value >= 1 << 63 else value


def unpack_sliding(value, cells) -> tuple:
    value &= (1 << 64) - 1
    return tuple((value >> (4 * i)) & 15 for i in range(cells))


# --- permutation puzzles: a state is a tuple with one (pieces, twists) pair per orbit ---------

def permutation_neighbours(moves, orientations):
    """``moves``: ``[(name, {orbit index: (permutation, twist)})]``. A move puts the piece of slot
    ``permutation[i]`` into slot ``i``, its orientation raised by ``twist[i]`` (mod the orbit's
    ``orientations``); orbits a move does not list stay put."""
    def neighbours(state):
        out = []
        for name, changes in moves:
            new = list(state)
            for j, (permutation, twist) in changes.items():
                pieces, twists = state[j]
                k = orientations[j]
                new[j] = (tuple(pieces[p] for p in permutation),
                          tuple((twists[p] + t) % k for p, t in zip(permutation, twist, strict=True)))
            out.append((name, tuple(new)))
        return out

    return neighbours


def labelled_neighbours(moves, orientations, ignored=(), illegal=None, blocks=()):
    """``permutation_neighbours`` for states whose pieces are *labels* (identical pieces share
    one): ``ignored[j]``, the labels of orbit ``j`` whose orientation stays 0 whatever a move
    adds; ``illegal[j][slot]``, labels that slot may not hold (no move enters such a state);
    ``blocks``, ``[{orbit j: labels}]`` of pieces that move together: a move whose ``moved``
    slots hold some but not all of a block's pieces is not played. ``moves``: ``[(name,
    changes, moved)]``, ``moved`` ``{j: slots}`` (None: the slots the move changes)."""
    illegal = illegal or {}

    def legal(state):
        return not any(state[j][0][slot] in labels for j, slots in illegal.items() for slot, labels in slots.items())

    def neighbours(state):
        out = []
        for name, changes, moved in moves:
            if moved is None:
                moved = {j: {i for i, (p, t) in enumerate(zip(*change, strict=True)) if p != i or t}
                         for j, change in changes.items()}
            if any(0 < sum(state[j][0][s] in labels for j, labels in block.items() for s in moved.get(j, ()))
                   < sum(state[j][0].count(v) for j, labels in block.items() for v in labels) for block in blocks):
                continue
            new = list(state)
            for j, (permutation, twist) in changes.items():
                pieces, twists = state[j]
                k, skip = orientations[j], ignored[j] if ignored else ()
                new[j] = (tuple(pieces[p] for p in permutation),
                          tuple(0 if pieces[p] in skip else (twists[p] + t) % k
                                for p, t in zip(permutation, twist, strict=True)))
            if legal(tuple(new)):
                out.append((name, tuple(new)))
        return out

    return neighbours


def pancake_neighbours(n):
    """A stack as a tuple of sizes, top first; move ``rK`` reverses the top K."""
    def neighbours(stack):
        return [(f"r{k}", stack[:k][::-1] + stack[k:]) for k in range(2, n + 1)]

    return neighbours


def thread_ranks(rank_size, chunk, seed=7):
    """Increasing ranks as a thread of a two-bit search meets them (to test rank-space moves that
    remember the ranks before): runs of consecutive ranks and of small gaps, across the multiples
    of ``chunk`` and of the factorials (where the high digits change), rank 0 and the last, and
    jumps between."""
    rng = random.Random(seed)
    picked = {0, rank_size - 1}
    for start in [rng.randrange(rank_size) for _ in range(6)]:
        picked.update(range(start, min(rank_size, start + 40)))
        picked.update(range(start, min(rank_size, start + 300), rng.randrange(2, 9)))
    for edge in [*range(chunk, rank_size, chunk)][:5] + [math.factorial(k) for k in range(2, 12)]:
        picked.update(range(max(0, edge - 3), min(rank_size, edge + 3)))
    return sorted(picked)
