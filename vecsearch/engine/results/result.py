"""``SearchResult``: what every search returns (a shortest solution or none, and the profile)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vecsearch.engine.results.profile import Profile
from vecsearch.engine.results.solution import Solution
from vecsearch.engine.runtime.layers import Layer

if TYPE_CHECKING:
    from vecsearch.puzzle import Puzzle


@dataclass(repr=False)
class SearchResult:
    """What a search found: a shortest solution (or none) and the profile of every layer.

    Returned by `bfs` and `bidirectional`; not made by users.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle searched.
    profile : Profile
        One record per layer of each side.
    solution : Solution or None
        A shortest path, rebuilt unless the search was asked for the distance only
        (``path=False``); None without a goal or when none was found.
    complete : bool
        True when the answer is definitive: a path was found, or a side ran out of states (the
        goal is unreachable, or the whole space was enumerated); False when a depth limit
        stopped the search.
    layers : list of Layer
        The layers kept of the side searched from the starts (all of them when a path may be
        needed; otherwise the last one, whose states are the farthest from the start).
    side : str
        ``"forward"``, or ``"backward"`` for a search over predecessors.
    length : int or None
        The shortest distance found (None: no path).
    backward_layers : list of Layer
        A bidirectional search's layers grown from the goals (``[0]``: the goal layer); empty
        for other searches.

    See Also
    --------
    Profile : The per-layer records, as a table, a DataFrame or a plot.

    Examples
    --------
    >>> result = vs.bfs("sliding-2x3")
    >>> result.complete, result.total_states, result.depth, len(result.last_layer)
    (True, 360, 21, 1)
    >>> vs.bidirectional("eight", "2 3 4 1 5 x 7 6 8").length
    19
    """

    puzzle: Puzzle
    profile: Profile
    solution: Solution | None = None
    complete: bool = False
    layers: list[Layer] = field(default_factory=list)
    side: str = "forward"
    length: int | None = None
    backward_layers: list[Layer] = field(default_factory=list)

    @property
    def found(self) -> bool:
        """Whether a path was found."""
        return self.length is not None

    @property
    def distance(self) -> int | None:
        """The shortest distance found (same as ``length``)."""
        return self.length

    @property
    def layer_sizes(self) -> list[int]:
        """States first reached at each depth of the searched side (trailing empty layer dropped)."""
        sizes = self.profile.layer_sizes(self.side)
        return sizes[:-1] if len(sizes) > 1 and sizes[-1] == 0 else sizes

    @property
    def total_states(self) -> int:
        """States reached by the searched side, all layers together."""
        return sum(self.layer_sizes)

    @property
    def depth(self) -> int:
        """The deepest depth with states (the eccentricity after a complete BFS)."""
        return len(self.layer_sizes) - 1

    @property
    def last_layer(self) -> Layer | None:
        """The last layer kept (the farthest states), or None."""
        return self.layers[-1] if self.layers else None

    def summary(self) -> str:
        """One line: what was found, in how many states and seconds."""
        if self.length is not None:
            found = f"a path of {self.length} moves"
        elif self.complete:
            found = "no path: the goal is unreachable" if self.profile.layer_sizes("backward") else "every state"
        else:
            found = "stopped at its depth limit"
        compiled = f" (+ {self.profile.compile_seconds:.2f} s compile)" if self.profile.compile_seconds else ""
        return (f"{self.puzzle.name}: {found}; {self.total_states:,} states over depths 0..{self.depth},"
                f" {self.profile.seconds:.3f} s{compiled}")

    def __repr__(self) -> str:
        return f"<SearchResult {self.summary()}>"

    def _repr_html_(self) -> str:
        import html

        solution = self.solution._repr_html_() if self.solution is not None else ""
        return (f"<div><p>{html.escape(self.summary())}</p>{solution}<details><summary>profile:"
                f" {len(self.profile.records)} layers</summary>{self.profile._repr_html_()}</details></div>")
