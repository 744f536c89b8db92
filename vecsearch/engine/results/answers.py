"""``ManySolutions``: the one result type for many instances, and the ``Chunk`` it is built from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from vecsearch.engine.results.profile import Profile

if TYPE_CHECKING:
    from vecsearch.puzzle import Puzzle


@dataclass
class Chunk:
    """Answers for some instances: ``lengths[i]`` (-1: none) and moves ``moves[i, :lengths[i]]``;
    ``seconds``: the chunk's wall time; ``first``: the position of its first instance among all;
    ``positions``: the position of each, when they are not ``first, first + 1, ...`` (a cluster
    groups instances that share a table)."""

    first: int
    ids: list
    lengths: np.ndarray
    moves: np.ndarray
    seconds: float
    method: str
    profile: Profile | None = None
    positions: np.ndarray | None = None

    @property
    def where(self) -> slice | np.ndarray:
        """Where the chunk's instances are among all: an index for arrays of every instance."""
        return slice(self.first, self.first + len(self.lengths)) if self.positions is None else self.positions


@dataclass(repr=False)
class ManySolutions:
    """Answers for many instances, in input order.

    Returned by `solve_many` and `solve_pairs`; ``len()`` is the number of instances answered.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle solved.
    ids : list
        The instances' ids (positions when none were given).
    lengths : numpy.ndarray
        ``lengths[i]``: the length of a shortest path of instance ``i``; -1 when it has none
        (within the depth limit, if one was given).
    moves : numpy.ndarray
        The moves of that path in ``moves[i, :lengths[i]]``.
    method : str
        The method that answered them.
    seconds : numpy.ndarray, optional
        ``seconds[i]``: its chunk's wall time divided among the chunk.
    errors : list of (id, str)
        Malformed instances (not among the answers) and what is wrong with each.
    profile : Profile, optional
        Heuristic searches: the nodes expanded per f-bound, summed over the instances.

    Examples
    --------
    >>> many = vs.solve_many("eight", ["1 2 3 4 5 6 7 x 8", "8 6 7 2 5 4 3 x 1"])
    >>> many.lengths.tolist(), many.formatted(0), many.solved
    ([1, 31], 'r', 2)
    """

    puzzle: Puzzle
    ids: list
    lengths: np.ndarray
    moves: np.ndarray
    method: str
    seconds: np.ndarray | None = None
    errors: list = field(default_factory=list)
    profile: Profile | None = None

    @classmethod
    def from_chunks(cls, puzzle, ids, chunks: list[Chunk], errors=(), method: str = "none") -> ManySolutions:
        """The answers of ``ids`` gathered from the ``chunks`` that answered them (and ``errors``,
        ``(id, message)``)."""
        n = len(ids)
        lengths = np.full(n, -1, np.int64)
        seconds = np.zeros(n)
        moves = np.zeros((n, max((c.moves.shape[1] for c in chunks), default=0)), np.int64)
        for chunk in chunks:
            lengths[chunk.where] = chunk.lengths
            seconds[chunk.where] = chunk.seconds / max(1, len(chunk.lengths))
            moves[chunk.where, :chunk.moves.shape[1]] = chunk.moves
        profiles = [c.profile for c in chunks if c.profile is not None]
        used = chunks[-1].method if chunks else method
        return cls(puzzle, ids, lengths, moves, used, seconds, list(errors), Profile.summed(profiles))

    def __len__(self) -> int:
        return len(self.lengths)

    def moves_of(self, i: int) -> list[int] | None:
        """The moves of instance ``i``'s path (None when it has none)."""
        return None if self.lengths[i] < 0 else self.moves[i, :self.lengths[i]].tolist()

    def formatted(self, i: int) -> str | None:
        """Instance ``i``'s moves as the puzzle writes them, or None if it has no answer."""
        moves = self.moves_of(i)
        return None if moves is None else self.puzzle.format_moves(moves)

    @property
    def solved(self) -> int:
        """How many instances have a path."""
        return int((self.lengths >= 0).sum())

    def __repr__(self) -> str:
        longest = int(self.lengths.max(initial=-1))
        errors = f", {len(self.errors)} malformed" if self.errors else ""
        return (f"<ManySolutions {self.puzzle.name}: {self.solved:,} of {len(self):,} solved by {self.method!r},"
                f" longest {longest if longest >= 0 else '-'}{errors}>")

    def _repr_html_(self) -> str:
        """The summary, how many instances need each length, the first answers and errors."""
        import html

        lengths, counts = np.unique(self.lengths, return_counts=True)
        histogram = "".join(f"<tr><td>{'none' if n < 0 else n}</td><td>{c:,}</td></tr>"
                            for n, c in zip(lengths, counts, strict=True))
        shown = "".join(f"<tr><td>{html.escape(str(self.ids[i]))}</td><td>{self.lengths[i]}</td>"
                        f"<td><code>{html.escape(self.formatted(i) or '')}</code></td></tr>"
                        for i in range(min(len(self), 5)))
        errors = "".join(f"<li>{html.escape(str(i))}: {html.escape(m)}</li>" for i, m in self.errors[:5])
        return (f"<div><p>{html.escape(repr(self)[1:-1])}</p><details><summary>lengths</summary><table>"
                f"<tr><th>moves</th><th>instances</th></tr>{histogram}</table></details>"
                f"<table><tr><th>id</th><th>moves</th><th>solution</th></tr>{shown}</table>"
                f"{'<p>malformed:</p><ul>' + errors + '</ul>' if errors else ''}</div>")
