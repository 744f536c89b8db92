"""``solve_batch``: many instances, the method picked once, solved chunk by chunk.

An instance is an id, a start state and a goal (a state or a set; default: the puzzle's goal).
The front door picks how to answer (``choose_method``):

- ``"table"``: every instance has the same goal and the puzzle has a rank and predecessors,
  and the batch is large enough to pay for a whole-space BFS (``engine.solve.table_pays``):
  one backward BFS builds a distance table, and each instance is a parallel descent (optimal
  path included). One byte per rank up to ``TABLE_AUTO_RANKS`` ranks; above, two bits per rank
  (distance mod 3, ``storage="mod3"``) for reversible puzzles whose table fits the memory, once
  the batch is large enough to pay for a whole-space BFS (``MOD3_INSTANCES_PER_RANK``);
- ``"start-tables"``: goals differ but many instances share a start (Cubic Eight-Puzzle: 9
  starts, any pattern): one distance table rooted at each start (the puzzle must declare
  ``inverse_moves``); an instance's length is its nearest goal state's distance, its path the
  descent from that state, walked backwards;
- ``"pairs"``: goals differ (or the shared goal's space is too big for a table): every chunk is
  one ``solve_pairs`` kernel call, one bidirectional search per thread;
- ``"idastar"``: a shared goal in a huge space and a puzzle with a heuristic (``solve_many``);
- ``"bfs"``: puzzles that can only search forwards, one instance at a time;
- ``"bidirectional"`` / ``"astar"`` can be forced too.

Chunks run one after another on the local cores (the kernels are parallel), or on a
``dask.distributed`` cluster (``client=``), and are yielded as they finish (``iter_batch``).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np

from vecsearch.engine import jit
from vecsearch.engine.codegen import layer_kernels
from vecsearch.engine.endpoints import as_puzzle
from vecsearch.engine.solve import TABLE_AUTO_RANKS, auto_method, distance_table, solve, solve_many
from vecsearch.errors import InvalidPuzzleInput, NoSolution

METHODS = ("auto", "table", "start-tables", "pairs", "idastar", "astar", "bidirectional", "bfs")
CHUNK_SIZES = {"table": 1 << 17, "start-tables": 1 << 15, "pairs": 1 << 13}  # per chunk; other methods: 256
MOD3_INSTANCES_PER_RANK = 1 / (1 << 20)  # a 3x4 table (239 M ranks) pays from ~230 instances
START_TABLE_SHARE = 64  # instances per distinct start from which tables rooted at the starts pay
START_TABLE_BYTES = 1 << 30  # at most this much memory for them (one byte per rank each)


@dataclass
class Instances:
    """Instances in arrays: ``ids`` (a list, or an integer array), ``starts`` (one state each, a layer array) and the
    goal: ``goals`` shared by all when ``goal_offsets`` is None (None: the puzzle's goal), else
    instance ``i``'s goal set is ``goals[goal_offsets[i]:goal_offsets[i + 1]]``."""

    ids: list | np.ndarray
    starts: np.ndarray
    goals: np.ndarray | None = None
    goal_offsets: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def shared_goal(self) -> bool:
        return self.goal_offsets is None

    def take(self, lo: int, hi: int) -> "Instances":
        if self.goal_offsets is None:
            return Instances(self.ids[lo:hi], self.starts[lo:hi], self.goals)
        offsets = self.goal_offsets[lo:hi + 1]
        return Instances(self.ids[lo:hi], self.starts[lo:hi], self.goals[offsets[0]:offsets[-1]], offsets - offsets[0])

    def select(self, keep: np.ndarray) -> "Instances":
        """The instances at the positions ``keep`` (sorted)."""
        ids = self.ids[keep] if isinstance(self.ids, np.ndarray) else [self.ids[i] for i in keep.tolist()]
        if self.goal_offsets is None:
            return Instances(ids, self.starts[keep], self.goals)
        sizes = np.diff(self.goal_offsets)[keep]
        rows = np.concatenate([np.arange(self.goal_offsets[i], self.goal_offsets[i + 1]) for i in keep.tolist()]) \
            if len(keep) else np.zeros(0, np.int64)
        offsets = np.zeros(len(keep) + 1, np.int64)
        np.cumsum(sizes, out=offsets[1:])
        return Instances(ids, self.starts[keep], self.goals[rows], offsets)


@dataclass
class BatchChunk:
    """Answers for consecutive instances: ``lengths[i]`` (-1: none) and moves
    ``moves[i, :lengths[i]]``; ``seconds``: the chunk's wall time; ``first``: position of its
    first instance in the batch."""

    first: int
    ids: list
    lengths: np.ndarray
    moves: np.ndarray
    seconds: float
    method: str


def instances_from(puzzle, items, goal=None) -> tuple[Instances, list[tuple[object, str]]]:
    """``Instances`` from what a user passes, and the errors of malformed items as
    ``(id, message)``: an ``Instances``; an array of states; or an iterable of starts,
    ``(id, start)`` / ``(id, start, goal)`` tuples or ``{"id", "start", "goal"}`` dicts (ids
    default to positions)."""
    puzzle = as_puzzle(puzzle)
    if isinstance(items, Instances):
        return items, []
    shared = None if goal is None else puzzle.states(goal)
    if isinstance(items, np.ndarray):
        starts = puzzle.states(items)
        return Instances(list(range(len(starts))), starts, shared), []
    ids, starts, goals, errors = [], [], [], []
    for position, item in enumerate(items):
        if isinstance(item, dict):
            key, start, target = item.get("id", position), item.get("start"), item.get("goal")
        elif isinstance(item, tuple) and len(item) in (2, 3):
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
    default = puzzle.goal_states() if any(g is None for g in goals) else None
    goals = [default if g is None else g for g in goals]
    first = goals[0].tobytes()
    if all(g.tobytes() == first for g in goals):
        return Instances(ids, starts, goals[0])
    offsets = np.zeros(len(goals) + 1, np.int64)
    np.cumsum([len(g) for g in goals], out=offsets[1:])
    return Instances(ids, starts, np.concatenate(goals), offsets)


def choose_method(puzzle, instances: Instances, method: str = "auto") -> str:
    """The method ``solve_batch`` uses (see the module docstring); checks a forced one."""
    puzzle = as_puzzle(puzzle)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    backward = puzzle.searchable_backward
    if method == "auto":
        if not backward:
            return "bfs"
        if instances.shared_goal:
            chosen = auto_method(puzzle, len(instances))
            if (chosen != "table" and puzzle.rank_size > TABLE_AUTO_RANKS and _mod3_fits(puzzle)
                    and len(instances) >= puzzle.rank_size * MOD3_INSTANCES_PER_RANK):
                return "table"
            return "pairs" if chosen == "bidirectional" else chosen
        return "start-tables" if _starts_shared(puzzle, instances) else "pairs"
    if method == "table" and not instances.shared_goal:
        raise InvalidPuzzleInput("method 'table' needs one goal shared by every instance; these have several")
    if method in ("table", "pairs", "bidirectional") and not backward:
        raise InvalidPuzzleInput(f"{puzzle.name} cannot search backwards: use method 'bfs'")
    if method == "start-tables" and not _walks_back(puzzle):
        raise InvalidPuzzleInput(f"method 'start-tables' needs a puzzle with a rank and inverse_moves for every move;"
                                 f" {puzzle.name} lacks them")
    return method


def table_storage(puzzle) -> str:
    """How a shared-goal table stores distances: a byte per rank for small rank spaces, else
    two bits (distance mod 3) where the puzzle allows."""
    return "mod3" if puzzle.rank_size > TABLE_AUTO_RANKS and _mod3_fits(puzzle) else "bytes"


def _mod3_fits(puzzle) -> bool:
    from vecsearch.engine import planner

    return (puzzle.has_rank and puzzle.reversible and puzzle.unrank is not None
            and puzzle.rank_size // 4 <= planner.default_limit())


def _walks_back(puzzle) -> bool:
    return (puzzle.has_rank and puzzle.reversible and puzzle.inverse_moves is not None
            and min(puzzle.inverse_moves) >= 0)


def _starts_shared(puzzle, instances) -> bool:
    if not _walks_back(puzzle) or puzzle.rank_size > TABLE_AUTO_RANKS or len(instances) == 0:
        return False
    distinct = len(np.unique(instances.starts, axis=0))
    return len(instances) >= START_TABLE_SHARE * distinct and distinct * puzzle.rank_size <= START_TABLE_BYTES


def chunk_size_for(method: str, chunk_size: int | None) -> int:
    return max(1, int(chunk_size)) if chunk_size else CHUNK_SIZES.get(method, 256)


def solve_chunk(puzzle, chunk: Instances, method: str, max_depth=None, options=None) -> tuple[np.ndarray, np.ndarray]:
    """Lengths (-1: none within ``max_depth``) and moves of one chunk, by ``method``."""
    puzzle = as_puzzle(puzzle)
    options = dict(options or {})
    if len(chunk) == 0:
        return np.zeros(0, np.int64), np.zeros((0, 0), np.int64)
    if method == "table":
        lengths, moves = distance_table(puzzle, chunk.goals, storage=table_storage(puzzle)).solve_many(chunk.starts)
        if max_depth is not None:
            lengths = np.where(lengths > max_depth, -1, lengths)
        return lengths, moves
    if method == "start-tables":
        return _from_start_tables(puzzle, chunk, max_depth)
    if method == "pairs":
        from vecsearch.engine.pairs import solve_pairs

        goals = chunk.goals if chunk.goals is not None else puzzle.goal_states()
        if chunk.shared_goal:
            goal_sets = [goals] * len(chunk) if len(goals) > 1 else np.repeat(goals, len(chunk), axis=0)
        else:
            goal_sets = [goals[a:b] for a, b in zip(chunk.goal_offsets[:-1], chunk.goal_offsets[1:])]
        found = solve_pairs(puzzle, chunk.starts, goal_sets, max_depth=max_depth, **options)
        return found.lengths, found.moves
    if chunk.shared_goal and method in ("idastar", "bidirectional", "bfs", "astar"):
        if max_depth is not None:
            options["max_depth"] = max_depth
        found = solve_many(puzzle, chunk.starts, chunk.goals, method=method, **options)
        return found.lengths, found.moves
    return _one_by_one(puzzle, chunk, method, max_depth, options)


def _from_start_tables(puzzle, chunk, max_depth):
    """Each instance answered from the distance table rooted at its start (see the module
    docstring): the nearest goal state by a bulk lookup, its path by descent, reversed."""
    kernels, tables = layer_kernels(puzzle), puzzle.tables
    goals = chunk.goals if chunk.goals is not None else puzzle.goal_states()
    offsets = chunk.goal_offsets if chunk.goal_offsets is not None else np.arange(len(chunk) + 1) * len(goals)
    if chunk.goal_offsets is None:
        goals = np.concatenate([goals] * len(chunk))
    owner = np.repeat(np.arange(len(chunk)), np.diff(offsets))
    starts, group = np.unique(chunk.starts, axis=0, return_inverse=True)
    group = group.ravel()
    far = np.iinfo(np.int64).max
    distance = np.full(len(goals), far, np.int64)
    ranks = jit.call(kernels.ranks, goals, tables)
    components = jit.call(kernels.components, goals, tables)
    for g in range(len(starts)):
        table = distance_table(puzzle, starts[g:g + 1])
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
        table = distance_table(puzzle, starts[g:g + 1])
        down, back = table.solve_many(goals[best[members]])  # goal state -> start
        steps = np.arange(width)[None, :]
        source = np.clip(down[:, None] - 1 - steps, 0, None)  # walked backwards: last move first
        walked = inverse[np.take_along_axis(back, np.minimum(source, back.shape[1] - 1), axis=1)]
        moves[members] = np.where(steps < down[:, None], walked, 0)[:, :width]
    return lengths, moves


def _one_by_one(puzzle, chunk, method, max_depth, options):
    found = []
    for i in range(len(chunk)):
        goal = chunk.goals[chunk.goal_offsets[i]:chunk.goal_offsets[i + 1]]
        try:
            found.append(solve(puzzle, chunk.starts[i:i + 1], goal, method=method, max_depth=max_depth, **options))
        except NoSolution:
            found.append(None)
    lengths = np.array([-1 if s is None else len(s) for s in found], np.int64)
    moves = np.zeros((len(found), max(0, int(lengths.max(initial=0)))), np.int64)
    for row, solution in enumerate(found):
        if solution is not None:
            moves[row, :len(solution)] = solution.moves
    return lengths, moves


def iter_batch(puzzle, instances: Instances, *, method: str = "auto", max_depth=None, chunk_size=None,
               client=None, progress=None, options=None, ordered=False):
    """``BatchChunk`` after ``BatchChunk`` as chunks finish (in input order locally; with a
    ``client``, in finishing order unless ``ordered``)."""
    puzzle = as_puzzle(puzzle)
    method = choose_method(puzzle, instances, method)
    size = chunk_size_for(method, chunk_size)
    bounds = [(lo, min(len(instances), lo + size)) for lo in range(0, len(instances), size)]
    bar = progress_bar(len(instances), progress)
    try:
        if client is not None:
            from vecsearch.engine.distributed import map_chunks

            chunks = map_chunks(client, puzzle, instances, bounds, method, max_depth, options, ordered)
        else:
            chunks = (_timed(puzzle, lo, instances.take(lo, hi), method, max_depth, options) for lo, hi in bounds)
        for chunk in chunks:
            if bar is not None:
                bar.update(len(chunk.lengths))
            yield chunk
    finally:
        if bar is not None:
            bar.close()


def _timed(puzzle, first, chunk, method, max_depth, options) -> BatchChunk:
    began = time.perf_counter()
    lengths, moves = solve_chunk(puzzle, chunk, method, max_depth, options)
    return BatchChunk(first, chunk.ids, lengths, moves, time.perf_counter() - began, method)


def progress_bar(total: int, progress):
    """A tqdm bar on standard error (``progress=None``: only when it is a terminal), or None
    (also when tqdm is not installed)."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="inst", file=sys.stderr, smoothing=0.1)


@dataclass
class BatchResult:
    """Every answer of a batch in input order (``errors``: ``(id, message)`` of malformed
    instances)."""

    puzzle: object
    ids: list
    lengths: np.ndarray
    moves: np.ndarray
    seconds: np.ndarray  # per instance: its chunk's wall time divided among the chunk
    method: str
    errors: list

    def __len__(self) -> int:
        return len(self.ids)

    def moves_of(self, i: int) -> list[int] | None:
        return None if self.lengths[i] < 0 else self.moves[i, :self.lengths[i]].tolist()

    def formatted(self, i: int) -> str | None:
        moves = self.moves_of(i)
        return None if moves is None else self.puzzle.format_moves(moves)


def solve_batch(puzzle, instances, *, goal=None, method: str = "auto", max_depth=None, chunk_size=None,
                client=None, progress=None, out=None, **options) -> BatchResult | int:
    """Shortest solutions of many instances (see ``instances_from`` for what ``instances`` may
    be; ``goal``: the goal of instances that name none). Returns a ``BatchResult`` in input
    order; with ``out=`` (a path) streams JSON lines there instead, resuming a previous run's
    file (ids already answered are skipped), and returns the number of instances answered now.
    ``client``: a ``dask.distributed.Client`` to send chunks to; ``progress``: a tqdm bar
    (default: when standard error is a terminal); ``options`` go to the search (``threads=``,
    ``heuristic=``, ...)."""
    puzzle = as_puzzle(puzzle)
    batch, errors = instances_from(puzzle, instances, goal)
    if out is not None:
        from vecsearch.batch_io import run_jsonl

        return run_jsonl(puzzle, batch, errors, out, method=method, max_depth=max_depth, chunk_size=chunk_size,
                         client=client, progress=progress, options=options)
    n = len(batch)
    lengths = np.full(n, -1, np.int64)
    seconds = np.zeros(n)
    parts, used = [], "none"
    for chunk in iter_batch(puzzle, batch, method=method, max_depth=max_depth, chunk_size=chunk_size, client=client,
                            progress=progress, options=options):
        end = chunk.first + len(chunk.lengths)
        lengths[chunk.first:end] = chunk.lengths
        seconds[chunk.first:end] = chunk.seconds / max(1, len(chunk.lengths))
        parts.append(chunk)
        used = chunk.method
    moves = np.zeros((n, max((c.moves.shape[1] for c in parts), default=0)), np.int64)
    for chunk in parts:
        moves[chunk.first:chunk.first + len(chunk.lengths), :chunk.moves.shape[1]] = chunk.moves
    return BatchResult(puzzle, batch.ids, lengths, moves, seconds, used, errors)
