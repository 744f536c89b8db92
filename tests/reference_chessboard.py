"""A Game on the Chessboard (CEOI 1999) in plain Python: a position is a string of 16 characters
``0``/``1``, rows top to bottom. Nothing here imports vecsearch.

Moves are named as the judge prints them, ``"R1 C1 R2 C2"`` (1-based fields of the swap).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import permutations

SWAPS = [((r, c), (r, c + 1)) for r in range(1, 5) for c in range(1, 4)] + \
        [((r, c), (r + 1, c)) for r in range(1, 4) for c in range(1, 5)]


def index(field) -> int:
    return 4 * (field[0] - 1) + field[1] - 1


def neighbours(position: str):
    """Every swap of two side-adjacent fields (swapping equal stones gives the same position)."""
    out = []
    for a, b in SWAPS:
        cells = list(position)
        cells[index(a)], cells[index(b)] = cells[index(b)], cells[index(a)]
        out.append((f"{a[0]} {a[1]} {b[0]} {b[1]}", "".join(cells)))
    return out


def parse(rows: str) -> str:
    """Four rows separated by blanks or newlines."""
    return "".join(rows.split())


def rows(position: str) -> str:
    return "\n".join(position[i:i + 4] for i in range(0, 16, 4))


def blacks(position: str) -> list[tuple[int, int]]:
    return [(i // 4, i % 4) for i, v in enumerate(position) if v == "1"]


def matching_cost(start: str, final: str) -> int:
    """Minimum total Manhattan distance of a perfect matching between the black fields, by
    dynamic programming over the subsets of final fields used by the first black stones."""
    a, b = blacks(start), blacks(final)

    @cache
    def best(i, used):
        if i == len(a):
            return 0
        return min(abs(a[i][0] - b[j][0]) + abs(a[i][1] - b[j][1]) + best(i + 1, used | 1 << j)
                   for j in range(len(b)) if not used >> j & 1)

    return best(0, 0)


def matching_cost_brute_force(start: str, final: str) -> int:
    """The same minimum over every permutation (for few stones)."""
    a, b = blacks(start), blacks(final)
    return min(sum(abs(p[0] - q[0]) + abs(p[1] - q[1]) for p, q in zip(a, perm, strict=True))
               for perm in permutations(b))


def random_position(rng: random.Random, black: int) -> str:
    cells = ["1"] * black + ["0"] * (16 - black)
    rng.shuffle(cells)
    return "".join(cells)
