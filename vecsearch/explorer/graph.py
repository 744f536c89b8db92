"""``to_networkx``: a small state space, or the states within a depth, as a networkx graph."""

from __future__ import annotations

from vecsearch.engine.layered.search import bfs
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle, whole_number
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.errors import VecsearchError
from vecsearch.explorer.records import plain_state
from vecsearch.optional import require

MAX_STATES = 1_000_000  # a graph of more nodes is refused (networkx holds about 1 KB per node and edge)


def to_networkx(puzzle, start=None, *, max_depth: int | None = None, max_states: int = MAX_STATES):
    """A small state space as a networkx graph, moves as edge keys.

    Needs ``pip install 'vecsearch[graph]'`` (networkx).

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    start : state or text, optional
        The root (default: the puzzle's start).
    max_depth : int, optional
        Only the states within this many moves (default: all that ``start`` reaches).
    max_states : int, default 1000000
        A search that passes this many states is stopped with an error that says to give a
        depth.

    Returns
    -------
    networkx.MultiDiGraph
        A node is a state as the puzzle's methods take it (an int, or a tuple of words when the
        state is wide), with its ``depth`` (moves from the start) and ``text``
        (``format_state``). Each move from a node to a node of the graph is an edge keyed by the
        move's label (also its ``move`` attribute); moves that leave the graph are left out.

    Examples
    --------
    >>> graph = vs.to_networkx("sliding-2x3")
    >>> graph.number_of_nodes(), graph.number_of_edges()
    (360, 840)
    >>> sorted(depth for _, depth in vs.to_networkx("sliding-3x3", max_depth=2).nodes(data="depth"))
    [0, 1, 1, 2, 2, 2, 2]
    """
    nx = require("networkx", "to_networkx")
    puzzle = as_puzzle(puzzle)
    whole_number(max_states, "max_states", 1)
    seen = 0

    def count(record):
        nonlocal seen
        seen += record.states
        if seen > max_states:
            raise VecsearchError(f"{puzzle.name}: more than {max_states:,} states within {record.depth} moves: too"
                                 " many for a graph; give max_depth (or a larger max_states)")

    result = bfs(puzzle, start, max_depth=max_depth, keep_layers=True, mode="layers", on_layer=count)
    graph = nx.MultiDiGraph(puzzle=puzzle.name, start=puzzle.format_state(plain_state(result.layers[0].states[0])))
    for depth, layer in enumerate(result.layers):
        for row in layer.states:
            state = plain_state(row)
            graph.add_node(state, depth=depth, text=puzzle.format_state(state))
    neighbours = layer_kernels(puzzle).neighbours
    for layer in result.layers:
        states = layer.states
        for i in range(len(states)):
            kids, moves = neighbours(states[i:i + 1], kernel_tables(puzzle), False)
            labels = puzzle.move_labels([states[i]] * len(moves), moves.tolist())
            source = plain_state(states[i])
            for kid, label in zip(kids, labels, strict=True):
                target = plain_state(kid)
                if target in graph:
                    graph.add_edge(source, target, key=label, move=label)
    return graph
