"""Distances from every state of one set to the nearest state of another: ``distances_between``.

One backward search from the goal set (a ``DistanceTable``, a byte per rank), then a lookup per
start: the counts of starts at each distance, how many no goal reaches, and the farthest starts.
Its maximum is "God's number between two phases" of a method when the starts are every
position a phase leaves and the goals every position the next one needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vecsearch.engine.results.profile import Profile
from vecsearch.engine.runtime.endpoints import as_puzzle
from vecsearch.engine.tables.distance import DistanceTable

FARTHEST = 8  # farthest starts kept as examples


@dataclass
class Distances:
    """How far each start is from the nearest goal: ``counts[d]`` starts at distance ``d``,
    ``unreachable`` starts that no goal reaches; ``farthest``: some starts at the largest
    distance (packed states); ``profile``: the goal side's search; ``left_out``: starts not
    counted at all, with the reason (``note``), e.g. positions the puzzle cannot reach."""

    puzzle: object
    counts: list[int]
    unreachable: int
    farthest: np.ndarray
    profile: Profile = field(repr=False)
    left_out: int = 0
    note: str = ""

    @property
    def maximum(self) -> int | None:
        """The largest distance of a start that a goal reaches (None: none does)."""
        return len(self.counts) - 1 if self.counts else None

    @property
    def starts(self) -> int:
        """How many starts were asked about (reached or not)."""
        return sum(self.counts) + self.unreachable

    def table(self) -> str:
        """The starts per distance as a text table (and the unreachable ones)."""
        rows = [f"{'distance':>8} {'starts':>14}"]
        rows += [f"{d:>8} {c:>14,}" for d, c in enumerate(self.counts)]
        if self.unreachable:
            rows.append(f"{'never':>8} {self.unreachable:>14,}")
        most = "no start reaches a goal" if self.maximum is None else f"at most {self.maximum} moves"
        rows.append(f"{self.starts:,} starts, {most}")
        if self.left_out:
            rows.append(f"{self.left_out:,} left out: {self.note}")
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.table()


def distances_between(puzzle, starts, goals, *, threads=None, max_memory=None, progress=False) -> Distances:
    """The distance from each of many starts to the nearest of many goals.

    One distance table is built backwards from the goals, then each start is one lookup; starts
    in another component never reach a goal.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle (with a rank and predecessors), or its name.
    starts : states, texts or a set the puzzle reads
        The starts.
    goals : states, texts or a set the puzzle reads
        The goals, in one component.
    threads : int, optional
        Threads (default: all cores).
    max_memory : int or str, optional
        Bytes the table may use.
    progress : bool, default False
        Draw a bar of the table's layers.

    Returns
    -------
    Distances
        ``counts[d]``: starts at distance ``d``; ``maximum``; ``unreachable``; ``farthest``.

    See Also
    --------
    phases : The same between two patterns of a permutation puzzle.

    Examples
    --------
    >>> between = vs.distances_between("sliding-2x3", ["1 2 3 4 5 x", "x 5 4 3 2 1"], "1 2 3 4 5 x")
    >>> between.counts[0], between.maximum, between.starts
    (1, 15, 2)
    """
    puzzle = as_puzzle(puzzle)
    return distances_in(DistanceTable(puzzle, goals, threads=threads, max_memory=max_memory, progress=progress), starts)


def distances_in(table: DistanceTable, starts) -> Distances:
    """``distances_between`` for a distance table already built (its goals are the goal set)."""
    puzzle = table.puzzle
    starts = puzzle.states(starts)
    distances = table.distances_of(starts)
    reached = distances >= 0
    counts = np.bincount(distances[reached]).tolist() if reached.any() else []
    farthest = starts[reached & (distances == len(counts) - 1)][:FARTHEST] if counts else starts[:0]
    return Distances(puzzle, counts, int((~reached).sum()), farthest, table.profile)
