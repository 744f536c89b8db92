"""An independent check of Eight (POJ 1077) answers, for the benchmarks that time them.

The distances come from a plain-Python breadth-first search from the goal over tuples (no
vecsearch code); an answer is right when it is "unsolvable" exactly for the states that search
never reached, and otherwise as long as the distance. A sample of the move strings is also
replayed (the blank travels ``u``, ``d``, ``l``, ``r``) to check that it ends at the goal.
"""

from __future__ import annotations

import random
from collections import deque
from functools import cache

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
STEPS = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def moved(state: tuple, step: str, rows: int = 3, cols: int = 3) -> tuple | None:
    """The board after the blank's ``step`` (None off the board); boards of ``rows`` x ``cols``."""
    b = state.index(0)
    r, c = divmod(b, cols)
    dr, dc = STEPS[step]
    if not (0 <= r + dr < rows and 0 <= c + dc < cols):
        return None
    t = (r + dr) * cols + c + dc
    cells = list(state)
    cells[b], cells[t] = cells[t], 0
    return tuple(cells)


@cache
def distances() -> dict[tuple, int]:
    found = {GOAL: 0}
    queue = deque([GOAL])
    while queue:
        state = queue.popleft()
        for step in STEPS:
            child = moved(state, step)
            if child is not None and child not in found:
                found[child] = found[state] + 1
                queue.append(child)
    return found


def parse(line: str) -> tuple:
    return tuple(0 if token == "x" else int(token) for token in line.split())


def check(instances: list[str], answers: list[str | None], replay: int = 10_000) -> None:
    """``answers[i]``: the move string for ``instances[i]``, None for "unsolvable"."""
    assert len(answers) == len(instances), f"{len(answers)} answers for {len(instances)} instances"
    known = distances()
    for line, answer in zip(instances, answers, strict=True):
        distance = known.get(parse(line))
        assert (answer is None) == (distance is None), f"{line!r}: answered {answer!r}"
        assert answer is None or len(answer) == distance, f"{line!r}: {answer!r} is not a shortest solution"
    for i in random.Random(1077).sample(range(len(instances)), min(replay, len(instances))):
        state = parse(instances[i])
        for step in answers[i] or "":
            state = moved(state, step)
            assert state is not None, f"{instances[i]!r}: {answers[i]!r} leaves the board"
        assert answers[i] is None or state == GOAL, f"{instances[i]!r}: {answers[i]!r} does not reach the goal"
