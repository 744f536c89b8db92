"""Instances in arrays: ids, one start each, and a shared goal or one goal set per instance.

``instances_from`` reads what users pass (arrays, starts, ``(id, start, goal)`` tuples or
dicts) into ``Instances`` and collects the errors of malformed items; ``digests`` names each
instance by its content, so that a resumed batch can tell instances that changed.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from vecsearch.engine.runtime.goals import default_goals
from vecsearch.errors import InvalidPuzzleInput


@dataclass
class Instances:
    """Instances in arrays: ``ids`` (a list, or an integer array), ``starts`` (one state each, a layer array) and the
    goal: ``goals`` shared by all when ``goal_offsets`` is None (None: the puzzle's goal), else
    instance ``i``'s goal set is ``goals[goal_offsets[i]:goal_offsets[i + 1]]``. Instances given
    in an equivalent form (the image of the asked instance under a symmetry of the puzzle)
    carry ``moves_back``: ``moves_back[i, m]`` is the move of the asked instance that move ``m``
    of instance ``i`` stands for (``as_asked`` maps answers back)."""

    ids: list | np.ndarray
    starts: np.ndarray
    goals: np.ndarray | None = None
    goal_offsets: np.ndarray | None = None
    moves_back: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def shared_goal(self) -> bool:
        return self.goal_offsets is None

    def take(self, lo: int, hi: int) -> Instances:
        back = None if self.moves_back is None else self.moves_back[lo:hi]
        if self.goal_offsets is None:
            return Instances(self.ids[lo:hi], self.starts[lo:hi], self.goals, None, back)
        offsets = self.goal_offsets[lo:hi + 1]
        return Instances(self.ids[lo:hi], self.starts[lo:hi], self.goals[offsets[0]:offsets[-1]], offsets - offsets[0],
                         back)

    def select(self, keep: np.ndarray) -> Instances:
        """The instances at the positions ``keep`` (sorted)."""
        ids = self.ids[keep] if isinstance(self.ids, np.ndarray) else [self.ids[i] for i in keep.tolist()]
        back = None if self.moves_back is None else self.moves_back[keep]
        if self.goal_offsets is None:
            return Instances(ids, self.starts[keep], self.goals, None, back)
        sizes = np.diff(self.goal_offsets)[keep]
        rows = np.concatenate([np.arange(self.goal_offsets[i], self.goal_offsets[i + 1]) for i in keep.tolist()]) \
            if len(keep) else np.zeros(0, np.int64)
        offsets = np.zeros(len(keep) + 1, np.int64)
        np.cumsum(sizes, out=offsets[1:])
        return Instances(ids, self.starts[keep], self.goals[rows], offsets, back)

    def as_asked(self, lengths: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """``moves`` (rows of answers, ``lengths`` long) as moves of the instances asked
        (``moves_back``)."""
        if self.moves_back is None or moves.size == 0:
            return moves
        steps = np.arange(moves.shape[1])[None, :] < lengths[:, None]
        return np.where(steps, np.take_along_axis(self.moves_back, moves, axis=1), 0)

    def goal_of(self, i: int, default: np.ndarray) -> np.ndarray:
        """Instance ``i``'s goal layer (``default``: the puzzle's goal, for a shared goal of None)."""
        if self.goal_offsets is None:
            return default if self.goals is None else self.goals
        return self.goals[self.goal_offsets[i]:self.goal_offsets[i + 1]]

    def digests(self, puzzle: str = "") -> np.ndarray:
        """A 48-bit digest of each instance's start and goal layer (what it asks, not its id;
        the puzzle's default goal counts as no goal) and of ``puzzle`` (``Puzzle.identity``: the
        same instances of another puzzle, or metric, are other instances), for telling a resumed
        batch's instances from others under the same ids."""
        if len(self) == 0:
            return np.zeros(0, np.int64)
        none = np.zeros(0, np.int64)
        if self.goal_offsets is None:
            goal_hash = np.full(len(self), _bytes_hash(self.goal_of(0, none).tobytes()), np.uint64)
        else:
            goal_hash = np.array([_bytes_hash(self.goal_of(i, none).tobytes()) for i in range(len(self))], np.uint64)
        mixed = goal_hash ^ np.uint64(_bytes_hash(puzzle.encode()))
        for column in self.starts.reshape(len(self), -1).T:
            mixed = _mix(mixed ^ column.astype(np.uint64))
        return (mixed >> np.uint64(16)).astype(np.int64)


def _bytes_hash(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on an array (wrapping uint64 arithmetic)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def refuse_duplicate_ids(ids) -> None:
    """Refuse (``InvalidPuzzleInput``, naming the first five) ids that name more than one
    instance: an answer, an error or a resumed output must say which instance it is of."""
    listed = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    try:
        keys, distinct = listed, len(set(listed))
    except TypeError:  # an unhashable id (a list, a dict) is compared by its repr
        keys = [i if _is_hashable(i) else repr(i) for i in listed]
        distinct = len(set(keys))
    if distinct == len(keys):
        return
    counts = Counter(keys)
    first = {}
    for key, identifier in zip(keys, listed, strict=True):
        first.setdefault(key, identifier)
    twice = [identifier for key, identifier in first.items() if counts[key] > 1]
    shown = ", ".join(_shown(i) for i in twice[:5]) + (", ..." if len(twice) > 5 else "")
    raise InvalidPuzzleInput(f"{len(twice):,} id(s) name more than one instance ({shown}); ids must be unique")


def _is_hashable(identifier) -> bool:
    try:
        hash(identifier)
    except TypeError:
        return False
    return True


def _shown(identifier) -> str:
    try:
        return json.dumps(identifier)
    except (TypeError, ValueError):
        return repr(identifier)


def instances_from(puzzle, items, goal=None) -> tuple[Instances, list[tuple[object, str]]]:
    """``Instances`` from what a user passes, and the errors of malformed items as
    ``(id, message)``: an ``Instances``; an array of states; or an iterable of starts,
    ``(id, start)`` / ``(id, start, goal)`` tuples or ``{"id", "start", "goal"}`` dicts (ids
    default to positions). A wide puzzle's state as a tuple of its words is a start, not a pair."""
    if isinstance(items, Instances):
        return items, []
    shared = None if goal is None else puzzle.states(goal)
    if isinstance(items, np.ndarray):
        starts = puzzle.states(items)
        return Instances(list(range(len(starts))), starts, shared), []
    if not isinstance(items, Iterable) or isinstance(items, (str, bytes)):
        raise TypeError(f"instances are an iterable of starts, (id, start[, goal]) tuples or dicts, an array of"
                        f" states or Instances, not a {type(items).__name__}")
    ids, starts, goals, errors = [], [], [], []
    for position, item in enumerate(items):
        if isinstance(item, dict):
            key, start, target = item.get("id", position), item.get("start"), item.get("goal")
        elif isinstance(item, tuple) and len(item) in (2, 3) and not puzzle.is_state_words(item):
            key, start, target = item[0], item[1], item[2] if len(item) == 3 else None
        else:
            key, start, target = position, item, None
        try:
            if start is None:
                raise InvalidPuzzleInput("no start")
            state = puzzle.states(start)
            if len(state) != 1:
                raise InvalidPuzzleInput(f"the start must be one state, got {len(state)}")
            target = shared if target is None else puzzle.states(target)
            if target is not None and len(target) == 0:
                raise InvalidPuzzleInput("the goal is an empty set of states")
        except InvalidPuzzleInput as error:
            errors.append((key, str(error)))
            continue
        ids.append(key)
        starts.append(state)
        goals.append(target)
    shape = (0,) if puzzle.width == 1 else (0, puzzle.width)
    starts = np.concatenate(starts) if starts else np.empty(shape, np.int64)
    return _with_goals(puzzle, ids, starts, goals), errors


def _with_goals(puzzle, ids, starts, goals) -> Instances:
    """Instances whose goals are shared when every instance has the same goal set."""
    if all(g is None for g in goals):
        return Instances(ids, starts)
    default = default_goals(puzzle, starts) if any(g is None for g in goals) else None
    goals = [default if g is None else g for g in goals]
    first = goals[0].tobytes()
    if all(g.tobytes() == first for g in goals):
        return Instances(ids, starts, goals[0])
    offsets = np.zeros(len(goals) + 1, np.int64)
    np.cumsum([len(g) for g in goals], out=offsets[1:])
    return Instances(ids, starts, np.concatenate(goals), offsets)
