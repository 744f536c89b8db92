"""Tower of Hanoi as a new user writes it: plain Python functions in an importable module.

State: disc ``d`` (0 the smallest) on peg ``(state >> 2d) & 3``; ``tables[0][0]`` is the number of
discs. Move ``3a + b`` takes the top disc of peg ``a`` to peg ``b``. Used by the tests and the
benchmarks of kernel caching: its kernels load from disk in a second process.
"""

import numpy as np

import vecsearch as vs


def expand(state, tables, children, moves):
    discs = tables[0][0]
    tops = [discs, discs, discs]
    for disc in range(discs - 1, -1, -1):
        tops[(state >> (2 * disc)) & 3] = disc
    count = 0
    for a in range(3):
        for b in range(3):
            if a != b and tops[a] < tops[b]:
                children[count] = state + ((b - a) << (2 * tops[a]))
                moves[count] = 3 * a + b
                count += 1
    return count


def rank(state, tables):
    return state


def puzzle(discs: int) -> vs.Puzzle:
    """All discs on peg 0 to all on peg 2."""
    return vs.Puzzle(f"hanoi-{discs}", expand, 9, rank=vs.Rank(rank, 4 ** discs), tables=(np.array([discs], np.int64),),
                     start=0, goal=sum(2 << (2 * d) for d in range(discs)))
