"""Plain-Python references for the value-based puzzles of ``examples/``: Rush Hour, water jugs,
Lights Out, as ``neighbours(state) -> [(move name, state)]`` over tuples. Nothing here imports
vecsearch or the examples."""


def rush_hour(rows):
    """Cars of a 6x6 card (rows of letters, ``.`` empty, ``X`` the red car): the start (each
    car's distance from the left or top edge, in ``sorted`` name order with X last) and the
    neighbours of a state (a car slides 1 to 4 cells along its line: ``A+2``, ``P-1``)."""
    names = sorted(set("".join(rows)) - {".", "X"}) + ["X"]
    cars = []
    for name in names:
        cells = [(r, c) for r in range(6) for c in range(6) if rows[r][c] == name]
        across = cells[0][0] == cells[-1][0]
        cars.append((name, across, cells[0][0] if across else cells[0][1], len(cells)))
    start = tuple(min(c if across else r for r, c in ((r, c) for r in range(6) for c in range(6)
                                                      if rows[r][c] == name)) for name, across, _, _ in cars)

    def cells_of(state):
        taken = set()
        for (_, across, line, length), at in zip(cars, state, strict=True):
            taken |= {(line, at + s) if across else (at + s, line) for s in range(length)}
        return taken

    def neighbours(state):
        taken, out = cells_of(state), []
        for i, (name, across, line, length) in enumerate(cars):
            for way, sign in ((-1, "-"), (1, "+")):
                for distance in range(1, 5):
                    at = state[i] + way * distance
                    entered = at if way < 0 else at + length - 1
                    if not 0 <= entered < 6 or ((line, entered) if across else (entered, line)) in taken:
                        break
                    out.append((f"{name}{sign}{distance}", state[:i] + (at,) + state[i + 1:]))
        return out

    return start, neighbours


def jugs(capacity):
    """Pour jug i into jug j until i is empty or j is full (``A>B``)."""
    letters = "ABCDEFGH"

    def neighbours(state):
        out = []
        for i, a in enumerate(state):
            for j, b in enumerate(state):
                amount = min(a, capacity[j] - b)
                if i != j and amount > 0:
                    after = list(state)
                    after[i] -= amount
                    after[j] += amount
                    out.append((f"{letters[i]}>{letters[j]}", tuple(after)))
        return out

    return neighbours


def lights_out(n):
    """Pressing light m toggles it and its side neighbours (moves named by the light's number)."""
    def neighbours(state):
        out = []
        for m in range(n * n):
            r, c = divmod(m, n)
            after = list(state)
            for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    after[(r + dr) * n + c + dc] ^= 1
            out.append((str(m), tuple(after)))
        return out

    return neighbours
