"""The one registry of search methods: what each needs, which options it honours, how it runs,
and ``auto``.

``solve``, ``solve_many``, ``vecsearch batch`` and the CLI's choices all read ``METHODS``. A
method declares the puzzle features it needs (``REQUIREMENTS``), the options it honours besides
``max_depth`` (which every method honours) and its runners: the names of its functions that
answer one instance (``one``, in ``batch.solve``; None: the method answers many only) and a
chunk of many (``many``, in ``batch.strategies``). ``check`` refuses a method that cannot run
and an option it would ignore, with a message naming both, and returns the ``Method``, which
callers pass inward; ``for_batch`` also resolves ``"auto"`` (``choose``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vecsearch.engine.runtime import planner
from vecsearch.errors import VecsearchError


class MethodError(VecsearchError, ValueError):
    """A method that does not exist, cannot run on this puzzle or these instances, or was given
    an option it does not honour."""


@dataclass(frozen=True)
class Method:
    name: str
    summary: str
    needs: tuple[str, ...]  # keys of REQUIREMENTS
    options: tuple[str, ...]  # honoured besides max_depth
    many: str  # its runner of a chunk of instances (``strategies.RUNNERS_OF_CHUNK``)
    one: str | None = None  # its runner of one instance (``solve.RUNNERS_OF_ONE``); None: many only
    chunk_size: int = 256  # instances per chunk of a batch


REQUIREMENTS = {
    "backward": ("predecessors (or reversible moves)", lambda p: p.searchable_backward),
    "rank": ("a rank", lambda p: p.has_rank),
    "heuristic": ("a heuristic", lambda p: bool(p.heuristic_names)),
    "reversible": ("reversible moves", lambda p: p.reversible),
    "inverse_moves": ("inverse_moves for every move and reversible moves",
                      lambda p: p.reversible and p.inverse_moves is not None and min(p.inverse_moves) >= 0),
}

METHODS = {m.name: m for m in (
    Method("bidirectional", "meet in the middle, one instance at a time (forward only on a directed puzzle)", (),
           ("max_forward", "max_backward", "strategy", "threads", "visited", "on_layer", "progress", "max_memory"),
           many="one_by_one", one="bidirectional_one"),
    Method("bfs", "forward breadth-first search, one instance at a time", (),
           ("threads", "visited", "on_layer", "progress", "max_memory"), many="one_by_one", one="bfs_one"),
    Method("table", "one backward BFS from the shared goal, then a descent per instance", ("backward", "rank"),
           ("threads",), many="table_chunk", one="table_one", chunk_size=1 << 17),
    Method("start-tables", "a distance table rooted at each distinct start (goals may differ)",
           ("rank", "inverse_moves"), ("threads",), many="start_tables_chunk", chunk_size=1 << 15),
    Method("start-balls", "a ball of distances around each start shared by several instances, met by a search"
           " from each goal (needs max_depth)", ("rank", "backward", "reversible"), ("threads",),
           many="start_balls_chunk", chunk_size=1 << 12),
    Method("pairs", "every instance's bidirectional search in one kernel call", ("backward",),
           ("max_forward", "max_backward", "threads"), many="pairs_chunk", chunk_size=1 << 13),
    Method("astar", "A* with the puzzle's heuristic", ("heuristic",), ("heuristic",), many="one_by_one",
           one="astar_one"),
    Method("idastar", "IDA* with the puzzle's heuristic (many: one instance per core)", ("heuristic",),
           ("heuristic", "threads", "split_from", "progress"), many="idastar_chunk", one="idastar_one",
           chunk_size=1 << 14),
)}

# The cost model that decides whether a distance table pays for a batch (``table_pays``), measured
# with warm kernels on a 2-core machine busy with other work: building a whole table (one
# backward BFS) ran at 1.5-3.7 M ranks/s (3x3 sliding, pocket cube, pancake-9, TopSpin-10,
# Solitaire); one bidirectional search cost 0.9-10 ms, about 1 ms of Python per search plus
# 0.5-13 us per square root of the rank space (meet in the middle: each side explores about the
# root of the space). 3 us is near their geometric mean; a wrong guess within a few times costs
# little around the break-even (3x3 sliding: a table pays from about 40 instances).
TABLE_RANKS_PER_SECOND = 2.0e6
SEARCH_SECONDS = 1e-3
SEARCH_SECONDS_PER_SQRT_RANK = 3e-6
TABLE_AUTO_RANKS = 1 << 24  # up to this many ranks a byte-per-rank distance table may answer a batch
HEURISTIC_AUTO_RANKS = 1 << 32  # above this many ranks (or with no rank), IDA* if the puzzle has a heuristic
MOD3_INSTANCES_PER_RANK = 1 / (1 << 20)  # a 3x4 table (239 M ranks, two bits each) pays from ~230 instances
START_TABLE_SHARE = 64  # instances per distinct start from which tables rooted at the starts pay
START_TABLE_BYTES = 1 << 30  # at most this much memory for them (one byte per rank each)
# A ball of radius r around a start shared by several instances is a distance table of the states
# within r moves of it; each instance then costs a search from its goal to depth max_depth - r.
# Measured on the Cubic Eight-Puzzle (max_depth 30): a radius-20 ball costs about one hard
# bidirectional search, 22 two, 24 four or five, 26 seven; an instance 30 or more moves away then
# costs a third, a sixth, a tenth, a fifteenth of one. So the more instances share a start, the
# fewer moves the ball leaves to the searches: (instances sharing the start, moves left).
BALL_MARGINS = ((2, 10), (5, 8), (20, 6), (120, 4))
# Under a depth limit, balls beat whole tables rooted at the starts until this many instances share
# a start: 200 Cubic datasets on 3 starts (~66 each) took 0.41 s with balls, 0.63 s with tables.
START_BALL_SHARE = 512


def names(*, one: bool = False) -> tuple[str, ...]:
    """The method names (``one``: those that answer a single instance), ``auto`` not included."""
    return tuple(name for name, m in METHODS.items() if m.one is not None or not one)


def check(name: str, puzzle, options=(), *, shared_goal: bool = True, one: bool = False) -> Method:
    """The method called ``name``, once it is known to run on ``puzzle`` with ``options``."""
    method = METHODS.get(name)
    if method is None or (one and method.one is None):
        what = "" if method is None else " for one instance (it answers many: use solve_many)"
        raise MethodError(f"unknown method {name!r}{what}; choose one of {', '.join(names(one=one))}")
    lacking = [REQUIREMENTS[need][0] for need in method.needs if not REQUIREMENTS[need][1](puzzle)]
    if lacking:
        raise MethodError(f"method {name!r} needs {' and '.join(lacking)}; {puzzle.name} has not")
    if name == "table" and not shared_goal:
        raise MethodError("method 'table' needs one goal shared by every instance; these have several")
    ignored = sorted(set(options) - set(method.options) - {"max_depth"})
    if ignored:
        honoured = ", ".join(("max_depth",) + method.options)
        raise MethodError(f"method {name!r} does not take {', '.join(ignored)}; it takes {honoured}")
    return method


def for_batch(name: str, puzzle, instances, options=(), max_depth=None) -> Method:
    """The method called ``name`` (``"auto"``: the one ``choose`` picks) for ``instances`` (an
    ``Instances``) of ``puzzle``, checked: what a batch resolves once and passes to its chunks."""
    if name == "auto":
        name = choose(puzzle, instances, max_depth)
    return check(name, puzzle, options, shared_goal=instances.shared_goal)


def choose(puzzle, instances, max_depth=None) -> str:
    """What ``method="auto"`` picks for ``instances`` (an ``Instances``) of ``puzzle``."""
    if not puzzle.searchable_backward or (instances.goals is None and puzzle.has_goal_condition):
        return "bfs"  # a goal condition: forward searches stop on it (``goals``)
    n = len(instances)
    if not instances.shared_goal:
        distinct = len(np.unique(instances.starts, axis=0)) if n else 0
        balls = max_depth is not None and puzzle.has_rank and puzzle.reversible and distinct < n
        if _starts_shared(puzzle, instances) and not (balls and n < START_BALL_SHARE * distinct):
            return "start-tables"
        return "start-balls" if balls else "pairs"
    if puzzle.has_rank and puzzle.rank_size <= TABLE_AUTO_RANKS and table_pays(puzzle.rank_size, n):
        return "table"
    if (puzzle.has_rank and puzzle.rank_size > TABLE_AUTO_RANKS and mod3_fits(puzzle)
            and n >= puzzle.rank_size * MOD3_INSTANCES_PER_RANK):
        return "table"
    huge = not puzzle.has_rank or puzzle.rank_size > HEURISTIC_AUTO_RANKS
    if huge and puzzle.heuristic_names:
        return "idastar"
    return "pairs" if n > 1 else "bidirectional"


def ball_radius(sharing: int, max_depth: int | None) -> int | None:
    """The radius of the ball around a start that ``sharing`` instances share, for answers up
    to ``max_depth`` moves (None: no ball pays; search bidirectionally)."""
    if max_depth is None:
        return None
    margins = [left for at_least, left in BALL_MARGINS if sharing >= at_least]
    return max(0, max_depth - margins[-1]) if margins else None


def table_pays(rank_size: int, instances: int, ranks_per_second: float = TABLE_RANKS_PER_SECOND) -> bool:
    """Whether one whole-space table (``rank_size`` ranks, built at ``ranks_per_second``) costs
    less than ``instances`` bidirectional searches (see the cost model's constants above)."""
    per_instance = SEARCH_SECONDS + math.sqrt(rank_size) * SEARCH_SECONDS_PER_SQRT_RANK
    return instances * per_instance >= rank_size / ranks_per_second


def table_storage(puzzle) -> str:
    """How a shared-goal table stores distances: a byte per rank for small rank spaces, else
    two bits (distance mod 3) where the puzzle allows."""
    return "mod3" if puzzle.rank_size > TABLE_AUTO_RANKS and mod3_fits(puzzle) else "bytes"


def mod3_fits(puzzle) -> bool:
    return (puzzle.has_rank and puzzle.reversible and puzzle.has_unrank
            and puzzle.rank_size // 4 <= planner.default_limit())


def _starts_shared(puzzle, instances) -> bool:
    if (not REQUIREMENTS["inverse_moves"][1](puzzle) or not puzzle.has_rank or puzzle.rank_size > TABLE_AUTO_RANKS
            or len(instances) == 0):
        return False
    distinct = len(np.unique(instances.starts, axis=0))
    return len(instances) >= START_TABLE_SHARE * distinct and distinct * puzzle.rank_size <= START_TABLE_BYTES
