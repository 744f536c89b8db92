"""Water jugs: pour one jug into another until it is empty or the other is full (8-5-3 below)."""

import numpy as np

import vecsearch as vs


def pour(jugs, tables, after, moves):  # after[k]: the jugs after move moves[k], a copy of jugs before it
    capacity, n, k = tables[0], len(jugs), 0
    for i in range(n):
        for j in range(n):
            amount = min(jugs[i], capacity[j] - jugs[j])
            if i != j and amount > 0:
                after[k, i] -= amount
                after[k, j] += amount
                moves[k] = n * i + j
                k += 1
    return k


def jugs(capacity, start, goal):
    names = [f"{a}>{b}" for a in "ABCDEFGH"[:len(capacity)] for b in "ABCDEFGH"[:len(capacity)]]
    return vs.ValuePuzzle("jugs-" + "-".join(map(str, capacity)), vs.Vector(np.array(capacity) + 1),
                          vs.Rules(pour, reversible=False), vs.Moves(len(names), names),
                          tables=(np.array(capacity),), start=start, goal=goal)


puzzle = jugs([8, 5, 3], start=[8, 0, 0], goal=[4, 4, 0])
