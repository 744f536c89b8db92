"""How each method of ``vecsearch.engine.batch.methods`` answers a chunk of instances: its runner
of a chunk, named in its declaration (``Method.many``).

A runner of a chunk, ``(puzzle, chunk, max_depth, options, method)``, returns lengths (-1: none)
and moves for the chunk's instances, in order, and the profile of heuristic searches (else
None); a method that answers one instance at a time (``one_by_one``) calls its runner of one
instance (``Method.one``, in ``batch.solve``). Options were checked against the method's
declaration before (``methods.check``).
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.batch.methods import ball_radius, table_storage
from vecsearch.engine.batch.solve import RUNNERS_OF_ONE, distance_table
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.goals import default_goals
from vecsearch.engine.runtime.guarded import kernel_tables


def solve_chunk(puzzle, chunk, method, max_depth=None, options=None) -> tuple:
    """Lengths (-1: none within ``max_depth``) and moves of every instance of ``chunk`` (an
    ``Instances``) by ``method`` (a ``Method``), in the instances' own moves, and the profile of
    the heuristic searches (else None)."""
    if len(chunk) == 0:
        return np.zeros(0, np.int64), np.zeros((0, 0), np.int64), None
    lengths, moves, profile = RUNNERS_OF_CHUNK[method.many](puzzle, chunk, max_depth, dict(options or {}), method)
    if max_depth is not None:
        lengths = np.where(lengths > max_depth, -1, lengths)
    return lengths, chunk.as_asked(lengths, moves), profile


# --- a chunk of instances ----------------------------------------------------------------------

def one_by_one(puzzle, chunk, max_depth, options, method):
    """Each instance by the method's runner of one instance."""
    default = puzzle.goal_states() if chunk.goals is None and not puzzle.has_goal_condition else None
    run = RUNNERS_OF_ONE[method.one]
    found = [run(puzzle, chunk.starts[i:i + 1], chunk.goal_of(i, default), max_depth, options).solution
             for i in range(len(chunk))]
    return (*_as_arrays(found), None)


def table_chunk(puzzle, chunk, max_depth, options, method):
    """The descents of the distance table (``threads``: those that build it, if it is built here,
    and walk it)."""
    goals = chunk.goals if chunk.goals is not None else default_goals(puzzle, chunk.starts)
    with thread_limit(options.get("threads")):
        table = distance_table(puzzle, goals, storage=table_storage(puzzle), **options)
        return (*table.solve_many(chunk.starts), None)


def pairs_chunk(puzzle, chunk, max_depth, options, method):
    from vecsearch.engine.tables.pairs import solve_pairs

    default = default_goals(puzzle, chunk.starts) if chunk.goals is None else None
    if chunk.shared_goal:
        goals = chunk.goal_of(0, default)
        goal_sets = [goals] * len(chunk) if len(goals) > 1 else np.repeat(goals, len(chunk), axis=0)
    else:
        goal_sets = [chunk.goal_of(i, default) for i in range(len(chunk))]
    found = solve_pairs(puzzle, chunk.starts, goal_sets, max_depth=max_depth, **options)
    return found.lengths, found.moves, None


def idastar_chunk(puzzle, chunk, max_depth, options, method):
    from vecsearch.engine.heuristic.idastar import idastar_many

    if not chunk.shared_goal:  # one search at a time, each split across threads
        return one_by_one(puzzle, chunk, max_depth, options, method)
    return idastar_many(puzzle, chunk.starts, chunk.goals, max_depth=max_depth, **options)


def start_tables_chunk(puzzle, chunk, max_depth, options, method):
    """Each instance answered from the distance table rooted at its start: the nearest goal
    state by a bulk lookup, its path by descent, reversed."""
    kernels, tables = layer_kernels(puzzle), kernel_tables(puzzle)
    goals = chunk.goals if chunk.goals is not None else default_goals(puzzle, chunk.starts)
    offsets = chunk.goal_offsets if chunk.goal_offsets is not None else np.arange(len(chunk) + 1) * len(goals)
    if chunk.goal_offsets is None:
        goals = np.concatenate([goals] * len(chunk))
    owner = np.repeat(np.arange(len(chunk)), np.diff(offsets))
    starts, group = np.unique(chunk.starts, axis=0, return_inverse=True)
    group = group.ravel()
    far = np.iinfo(np.int64).max
    distance = np.full(len(goals), far, np.int64)
    ranks = kernels.ranks(goals, tables)
    components = kernels.components(goals, tables)
    for g in range(len(starts)):
        table = distance_table(puzzle, starts[g:g + 1], **options)
        rows = np.flatnonzero((group[owner] == g) & (components == table.component))
        known = table.distances[ranks[rows]].astype(np.int64)
        distance[rows] = np.where(known == table.unknown, far, known)
    order = np.lexsort((distance, owner))
    best = order[offsets[:-1]]  # each instance's nearest goal state (segments keep their sizes)
    lengths = np.where(distance[best] == far, -1, distance[best])
    if max_depth is not None:
        lengths[lengths > max_depth] = -1
    width = max(0, int(lengths.max(initial=0)))
    moves = np.zeros((len(chunk), width), np.int64)
    inverse = np.array(puzzle.inverse_moves, np.int64)
    for g in range(len(starts)):
        members = np.flatnonzero((group == g) & (lengths > 0))
        if not len(members):
            continue
        table = distance_table(puzzle, starts[g:g + 1], **options)
        down, back = table.solve_many(goals[best[members]])  # goal state -> start
        steps = np.arange(width)[None, :]
        source = np.clip(down[:, None] - 1 - steps, 0, None)  # walked backwards: last move first
        walked = inverse[np.take_along_axis(back, np.minimum(source, back.shape[1] - 1), axis=1)]
        moves[members] = np.where(steps < down[:, None], walked, 0)[:, :width]
    return lengths, moves, None


def start_balls_chunk(puzzle, chunk, max_depth, options, method):
    """Instances sharing a start meet a ball around it (``methods.ball_radius``), built once and
    kept; a path found from the goal to the ball is walked back to the start."""
    from vecsearch.engine.layered.search import bidirectional

    default = puzzle.goal_states() if chunk.goals is None and not puzzle.has_goal_condition else None
    starts, group = np.unique(chunk.starts, axis=0, return_inverse=True)
    group = group.ravel()
    sharing = np.bincount(group)
    found = []
    for i in range(len(chunk)):
        start, goals = starts[group[i]:group[i] + 1], chunk.goal_of(i, default)
        radius = ball_radius(int(sharing[group[i]]), max_depth)
        if radius is None:
            found.append(bidirectional(puzzle, start, goals, max_depth=max_depth, **options).solution)
            continue
        ball = distance_table(puzzle, start, max_depth=radius, **options)
        solution = ball.search(goals, max_depth=max_depth, **options).solution
        found.append(None if solution is None else solution.reversed())
    return (*_as_arrays(found), None)


def _as_arrays(found) -> tuple[np.ndarray, np.ndarray]:
    """Lengths (-1: None) and moves of a list of solutions."""
    lengths = np.array([-1 if s is None else len(s) for s in found], np.int64)
    moves = np.zeros((len(found), max(0, int(lengths.max(initial=0)))), np.int64)
    for row, solution in enumerate(found):
        if solution is not None:
            moves[row, :len(solution)] = solution.moves
    return lengths, moves


RUNNERS_OF_CHUNK = {run.__name__: run for run in (one_by_one, table_chunk, pairs_chunk, idastar_chunk,
                                                  start_tables_chunk, start_balls_chunk)}
