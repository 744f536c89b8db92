"""Distance tables: one backward BFS from a goal answers every instance with that goal.

``DistanceTable`` stores, for every rank of the goal's component, the distance to the goal
(one byte per rank; ``UNKNOWN`` where unreached). An instance's shortest path is read off by
descent: from the start, repeatedly take the first move (in move order) that lowers the
distance by one. Starts are solved in parallel, and a start in another component answers
"unreachable" in the same pass.
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine import jit
from vecsearch.engine.search import _resolve, bfs
from vecsearch.engine.solution import Solution
from vecsearch.engine.visited import pick
from vecsearch.errors import InvalidPuzzleInput, VecsearchError


class DistanceTable:
    """Distances to ``goal`` (a state or a set in one component; default: the puzzle's goal)."""

    def __init__(self, puzzle, goal=None, *, threads=None, on_layer=None):
        puzzle = _resolve(puzzle)
        if not puzzle.has_rank:
            raise VecsearchError(f"{puzzle.name} has no rank: a distance table needs one")
        if not puzzle.searchable_backward:
            raise VecsearchError(f"{puzzle.name} cannot search backwards: a distance table needs predecessors")
        self.puzzle = puzzle
        goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
        components = set(jit.call(puzzle.kernels.components, goals, puzzle.tables).tolist())
        if len(components) != 1:
            raise InvalidPuzzleInput(f"{puzzle.name}: the goal states lie in {len(components)} components;"
                                     " build one table per component")
        self.component = components.pop()
        self.distances = np.full(puzzle.rank_size, np.iinfo(np.uint8).max, dtype=np.uint8)
        result = bfs(puzzle, goals, backward=True, visited="bitset", threads=threads, on_layer=on_layer,
                     _layer_sink=self._record_layer)
        self.profile = result.profile
        self.max_distance = result.depth

    @property
    def unknown(self) -> int:
        return int(np.iinfo(self.distances.dtype).max)

    def _record_layer(self, depth: int, layer) -> None:
        if depth >= self.unknown:  # deeper than one byte can tell: widen the table
            widened = self.distances.astype(np.uint16)
            widened[self.distances == self.unknown] = np.iinfo(np.uint16).max
            self.distances = widened
        for chunk in layer.chunks:
            jit.call(self.puzzle.kernels.record_distances, chunk, self.puzzle.tables, self.distances, depth)

    def solve_many(self, starts) -> tuple[np.ndarray, np.ndarray]:
        """Lengths (-1: unreachable) and moves (row ``i``, first ``lengths[i]`` entries) of
        shortest paths from each start to the goal."""
        starts = self.puzzle.states(starts)
        lengths = np.empty(len(starts), dtype=np.int64)
        moves = np.zeros((len(starts), self.max_distance), dtype=np.int64)
        descend = pick(self.puzzle.kernels, "descend", len(starts))
        fixed = (self.distances, self.unknown)
        jit.call(descend, *fixed, starts[:0], self.puzzle.tables, self.component, moves[:0], lengths[:0])
        descend(*fixed, starts, self.puzzle.tables, self.component, moves, lengths)
        return lengths, moves

    def distance(self, state) -> int | None:
        """Moves from ``state`` to the goal, or None if unreachable."""
        lengths, _ = self.solve_many(self.puzzle.states(state)[:1])
        return None if lengths[0] < 0 else int(lengths[0])

    def solution(self, start) -> Solution | None:
        """A shortest path from ``start`` to the goal, or None if unreachable."""
        starts = self.puzzle.states(start)[:1]
        lengths, moves = self.solve_many(starts)
        if lengths[0] < 0:
            return None
        path = [starts]
        for move in moves[0, :lengths[0]]:
            children, child_moves = jit.call(self.puzzle.kernels.neighbours, path[-1], self.puzzle.tables, False)
            path.append(children[np.flatnonzero(child_moves == move)[:1]])
        return Solution(self.puzzle, np.concatenate(path), moves[0, :lengths[0]].tolist(), self.profile)
