"""A path through a puzzle's state space: its states and the moves between them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.errors import VecsearchError


class Solution:
    """A path through a puzzle's state space: its states and the moves between them.

    ``str()`` is the path in the puzzle's own notation (the judge's format for the contest
    problems); ``len()`` is its number of moves.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle the path is in.
    states : numpy.ndarray
        ``len(moves) + 1`` packed states; ``states[0]`` is the start.
    moves : sequence of int
        Move ``moves[i]`` takes ``states[i]`` to ``states[i + 1]``.
    profile : Profile, optional
        The profile of the search that found it.

    See Also
    --------
    solve : Finds one.

    Examples
    --------
    >>> solution = vs.solve("eight", "2 3 4 1 5 x 7 6 8")
    >>> len(solution), str(solution)
    (19, 'ullddrurdllurdruldr')
    >>> solution.move_names[:3], solution.replay()
    (['u', 'l', 'l'], True)
    """

    def __init__(self, puzzle, states: np.ndarray, moves: Sequence[int], profile=None):
        if len(states) != len(moves) + 1:
            raise ValueError(f"{len(states)} states do not fit {len(moves)} moves")
        self.puzzle = puzzle
        self.states = states
        self.moves = tuple(int(m) for m in moves)
        self.profile = profile

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def move_names(self) -> list[str]:
        """The moves' labels, in the puzzle's notation."""
        return self.puzzle.move_labels(self.states, self.moves)

    @property
    def start(self):
        """The first state."""
        return self.states[0]

    @property
    def end(self):
        """The last state."""
        return self.states[-1]

    def replay(self) -> bool:
        """Check that every move is legal and leads to the next state; raises if not."""
        for i, move in enumerate(self.moves):
            kernels, tables = layer_kernels(self.puzzle), kernel_tables(self.puzzle)
            children, moves = kernels.neighbours(self.states[i:i + 1], tables, False)
            steps = zip(children, moves, strict=True)
            if not any(m == move and np.array_equal(c, self.states[i + 1]) for c, m in steps):
                name = self.puzzle.move_names[move]
                raise VecsearchError(f"step {i}: move {name!r} does not lead from state {i} to state {i + 1}")
        return True

    def reversed(self) -> Solution:
        """The same path walked from its end to its start (reversible puzzles only)."""
        if not self.puzzle.reversible:
            raise VecsearchError(f"{self.puzzle.name} is directed: its paths cannot be walked backwards")
        from vecsearch.engine.results.paths import moves_along

        states = self.states[::-1].copy()
        return Solution(self.puzzle, states, moves_along(self.puzzle, states), self.profile)

    def __str__(self) -> str:
        return self.puzzle.format_path(self.states, self.moves)

    def _repr_svg_(self) -> str | None:
        """The states in order, each with the move that led to it (None: the puzzle draws none)."""
        from vecsearch.svg import solution_svg

        return solution_svg(self.puzzle, self.states, self.move_names)

    def _repr_html_(self) -> str:
        import html

        from vecsearch.svg import MAX_STATES

        picture = self._repr_svg_()
        if picture is None:
            texts = "\n".join(self.puzzle.format_state(s) for s in self.states[:MAX_STATES])
            picture = "<pre>" + html.escape(texts) + "</pre>"
        more = f" (the first {MAX_STATES} states drawn)" if len(self.states) > MAX_STATES else ""
        return (f"<div><p>{len(self)} moves on {html.escape(self.puzzle.name)}{more}:"
                f" <code>{html.escape(str(self))}</code></p>{picture}</div>")

    def __repr__(self) -> str:
        return f"<Solution of {len(self)} moves on {self.puzzle.name}: {str(self)[:60]!r}>"
