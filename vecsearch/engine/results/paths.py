"""Rebuilding a path from stored layers, with no parent pointers per state.

A state ``s`` first reached at depth ``d`` of a forward search has a parent in layer ``d-1``:
one of its predecessors (its children, for reversible puzzles) lies there. Walking down the
layers this way rebuilds the forward half; the backward half walks down the backward layers
through children. The move of each step is found by expanding its first state. Where several
states would do, the choice does not depend on their order in a layer (which depends on the
threads that made it): the first in move order, or the least state.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.runtime.visited import least_state


def move_between(puzzle, state: np.ndarray, target: np.ndarray) -> int | None:
    """Index of a move taking ``state[0]`` to ``target[0]``, or None."""
    children, moves = layer_kernels(puzzle).neighbours(state, kernel_tables(puzzle), False)
    same = children == target[0]
    hits = np.flatnonzero(same if same.ndim == 1 else same.all(axis=1))
    return int(moves[hits[0]]) if len(hits) else None


def _member(puzzle, layer: Layer, candidates: np.ndarray) -> int:
    """Index of the first of ``candidates`` (in their order) that ``layer`` holds, or -1."""
    found = [j for chunk in layer.chunks for j in [layer_kernels(puzzle).find_member(chunk, candidates)]
             if j >= 0]
    return min(found, default=-1)


def _parent(puzzle, layer: Layer, state: np.ndarray) -> np.ndarray:
    """A state of ``layer`` one move before ``state[0]``."""
    kernels = layer_kernels(puzzle)
    if puzzle.searchable_backward:
        candidates, _ = kernels.neighbours(state, kernel_tables(puzzle), True)
        j = _member(puzzle, layer, candidates)
        if j >= 0:
            return candidates[j:j + 1]
    else:
        parent = least_state(chunk[i:i + 1] for chunk in layer.chunks
                             for i in [kernels.find_parent(chunk, kernel_tables(puzzle), state)] if i >= 0)
        if parent is not None:
            return parent
    raise AssertionError("stored layers are inconsistent: no parent in the previous layer")


def forward_half(puzzle, layers: list[Layer], meet: np.ndarray) -> list[np.ndarray]:
    """States from a start (in ``layers[0]``) to ``meet`` (in ``layers[-1]``)."""
    path = [meet]
    for layer in reversed(layers[:-1]):
        path.append(_parent(puzzle, layer, path[-1]))
    path.reverse()
    return path


def backward_half(puzzle, layers: list[Layer], meet: np.ndarray) -> list[np.ndarray]:
    """States from ``meet`` (in ``layers[-1]`` of a backward search) to a goal (``layers[0]``)."""
    path = [meet]
    for layer in reversed(layers[:-1]):
        children, _ = layer_kernels(puzzle).neighbours(path[-1], kernel_tables(puzzle), False)
        j = _member(puzzle, layer, children)
        if j < 0:
            raise AssertionError("stored layers are inconsistent: no child in the next layer")
        path.append(children[j:j + 1])
    return path


def moves_along(puzzle, states) -> list[int]:
    """The moves of a path through ``states`` (one-state arrays, or rows of one array), each
    taking a state to the next."""
    steps = [states[i:i + 1] for i in range(len(states))] if isinstance(states, np.ndarray) else states
    moves = [move_between(puzzle, a, b) for a, b in pairwise(steps)]
    if None in moves:
        raise AssertionError(f"no move of {puzzle.name} takes step {moves.index(None)} of a path to the next state")
    return [m for m in moves if m is not None]


def join(puzzle, forward: list[np.ndarray], backward: list[np.ndarray]):
    """The states (as one array) and moves of ``forward + backward[1:]``."""
    states = forward + backward[1:]
    return np.concatenate(states), moves_along(puzzle, states)
