"""Plain-Python Cubic Eight-Puzzle (POJ 3131), written from cubes.md; imports nothing of vecsearch.

A state is a tuple of 9 cells, row-major from the top-left (cell = 3 * row + column); a cell is
``None`` (the empty square) or a cube's colours ``(top, x faces, y faces)`` as letters. Moves are
named by the direction the rolled cube travels: ``u`` (up, towards row 0), ``d``, ``l``, ``r``.
"""

from __future__ import annotations

START_CUBE = ("W", "B", "R")
STEPS = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}


def roll(cube, dx, dy):
    top, x, y = cube
    return (x, top, y) if dx else (y, x, top)  # along x: swap top and x; along y: top and y


def neighbours(state):
    empty = state.index(None)
    ex, ey = empty % 3, empty // 3
    out = []
    for name, (dx, dy) in STEPS.items():
        cx, cy = ex - dx, ey - dy  # the cube that travels (dx, dy) into the empty square
        if 0 <= cx < 3 and 0 <= cy < 3:
            cells = list(state)
            cells[empty] = roll(state[cy * 3 + cx], dx, dy)
            cells[cy * 3 + cx] = None
            out.append((name, tuple(cells)))
    return out


def replay(state, moves):
    """The state after the named moves; KeyError on an illegal one."""
    for name in moves:
        state = dict(neighbours(state))[name]
    return state


def start(x, y):
    """All cubes in the start orientation, the empty square at column x, row y (1-based)."""
    return tuple(None if c == 3 * (y - 1) + (x - 1) else START_CUBE for c in range(9))


def tops(state) -> str:
    return "".join("E" if cube is None else cube[0] for cube in state)


def text(state) -> str:
    """The state in vecsearch's cubes text format (three-letter orientations, E for empty)."""
    return " ".join("E" if cube is None else "".join(cube) for cube in state)


def from_text(line: str):
    return tuple(None if token == "E" else tuple(token) for token in line.split())


def solve(x, y, pattern, limit):
    """Fewest steps from ``start(x, y)`` to a state showing ``pattern`` (9 letters), by plain
    BFS, or None if more than ``limit``."""
    first = start(x, y)
    seen = {first}
    frontier = [first]
    for depth in range(limit + 1):
        if any(tops(s) == pattern for s in frontier):
            return depth
        nxt = []
        for s in frontier:
            for _, child in neighbours(s):
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return None


def pattern_distances(x, y):
    """Every reachable state's top pattern mapped to the fewest steps that show it, and the
    BFS layer sizes. The whole reachable space (~4 M states), so states are re-coded for
    speed: a cube as its index in ``CUBES``, the empty square as -1, each move's effect
    tabulated from ``neighbours`` itself."""
    cubes = sorted({(a, b, c) for a in "WBR" for b in "WBR" for c in "WBR" if len({a, b, c}) == 3})
    rolled = {(i, dx, dy): cubes.index(roll(cube, dx, dy)) for i, cube in enumerate(cubes)
              for dx, dy in STEPS.values()}
    first = tuple(-1 if cube is None else cubes.index(cube) for cube in start(x, y))
    moves = []  # (empty cell, cube cell, dx, dy)
    for empty in range(9):
        for dx, dy in STEPS.values():
            cx, cy = empty % 3 - dx, empty // 3 - dy
            if 0 <= cx < 3 and 0 <= cy < 3:
                moves.append((empty, cy * 3 + cx, dx, dy))
    by_empty = {e: [m for m in moves if m[0] == e] for e in range(9)}
    top_letter = [cube[0] for cube in cubes]
    best = {}
    seen = {first}
    frontier = [first]
    layers = []
    while frontier:
        for s in frontier:
            best.setdefault("".join("E" if c < 0 else top_letter[c] for c in s), len(layers))
        layers.append(len(frontier))
        nxt = []
        for s in frontier:
            for empty, cube, dx, dy in by_empty[s.index(-1)]:
                cells = list(s)
                cells[empty] = rolled[s[cube], dx, dy]
                cells[cube] = -1
                child = tuple(cells)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return best, layers
