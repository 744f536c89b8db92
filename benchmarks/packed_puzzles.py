"""The hand-packed versions of ``examples/rush_hour.py`` and ``examples/jugs.py``: what an expert
writes without ``ValuePuzzle`` (bit fields shifted in and out of an int, a hand-made mixed-radix
rank, occupancy as a bit mask). The value-based versions are timed against these
(``bench_values.py``); both are a user's puzzles, so both run behind the same guards.

State layouts: a Rush Hour state holds car ``i``'s distance from the left (top) edge in bits
``3i .. 3i+2``; a jugs state holds jug ``i``'s content in bits ``6i .. 6i+5``.
"""

import numpy as np

import vecsearch as vs


def rush_expand(state, tables, children, moves):
    masks, entered, cars = tables[0], tables[1], tables[2][0]
    taken = 0
    for i in range(cars):
        taken |= masks[i, (state >> (3 * i)) & 7]
    k = 0
    for i in range(cars):
        at = (state >> (3 * i)) & 7
        for way in range(2):
            for distance in range(1, 5):
                cell = entered[i, way, at, distance]  # the cell the car's front enters, -1 off the board
                if cell < 0 or (taken >> cell) & 1:
                    break
                children[k] = state - (distance << (3 * i)) if way == 0 else state + (distance << (3 * i))
                moves[k] = 8 * i + 4 * way + distance - 1
                k += 1
    return k


def rush_rank(state, tables):
    weights, cars = tables[3], tables[2][0]
    rank = 0
    for i in range(cars):
        rank += ((state >> (3 * i)) & 7) * weights[i]
    return rank


def rush_out(state, tables):
    cars = tables[2][0]
    return (state >> (3 * (cars - 1))) & 7 == 4


def rush_card(rows):
    """The card's puzzle, cars in ``sorted`` name order with X last (as ``examples.rush_hour``)."""
    names = sorted(set("".join(rows)) - {".", "X"}) + ["X"]
    cars = len(names)
    masks = np.zeros((cars, 8), np.int64)
    entered = np.full((cars, 2, 8, 5), -1, np.int64)
    ranges, start = [], 0
    for i, name in enumerate(names):
        cells = [(r, c) for r in range(6) for c in range(6) if rows[r][c] == name]
        across = cells[0][0] == cells[-1][0]
        line, length = (cells[0][0] if across else cells[0][1]), len(cells)
        index = (lambda x, line=line: line * 6 + x) if across else (lambda x, line=line: x * 6 + line)
        ranges.append(7 - length)
        start |= (cells[0][1] if across else cells[0][0]) << (3 * i)
        for at in range(7 - length):
            masks[i, at] = sum(1 << index(at + s) for s in range(length))
            for distance in range(1, 5):
                if at - distance >= 0:
                    entered[i, 0, at, distance] = index(at - distance)
                if at + length + distance - 1 < 6:
                    entered[i, 1, at, distance] = index(at + length + distance - 1)
    weights = np.cumprod([1] + ranges[:-1]).astype(np.int64)
    size = int(np.prod(ranges))
    return vs.Puzzle("rush-hour-packed", rush_expand, vs.Moves(8 * cars), rank=vs.Rank(rush_rank, size),
                     tables=(masks, entered, np.array([cars]), weights), start=start, goal=rush_out)


def jug_expand(state, tables, children, moves):
    capacity, n, k = tables[0], tables[0].shape[0], 0
    for i in range(n):
        for j in range(n):
            a, b = (state >> (6 * i)) & 63, (state >> (6 * j)) & 63
            amount = min(a, capacity[j] - b)
            if i != j and amount > 0:
                children[k] = state - (amount << (6 * i)) + (amount << (6 * j))
                moves[k] = n * i + j
                k += 1
    return k


def jug_rank(state, tables):
    capacity, rank, weight = tables[0], 0, 1
    for i in range(capacity.shape[0]):
        rank += ((state >> (6 * i)) & 63) * weight
        weight *= capacity[i] + 1
    return rank


def jugs(capacity, start, goal):
    """The jugs puzzle (contents below 64), as ``examples.jugs.jugs``."""
    pack = lambda values: sum(v << (6 * i) for i, v in enumerate(values))  # noqa: E731
    size = int(np.prod(np.array(capacity) + 1))
    return vs.Puzzle("jugs-packed", vs.Rules(jug_expand, reversible=False), vs.Moves(len(capacity) ** 2),
                     rank=vs.Rank(jug_rank, size), tables=(np.array(capacity, np.int64),), start=pack(start),
                     goal=pack(goal))
