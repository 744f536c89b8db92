"""Solitaire (POJ 1198) in plain Python: a configuration is a frozenset of (row, col) squares.

Nothing here imports vecsearch. Moves are named as vecsearch labels them: ``"r c D"``, the
moving piece's square and its direction (U, D, L, R).
"""

from __future__ import annotations

import random

from reference import bfs_layers

DIRECTIONS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def on_board(square) -> bool:
    return 1 <= square[0] <= 8 and 1 <= square[1] <= 8


def neighbours(config, jumps=True):
    """Every legal move: a step onto an empty neighbour, or (``jumps``) a jump over an occupied
    neighbour onto the empty square beyond it."""
    out = []
    for row, col in sorted(config):
        for name, (dr, dc) in DIRECTIONS.items():
            near = (row + dr, col + dc)
            far = (row + 2 * dr, col + 2 * dc)
            if not on_board(near):
                continue
            if near not in config:
                target = near
            elif jumps and on_board(far) and far not in config:
                target = far
            else:
                continue
            out.append((f"{row} {col} {name}", config - {(row, col)} | {target}))
    return out


def step_neighbours(config):
    """The same game without jumps (to find targets that are close only thanks to jumps)."""
    return neighbours(config, jumps=False)


def parse(line: str) -> frozenset:
    values = [int(v) for v in line.split()]
    return frozenset(zip(values[::2], values[1::2], strict=True))


def text(config) -> str:
    return " ".join(f"{r} {c}" for r, c in sorted(config))


def distance_within(first, second, limit, moves=neighbours):
    """The exact distance if it is at most ``limit``, else None: balls of radius
    ceil(limit/2) around ``first`` and floor(limit/2) around ``second``; a shortest path of
    length d <= limit has a square at ceil(d/2) from ``first`` and floor(d/2) from ``second``."""
    around_first = {s: d for d, layer in enumerate(bfs_layers([first], moves, (limit + 1) // 2)) for s in layer}
    around_second = {s: d for d, layer in enumerate(bfs_layers([second], moves, limit // 2)) for s in layer}
    sums = [d + around_second[s] for s, d in around_first.items() if s in around_second]
    return min(sums) if sums else None


def random_config(rng: random.Random) -> frozenset:
    squares = [(r, c) for r in range(1, 9) for c in range(1, 9)]
    return frozenset(rng.sample(squares, 4))


def random_walk(config, length, rng: random.Random) -> frozenset:
    for _ in range(length):
        config = rng.choice(neighbours(config))[1]
    return config


def pair_at(rng: random.Random, distance: int) -> tuple[frozenset, frozenset]:
    """A pair exactly ``distance`` apart (``distance_within``), found by random walks."""
    while True:
        first = random_config(rng)
        second = random_walk(first, 2 * distance, rng)
        if distance_within(first, second, distance) == distance:
            return first, second


def random_pairs(walks: int, strangers: int, seed: int = 1198) -> list[tuple[frozenset, frozenset]]:
    """``walks`` pairs a random walk of 0-30 moves apart, then ``strangers`` pairs of random
    configurations (almost always far apart)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(walks):
        first = random_config(rng)
        pairs.append((first, random_walk(first, rng.randint(0, 30), rng)))
    return pairs + [(random_config(rng), random_config(rng)) for _ in range(strangers)]
