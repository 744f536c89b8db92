"""The work of one segment in one layer of a partitioned two-bit search, as tasks a worker runs.

The run directory (``vecsearch.engine.twobit.segments``) holds one two-bit table file per depth,
``table-D.bin``: 2 bits per rank, ``3`` not reached, ``1`` the frontier (reached at depth ``D``),
``0`` reached earlier (``vecsearch.engine.twobit.segment_cells``). Segment ``t`` owns a range of its
words. Making depth ``D + 1`` takes two phases, each one task per segment:

1. ``expand_segment``: copy the owner's range of ``table-D`` into ``table-(D+1)`` with the
   frontier retired, expand the frontier cells of the range, claim the children that fall in
   the range, and route the others that ``table-D`` says are not reached yet to their owners:
   one file per destination, ``routes-D/to-U.from-T.bin`` (written under a temporary name, then
   renamed).
2. ``settle_segment``: claim the children routed to the range, then count its frontier cells
   (the new layer) and keep the first few ranks (the farthest states, if no layer follows).

``table-D`` is never written once made, and each task writes only its own range and files, so
a task may run again, on another worker, after a crash or a kill: its effect is the same, and
so are the counts (the settle phase counts cells; it does not add up claims).

Modulo symmetry (``job.symmetry``; ``class_cells``), the tables mark classes' canonical
representatives only: a segment expands its frontier block by block, brings the children to
their canonical ranks, claims those of its range and routes the others that ``table-D`` has not
reached; the settle phase counts the classes and their positions from the range's cells.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vecsearch.engine.runtime import jit, planner
from vecsearch.engine.runtime.cluster import cluster_workers, worker_lost_errors
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.twobit.class_cells import count_layer, frontier_bounds, frontier_children
from vecsearch.engine.twobit.segment_cells import (
    FRONTIER_PATTERN,
    bucket_by_owner,
    claim_ranks,
    frontier_cells,
    retire_frontier,
)
from vecsearch.puzzle import signed64

LOW_BITS = 0x5555555555555555
ROUND_WORDS = 1 << 11  # words of the range expanded per kernel call (65,536 ranks)


@dataclass(frozen=True)
class SegmentRanges:
    """Where each segment's ranks lie: ``segments`` ranges of whole words over ``rank_size``."""

    rank_size: int
    segments: int

    @property
    def words(self) -> int:
        return planner.two_bit_words(self.rank_size)

    @property
    def segment_words(self) -> int:
        return -(-self.words // self.segments)

    def word_range(self, t: int) -> tuple[int, int]:
        return min(self.words, t * self.segment_words), min(self.words, (t + 1) * self.segment_words)

    def last_mask(self) -> int:
        """The low-bit mask of the cells of the table's last word that are ranks."""
        tail = self.rank_size - 32 * (self.words - 1)
        return signed64(LOW_BITS & ((1 << (2 * tail)) - 1))


def new_table(path: Path, words: int, lo: int = 0, hi: int | None = None) -> None:
    """Make the table file ``path``: ``words`` words of zeros, its words ``lo:hi`` (those its
    writers fill; all by default) reserved on disk. The rest stays sparse. A disk without the
    room raises ``OSError`` here: a page of a memory-mapped file that the disk cannot hold is a
    ``SIGBUS`` when first written, which kills the process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    hi = words if hi is None else hi
    with open(path, "wb") as handle:
        handle.truncate(8 * words)
        if hi > lo:
            try:
                os.posix_fallocate(handle.fileno(), 8 * lo, 8 * (hi - lo))
            except OSError as error:
                if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL):  # a file system that cannot reserve
                    raise


@dataclass(frozen=True)
class Job:
    """What every task of one search needs: picklable, so that it travels to workers."""

    puzzle: object  # a registry name, or the puzzle itself
    directory: str
    layout: SegmentRanges
    component: int
    backward: bool
    keep: int  # frontier ranks each segment keeps (the farthest states; modulo symmetry, the least classes)
    symmetry: object = None  # enumerate modulo this symmetry (``class_cells``)

    def table_path(self, depth: int) -> Path:
        return Path(self.directory) / f"table-{depth}.bin"

    def routes(self, depth: int) -> Path:
        return Path(self.directory) / f"routes-{depth}"

    def table(self, depth: int, mode: str) -> np.memmap:
        """The table at ``depth``, memory-mapped (``mode``: ``"r"`` or ``"r+"``)."""
        return np.memmap(self.table_path(depth), dtype=np.int64, mode=mode, shape=(self.layout.words,))


@dataclass(frozen=True)
class SegmentReport:
    segment: int
    expanded: int = 0
    generated: int = 0
    routed: int = 0  # bytes sent to other segments (expand) or received (settle)
    new: int = 0  # settle: frontier cells after the layer
    positions: int = 0  # settle, modulo symmetry: the positions of the new frontier's classes
    kept: np.ndarray | None = None  # settle: the first ``keep`` of them
    seconds: float = 0.0
    compile_seconds: float = 0.0


def expand_segment(job: Job, segment: int, depth: int, pull: bool) -> SegmentReport:
    """Phase 1 of making ``depth + 1`` for ``segment`` (see the module docstring); a ``pull``
    layer only copies the range (its settle phase looks for parents instead)."""
    watch = jit.Stopwatch()
    puzzle = as_puzzle(job.puzzle)
    kernel = layer_kernels(puzzle).frontier_children_range
    layout = job.layout
    lo, hi = layout.word_range(segment)
    old, new = job.table(depth, "r"), job.table(depth + 1, "r+")
    retire_frontier(old, new, lo, hi)
    if pull:
        new.flush()
        return SegmentReport(segment, seconds=watch.seconds)
    if job.symmetry is not None:
        return _expand_classes(job, segment, depth, kernel, old, new, watch)
    out = np.empty(ROUND_WORDS * 32 * puzzle.max_children, np.int64)  # a child per move of each rank, at most
    own = (32 * lo, min(layout.rank_size, 32 * hi))
    expanded = generated = 0
    with _RouteFiles(job.routes(depth), segment) as routes:
        for start in range(lo, hi, ROUND_WORDS):
            e, g, written = kernel(old, new, start, min(hi, start + ROUND_WORDS), FRONTIER_PATTERN,
                                   layout.last_mask(), job.component, kernel_tables(puzzle), job.backward, own[0],
                                   own[1], out, old, True)
            expanded += e
            generated += g
            if written:
                for owner, ranks in enumerate(bucket_by_owner(out[:written], 32 * layout.segment_words,
                                                              layout.segments)):
                    routes.append(owner, ranks)
    new.flush()
    return SegmentReport(segment, expanded, generated, routes.sent, seconds=watch.seconds,
                         compile_seconds=watch.compile_seconds)


def _expand_classes(job: Job, segment: int, depth: int, kernel, old, new, watch) -> SegmentReport:
    """``expand_segment`` modulo ``job.symmetry``: the frontier's children, brought to their
    canonical ranks, claimed in the range or routed to their owners when ``old`` has not reached
    them."""
    puzzle = as_puzzle(job.puzzle)
    layout = job.layout
    lo, hi = layout.word_range(segment)
    bounds = frontier_bounds(old, lo, hi)
    generated = 0
    with _RouteFiles(job.routes(depth), segment) as routes:
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            children = frontier_children(kernel, old, new, a, b, layout.last_mask(), job.component,
                                         kernel_tables(puzzle), puzzle.max_children)
            generated += len(children)
            canonical = job.symmetry.canonical_ranks(children, job.component)[0]  # duplicates too: a sort costs more
            canonical = canonical[(old[canonical >> 5] >> ((canonical & 31) << 1)) & 3 == 3]
            for owner, ranks in enumerate(bucket_by_owner(canonical, 32 * layout.segment_words, layout.segments)):
                if owner == segment:
                    claim_ranks(new, ranks)
                else:
                    routes.append(owner, ranks)
    new.flush()
    return SegmentReport(segment, generated=generated, routed=routes.sent, seconds=watch.seconds,
                         compile_seconds=watch.compile_seconds)


def settle_segment(job: Job, segment: int, depth: int, pull: bool) -> SegmentReport:
    """Phase 2 of making ``depth + 1`` for ``segment``: claim what was routed to it (``pull``:
    set each unreached rank of the range with a parent in the frontier), then count."""
    watch = jit.Stopwatch()
    old, new = job.table(depth, "r"), job.table(depth + 1, "r+")
    lo, hi = job.layout.word_range(segment)
    looked = 0
    if pull:
        puzzle = as_puzzle(job.puzzle)
        _, looked, _ = layer_kernels(puzzle).pull_segment_range(old, new, lo, hi, job.layout.last_mask(),
                                                                job.component, kernel_tables(puzzle), job.backward)
    received = 0
    for path in sorted(job.routes(depth).glob(f"to-{segment}.from-*.bin")):
        ranks = np.fromfile(path, dtype=np.int64)
        claim_ranks(new, ranks)
        received += ranks.nbytes
    if job.symmetry is not None:
        classes = count_layer(new, lo, hi, job.symmetry, job.component, job.keep)
        new.flush()
        return SegmentReport(segment, routed=received, new=classes.classes, positions=classes.positions,
                             kept=classes.representatives(), seconds=watch.seconds,
                             compile_seconds=watch.compile_seconds)
    kept = np.empty(job.keep, np.int64)
    count, filled = frontier_cells(new, lo, hi, kept)
    new.flush()
    return SegmentReport(segment, generated=looked, routed=received, new=int(count), kept=kept[:filled],
                         seconds=watch.seconds, compile_seconds=watch.compile_seconds)


def warm_workers(client, warming, job: Job) -> float:
    """``warming(job)`` (``warm``, or the owner-local tables' own) on every worker of ``client``'s
    cluster, one worker per host first: the others of a host then load what it compiled from the
    host's kernel cache instead of compiling the same kernels side by side (workers with cache
    directories of their own compile all the same). Returns the longest a worker took."""
    hosts: dict[str, list[str]] = {}
    for address, info in cluster_workers(client).items():
        hosts.setdefault(info.get("host", address), []).append(address)
    first = [addresses[0] for addresses in hosts.values()]
    rest = [address for addresses in hosts.values() for address in addresses[1:]]
    seconds = _warm_on(client, warming, job, first)
    if rest:
        seconds.update(_warm_on(client, warming, job, rest))
    return max(seconds.values(), default=0.0)


def _warm_on(client, warming, job: Job, workers: list[str]) -> dict[str, float]:
    """``warming(job)`` on ``workers``; nothing if one died meanwhile: the warm-up only saves
    time (a replacement loads or compiles the kernels on its first task, and a warming that
    failed otherwise fails again there, where the layer's retries and errors take it)."""
    try:
        return dict(client.run(warming, job, workers=workers))
    except worker_lost_errors():
        return {}


def warm(job: Job) -> float:
    """Compile (or load) the kernels of ``job``'s puzzle in this process, for the argument types
    the tasks pass (the previous table is mapped read-only); the seconds it took."""
    watch = jit.Stopwatch()
    puzzle = as_puzzle(job.puzzle)
    kernels = layer_kernels(puzzle)
    old, new, none = np.full(1, -1, np.int64), np.full(1, -1, np.int64), np.empty(0, np.int64)
    old.setflags(write=False)
    kernels.frontier_children_range(old, new, 0, 0, FRONTIER_PATTERN, job.layout.last_mask(),
                                    job.component, kernel_tables(puzzle), job.backward, 0, 0, none, old, True)
    kernels.pull_segment_range(old, new, 0, 0, job.layout.last_mask(), job.component, kernel_tables(puzzle),
                               job.backward)
    claim_ranks(new, none)
    retire_frontier(old, new, 0, 0)
    frontier_cells(new, 0, 0, none)
    bucket_by_owner(none, 32, 1)
    if job.symmetry is not None:
        frontier_bounds(old, 0, 0)
        frontier_bounds(new, 0, 0)
        jit.compiling("canonical_ranks", lambda: job.symmetry.canonical_ranks(none, job.component))
    return watch.compile_seconds


class _RouteFiles:
    """The files of the ranks one segment routes to others in one layer, under temporary names
    until all are written, then renamed (so a rerun of the task replaces them whole)."""

    def __init__(self, directory: Path, segment: int):
        self.directory = directory
        self.segment = segment
        self.handles: dict[int, object] = {}
        self.sent = 0

    def __enter__(self):
        self.directory.mkdir(exist_ok=True)
        return self

    def path(self, owner: int) -> Path:
        return self.directory / f"to-{owner}.from-{self.segment}.bin"

    def append(self, owner: int, ranks: np.ndarray) -> None:
        if not len(ranks):
            return
        if owner not in self.handles:
            self.handles[owner] = open(self._part(owner), "wb")
        self.handles[owner].write(np.ascontiguousarray(ranks).data)  # numpy's tofile loses the errno
        self.sent += ranks.nbytes

    def _part(self, owner: int) -> Path:
        return self.path(owner).with_name(self.path(owner).name + f".{os.getpid()}.part")

    def __exit__(self, kind, error, trace):
        for owner, handle in self.handles.items():
            handle.close()
            if kind is None:
                os.replace(self._part(owner), self.path(owner))
            else:
                self._part(owner).unlink(missing_ok=True)
