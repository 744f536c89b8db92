"""Distance tables: one backward BFS from a goal answers every instance with that goal.

``DistanceTable`` stores, for every rank of the goal's component, the distance to the goal:
one byte per rank (``storage="bytes"``; ``UNKNOWN`` where unreached), or two bits, the distance
mod 3 (``storage="mod3"``, built by the two-bit search; needs unrank). An instance's shortest
path is read off by descent: from the start, repeatedly take the first move (in move order) that
lowers the distance by one; with two bits, a child whose value is one less mod 3 is one move
closer, and the walk ends at a goal. Starts are solved in parallel, and a start in another
component answers "unreachable" in the same pass.

A whole table of bytes is built by the two-bit search too where the puzzle has an unrank, each
layer's cells copied into it as it is found: the search pulls its late layers (an unreached
rank looks for a parent, and most find one among their first children) where a search of
layers pushes every state of the frontier. The 3x3x3's pattern database of six edges
(42,577,920 ranks, labels form): 26.5 s of search pushed, 8.6 s so. A ball (``max_depth``, below)
or a puzzle without an unrank: a search of layers with a bitset, which reads no more of the rank
space than the ball holds.

A whole table is built once per machine where it is asked for through ``saved_table`` (what
``distance_table`` asks for the puzzle's own goal, and so the ``table`` method of ``solve`` and
``solve_many``): saved in ``$VECSEARCH_CACHE_DIR/tables`` (``runtime.saved_arrays``) under a
name hashed from what the puzzle computes (``fingerprint.exact_puzzle_digest``), the goal and the
storage, and memory-mapped by later processes for their lookups, unless other code made it
(``fingerprint.source_digest``). The 2x2x2's table of two bits (22 MB) is built in 1.2 s and
loaded in milliseconds. Tables over ``SAVED_TABLE_BYTES`` are not saved, and the folder keeps the
tables used last within ``SAVED_TABLES_BYTES`` (4 GiB). Building one of ``ANNOUNCED_RANKS`` or
more says so in one line on standard error, as a long compile does, unless
``VECSEARCH_ANNOUNCE_COMPILE=0``.

A table may stop at a ``max_depth`` (a *ball* of that radius around the goal). ``search`` then
meets it in the middle: a BFS from the starts stops at its first layer that touches the ball,
so one ball serves every instance with that goal and each instance pays only for its own side.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys

import numpy as np

from vecsearch.cache_folder import cache_dir
from vecsearch.engine.layered.sides import Side
from vecsearch.engine.results import paths
from vecsearch.engine.results.profile import LayerRecord, Profile
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.results.solution import Solution
from vecsearch.engine.runtime import blocks, jit, planner
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle, depth_limit
from vecsearch.engine.runtime.goals import default_goals
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.large_arrays import table_array
from vecsearch.engine.runtime.progress import layer_progress
from vecsearch.engine.runtime.saved_arrays import cached_array, database_path
from vecsearch.engine.runtime.visited import state_key
from vecsearch.engine.twobit.search import PATTERNS, TwoBitSearch
from vecsearch.engine.twobit.segment_cells import record_cells
from vecsearch.errors import InvalidPuzzleInput, MemoryLimitError, VecsearchError

STORAGES = ("bytes", "mod3")
SAVED_TABLE_BYTES = 1 << 30  # whole tables up to this size are saved for later processes (pancake-12's: 120 MB)
SAVED_TABLES_BYTES = 4 << 30  # the folder of saved tables holds at most this much: the least recently used go first
SAVED_GOAL_RANKS = 1 << 16  # and goals of up to this many states (their ranks are kept beside the table)
SAVED_FORMAT = 1  # the layout of a saved table and its facts: a new one names other files
ANNOUNCED_RANKS = 1 << 22  # a table to save of this many ranks or more (a second or more to build) says so on stderr
DESCEND_BLOCK = 4096  # starts per block a thread takes when many walk down the table


LISTED = 1 << 16  # ranks of a layer that the two-bit search lists: a layer so small is pushed from them, not its table


def warm_whole_tables() -> None:
    """Load (or compile) the kernel a whole table of bytes adds to the two-bit search's: the
    copy of a layer's cells (``vecsearch warm-up``)."""
    jit.warm(record_cells, np.full(1, -1, np.int64), 0, 0, PATTERNS[1], np.zeros(1, np.uint8), 0)


class DistanceTable:
    """The distance of every state to a goal, by one backward search; then answers by lookup.

    A table answers any number of instances with the same goal by walking down it (in
    parallel), and meets searches from starts beyond its radius (``search``).

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle (it needs a rank and predecessors), or its name.
    goal : state, text or sequence of them, optional
        A state or a set in one component (default: the puzzle's goal).
    max_depth : int, optional
        Record only the states within this many moves (``radius``; bytes only). Others read
        as unknown, so ``solve_many`` answers -1 for them: use ``search`` for those.
    threads : int, optional
        Threads that build it (default: all cores).
    on_layer : callable, optional
        Called with each layer's `LayerRecord`.
    storage : {"bytes", "mod3"}, default "bytes"
        One byte per rank, or two bits (the distance mod 3: a quarter of the memory; paths are
        walked down the same way).
    max_memory : int or str, optional
        Bytes it may use (default: most of the available memory).
    progress : bool, default False
        Draw a bar of the layers.

    Raises
    ------
    MemoryLimitError
        The table would not fit in ``max_memory``.

    See Also
    --------
    distance_table : The same, built once (a whole table once per machine) and then reused.

    Examples
    --------
    >>> table = vs.DistanceTable("sliding-2x3")
    >>> table.complete, table.max_distance, table.distance("x 5 4 3 2 1")
    (True, 21, 15)
    >>> str(table.solution("4 1 2 x 5 3"))
    'urrd'
    """

    def __init__(self, puzzle, goal=None, *, max_depth=None, threads=None, on_layer=None, storage="bytes",
                 max_memory=None, progress=False):
        if storage not in STORAGES:
            raise ValueError(f"storage must be one of {', '.join(STORAGES)}, not {storage!r}")
        if depth_limit(max_depth) is not None and storage == "mod3":
            raise ValueError("storage='mod3' holds whole components: a ball (max_depth) needs storage='bytes'")
        puzzle = as_puzzle(puzzle)
        if not puzzle.has_rank:
            raise VecsearchError(f"{puzzle.name} has no rank: a distance table needs one")
        if not puzzle.searchable_backward:
            raise VecsearchError(f"{puzzle.name} cannot search backwards: a distance table needs predecessors")
        self.puzzle = puzzle
        goals = default_goals(puzzle) if goal is None else puzzle.states(goal)
        components = set(layer_kernels(puzzle).components(goals, kernel_tables(puzzle)).tolist())
        if len(components) != 1:
            raise InvalidPuzzleInput(f"{puzzle.name}: the goal states lie in {len(components)} components;"
                                     " build one table per component")
        self.component = components.pop()
        self.storage = storage
        self.file, self.loaded = None, False  # where it is saved (``saved_table``), and whether it was read from there
        with layer_progress(progress, on_layer, f"distance table {puzzle.name}") as on_layer:
            self._build(goals, max_depth, threads, on_layer, max_memory)

    def _build(self, goals, max_depth, threads, on_layer, max_memory) -> None:
        puzzle, storage = self.puzzle, self.storage
        if storage == "mod3":
            self._build_mod3(goals, threads, on_layer, max_memory)
            return
        limit = planner.default_limit() if max_memory is None else planner.parse_size(max_memory)
        if puzzle.rank_size > limit:
            raise MemoryLimitError(f"{puzzle.name}: a distance table of one byte per rank needs"
                                   f" {planner.format_size(puzzle.rank_size)}, over the limit of"
                                   f" {planner.format_size(limit)}; storage='mod3' needs a quarter of that")
        self.distances = table_array(puzzle.rank_size, np.uint8, np.iinfo(np.uint8).max)
        if puzzle.has_unrank and max_depth is None and \
                planner.fits(puzzle, mode="twobit", max_memory=max(limit - puzzle.rank_size, 1), keep=LISTED):
            self._build_two_bit(goals, threads, on_layer)
            return
        from vecsearch.engine.layered.enumeration import enumerate_space  # loaded on first use, as bfs loads it

        result = enumerate_space(puzzle, goals, backward=True, max_depth=max_depth, visited="bitset", threads=threads,
                                 on_layer=on_layer, max_memory=max(limit - puzzle.rank_size, 1),
                                 layer_sink=self._record_layer)
        self.profile = result.profile
        self.max_distance = result.depth
        self.complete = result.complete
        self.radius = None if result.complete else max_depth

    def _build_two_bit(self, goals, threads, on_layer) -> None:
        """The whole table of bytes, found by the two-bit search: each layer's cells (the newest,
        ``TwoBitSearch.value``) recorded as it is found."""
        self._search_two_bit(TwoBitSearch(self.puzzle, self.component, True, LISTED, "backward"), goals, threads,
                             on_layer, self._record_cells)
        self.complete = True
        self.radius = None

    def _search_two_bit(self, search, goals, threads, on_layer, each_layer=None) -> None:
        """Run ``search`` (a backward ``TwoBitSearch``) from ``goals`` to its end, each layer handed
        to ``each_layer`` (the search, the layer its newest) and recorded."""
        self.profile = Profile(visited="twobit")
        with thread_limit(threads):
            record = search.seed(goals)
            while True:
                if each_layer is not None:
                    each_layer(search)
                self.profile.add(record)
                if on_layer is not None:
                    on_layer(record)
                if search.exhausted:
                    break
                record = search.step()
        self.max_distance = search.depth - (search.counts[-1] == 0)

    def _record_cells(self, search) -> None:
        depth = search.depth
        if search.counts[-1] == 0:
            return
        self._widen(depth)
        pattern = PATTERNS[search.value(depth)]
        warm_whole_tables()
        blocks.map_blocks(lambda lo, hi: record_cells(search.table, lo, hi, pattern, self.distances, depth),
                          len(search.table), 1 << 16)

    def _widen(self, depth: int) -> None:
        if depth >= self.unknown:  # deeper than one byte can tell: widen the table
            widened = self.distances.astype(np.uint16)
            widened[self.distances == self.unknown] = np.iinfo(np.uint16).max
            self.distances = widened

    def _build_mod3(self, goals, threads, on_layer, max_memory) -> None:
        puzzle = self.puzzle
        if not puzzle.reversible:
            raise VecsearchError(f"{puzzle.name}: storage='mod3' needs reversible moves (a child's distance mod 3"
                                 " only tells 'one closer' when moves can be undone); use storage='bytes'")
        planner.plan(puzzle, mode="twobit", max_memory=max_memory)  # refuses a table that cannot fit
        search = TwoBitSearch(puzzle, self.component, True, 0, "backward", mod3=True)
        self._search_two_bit(search, goals, threads, on_layer)
        self.mod3 = search.table
        self.goal_ranks = np.unique(layer_kernels(puzzle).ranks(goals, kernel_tables(puzzle)))
        self.complete = True
        self.radius = None

    def _saved(self) -> tuple[np.ndarray, dict]:
        """The array and facts ``saved_table`` keeps on disk (``_restored`` reads them back)."""
        facts = {"puzzle": self.puzzle.name, "storage": self.storage, "component": int(self.component),
                 "max_distance": int(self.max_distance), "visited": self.profile.visited,
                 "records": [{k: v.item() if isinstance(v, np.generic) else v for k, v in record.items()}
                             for record in self.profile.to_records()]}
        if self.storage == "mod3":
            return self.mod3, {**facts, "goal_ranks": self.goal_ranks.tolist()}
        return self.distances, facts

    @classmethod
    def _restored(cls, puzzle, array: np.ndarray, facts: dict) -> DistanceTable:
        """The whole table ``_saved`` gave ``array`` and ``facts`` for, over ``array`` as it is."""
        table = cls.__new__(cls)
        table.puzzle, table.storage, table.component = puzzle, facts["storage"], facts["component"]
        table.file, table.loaded = None, True
        table.max_distance, table.complete, table.radius = facts["max_distance"], True, None
        table.profile = Profile([LayerRecord(**record) for record in facts["records"]], visited=facts["visited"])
        if table.storage == "mod3":
            table.mod3, table.goal_ranks = array, np.array(facts["goal_ranks"], np.int64)
        else:
            table.distances = array
        return table

    @property
    def nbytes(self) -> int:
        """The bytes the table holds (a byte per rank, or two bits)."""
        return int((self.mod3 if self.storage == "mod3" else self.distances).nbytes)

    @property
    def unknown(self) -> int:
        """The value a state's entry holds while its distance is unknown."""
        return int(np.iinfo(self.distances.dtype).max)

    def _record_layer(self, depth: int, layer) -> None:
        self._widen(depth)
        for chunk in layer.chunks:
            layer_kernels(self.puzzle).record_distances(chunk, kernel_tables(self.puzzle), self.distances, depth)

    def solve_many(self, starts) -> tuple[np.ndarray, np.ndarray]:
        """Lengths (-1: unreachable) and moves (row ``i``, first ``lengths[i]`` entries) of
        shortest paths from each start to the goal."""
        starts = self.puzzle.states(starts)
        lengths = np.empty(len(starts), dtype=np.int64)
        moves = np.zeros((len(starts), self.max_distance), dtype=np.int64)
        name, fixed = ("descend_mod3", (self.mod3, self.goal_ranks)) if self.storage == "mod3" else \
            ("descend", (self.distances, self.unknown))
        kernel = getattr(layer_kernels(self.puzzle), f"{name}_range")
        tail = (kernel_tables(self.puzzle), self.component, moves, lengths)
        jit.warm(kernel, *fixed, starts, 0, 0, *tail)
        blocks.map_blocks(lambda lo, hi: kernel(*fixed, starts, lo, hi, *tail), len(starts), DESCEND_BLOCK)
        return lengths, moves

    def distances_of(self, states) -> np.ndarray:
        """The table's distance of each state (-1: unknown, or another component), by lookup."""
        puzzle = self.puzzle
        states = puzzle.states(states)
        kernels = layer_kernels(puzzle)
        out = np.full(len(states), -1, np.int64)
        same = kernels.components(states, kernel_tables(puzzle)) == self.component
        if self.storage != "bytes":
            raise VecsearchError("distances_of reads a table of one byte per rank (storage='bytes')")
        if same.any():
            found = self.distances[kernels.ranks(states[same], kernel_tables(puzzle))].astype(np.int64)
            found[found == self.unknown] = -1
            out[same] = found
        return out

    def distance(self, state) -> int | None:
        """Moves from ``state`` to the goal, or None if unreachable."""
        lengths, _ = self.solve_many(self.puzzle.states(state)[:1])
        return None if lengths[0] < 0 else int(lengths[0])

    def solution(self, start) -> Solution | None:
        """A shortest path from ``start`` to the goal, or None if unreachable."""
        starts = self.puzzle.states(start)[:1]
        lengths, moves = self.solve_many(starts)
        if lengths[0] < 0:
            return None
        path = [starts]
        for move in moves[0, :lengths[0]]:
            children, child_moves = layer_kernels(self.puzzle).neighbours(path[-1], kernel_tables(self.puzzle), False)
            path.append(children[np.flatnonzero(child_moves == move)[:1]])
        return Solution(self.puzzle, np.concatenate(path), moves[0, :lengths[0]].tolist(), self.profile)

    def search(self, starts, *, max_depth=None, threads=None, on_layer=None, path=True) -> SearchResult:
        """Shortest path from any of ``starts`` (one component) to the goal, meeting the table.

        A BFS from the starts stops at its first layer ``b`` holding states the table knows; the
        nearest of them gives the distance ``b + d``, exact because no state closer to the
        starts is within the table's radius. Without a meeting, a complete table proves the goal
        unreachable; a ball of radius ``r`` proves every path longer than ``b + r``, so the
        search stops once that passes ``max_depth`` (then ``complete`` is False). ``path=False``
        finds the distance only (``length``).
        """
        if self.storage == "mod3":
            raise VecsearchError("search meets a ball of distances: build the table with storage='bytes'")
        puzzle = self.puzzle
        starts = puzzle.states(starts)
        starts = starts[layer_kernels(puzzle).components(starts, kernel_tables(puzzle)) == self.component]
        profile = Profile(visited="bitset")
        if len(starts) == 0:
            return SearchResult(puzzle, profile, None, True, [])
        watch = jit.Stopwatch()
        nearest = layer_kernels(puzzle).nearest_in_table
        with thread_limit(threads):
            side = Side(puzzle, "forward", starts, profile, kind="bitset", on_layer=on_layer)
            solution = length = None
            complete = True
            while True:
                hit = self._nearest(nearest, side.frontier)
                if hit is not None:
                    meet, distance = hit
                    if max_depth is None or side.depth + distance <= max_depth:
                        length = side.depth + distance
                        if path:
                            solution = self._join(paths.forward_half(puzzle, side.layers, meet), meet, profile)
                    else:
                        complete = False
                    break
                if self.radius is None:
                    break  # the table holds the whole component: the starts cannot reach the goal
                if max_depth is not None and side.depth + 1 + self.radius > max_depth:
                    complete = False
                    break
                side.step(None)
                if side.exhausted:
                    break
        profile.compile_seconds = watch.compile_seconds
        side.visited.release(side.layers)
        return SearchResult(puzzle, profile, solution, complete, side.layers, length=length)

    def _nearest(self, kernel, layer):
        """The state of ``layer`` nearest the goal by the table, and its distance; or None."""
        best = None
        for chunk in layer.chunks:
            i, distance = kernel(chunk, kernel_tables(self.puzzle), self.distances, self.unknown)
            if i >= 0 and (best is None or (distance, state_key(chunk[i:i + 1])) < (best[1], state_key(best[0]))):
                best = (chunk[i:i + 1].copy(), int(distance))
        return best

    def _join(self, forward, meet, profile) -> Solution:
        down = self.solution(meet)
        if down is None:
            raise AssertionError("the table gives the meeting state no path to the goal")
        states = np.concatenate(forward + [down.states[1:]])
        return Solution(self.puzzle, states, paths.moves_along(self.puzzle, forward) + list(down.moves), profile)


def saved_table(puzzle, goals: np.ndarray, *, storage: str = "bytes", threads=None, directory=None) -> DistanceTable:
    """The whole distance table of ``puzzle`` towards ``goals`` (a layer), loaded from disk if a
    process built it before, else built and saved for the next (see the module).

    The file holds what ``DistanceTable(puzzle, goals, storage=storage)`` computes; it is
    memory-mapped for scattered lookups (``cached_array``'s ``"lookups"``). One made by other
    code (``fingerprint.source_digest``: another vecsearch or numba) is built again and replaced.
    A table over ``SAVED_TABLE_BYTES``, towards more than ``SAVED_GOAL_RANKS`` goal states, or of
    a puzzle whose functions read an object known only by its type
    (``fingerprint.exact_puzzle_digest``), is built for this process only. ``directory``: where
    to keep it (default: ``$VECSEARCH_CACHE_DIR/tables``).
    """
    from vecsearch.fingerprint import source_digest

    puzzle = as_puzzle(puzzle)
    goals = puzzle.states(goals)

    def build():
        return DistanceTable(puzzle, goals, storage=storage, threads=threads)

    size = puzzle.rank_size // 4 if storage == "mod3" else puzzle.rank_size
    name = _saved_name(puzzle, goals, storage) if puzzle.has_rank else None
    if name is None or size > SAVED_TABLE_BYTES or len(goals) > SAVED_GOAL_RANKS:
        return build()
    folder = cache_dir() / "tables" if directory is None else directory
    path = database_path(name, folder)
    built = []

    def build_saved():
        if jit.announce and puzzle.rank_size >= ANNOUNCED_RANKS:  # as a compile does (``jit``)
            print(f"vecsearch: building the distance table of {puzzle.name} (once; later runs map it from {folder})",
                  file=sys.stderr, flush=True)
        built.append(build())
        array, facts = built[0]._saved()
        return array, {**facts, "made_by": source_digest()}

    _forget_if_made_by_other_code(path, source_digest())
    array, facts, _, _ = cached_array(name, build_saved, folder, load="lookups")
    table = built[0] if built else DistanceTable._restored(puzzle, array, facts)
    table.file = path if path.exists() else None
    if table.file is not None:
        _used(path, folder)
    return table


def _saved_name(puzzle, goals: np.ndarray, storage: str) -> str | None:
    """The file name of a saved table: the puzzle's name (as a file name may hold it), the
    storage, and a digest of what the table holds (what the puzzle computes, the goal); None for
    a puzzle whose functions read an object the digest knows only by its type."""
    from vecsearch.fingerprint import exact_puzzle_digest

    computes = exact_puzzle_digest(puzzle)
    if computes is None:
        return None
    digest = hashlib.blake2b(digest_size=12)
    for part in (computes, storage, str(SAVED_FORMAT)):
        digest.update(part.encode() + b"\0")
    digest.update(np.unique(goals, axis=0).tobytes())
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", puzzle.name)[:60]
    return f"{readable}-{storage}-{digest.hexdigest()}"


def _used(path, folder) -> None:
    """Mark the table at ``path`` as used now (its time), and remove the least recently used
    others while the folder's tables hold more than ``SAVED_TABLES_BYTES`` (a process reading
    one keeps its open file)."""
    with contextlib.suppress(OSError):  # another process may remove files meanwhile
        os.utime(path)
        tables = sorted(((status.st_mtime_ns, status.st_size, p) for p in folder.glob("*.npy")
                         for status in [p.stat()]), key=lambda entry: entry[0])
        held = sum(size for _, size, _ in tables)
        for _, size, older in tables:
            if held <= SAVED_TABLES_BYTES:
                break
            if older != path:
                for suffix in (".npy", ".json"):
                    older.with_suffix(suffix).unlink(missing_ok=True)
                held -= size


def _forget_if_made_by_other_code(path, made_by: str) -> None:
    """Remove the table saved at ``path`` if other code made it (a process reading it keeps
    its open file): one file per puzzle, goal and storage, however often vecsearch changes."""
    facts = path.with_suffix(".json")
    try:
        if path.exists() and json.loads(facts.read_text()).get("made_by") != made_by:
            path.unlink()
    except (OSError, ValueError):  # no facts to read, or a file another process removed first
        with contextlib.suppress(OSError):
            path.unlink()
