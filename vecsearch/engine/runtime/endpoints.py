"""What a search starts from and heads for: puzzles by name, start and goal layers."""

from __future__ import annotations

from vecsearch.contract import is_whole
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.goals import goal_layer
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.errors import InvalidPuzzleInput, UnknownPuzzle
from vecsearch.registry import get_puzzle, puzzle_of
from vecsearch.validation import probe_once


def as_puzzle(puzzle):
    """``puzzle`` itself, or the built-in puzzle it names (``"eight"``, ``"pancake-9"``); a
    user's puzzle probed on its first use (``validation.probe_once``)."""
    puzzle = puzzle_of(puzzle)
    probe_once(puzzle)
    return puzzle


def whole_number(value, name: str, least: int, unit: str = ""):
    """``value`` (None: the parameter's default), refused unless it is a whole number, ``least``
    or more: a ``ValueError`` naming the parameter ``name`` (counted in ``unit``)."""
    if value is not None and not is_whole(value, least):
        raise ValueError(f"{name} must be a whole number{unit}, {least} or more (or None), not {value!r}")
    return value


def depth_limit(max_depth):
    """``max_depth`` (None: no limit), refused unless it is a whole number of moves, 0 or more."""
    return whole_number(max_depth, "max_depth", 0, " of moves")


def portable(puzzle):
    """What to send a worker for ``puzzle``: its registry name when that names this very
    puzzle (the worker rebuilds it), else the puzzle itself (pickled)."""
    try:
        return puzzle.name if get_puzzle(puzzle.name) is puzzle else puzzle
    except UnknownPuzzle:
        return puzzle


def components(puzzle, states):
    """The component of each of ``states`` (an int64 array; states in different components never
    reach one another)."""
    return layer_kernels(puzzle).components(states, kernel_tables(puzzle))


def endpoints(puzzle, start, goal, need_goal: bool = True):
    """The start layer (default: the puzzle's start) and, with ``need_goal``, the goal layer
    (default: the puzzle's goal; a goal condition's states, ``goals.goal_layer``) cut to the
    starts' component (None without). Starts in different components are refused; an empty goal
    layer means "unreachable"."""
    starts = puzzle.start_states() if start is None else puzzle.states(start)
    if len(starts) == 0:
        raise InvalidPuzzleInput("no start state given")
    probe_once(puzzle, starts)
    components = layer_kernels(puzzle).components(starts, kernel_tables(puzzle))
    if len(set(components.tolist())) > 1:
        raise InvalidPuzzleInput(f"{puzzle.name}: the start states lie in different components"
                                 " (they can never reach one another); search them separately")
    if not need_goal:
        return starts, None
    if goal is None and puzzle.has_goal_condition:
        return starts, goal_layer(puzzle, int(components[0]))
    goals = puzzle.goal_states() if goal is None else puzzle.states(goal)
    goal_components = layer_kernels(puzzle).components(goals, kernel_tables(puzzle))
    return starts, goals[goal_components == components[0]]
