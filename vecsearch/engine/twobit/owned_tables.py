"""Owner-local tables for the partitioned two-bit search (Korf's disk-based frontier search).

Each segment of the table lives only on the worker that owns it, in its own directory (on its
own disk): ``DIR/segment-T/table-D.bin``, where ``DIR`` is the run directory as that worker sees
it (``{worker}`` in it is replaced by the worker's name, so that workers on one machine get
directories of their own). A segment's file is as long as the whole table but holds only the
segment's words (a sparse file: the rest is never written, so it takes no disk and no memory),
so the kernels address it by rank as they do a shared table; no worker ever opens another's.

A layer, on the workers that own the segments (``OwnerRunner``):

1. ``retire`` (in the first round): ``table-(D+1)`` = the segment's range of ``table-D`` with its
   frontier retired, and ``table-(D-1)`` removed;
2. rounds of ``expand_round``: a segment expands a slice of its frontier, sets its own children
   in ``table-(D+1)`` and returns the others, unfiltered (it cannot know whether another
   segment has reached them), bucketed by owner; each owner claims what was routed to it
   (``claim_routed``: a claim sets only unreached cells, so a child sent twice, or already
   reached, changes nothing). A child travels as its offset in its owner's range (4 bytes), and
   rounds bound the children in flight (``ROUND_CHILDREN``). A round is one task per segment
   and one claim per owner, which takes the whole rounds (their parts for it) and hands the
   client its own round's summary: two hops, no task per pair of segments;
3. ``count``: the segment's new frontier cells, and the first few ranks of them; its table is
   synced to disk first (the client commits the layer after).

A layer is pulled instead when that is cheaper (``segments`` judges as for shared tables): in
rounds of ``ask_round``, a segment sets each unreached cell of its range with a parent in its
own frontier, and for the others asks the owners of their parents outside the range
(``answer_asked``: whether each is in the owner's frontier; an owner reads only its own table),
then claims the cells whose parent was found (``claim_answered``). The late layers of a search,
where few ranks are left and a push would route the children of a huge frontier, take a
fraction of the work.

Modulo symmetry (``job.symmetry``; ``class_cells``), a round brings the children to their
canonical ranks first: it claims those in its own range and routes the others; ``count`` counts
classes and their positions.

The routed children travel between workers as dask results, never through a shared file. A
task only reads ``table-D`` and writes its own segment's ``table-(D+1)``, so a layer interrupted
by a worker's death is made again from the start, once the worker is back (a nanny restarts it
under the same name, with its directory): a lost worker costs one layer. The client keeps the
search's state (``search.json``) in its own directory and resumes from it.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.cluster import (
    WORKER_WAIT,
    Broadcast,
    WorkerLost,
    again_if_a_worker_is_lost,
    cluster_workers,
    in_background,
)
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.twobit.class_cells import count_layer, frontier_bounds
from vecsearch.engine.twobit.segment_cells import (
    bucket_by_owner,
    claim_offsets,
    claim_ranks,
    frontier_at,
    frontier_cells,
    retire_frontier,
)
from vecsearch.engine.twobit.segment_tasks import (
    FRONTIER_PATTERN,
    ROUND_WORDS,
    Job,
    SegmentReport,
    new_table,
    warm_workers,
)
from vecsearch.errors import VecsearchError

ROUND_CHILDREN = 1 << 20  # children a segment routes per round, about, before the owners claim them
ASK_WORDS = 1 << 10  # words of the range a pull looks at per kernel call (its scratch: 2 ranks per neighbour)
OFFSET = np.uint32  # a routed child: its offset in its owner's range (segments of at most 2^32 ranks)
POLL_SECONDS = 1.0  # how often a wait for tasks checks that their workers are still there


def worker_name() -> str:
    """The name of the dask worker running this task ("local" outside a worker)."""
    try:
        from distributed import get_worker

        return str(get_worker().name)
    except (ImportError, ValueError):
        return "local"


def segment_table(job: Job, segment: int, depth: int) -> Path:
    """The owner's file of ``segment``'s table at ``depth``, in this worker's directory."""
    return Path(job.directory.format(worker=worker_name())) / f"segment-{segment}" / f"table-{depth}.bin"


def _table(job: Job, segment: int, depth: int, mode: str) -> np.memmap:
    return np.memmap(segment_table(job, segment, depth), dtype=np.int64, mode=mode, shape=(job.layout.words,))


def seed(job: Job, segment: int, starts: np.ndarray) -> int:
    """``table-0`` of ``segment``: not reached, but for the starts it owns; their number."""
    lo, hi = job.layout.word_range(segment)
    new_table(segment_table(job, segment, 0), job.layout.words, lo, hi)
    table = _table(job, segment, 0, "r+")
    table[lo:hi] = -1
    own = starts[(starts >= 32 * lo) & (starts < 32 * hi)]
    claim_ranks(table, own)
    table.flush()
    return len(own)


def retire(job: Job, segment: int, depth: int) -> None:
    """``table-(depth+1)`` of ``segment``: its range of ``table-depth`` with the frontier retired."""
    lo, hi = job.layout.word_range(segment)
    new_table(segment_table(job, segment, depth + 1), job.layout.words, lo, hi)
    old, new = _table(job, segment, depth, "r"), _table(job, segment, depth + 1, "r+")
    retire_frontier(old, new, lo, hi)
    if depth:
        forget(job, segment, depth - 1)


def forget(job: Job, segment: int, depth: int) -> None:
    """Remove ``segment``'s table at ``depth`` (a later layer is committed)."""
    segment_table(job, segment, depth).unlink(missing_ok=True)


@dataclass(frozen=True)
class Round:
    """What one round of a segment's expansion gives: where the next round starts (``hi`` when
    done), counts, and the children routed to each segment."""

    next_word: int
    expanded: int
    generated: int
    routed: list  # for each segment, the children routed to it: offsets in its range
    seconds: float
    compile_seconds: float
    askers: list | None = None  # a pull: beside each routed offset, the own rank (an offset) that asked

    def summary(self) -> tuple:
        """What the client needs of the round: where the next starts, counts, bytes routed."""
        return (self.next_word, self.expanded, self.generated, sum(r.nbytes for r in self.routed), self.seconds,
                self.compile_seconds)


def expand_round(job: Job, segment: int, depth: int, word: int, first: bool) -> Round:
    """Expand ``segment``'s frontier from ``word`` on until about ``ROUND_CHILDREN`` children are
    routed (see the module docstring); the ``first`` round of a layer makes the next table first
    (``retire``)."""
    watch = jit.Stopwatch()
    if first:
        retire(job, segment, depth)
    puzzle = as_puzzle(job.puzzle)
    kernel = layer_kernels(puzzle).frontier_children_range
    layout = job.layout
    lo, hi = layout.word_range(segment)
    old, new = _table(job, segment, depth, "r"), _table(job, segment, depth + 1, "r+")
    look = new.view()
    look.setflags(write=False)  # the words of the own children, prefetched (the type of ``old``: one compile)
    out = np.empty(ROUND_WORDS * 32 * puzzle.max_moves, np.int64)
    own = (32 * lo, min(layout.rank_size, 32 * hi))
    span = 32 * layout.segment_words
    expanded = generated = held = 0
    parts: list[list[np.ndarray]] = [[] for _ in range(layout.segments)]
    classes = job.symmetry is not None  # the own children too are written out, to be made canonical first
    while word < hi and held < ROUND_CHILDREN:
        stop = min(hi, word + ROUND_WORDS)
        e, g, written = kernel(old, new, word, stop, FRONTIER_PATTERN, layout.last_mask(), job.component,
                               kernel_tables(puzzle), job.backward, *((0, 0) if classes else own), out, look, False)
        children = out[:written]
        if classes:
            children = job.symmetry.canonical_ranks(children, job.component)[0]  # duplicates too: a sort costs more
            mine = (children >= own[0]) & (children < own[1])
            claim_ranks(new, children[mine])
            children = children[~mine]
        expanded += e
        generated += g
        held += len(children)
        for owner, ranks in enumerate(bucket_by_owner(children, span, layout.segments)):
            if len(ranks):
                parts[owner].append((ranks - owner * span).astype(OFFSET))  # offsets in the owner's range
        word = stop
    return Round(word, expanded, generated, [_joined(p) for p in parts], watch.seconds, watch.compile_seconds)


def claim_routed(job: Job, segment: int, depth: int, rounds: dict[int, Round]) -> tuple[int, tuple | None]:
    """Claim the children that ``rounds`` (of the segments that expanded) route to ``segment``
    (offsets in its range) in its ``table-(depth+1)``. Returns the bytes received, and the
    summary of ``segment``'s own round if it had one (so that a round takes no tasks but the
    expansions and these)."""
    new = _table(job, segment, depth + 1, "r+")
    received = 0
    for round_ in rounds.values():
        offsets = round_.routed[segment]
        claim_offsets(new, 32 * job.layout.segment_words * segment, offsets)
        received += offsets.nbytes
    own = rounds.get(segment)
    return received, None if own is None else own.summary()


def ask_round(job: Job, segment: int, depth: int, word: int, first: bool) -> Round:
    """The pull form of ``expand_round``: from ``word`` on, set the unreached cells of
    ``segment``'s range that have a parent in its own frontier, and route the other parents of
    the rest to their owners, to ask whether they are in theirs (``answer_asked``), until about
    ``ROUND_CHILDREN / 2`` are routed (a rank asked about takes 8 bytes: its offset and the
    asking rank's, kept beside it in ``Round.askers``)."""
    watch = jit.Stopwatch()
    if first:
        retire(job, segment, depth)
    puzzle = as_puzzle(job.puzzle)
    layout = job.layout
    lo, hi = layout.word_range(segment)
    old, new = _table(job, segment, depth, "r"), _table(job, segment, depth + 1, "r+")
    room = ASK_WORDS * 32 * puzzle.max_moves
    asked, askers = np.empty(room, np.int64), np.empty(room, np.int64)
    base, span = 32 * lo, 32 * layout.segment_words
    looked = generated = held = 0
    parts: list[list[np.ndarray]] = [[] for _ in range(layout.segments)]
    mine: list[list[np.ndarray]] = [[] for _ in range(layout.segments)]
    while word < hi and 2 * held < ROUND_CHILDREN:  # two offsets a rank asked about: as many bytes as a push's
        stop = min(hi, word + ASK_WORDS)
        n, g, _, written = layer_kernels(puzzle).ask_parents_range(
            old, new, word, stop, layout.last_mask(), job.component, kernel_tables(puzzle), job.backward, base,
            min(layout.rank_size, 32 * hi), asked, askers)
        looked += n
        generated += g
        held += written
        owners = asked[:written] // span
        for owner in np.unique(owners).tolist():
            chosen = owners == owner
            parts[owner].append((asked[:written][chosen] - owner * span).astype(OFFSET))
            mine[owner].append((askers[:written][chosen] - base).astype(OFFSET))
        word = stop
    return Round(word, looked, generated, [_joined(p) for p in parts], watch.seconds, watch.compile_seconds,
                 [_joined(m) for m in mine])


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """One array of ``parts``: a large one is mapped, and returned to the system when freed (the
    many small parts held across a round grew the heap for good)."""
    return np.concatenate(parts) if parts else np.empty(0, OFFSET)


def answer_asked(job: Job, segment: int, depth: int, rounds: dict[int, Round]) -> dict[int, np.ndarray]:
    """For each segment's pull round in ``rounds``, whether each rank it asked ``segment`` about
    is in ``segment``'s frontier at ``depth``."""
    old = _table(job, segment, depth, "r")
    base = 32 * job.layout.segment_words * segment
    return {t: frontier_at(old, base, round_.routed[segment]) for t, round_ in rounds.items()}


def claim_answered(job: Job, segment: int, depth: int, own: Round, answers: dict[int, dict[int, np.ndarray]]
                   ) -> tuple[int, tuple]:
    """Set ``segment``'s ranks that asked about a parent its owner found in the frontier
    (``answers[owner][segment]``); the bytes of answers received and the round's summary."""
    new = _table(job, segment, depth + 1, "r+")
    base = 32 * job.layout.segment_words * segment
    received = 0
    assert own.askers is not None
    for owner, answered in answers.items():
        found = answered[segment]
        claim_offsets(new, base, own.askers[owner][found])
        received += found.nbytes
    return received, own.summary()


def count(job: Job, segment: int, depth: int) -> tuple[int, int, np.ndarray]:
    """The frontier cells of ``segment`` at ``depth``, their positions (modulo symmetry; else 0),
    and the first ``job.keep`` of their ranks."""
    lo, hi = job.layout.word_range(segment)
    with open(segment_table(job, segment, depth), "rb+") as made:  # on disk before the client commits the layer
        os.fsync(made.fileno())
    table = _table(job, segment, depth, "r")
    if job.symmetry is not None:
        layer = count_layer(table, lo, hi, job.symmetry, job.component, job.keep)
        return layer.classes, layer.positions, layer.representatives()
    kept = np.empty(job.keep, np.int64)
    found, filled = frontier_cells(table, lo, hi, kept)
    return int(found), 0, kept[:filled]


def remove(job: Job, segment: int) -> None:
    """Remove ``segment``'s files (the run is over and its directory was temporary)."""
    directory = segment_table(job, segment, 0).parent
    for path in directory.glob("table-*.bin"):
        path.unlink(missing_ok=True)
    try:
        directory.rmdir()
        directory.parent.rmdir()
    except OSError:
        pass


def warm(job: Job) -> float:
    """Compile (or load) the owner tasks' kernels in this process; the seconds it took."""
    watch = jit.Stopwatch()
    puzzle = as_puzzle(job.puzzle)
    old, new, none = np.full(1, -1, np.int64), np.full(1, -1, np.int64), np.empty(0, np.int64)
    old.setflags(write=False)
    layer_kernels(puzzle).frontier_children_range(old, new, 0, 0, FRONTIER_PATTERN, job.layout.last_mask(),
                                                  job.component, kernel_tables(puzzle), job.backward, 0, 0, none, old,
                                                  False)
    claim_ranks(new, none)
    retire_frontier(old, new, 0, 0)
    claim_offsets(new, 0, none.astype(OFFSET))
    frontier_at(old, 0, none.astype(OFFSET))
    layer_kernels(puzzle).ask_parents_range(old, new, 0, 0, job.layout.last_mask(), job.component,
                                            kernel_tables(puzzle), job.backward, 0, 0, none, none)
    frontier_cells(new, 0, 0, none)
    frontier_cells(old, 0, 0, none)
    bucket_by_owner(none, 32, 1)
    if job.symmetry is not None:
        frontier_bounds(old, 0, 0)
        jit.compiling("canonical_ranks", lambda: job.symmetry.canonical_ranks(none, job.component))
    return watch.compile_seconds


class OwnerRunner:
    """Runs the owner-local layers on a ``dask.distributed`` cluster: segment ``t`` on the
    ``t``-th worker (by name, in turn), every task of a segment on its owner only."""

    pulls = True  # by asking the owners of the parents outside a segment (``ask_round``)
    owners_of_tables = True

    def __init__(self, client, owners: dict[int, str] | None = None):
        self.client = client
        self.owners = owners
        self.workers = max(1, len(cluster_workers(client)))

    def _addresses(self) -> dict[str, str]:
        return {str(info.get("name")): address for address, info in cluster_workers(self.client).items()}

    @staticmethod
    def default_segments(workers: int, rank_size: int) -> int:
        """Two segments per worker, of at most 2^32 ranks (a routed child is a 32-bit offset)."""
        return max(2 * workers, -(-rank_size // 2**32))

    def start(self, job: Job) -> float:
        if 32 * job.layout.segment_words > 2**32:
            raise VecsearchError(f"owner-local segments hold at most 2^32 ranks: give at least"
                                 f" {-(-job.layout.rank_size // 2**32)} segments")
        names = sorted(self._addresses())
        if self.owners is None:
            self.owners = {t: names[t % len(names)] for t in range(job.layout.segments)}
        self.segments = job.layout.segments
        self.plain_job = job
        self.job = Broadcast(self.client, job)
        return warm_workers(self.client, warm, job)

    def _where(self) -> dict[int, str]:
        """Each segment's owner's address; waits for an owner that is away (restarting)."""
        waited = time.monotonic()
        while True:
            addresses = self._addresses()
            missing = sorted({name for name in self.owners.values() if name not in addresses})
            if not missing:
                return {t: addresses[name] for t, name in self.owners.items()}
            if time.monotonic() - waited > WORKER_WAIT:
                raise VecsearchError(f"the workers named {', '.join(missing)} hold segment tables and have left the"
                                     " cluster: start them again (same names, same directories) and resume")
            time.sleep(0.2)

    def _gather(self, futures, where: dict[int, str]):
        """The results of ``futures`` (a list or a dict), or ``WorkerLost`` as soon as an owner
        in ``where`` leaves the cluster: a task bound to its address would never run, nor run
        again when the result it had made was lost with it (its owner killed after the task,
        before the gather: a gather waited for it for ever). The gather runs on a thread of its
        own, so that this one can watch the owners meanwhile."""
        fetched = in_background(self.client.gather, futures)
        while True:
            try:
                return fetched.result(timeout=POLL_SECONDS)
            except TimeoutError:
                if not set(where.values()) <= set(self._addresses().values()):
                    self.client.cancel(list(futures.values()) if isinstance(futures, dict) else futures)
                    raise WorkerLost from None

    def _on_owner(self, where, segment, function, *args):
        return self.client.submit(function, self.job.future, segment, *args, workers=[where[segment]],
                                  allow_other_workers=False, pure=False)

    def seed(self, starts: np.ndarray) -> int:
        return again_if_a_worker_is_lost(lambda: self._seed(starts))

    def _seed(self, starts: np.ndarray) -> int:
        where = self._where()
        return sum(self._gather([self._on_owner(where, t, seed, starts) for t in range(self.segments)], where))

    def layer(self, depth: int, pull: bool) -> tuple[list, list]:
        """Make ``depth + 1``; a layer cut short by a lost worker is made again, whole."""
        return again_if_a_worker_is_lost(lambda: self._layer(depth, pull))

    def _layer(self, depth: int, pull: bool) -> tuple[list, list]:
        where = self._where()
        layout = self.plain_job.layout
        words = {t: layout.word_range(t)[0] for t in range(self.segments)}
        ends = {t: layout.word_range(t)[1] for t in range(self.segments)}
        reports = {t: SegmentReport(t) for t in range(self.segments)}
        received = dict.fromkeys(range(self.segments), 0)
        first = True
        while any(words[t] < ends[t] for t in words):
            rounds = {t: self._on_owner(where, t, ask_round if pull else expand_round, depth, words[t], first)
                      for t in words if words[t] < ends[t] or first}
            # each owner claims in its table after its own round (which retires it); a round's
            # routed ranks travel whole to the workers of the segments they are for
            if pull:
                answers = {u: self._on_owner(where, u, answer_asked, depth, rounds) for u in range(self.segments)}
                claims = {t: self._on_owner(where, t, claim_answered, depth, rounds[t], answers) for t in rounds}
            else:
                claims = {u: self._on_owner(where, u, claim_routed, depth, rounds) for u in range(self.segments)}
            for u, (got, summary) in self._gather(claims, where).items():
                received[u] += got
                if summary is None:
                    continue
                next_word, expanded, generated, sent, seconds, compiled = summary
                words[u] = next_word
                r = reports[u]
                reports[u] = replace(r, expanded=r.expanded + expanded, generated=r.generated + generated,
                                     routed=r.routed + sent, seconds=r.seconds + seconds,
                                     compile_seconds=r.compile_seconds + compiled)
            first = False
        counted = self._gather([self._on_owner(where, t, count, depth + 1) for t in range(self.segments)], where)
        settled = [SegmentReport(t, routed=received[t], new=n, positions=positions, kept=kept)
                   for t, (n, positions, kept) in enumerate(counted)]
        return list(reports.values()), settled

    def committed(self, depth: int) -> None:
        """Layer ``depth`` is committed (its owners remove the table before it as they retire)."""

    def finish(self, depth: int, remove_files: bool) -> None:
        """The search stopped at ``depth``: the owners remove its files (``remove_files``), or the
        table before the last."""
        again_if_a_worker_is_lost(lambda: self._finish(depth, remove_files))

    def _finish(self, depth: int, remove_files: bool) -> None:
        where = self._where()
        self._gather([self._on_owner(where, t, remove) if remove_files else self._on_owner(where, t, forget, depth - 1)
                      for t in range(self.segments)], where)


def default_directory() -> str:
    """The owners' directory when none is given: each worker's temporary directory."""
    return os.path.join(os.environ.get("TMPDIR", "/tmp"), "vecsearch-owned-{worker}")
