"""Partitioned two-bit breadth-first search: spaces bigger than one process, on disk or a cluster.

The rank space is cut into ``segments`` ranges of the two-bit table; each layer is made by one
task per segment in each of two phases (``vecsearch.engine.segment_tasks``): expand the
segment's frontier, claiming its own children and routing the others to their owners in files;
then claim what was routed in. The tasks run on threads of this process, or on the workers of a
``dask.distributed`` cluster (``client=``), which reruns a task whose worker died.

The tables and routed batches live in a run directory, memory-mapped: the spill directory (or
the checkpoint directory) when one is given, else a temporary one. Every worker must see it at
the same path: one machine's disk, or a shared file system for several machines. After each
layer ``search.json`` is replaced (the commit: depth, profile, farthest ranks); then the previous
table and the layer's routes are removed. A search stopped at any moment resumes from the last
commit (``resume=DIR``), with the same counts.

A layer is pulled instead when that is cheaper, judged as in the local two-bit search (from the
seconds per state each method last took, ``MethodCosts``): each segment looks for a parent of
each of its unreached ranks in the frontier (reading the shared table of the previous depth)
and nothing is routed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

import numpy as np

from vecsearch.engine import jit, planner
from vecsearch.engine.codegen import layer_kernels
from vecsearch.engine.endpoints import endpoints, portable
from vecsearch.engine.guarded import kernel_tables
from vecsearch.engine.layers import Layer
from vecsearch.engine.profile import PartitionedRecord, Profile
from vecsearch.engine.result import SearchResult
from vecsearch.engine.segment_tasks import Job, Layout, expand_segment, settle_segment, warm
from vecsearch.engine.twobit import MethodCosts
from vecsearch.errors import MemoryLimitError, SearchInterrupted, VecsearchError
from vecsearch.kernels.segment_cells import claim_ranks

STATE = "search.json"
FORMAT = "vecsearch-partitioned-2"  # 2: as checkpoint.FORMAT
FILL_WORDS = 1 << 20  # words of a fresh table written per call


class ThreadRunner:
    """Runs a phase's tasks on threads of this process (the kernels release the GIL)."""

    def __init__(self, threads: int):
        self.workers = threads

    def start(self, job: Job) -> float:
        """Get ready to run ``job``'s tasks; returns the seconds spent compiling kernels."""
        self.job = job
        return warm(job)

    def map(self, task, depth: int, pull: bool) -> list:
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(lambda t: task(self.job, t, depth, pull), range(self.job.layout.segments)))


class DaskRunner:
    """Runs a phase's tasks on a ``dask.distributed`` cluster. The job (with the puzzle, when it
    is not a built-in) is sent to every worker once and stays there, unpickled: its kernels are
    compiled or loaded once per worker, not once per task."""

    def __init__(self, client):
        self.client = client
        self.workers = max(1, len(client.scheduler_info()["workers"]))

    def start(self, job: Job) -> float:
        self.segments = job.layout.segments
        self.job = self.client.scatter(job, broadcast=True, hash=False)
        return max(self.client.run(warm, job).values(), default=0.0)

    def map(self, task, depth: int, pull: bool) -> list:
        futures = [self.client.submit(task, self.job, t, depth, pull, pure=False) for t in range(self.segments)]
        return self.client.gather(futures)


def default_segments(workers: int) -> int:
    """Enough segments for every worker to take several (the slowest segment sets the pace)."""
    return max(4, 4 * workers)


def partitioned_bfs(puzzle, start=None, *, max_depth=None, backward=False, segments=None, client=None,
                    threads=None, directory=None, resume=None, keep_farthest=0, max_memory=None,
                    on_layer=None) -> SearchResult:
    """The layer counts of everything reachable from ``start`` (see the module docstring)."""
    if not puzzle.has_unrank:
        raise VecsearchError(f"{puzzle.name} cannot use the two-bit search: it needs rank, rank_size and unrank")
    if backward and not puzzle.searchable_backward:
        raise VecsearchError(f"{puzzle.name} is directed and has no predecessor function: it can only search forwards")
    runner = DaskRunner(client) if client is not None else ThreadRunner(threads or os.cpu_count() or 1)
    root = resume if resume is not None else directory
    temporary = root is None
    plan_disk(puzzle, None if temporary else Path(root), max_memory)
    root = Path(tempfile.mkdtemp(prefix="vecsearch-")) if temporary else Path(root)
    try:
        run = _Run(puzzle, root, start, backward, segments or default_segments(runner.workers), keep_farthest,
                   resume is not None)
        run.compile_seconds += runner.start(run.job)
        try:
            while not run.exhausted and (max_depth is None or run.depth < max_depth):
                run.step(runner)
                if on_layer is not None:
                    on_layer(run.profile.records[-1])
        except KeyboardInterrupt:
            raise SearchInterrupted(run.result(), None if temporary else str(root)) from None
        return run.result()
    finally:
        if temporary:
            shutil.rmtree(root, ignore_errors=True)


def plan_disk(puzzle, root: Path | None, max_memory) -> int:
    """The bytes of files a partitioned search of ``puzzle`` holds between layers and during one
    (two tables); refused when they do not fit: in the memory limit for a temporary directory
    (``root`` None: its files live in the page cache), on the disk of a spill directory."""
    need = 2 * 8 * ((puzzle.rank_size + 31) // 32)
    if root is None:
        limit = planner.default_limit() if max_memory is None else planner.parse_size(max_memory)
        if need > limit:
            raise MemoryLimitError(f"{puzzle.name}: a partitioned search holds two tables of"
                                   f" {planner.format_size(need // 2)}, over its memory limit of"
                                   f" {planner.format_size(limit)}: give --spill DIR (spill=DIR) on a disk")
        return need
    root.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(root).free + sum(f.stat().st_size for f in root.glob("table-*.bin"))
    if need > free:
        raise MemoryLimitError(f"{puzzle.name}: a partitioned search needs {planner.format_size(need)} of disk in"
                               f" {root} (two tables), and {planner.format_size(free)} is free")
    return need


class _Run:
    """One partitioned search's state between layers: its run directory, counts and profile."""

    def __init__(self, puzzle, root: Path, start, backward: bool, segments: int, keep: int, resuming: bool):
        self.puzzle = puzzle
        self.root = root
        self.profile = Profile(visited="twobit")
        self.compile_seconds = 0.0
        self.side = "backward" if backward else "forward"
        starts, _ = endpoints(puzzle, start, None, need_goal=False) if not resuming or start is not None \
            else (None, None)
        saved = _load_state(root, puzzle) if resuming else None
        if saved is not None:
            start_ranks = np.array(saved["starts"], np.int64)
            if starts is not None and not np.array_equal(self._ranks(starts), start_ranks):
                raise VecsearchError(f"the search in {root} started from other states")
            component, backward = saved["component"], saved["backward"]
        else:
            start_ranks = self._ranks(starts)
            component = int(jit.call(layer_kernels(puzzle).components, starts[:1], kernel_tables(puzzle))[0])
        self.start_ranks = start_ranks
        self.can_pull = backward or puzzle.searchable_backward
        self.costs = MethodCosts()
        self.job = Job(portable(puzzle), str(root), Layout(puzzle.rank_size, segments), component, backward,
                       max(1, -(-keep // segments)) if keep else 0)
        self.keep = keep
        if saved is not None:
            self.profile.records = [PartitionedRecord(**r) for r in saved["records"]]
            self.kept = np.array(saved["kept"], np.int64)
            for leftover in [self.job.table_path(self.depth + 1), *root.glob("*.part")]:
                leftover.unlink(missing_ok=True)
            shutil.rmtree(self.job.routes(self.depth), ignore_errors=True)
        else:
            self._seed()

    def _ranks(self, states) -> np.ndarray:
        return np.unique(jit.call(layer_kernels(self.puzzle).ranks, states, kernel_tables(self.puzzle)))

    @property
    def counts(self) -> list[int]:
        return [r.states for r in self.profile.records]

    @property
    def depth(self) -> int:
        return len(self.profile.records) - 1

    @property
    def exhausted(self) -> bool:
        counts = self.counts
        return counts[-1] == 0 or sum(counts) == self.puzzle.rank_size

    def _new_table(self, depth: int) -> None:
        with open(self.job.table_path(depth), "wb") as handle:
            handle.truncate(8 * self.job.layout.words)

    def _seed(self) -> None:
        began = time.perf_counter()
        self._new_table(0)
        table = self.job.table(0, "r+")
        for lo in range(0, len(table), FILL_WORDS):
            table[lo:lo + FILL_WORDS] = -1
        claim_ranks(table, self.start_ranks)
        table.flush()
        self.kept = self.start_ranks[:self.keep]
        self.profile.add(PartitionedRecord(self.side, 0, len(self.start_ranks), len(self.start_ranks), 0, 0,
                                           time.perf_counter() - began, self._bytes(1)))
        self._commit()

    def _bytes(self, tables: int) -> int:
        return tables * 8 * self.job.layout.words

    def step(self, runner) -> None:
        """Make the next layer: both phases on ``runner``, then the commit."""
        depth = self.depth
        began = time.perf_counter()
        self._new_table(depth + 1)
        frontier = self.counts[depth]
        unreached = self.puzzle.rank_size - sum(self.counts)
        pull = self.can_pull and self.costs.pull(frontier, unreached)
        expanded = runner.map(expand_segment, depth, pull)
        settled = runner.map(settle_segment, depth, pull)
        compiled = max(r.compile_seconds for r in expanded + settled)
        self.compile_seconds += compiled
        seconds = time.perf_counter() - began - compiled
        self.costs.record("pull" if pull else "push", unreached if pull else frontier, seconds)
        new = sum(r.new for r in settled)
        generated = sum(r.generated for r in expanded + settled)
        slowest = max(e.seconds + s.seconds - e.compile_seconds - s.compile_seconds for e, s in zip(expanded, settled))
        self.profile.add(PartitionedRecord(
            self.side, depth + 1, new, frontier, generated, generated - new, seconds,
            self._bytes(2), "pull" if pull else "push", routed=sum(r.routed for r in expanded), slowest=slowest))
        if new:
            self.kept = np.concatenate([r.kept for r in settled])[:self.keep]
        self._commit()
        self.job.table_path(depth).unlink(missing_ok=True)
        shutil.rmtree(self.job.routes(depth), ignore_errors=True)

    def _commit(self) -> None:
        state = {"format": FORMAT, "puzzle": self.puzzle.name, "rank_size": self.puzzle.rank_size,
                 "component": self.job.component, "backward": self.job.backward,
                 "starts": self.start_ranks.tolist(), "records": [asdict(r) for r in self.profile.records],
                 "kept": self.kept.tolist()}
        part = self.root / (STATE + ".part")
        part.write_text(json.dumps(state))
        os.replace(part, self.root / STATE)

    def result(self) -> SearchResult:
        self.profile.compile_seconds = self.compile_seconds
        states = jit.call(layer_kernels(self.puzzle).unrank_many, self.kept, self.job.component, kernel_tables(self.puzzle))
        return SearchResult(self.puzzle, self.profile, None, self.exhausted, [Layer.of(states, self.puzzle.width)],
                            self.side)


def is_partitioned(directory) -> bool:
    """Whether ``directory`` holds a partitioned search (to resume with ``partitioned_bfs``)."""
    return directory is not None and (Path(directory) / STATE).is_file()


def _load_state(root: Path, puzzle) -> dict:
    try:
        state = json.loads((root / STATE).read_text())
    except (OSError, ValueError) as error:
        raise VecsearchError(f"no partitioned search to resume in {root}: {error}") from None
    if state.get("format") != FORMAT:
        raise VecsearchError(f"{root / STATE} is not a partitioned search this version can resume")
    if (state["puzzle"], state["rank_size"]) != (puzzle.name, puzzle.rank_size):
        raise VecsearchError(f"the search in {root} is of puzzle {state['puzzle']!r}, not {puzzle.name!r}")
    depth = len(state["records"]) - 1
    if not (root / f"table-{depth}.bin").is_file():
        raise VecsearchError(f"the search in {root} lacks its table at depth {depth}")
    return state
