"""Plain-Python Gap (POJ 2046), written from gap.md; imports nothing of vecsearch.

A layout is a tuple of 32 cells, row by row over the 4x8 grid (cell = 8 * row + column, both
from 0), each a card number (11..47) or 0 for a gap. Moves are named ``gap1`` .. ``gap4``: fill
the k-th gap counted in reading order.
"""

from __future__ import annotations

GOAL = tuple(0 if c == 7 else 10 * (r + 1) + c + 1 for r in range(4) for c in range(8))


def set_up(rows):
    """The layout after the set-up of 4 dealt rows of 7 cards."""
    cells = []
    for r, row in enumerate(rows):
        cells.append(10 * (r + 1) + 1)  # the row's ace, in column 1
        cells.extend(0 if card % 10 == 1 else card for card in row)
    return tuple(cells)


def neighbours(layout):
    gaps = [i for i, card in enumerate(layout) if card == 0]
    out = []
    for k, gap in enumerate(gaps):
        left = layout[gap - 1]  # a gap is never in column 1: the aces stay there
        if left == 0 or left % 10 == 7:
            continue
        card = left + 1
        cells = list(layout)
        cells[cells.index(card)] = 0
        cells[gap] = card
        out.append((f"gap{k + 1}", tuple(cells)))
    return out


def replay(layout, moves):
    """The layout after the named moves; KeyError on an illegal one."""
    for name in moves:
        layout = dict(neighbours(layout))[name]
    return layout


def solve(rows):
    """Fewest moves from the set-up of ``rows`` to the goal, or -1 (plain BFS), and the number
    of layouts reached."""
    first = set_up(rows)
    seen = {first}
    frontier = [first]
    depth = 0
    while frontier:
        if GOAL in frontier:
            return depth, len(seen)
        nxt = []
        for layout in frontier:
            for _, child in neighbours(layout):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
        depth += 1
    return -1, len(seen)


def layout_text(rows) -> str:
    return "\n".join(" ".join(str(card) for card in row) for row in rows)
