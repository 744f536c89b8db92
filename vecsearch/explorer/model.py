"""``Explorer``: a space's layers around a root, a state's neighbours and their distances.

An explorer holds one or two *sides* (``vecsearch.explorer.sources``): the layers from a
search's starts, and for a bidirectional search also those from its goals; optionally a
solution to step along. It answers in Python (``layer``, ``sample``, ``depths``,
``neighbours``) and in the page's protocol (``answer``): JSON requests from the page or the
widget, answered with JSON. A page never holds more than the states it shows.

The protocol (every answer also carries ``palette``: the cell pictures the page lacks, from the
``known`` count the request gives, and ``records``: the states it names, by id):

- ``{"kind": "overview"}``: the puzzle, the sides (name, label, layer sizes, whether complete),
  the solution (state ids and move labels) and the state shown first.
- ``{"kind": "page", "side": s, "depth": d, "page": p}``: the ids of states ``p * per_page``
  onwards of that layer, in the side's order, with the layer's ``total``.
- ``{"kind": "state", "id": i}``: the state's neighbours, ``[move label, id]`` in move order.

States are named by id, with a record each (``vecsearch.explorer.records``). A request may
name only states the explorer has shown.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.errors import InvalidPuzzleInput
from vecsearch.explorer.page import PER_LAYER, document, fragment, snapshot
from vecsearch.explorer.pictures import Pictures
from vecsearch.explorer.records import Records, plain_state, sample_positions

PER_PAGE = 12  # states per page of a layer


@dataclass(frozen=True)
class Neighbour:
    """A state one move away: the ``move`` (as the puzzle labels it), the ``state`` and its
    depth on each side (-1: not on that side's layers)."""

    move: str
    state: object
    depths: tuple[int, ...]


class Explorer:
    """A view of a state space: its sides (layers around a root) and a solution.

    Made by `explore`. In a notebook it shows itself as a widget (``widget()``), with the
    static page as the fallback where widgets do not run; ``save(path)`` writes the static page,
    which holds a sample of each layer (``per_layer`` states). From Python, ``layer_sizes``,
    ``layer``, ``sample``, ``depths`` and ``neighbours`` answer the same questions.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle whose states are shown.
    sides : sequence
        The sides: layers around a root (a search's stored layers, or a distance table).
    solution : Solution, optional
        A path to step along.
    per_page : int, default 12
        States per page.

    Examples
    --------
    >>> explorer = vs.explore("eight", "2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x")
    >>> len(explorer.sides), len(explorer.solution)
    (2, 19)
    >>> explorer.layer_sizes(side=0)[:5], explorer.layer_sizes(side=1)[:5]   # from the start, from the goal
    ([1, 3, 5, 10, 14], [1, 2, 4, 8, 16])
    """

    def __init__(self, puzzle, sides, *, solution=None, per_page: int = PER_PAGE):
        if not sides:
            raise ValueError("an explorer needs at least one side")
        if per_page < 1:
            raise ValueError(f"per_page must be >= 1, got {per_page}")
        self.puzzle = puzzle
        self.sides = list(sides)
        self.solution = solution
        self.per_page = int(per_page)
        self.pictures = Pictures(puzzle)
        self.shown: set[str] = set()  # ids handed to a page: the only ones its requests may name

    # --- in Python ----------------------------------------------------------------------------
    def layer_sizes(self, side: int = 0) -> list[int]:
        """States at each depth of side ``side``."""
        return list(self._side(side).sizes)

    def layer(self, depth: int, side: int = 0, start: int = 0, count: int | None = None) -> np.ndarray:
        """``count`` states (default: all the rest) of layer ``depth`` from position ``start``,
        in the side's order (a layer array)."""
        size = self._size(side, depth)
        stop = size if count is None else min(size, start + count)
        return self._side(side).states_at(depth, np.arange(max(0, start), max(start, stop), dtype=np.int64))

    def sample(self, depth: int, count: int, side: int = 0) -> np.ndarray:
        """Up to ``count`` states of layer ``depth``, evenly spaced in the side's order (the same
        on every run)."""
        return self._side(side).states_at(depth, sample_positions(self._size(side, depth), count))

    def depths(self, states) -> np.ndarray:
        """Each state's depth on each side: an array of ``(len(states), len(sides))``, -1 where
        a state is on none of that side's layers."""
        states = self.puzzle.states(states)
        return np.stack([side.depths(states) for side in self.sides], axis=1)

    def neighbours(self, state) -> list[Neighbour]:
        """The states one move after ``state`` (its children), in move order, with their depths."""
        kids, labels = self._children(self.puzzle.states(state)[:1])
        depths = self.depths(kids)
        return [Neighbour(label, plain_state(kid), tuple(int(d) for d in row))
                for label, kid, row in zip(labels, kids, depths, strict=True)]

    # --- the page's protocol --------------------------------------------------------------------
    def answer(self, request: dict) -> dict:
        """The answer to one request of the page or the widget (see the module's docstring)."""
        if not isinstance(request, dict):
            raise ValueError(f"a request is a dict, got {request!r}")
        kind = request.get("kind")
        records = Records(self)
        if kind == "overview":
            body = self.overview(records)
        elif kind == "page":
            side, depth, page = (_whole(request, key) for key in ("side", "depth", "page"))
            states = self.layer(depth, side, page * self.per_page, self.per_page)
            body = {"side": side, "depth": depth, "page": page, "total": self._size(side, depth),
                    "ids": records.add(states)}
        elif kind == "state":
            state = self.state_of(request.get("id"))
            body = {"id": records.add(state)[0], "neighbours": self.neighbour_ids(state, records)}
        else:
            raise ValueError(f"unknown request kind {kind!r}; expected overview, page or state")
        return dict(body, kind=kind, records=records.found, palette=self.pictures.since(request.get("known", 0)))

    def overview(self, records: Records) -> dict:
        """The overview answer's body: the puzzle, its sides, the solution, the first state."""
        solution = None
        if self.solution is not None:
            solution = {"ids": records.add(self.solution.states), "moves": list(self.solution.move_names)}
        first = (self.solution.states[:1] if self.solution is not None
                 else self._side(0).states_at(0, np.zeros(1, np.int64)))
        return {"puzzle": self.puzzle.name, "cell": self.pictures.cell_size, "per_page": self.per_page, "live": True,
                "sides": [{"name": s.name, "label": s.label, "sizes": list(s.sizes), "complete": s.complete}
                          for s in self.sides],
                "solution": solution, "first": records.add(first)[0]}

    def neighbour_ids(self, state: np.ndarray, records: Records) -> list[list[str]]:
        """``[move label, id]`` of each neighbour of ``state`` (a one-state layer), their
        records added to ``records``."""
        kids, labels = self._children(state)
        return [[label, kid_id] for label, kid_id in zip(labels, records.add(kids), strict=True)]

    def state_of(self, state_id) -> np.ndarray:
        """The one-state layer an id names: one this explorer has shown (``Records.add`` made
        it), so that a request never makes the puzzle's rules expand words that are no state."""
        if str(state_id) not in self.shown:
            raise InvalidPuzzleInput(f"{state_id!r} names no state this explorer has shown")
        try:
            words = [int(word) for word in str(state_id).split(",")]
        except ValueError:
            raise InvalidPuzzleInput(f"not a state id: {state_id!r}") from None
        if len(words) != self.puzzle.width:
            raise InvalidPuzzleInput(f"a state id of {self.puzzle.name} has {self.puzzle.width} word(s): {state_id!r}")
        return self.puzzle.states(words[0] if self.puzzle.width == 1 else tuple(words))

    # --- pages and the widget --------------------------------------------------------------------
    def page(self, per_layer: int = PER_LAYER) -> str:
        """A standalone HTML page of this explorer (no network needed): every layer's size, up
        to ``per_layer`` states of each layer (spread evenly over it), their neighbours, and the
        solution."""
        return document(snapshot(self, per_layer))

    def save(self, path, per_layer: int = PER_LAYER) -> Path:
        """Write ``page(per_layer)`` to ``path``; returns the path."""
        path = Path(path)
        path.write_text(self.page(per_layer), encoding="utf-8")
        return path

    def widget(self, per_layer: int = PER_LAYER):
        """A Jupyter widget of this explorer, which pages through whole layers by asking the
        kernel (``pip install 'vecsearch[notebooks]'``); its fallback where widgets do not run
        is the static page with ``per_layer`` states a layer."""
        from vecsearch.explorer.widget import explorer_widget

        return explorer_widget(self, per_layer)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """In a Jupyter kernel with anywidget: the widget (with the static page as its
        fallback); elsewhere the static page."""
        if _in_kernel() and importlib.util.find_spec("anywidget") is not None:
            return self.widget()._repr_mimebundle_()
        return {"text/html": fragment(snapshot(self)), "text/plain": repr(self)}

    # --- helpers --------------------------------------------------------------------------------
    def _children(self, state: np.ndarray) -> tuple[np.ndarray, list[str]]:
        kids, moves = layer_kernels(self.puzzle).neighbours(state, kernel_tables(self.puzzle), False)
        return kids, self.puzzle.move_labels(np.repeat(state, len(moves), axis=0), moves.tolist())

    def _side(self, side: int):
        if not 0 <= side < len(self.sides):
            raise ValueError(f"no side {side}: this explorer has {len(self.sides)}")
        return self.sides[side]

    def _size(self, side: int, depth: int) -> int:
        sizes = self._side(side).sizes
        if not 0 <= depth < len(sizes):
            raise ValueError(f"no layer {depth} on side {side}: its depths are 0 to {len(sizes) - 1}")
        return sizes[depth]

    def __repr__(self) -> str:
        sides = ", ".join(f"{s.name}: {sum(s.sizes):,} states in {len(s.sizes)} layers" for s in self.sides)
        solution = f", a solution of {len(self.solution)} moves" if self.solution is not None else ""
        return f"<Explorer of {self.puzzle.name} ({sides}{solution})>"


def _in_kernel() -> bool:
    """Whether this runs in a Jupyter kernel (where a widget has a front end to talk to)."""
    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    return getattr(shell, "kernel", None) is not None


def _whole(request: dict, key: str) -> int:
    value = request.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"request field {key!r} must be a whole number, got {value!r}")
    return value
