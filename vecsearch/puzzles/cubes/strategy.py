"""How datasets of the Cubic Eight-Puzzle are searched: each is first mapped by a board
symmetry (``symmetry``) to one of three starts; datasets sharing a start meet a ball around it,
the others are searched bidirectionally."""

from __future__ import annotations

from collections import defaultdict

from vecsearch.engine.search import bidirectional
from vecsearch.engine.solution import Solution
from vecsearch.engine.solve import distance_table
from vecsearch.puzzles.cubes.puzzle import cubic_puzzle
from vecsearch.puzzles.cubes.rules import JUDGE_LIMIT, Dataset, goal_states, start_state
from vecsearch.puzzles.cubes.symmetry import canonical

# A ball of radius r around a start is a distance table of the states within r rolls of it;
# a dataset then costs only a search from its goal set to depth 30 - r. Measured: a radius-20
# ball costs about one hard bidirectional search, radius 22 two, 24 four or five, 26 seven;
# a dataset 30 or more steps away then costs a third, a sixth, a tenth, a fifteenth of one.
BALL_RADII = ((2, 20), (5, 22), (20, 24), (120, 26))  # (datasets sharing the start, ball radius)


def ball_radius(count: int) -> int | None:
    """Radius of the ball shared by ``count`` datasets with one start (None: none, search
    bidirectionally)."""
    radius = None
    for at_least, r in BALL_RADII:
        if count >= at_least:
            radius = r
    return radius


def search(dataset: Dataset, max_depth, radius, path):
    """The search result for the dataset's image under its canonical symmetry, and the
    symmetry (its solution, if any, is in the image's frame)."""
    puzzle = cubic_puzzle()
    g, image = canonical(dataset)
    start = start_state(image.x, image.y)
    goals = goal_states(image.pattern)
    if radius is None:
        return bidirectional(puzzle, start, goals, max_depth=max_depth, path=path), g
    return distance_table(puzzle, start, max_depth=radius).search(goals, max_depth=max_depth, path=path), g


def solve(dataset: Dataset, *, max_depth: int | None = JUDGE_LIMIT, radius: int | None = None) -> Solution | None:
    """A shortest roll sequence from the dataset's start to its pattern (None: none within
    ``max_depth``). ``radius``: meet a shared ball of that radius around the start (built once
    per process) instead of searching bidirectionally."""
    result, g = search(dataset, max_depth, radius, True)
    if result.solution is None:
        return None
    found = result.solution if radius is None else result.solution.reversed()  # a ball's paths end at the start
    return g.solution_back(found)


def radii(datasets) -> list[int | None]:
    """The ball radius of each dataset (``ball_radius`` of how many share its canonical start)."""
    sharing = defaultdict(int)
    starts = [canonical(d)[1].empty for d in datasets]
    for e in starts:
        sharing[e] += 1
    return [ball_radius(sharing[e]) for e in starts]


def solve_many(datasets, *, max_depth: int | None = JUDGE_LIMIT) -> list[Solution | None]:
    """``solve`` for each dataset; datasets whose starts agree up to symmetry share a ball
    sized by their number (``BALL_RADII``)."""
    datasets = list(datasets)
    return [solve(d, max_depth=max_depth, radius=r) for d, r in zip(datasets, radii(datasets))]


def distances(datasets, *, max_depth: int | None = JUDGE_LIMIT) -> list[int | None]:
    """The fewest steps of each dataset (None: more than ``max_depth``), as ``solve_many``
    finds them but without rebuilding the paths (what the judge prints)."""
    datasets = list(datasets)
    return [search(d, max_depth, r, False)[0].length for d, r in zip(datasets, radii(datasets))]
