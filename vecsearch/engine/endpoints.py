"""What a search starts from and heads for: puzzles by name, start and goal layers."""

from __future__ import annotations

from vecsearch.engine import jit
from vecsearch.engine.codegen import layer_kernels
from vecsearch.errors import InvalidPuzzleInput, UnknownPuzzle
from vecsearch.registry import get_puzzle


def as_puzzle(puzzle):
    """``puzzle`` itself, or the built-in puzzle it names (``"eight"``, ``"pancake-9"``)."""
    return get_puzzle(puzzle) if isinstance(puzzle, str) else puzzle


def portable(puzzle):
    """What to send a worker for ``puzzle``: its registry name when that names this very
    puzzle (the worker rebuilds it), else the puzzle itself (pickled)."""
    try:
        return puzzle.name if get_puzzle(puzzle.name) is puzzle else puzzle
    except UnknownPuzzle:
        return puzzle


def endpoints(puzzle, start, goal, need_goal: bool = True):
    """The start layer (default: the puzzle's start) and, with ``need_goal``, the goal layer
    (default: the puzzle's goal) cut to the starts' component (None without). Starts in
    different components are refused; an empty goal layer means "unreachable"."""
    starts = puzzle.start_states() if start is None else puzzle.states(start)
    if len(starts) == 0:
        raise InvalidPuzzleInput("no start state given")
    components = jit.call(layer_kernels(puzzle).components, starts, puzzle.tables)
    if len(set(components.tolist())) > 1:
        raise InvalidPuzzleInput(f"{puzzle.name}: the start states lie in different components"
                                 " (they can never reach one another); search them separately")
    if not need_goal:
        return starts, None
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    goal_components = jit.call(layer_kernels(puzzle).components, goals, puzzle.tables)
    return starts, goals[goal_components == components[0]]
