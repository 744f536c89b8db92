"""Lights Out: pressing a light toggles it and its side neighbours; switch every light off."""

import numpy as np

import vecsearch as vs


def press(lights, tables, after, moves):  # after[m]: the lights after pressing light m
    toggled = tables[0]  # toggled[m, i]: 1 if pressing m toggles light i
    for m in range(len(lights)):
        for i in range(len(lights)):
            after[m, i] = (lights[i] + toggled[m, i]) % 2
        moves[m] = m
    return len(lights)


def lights_out(n):
    toggled = np.zeros((n * n, n * n), np.int64)
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    toggled[r * n + c, rr * n + cc] = 1
    return vs.ValuePuzzle(f"lights-out-{n}", vs.Subset(n * n), press, n * n, tables=(toggled,),
                          start=[1] * (n * n), goal=[0] * (n * n))


puzzle = lights_out(5)
