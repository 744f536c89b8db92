"""The explorer: look around a state space, layer by layer, with pictures.

``explore(...)`` makes an ``Explorer`` from a search result, a distance table, or a puzzle and
a start; in a notebook it is a widget (the static page where widgets do not run), and
``save(path)`` or ``vecsearch explore PUZZLE -o page.html`` writes a page that works offline.

Module map:
  sources   the layers of one side: stored by a search (``LayerSide``) or read from a distance
            table by rank (``TableSide``)
  model     ``Explorer``: layers, samples, neighbours and their depths; the page's protocol
  pictures  boards as palette indices, each distinct cell drawn once by ``vecsearch.svg``
  page      the static page: a snapshot of answers, the script and style, one HTML document
  widget    the Jupyter widget (anywidget), which asks Python for each page as it is shown
  graph     ``to_networkx``: a small space (or its states to a depth) as a networkx graph
"""

from __future__ import annotations

from vecsearch.engine.layered.search import bfs, bidirectional
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.runtime import planner
from vecsearch.engine.runtime.endpoints import as_puzzle
from vecsearch.engine.tables.distance import DistanceTable
from vecsearch.errors import VecsearchError
from vecsearch.explorer.model import PER_PAGE, Explorer, Neighbour
from vecsearch.explorer.sources import LayerSide, TableSide

FROM_START, TO_GOAL = "moves from the start", "moves to the goal"  # what a side's depths mean


__all__ = ["Explorer", "Neighbour", "explore"]


def explore(subject, start=None, goal=None, *, max_depth=None, solution=None, per_page: int = PER_PAGE,
            max_memory=None, threads=None) -> Explorer:
    """Look around a state space: its layers, their states as pictures, neighbours, a solution.

    Parameters
    ----------
    subject : SearchResult, DistanceTable, Puzzle or str
        A `SearchResult` whose search kept every layer (``bfs(..., keep_layers=True)``, or any
        `bidirectional` search: both frontiers show, with its solution); a `DistanceTable` of
        one byte per rank (its layers around the goal, paged in rank order by ``unrank``, so a
        table of 10^8 states costs no more than its bytes); or a puzzle or its name.
    start : state or text, optional
        For a puzzle: the root (default: the puzzle's start).
    goal : state or text, optional
        For a puzzle: search bidirectionally from ``start`` to it and show both sides.
    max_depth : int, optional
        For a puzzle: the states within this many moves of ``start`` (stored layers). Without
        it the whole space: by a distance table rooted at the start when the puzzle is
        reversible, has an unrank and one byte per rank fits ``max_memory``, else stored layers.
    solution : Solution, optional
        A path to step along.
    per_page : int, default 12
        States per page.
    max_memory : int or str, optional
        Bytes the search may use.
    threads : int, optional
        Threads of the search.

    Returns
    -------
    Explorer
        In Jupyter, a widget; elsewhere ``explorer.save(path)`` writes a standalone page.

    See Also
    --------
    to_networkx : A small space as a graph.

    Examples
    --------
    >>> explorer = vs.explore("sliding-2x3")
    >>> explorer.layer_sizes()[:6]
    [1, 2, 3, 5, 6, 7]
    >>> [neighbour.move for neighbour in explorer.neighbours("1 2 3 4 5 x")]
    ['u', 'l']
    """
    if isinstance(subject, SearchResult):
        return Explorer(subject.puzzle, _result_sides(subject), solution=solution or subject.solution,
                        per_page=per_page)
    if isinstance(subject, DistanceTable):
        return Explorer(subject.puzzle, [TableSide(subject, name="to goal", label=TO_GOAL)], solution=solution,
                        per_page=per_page)
    puzzle = as_puzzle(subject)
    if goal is not None:
        result = bidirectional(puzzle, start, goal, max_depth=max_depth, threads=threads, max_memory=max_memory)
        return explore(result, solution=solution, per_page=per_page)
    limit = planner.default_limit() if max_memory is None else planner.parse_size(max_memory)
    if max_depth is None and puzzle.reversible and puzzle.has_unrank and puzzle.rank_size <= limit:
        table = DistanceTable(puzzle, puzzle.start_states() if start is None else start, threads=threads,
                              max_memory=max_memory)
        return Explorer(puzzle, [TableSide(table, name="from start", label=FROM_START)], solution=solution,
                        per_page=per_page)
    result = bfs(puzzle, start, max_depth=max_depth, keep_layers=True, mode="layers", threads=threads,
                 max_memory=max_memory)
    return explore(result, solution=solution, per_page=per_page)


def _result_sides(result: SearchResult) -> list:
    sizes = result.layer_sizes
    if len(result.layers) != len(sizes):
        raise VecsearchError(f"this search kept {len(result.layers)} of its {len(sizes)} layers; explore needs them"
                             " all: bfs(..., keep_layers=True, mode='layers'), or explore(puzzle, start)")
    backward = result.side == "backward"
    sides = [LayerSide(result.puzzle, result.layers, name="to goal" if backward else "from start",
                       label=TO_GOAL if backward else FROM_START,
                       complete=result.complete and not result.backward_layers)]
    if result.backward_layers:
        sides.append(LayerSide(result.puzzle, result.backward_layers, name="to goal", label=TO_GOAL,
                               complete=False))
    return sides
