"""Partitioned two-bit breadth-first search: spaces bigger than one process, on disk or a cluster.

The rank space is cut into ``segments`` ranges of the two-bit table; each layer is made by one
task per segment in each of two phases (``vecsearch.engine.twobit.segment_tasks``): expand the
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
and nothing is routed; with owner-local tables, a segment asks the owners of the parents
outside its range instead (``owned_tables``).

Modulo symmetry (``partitioned_classes``), the tables mark classes' canonical representatives
(``segment_tasks``, ``owned_tables``, ``class_cells``); every layer is pushed (the two-bit search
modulo symmetry, ``classes``, says why), and the search returns a ``ClassEnumeration``. It is not
resumed: ``search.json`` says it enumerated classes, and a resume is refused.
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

from vecsearch.engine.results.classes import ClassEnumeration, ClassLayer
from vecsearch.engine.results.profile import PartitionedRecord, Profile
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.runtime import planner
from vecsearch.engine.runtime.checkpoint import not_past
from vecsearch.engine.runtime.cluster import Broadcast, again_if_a_worker_is_lost, cluster_workers
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import endpoints, portable, whole_number
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.twobit.owned_tables import OwnerRunner
from vecsearch.engine.twobit.owned_tables import default_directory as default_owned_directory
from vecsearch.engine.twobit.search import MethodCosts
from vecsearch.engine.twobit.segment_cells import claim_ranks
from vecsearch.engine.twobit.segment_tasks import (
    Job,
    SegmentRanges,
    expand_segment,
    new_table,
    settle_segment,
    warm,
    warm_workers,
)
from vecsearch.errors import MemoryLimitError, SearchInterrupted, VecsearchError

STATE = "search.json"
FORMAT = "vecsearch-partitioned-3"  # 2, 3: as checkpoint.FORMAT
FILL_WORDS = 1 << 20  # words of a fresh table written per call


class SharedTables:
    """Tables in the run directory, which every task reads and writes: the layer's two phases
    route children through files there (``vecsearch.engine.twobit.segment_tasks``)."""

    pulls = True
    owners_of_tables = False

    def seed(self, starts: np.ndarray) -> int:
        job = self.job_here
        new_table(job.table_path(0), job.layout.words)
        table = job.table(0, "r+")
        for lo in range(0, len(table), FILL_WORDS):
            table[lo:lo + FILL_WORDS] = -1
        claim_ranks(table, starts)
        table.flush()
        return len(starts)

    def layer(self, depth: int, pull: bool) -> tuple[list, list]:
        new_table(self.job_here.table_path(depth + 1), self.job_here.layout.words)
        return self.map(expand_segment, depth, pull), self.map(settle_segment, depth, pull)

    def committed(self, depth: int) -> None:
        """Layer ``depth`` is committed: the previous table and the layer's routes can go."""
        self.job_here.table_path(depth - 1).unlink(missing_ok=True)
        shutil.rmtree(self.job_here.routes(depth - 1), ignore_errors=True)

    def finish(self, depth: int, remove_files: bool) -> None:
        """The files are removed with the temporary run directory, if it is one."""


class ThreadRunner(SharedTables):
    """Runs a phase's tasks on threads of this process (the kernels release the GIL)."""

    def __init__(self, threads: int):
        self.workers = threads

    def start(self, job: Job) -> float:
        """Get ready to run ``job``'s tasks; returns the seconds spent compiling kernels."""
        self.job = self.job_here = job
        return warm(job)

    def map(self, task, depth: int, pull: bool) -> list:
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(lambda t: task(self.job, t, depth, pull), range(self.job.layout.segments)))


class DaskRunner(SharedTables):
    """Runs a phase's tasks on a ``dask.distributed`` cluster. The job (with the puzzle, when it
    is not a built-in) is sent to every worker once and stays there, unpickled: its kernels are
    loaded once per worker, not once per task, and compiled once per host (``warm_workers``)."""

    def __init__(self, client):
        self.client = client
        self.workers = max(1, len(cluster_workers(client)))

    def start(self, job: Job) -> float:
        self.segments = job.layout.segments
        self.job_here = job
        self.job = Broadcast(self.client, job)
        return warm_workers(self.client, warm, job)

    def map(self, task, depth: int, pull: bool) -> list:
        def run() -> list:
            job = self.job.future
            futures = [self.client.submit(task, job, t, depth, pull, pure=False) for t in range(self.segments)]
            return self.client.gather(futures)

        return again_if_a_worker_is_lost(run)


def default_segments(workers: int) -> int:
    """Enough segments for every worker to take several (the slowest segment sets the pace)."""
    return max(4, 4 * workers)


def partitioned_bfs(puzzle, start=None, *, max_depth=None, backward=False, segments=None, client=None,
                    threads=None, directory=None, resume=None, keep_farthest=0, max_memory=None,
                    on_layer=None, owner_local=False, owners_directory=None) -> SearchResult:
    """The layer counts of everything reachable from ``start`` (see the module docstring).
    ``owner_local``: each segment's tables only on the worker that owns it, in
    ``owners_directory`` as that worker sees it (``vecsearch.engine.twobit.owned_tables``); the run
    directory then holds only the client's state."""
    return _partitioned(puzzle, start, max_depth=max_depth, backward=backward, segments=segments, client=client,
                        threads=threads, directory=directory, resume=resume, keep_farthest=keep_farthest,
                        max_memory=max_memory, on_layer=on_layer, owner_local=owner_local,
                        owners_directory=owners_directory).result()


def partitioned_classes(puzzle, symmetry, starts, *, max_depth=None, segments=None, client=None, threads=None,
                        directory=None, keep=0, max_memory=None, on_layer=None, owner_local=False,
                        owners_directory=None) -> ClassEnumeration:
    """The classes modulo ``symmetry`` of everything reachable from ``starts`` (whole classes, of
    one component), as ``engine.layered.classes`` counts them, with the least ``keep``
    representatives of each layer; ``directory`` and ``owner_local`` as ``partitioned_bfs``
    takes them."""
    run = _partitioned(puzzle, starts, max_depth=max_depth, segments=segments, client=client, threads=threads,
                       directory=directory, keep_farthest=keep, max_memory=max_memory, on_layer=on_layer,
                       owner_local=owner_local, owners_directory=owners_directory, symmetry=symmetry)
    assert run.classes is not None
    return run.classes


def _partitioned(puzzle, start=None, *, max_depth=None, backward=False, segments=None, client=None, threads=None,
                 directory=None, resume=None, keep_farthest=0, max_memory=None, on_layer=None, owner_local=False,
                 owners_directory=None, symmetry=None) -> _Run:
    """Run the search ``partitioned_bfs`` or ``partitioned_classes`` asks for."""
    if not puzzle.has_unrank:
        raise VecsearchError(f"{puzzle.name} cannot use the two-bit search: it needs rank, rank_size and unrank")
    if backward and not puzzle.searchable_backward:
        raise VecsearchError(f"{puzzle.name} is directed and has no predecessor function: it can only search forwards")
    segments = _segment_count(puzzle, segments)
    root = resume if resume is not None else directory
    temporary = root is None
    saved = _load_state(Path(root), puzzle) if resume is not None else None
    if saved is not None:
        not_past(root, len(saved["records"]) - 1, max_depth)
    owner_local = owner_local or bool(saved and saved.get("owners"))
    if owner_local:
        if client is None:
            raise VecsearchError("owner-local tables live on the workers of a dask cluster: give client= (--workers"
                                 " or --scheduler)")
        runner = OwnerRunner(client, {int(t): name for t, name in saved["owners"].items()} if saved else None)
    else:
        runner = DaskRunner(client) if client is not None else ThreadRunner(threads or os.cpu_count() or 1)
        plan_disk(puzzle, None if temporary else Path(root), max_memory)
    root = Path(tempfile.mkdtemp(prefix="vecsearch-")) if temporary else Path(root)
    root.mkdir(parents=True, exist_ok=True)
    try:
        if saved is not None and owner_local:
            segments, owners_directory = saved["segments"], saved["owners_directory"]
        owned = owners_directory or (default_owned_directory() if owner_local else None)
        if segments is None:
            segments = (OwnerRunner.default_segments(runner.workers, puzzle.rank_size) if owner_local
                        else default_segments(runner.workers))
            segments = min(segments, planner.two_bit_words(puzzle.rank_size))  # a small table: a word each at most
        run: _Run | None = None
        try:
            run = _Run(puzzle, root, start, backward, segments, keep_farthest,
                       saved, runner, owned, symmetry)
            if on_layer is not None and run.classes is not None:
                on_layer(run.classes.records[-1])
            while not run.exhausted and (max_depth is None or run.depth < max_depth):
                run.step()
                if on_layer is not None:
                    on_layer(run.profile.records[-1] if run.classes is None else run.classes.records[-1])
        except OSError as error:  # a disk full or gone, here or on a worker: what was committed stays whole
            if error.errno is None:
                raise  # not the disk: dask's closed connections, after the retries of a lost worker
            raise VecsearchError(_unwritten(puzzle, error, run, None if temporary else root)) from None
        except KeyboardInterrupt:
            if run is None:
                raise
            if temporary:
                runner.finish(run.depth, remove_files=True)
            if run.classes is not None:  # not resumed: no checkpoint to name
                raise SearchInterrupted(run.classes) from None
            raise SearchInterrupted(run.result(), None if temporary else str(root)) from None
        runner.finish(run.depth, remove_files=temporary)
        if run.classes is not None:
            run.classes.compile_seconds = run.compile_seconds
        return run
    finally:
        if temporary:
            shutil.rmtree(root, ignore_errors=True)


def _segment_count(puzzle, segments) -> int | None:
    """``segments`` as given (None: the default), refused unless a whole number from 1 to the
    table's words: a segment owns whole words of 32 ranks."""
    if whole_number(segments, "segments", 1) is None:
        return None
    words = planner.two_bit_words(puzzle.rank_size)
    if segments > words:
        raise VecsearchError(f"{puzzle.name}: {segments:,} segments for a table of {words:,} words (32 ranks each):"
                             f" give at most {words:,}")
    return int(segments)


def _unwritten(puzzle, error: OSError, run: _Run | None, root: Path | None) -> str:
    """What a partitioned search that could not write its files says: why, and how far it got."""
    reason = error.strerror or str(error)
    if error.filename:
        reason += f": {error.filename}"
    if run is None:
        return f"{puzzle.name}: the partitioned search could not make its first table ({reason})"
    stopped = f"{puzzle.name}: layer {run.depth + 1} could not be written ({reason})"
    if root is None:
        return f"{stopped}; the search stopped at depth {run.depth}"
    return f"{stopped}; the layers to depth {run.depth} are whole in {root}: make room and resume from it"


def plan_disk(puzzle, root: Path | None, max_memory) -> int:
    """The bytes of files a partitioned search of ``puzzle`` holds between layers and during one
    (two tables); refused when they do not fit: in the memory limit for a temporary directory
    (``root`` None: its files live in the page cache), on the disk of a spill directory."""
    need = 2 * planner.two_bit_bytes(puzzle.rank_size)
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

    def __init__(self, puzzle, root: Path, start, backward: bool, segments: int, keep: int, saved: dict | None,
                 runner, owned: str | None, symmetry=None):
        self.puzzle = puzzle
        self.symmetry = symmetry
        self.root = root
        self.runner = runner
        self.profile = Profile(visited="twobit")
        self.compile_seconds = 0.0
        self.side = "backward" if backward else "forward"
        starts, _ = endpoints(puzzle, start, None, need_goal=False) if saved is None or start is not None \
            else (None, None)
        if saved is not None:
            start_ranks = np.array(saved["starts"], np.int64)
            if starts is not None and not np.array_equal(self._ranks(starts), start_ranks):
                raise VecsearchError(f"the search in {root} started from other states")
            component, backward = saved["component"], saved["backward"]
        else:
            start_ranks = self._ranks(starts)
            component = int(layer_kernels(puzzle).components(starts[:1], kernel_tables(puzzle))[0])
        self.classes = None
        if symmetry is not None:  # each segment keeps ``keep`` classes: the least ``keep`` of a layer are among them
            start_ranks = np.unique(symmetry.canonical_ranks(start_ranks, component)[0])
            self.classes = ClassEnumeration(puzzle, symmetry.order, component=component, keep=keep,
                                            method=f"two-bit, partitioned in {segments} segments, by least conjugates")
        self.start_ranks = start_ranks
        self.can_pull = (backward or puzzle.searchable_backward) and runner.pulls and symmetry is None
        self.costs = MethodCosts()
        per_segment = keep if symmetry is not None else max(1, -(-keep // segments)) if keep else 0
        self.job = Job(portable(puzzle), owned or str(root), SegmentRanges(puzzle.rank_size, segments), component,
                       backward, per_segment, symmetry)
        self.keep = keep
        self.compile_seconds += runner.start(self.job)
        if saved is not None:
            self.profile.records = [PartitionedRecord(**r) for r in saved["records"]]
            self.kept = np.array(saved["kept"], np.int64)
            if not runner.owners_of_tables:
                for leftover in [self.job.table_path(self.depth + 1), *root.glob("*.part")]:
                    leftover.unlink(missing_ok=True)
                shutil.rmtree(self.job.routes(self.depth), ignore_errors=True)
        else:
            self._seed()

    def _ranks(self, states) -> np.ndarray:
        return np.unique(layer_kernels(self.puzzle).ranks(states, kernel_tables(self.puzzle)))

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

    def _seed(self) -> None:
        began = time.perf_counter()
        seeded = self.runner.seed(self.start_ranks)
        self.kept = self.start_ranks[:self.keep]
        self.profile.add(PartitionedRecord(self.side, 0, seeded, seeded, 0, 0, time.perf_counter() - began,
                                           self._bytes(1)))
        if self.classes is not None:
            _, fixing = self.symmetry.canonical_ranks(self.start_ranks, self.job.component)
            self._add_classes(int((self.symmetry.order // fixing).sum()), self.kept)
        self._commit()

    def _add_classes(self, positions: int, representatives: np.ndarray) -> None:
        record = self.profile.records[-1]
        self.classes.records.append(ClassLayer(record.depth, record.states, positions, record.seconds))
        self.classes.found.append(representatives)

    def _bytes(self, tables: int) -> int:
        return tables * 8 * self.job.layout.words

    def step(self) -> None:
        """Make the next layer on the runner, then commit it."""
        depth = self.depth
        began = time.perf_counter()
        frontier = self.counts[depth]
        unreached = self.puzzle.rank_size - sum(self.counts)
        pull = self.can_pull and self.costs.pull(frontier, unreached)
        expanded, settled = self.runner.layer(depth, pull)
        compiled = max(r.compile_seconds for r in expanded + settled)
        self.compile_seconds += compiled
        seconds = time.perf_counter() - began - compiled
        self.costs.record("pull" if pull else "push", unreached if pull else frontier, seconds)
        new = sum(r.new for r in settled)
        generated = sum(r.generated for r in expanded + settled)
        slowest = max(e.seconds + s.seconds - e.compile_seconds - s.compile_seconds
                      for e, s in zip(expanded, settled, strict=True))
        self.profile.add(PartitionedRecord(
            self.side, depth + 1, new, frontier, generated, generated - new, seconds,
            self._bytes(2), "pull" if pull else "push", routed=sum(r.routed for r in expanded), slowest=slowest))
        if new:
            self.kept = np.concatenate([r.kept for r in settled])[:self.keep]
            if self.classes is not None:
                self._add_classes(sum(r.positions for r in settled), self.kept)
        self._commit()
        self.runner.committed(depth + 1)

    def _commit(self) -> None:
        state = {"format": FORMAT, "puzzle": self.puzzle.name, "rank_size": self.puzzle.rank_size,
                 "component": self.job.component, "backward": self.job.backward,
                 "starts": self.start_ranks.tolist(), "records": [asdict(r) for r in self.profile.records],
                 "kept": self.kept.tolist(), "segments": self.job.layout.segments}
        if self.runner.owners_of_tables:
            state.update(owners=self.runner.owners, owners_directory=self.job.directory)
        if self.classes is not None:
            state.update(classes=True)
        part = self.root / (STATE + ".part")
        part.write_text(json.dumps(state))
        os.replace(part, self.root / STATE)

    def result(self) -> SearchResult:
        self.profile.compile_seconds = self.compile_seconds
        states = layer_kernels(self.puzzle).unrank_many(self.kept, self.job.component, kernel_tables(self.puzzle))
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
    if state.get("classes"):
        raise VecsearchError(f"the search in {root} enumerated classes modulo a symmetry: it cannot be resumed")
    if (state["puzzle"], state["rank_size"]) != (puzzle.name, puzzle.rank_size):
        raise VecsearchError(f"the search in {root} is of puzzle {state['puzzle']!r}, not {puzzle.name!r}")
    depth = len(state["records"]) - 1
    if not state.get("owners") and not (root / f"table-{depth}.bin").is_file():
        raise VecsearchError(f"the search in {root} lacks its table at depth {depth}")
    return state
