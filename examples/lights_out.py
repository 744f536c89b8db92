"""Lights Out: pressing a light toggles it and its side neighbours; switch every light off."""

import numpy as np

import vecsearch as vs


def press(lights, tables, after, moves):  # after[m]: the lights after pressing light m
    n = tables[0][0]
    for m in range(n * n):
        after[m] = lights
        r, c = divmod(m, n)
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                after[m, (r + dr) * n + c + dc] = 1 - lights[(r + dr) * n + c + dc]
        moves[m] = m
    return n * n


def lights_out(n):
    return vs.ValuePuzzle(f"lights-out-{n}", vs.Subset(n * n), press, n * n, tables=(np.array([n]),),
                          start=[1] * (n * n), goal=[0] * (n * n))


puzzle = lights_out(5)
