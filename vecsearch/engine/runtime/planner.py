"""Memory planning: what a search will hold, estimated before it allocates, and a mode that fits.

Bytes per mode for a puzzle of ``N`` ranks, states of ``8w`` bytes (``w`` words), at most ``S``
states reachable (``N``, or fewer under a depth limit):

- ``twobit``: the table, ``N / 4`` bytes, plus the kept farthest states. Nothing else grows.
- ``layers`` with a bitset: ``N / 8`` bytes, plus the layers held (the last two, or all of them
  with ``keep_layers``), at most ``8w * S`` bytes together, plus a bounded scratch buffer.
- ``layers`` with a hash set: a table at most half full (``<= 4 S`` slots, ``6 S`` while it
  grows) plus the layers: ``56 S`` bytes for one-word states, which are their own keys; wider
  states are kept in a store (twice, while the table grows) that 8-byte keys index: ``(48 + 24w)
  S`` bytes. Unbounded when ``S`` is unknown.

Each estimate has a ``certain`` part (allocated whatever happens) and a worst-case ``bound``.
``plan`` takes, in order of preference, a mode whose bound fits under the limit; failing that,
one whose certain part fits and whose bound is unknown or loose (or that was asked for by name:
the search then stops with ``MemoryLimitError`` before it would outgrow the limit, see
``MemoryBudget``); failing that it refuses, naming each mode's needs and the limit. Preference:
the two-bit search first for puzzles that step in rank space (``expand_rank``: table lookups,
no states built) and for large dense rank spaces (``Puzzle.prefers_two_bit``), else the layers
(cheap children from states).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from vecsearch.errors import MemoryLimitError, VecsearchError

AVAILABLE_FRACTION = 0.8  # default limit: this share of the memory available when the search starts,
PHYSICAL_FRACTION = 0.5  # and at most this share of the machine's: a larger search is asked for by name
SCRATCH_BYTES = 48 << 20  # expansion scratch and layer-building buffers (vecsearch.engine.runtime.visited/layers)
MODES = ("auto", "layers", "twobit")
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


@dataclass(frozen=True)
class Estimate:
    mode: str  # "layers" or "twobit"
    visited: str  # "bitset", "hash" or "twobit"
    certain: int  # bytes allocated whatever happens
    bound: int | None  # worst case in bytes; None: cannot be bounded in advance
    loose: bool = False  # the bound comes from a depth limit (sum of M^d): usually far above the need

    def describe(self) -> str:
        what = {"twobit": "two-bit table", "bitset": "bitset + layers", "hash": "hash set + layers"}[self.visited]
        if self.bound == self.certain:
            return f"{what} {format_size(self.certain)}"
        worst = "unbounded" if self.bound is None else f"up to {format_size(self.bound)}"
        return f"{what} {format_size(self.certain) + ' at the start, ' if self.certain else ''}{worst}"


@dataclass(frozen=True)
class Plan:
    estimate: Estimate
    limit: int

    @property
    def mode(self) -> str:
        return self.estimate.mode

    @property
    def visited(self) -> str:
        return self.estimate.visited


def physical_bytes() -> int:
    """The machine's physical memory."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


_available = [0.0, 0]  # when last read, and what (``available_bytes``)


def available_bytes() -> int:
    """Memory the system can give without swapping: ``MemAvailable``, capped by a cgroup limit.
    Read at most once a second (a reading costs 0.1 ms, a search of a small space not much more)."""
    if time.monotonic() - _available[0] < 1.0:
        return _available[1]
    _available[:] = time.monotonic(), _read_available_bytes()
    return _available[1]


def _read_available_bytes() -> int:
    available = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                available = int(line.split()[1]) * 1024
    except OSError:
        pass
    if available is None:
        available = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    try:
        cgroup = Path("/sys/fs/cgroup")
        limit = (cgroup / "memory.max").read_text().strip()
        if limit != "max":
            available = min(available, int(limit) - int((cgroup / "memory.current").read_text()))
    except (OSError, ValueError):
        pass
    return max(available, 0)


def default_limit() -> int:
    """The limit when none is given: 80% of the memory available, and at most half the
    machine's. (vertushka.tws, 71,425,670,400 ranks, plans a two-bit table of 16.6 GiB: under
    80% of a 24 GB machine's available memory, so it was taken, and the search held three
    quarters of the machine for hours. A search that big is now refused unless asked for, with
    what it needs.)"""
    return int(min(available_bytes() * AVAILABLE_FRACTION, physical_bytes() * PHYSICAL_FRACTION))


def parse_size(value) -> int:
    """Bytes from ``"512M"``, ``"2G"``, ``"1.5GiB"``, ``"100000"`` or a number."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value <= 0:
            raise ValueError(f"a memory size must be positive, got {value}")
        return int(value)
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgtKMGT]?)(?:i?[bB])?\s*", str(value))
    if not match or float(match[1]) <= 0:
        raise ValueError(f"cannot read a memory size from {value!r}; expected e.g. 512M, 2G, 1.5GiB")
    return int(float(match[1]) * _UNITS[match[2].lower()])


def format_size(n: int) -> str:
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def reachable_bound(puzzle, max_depth) -> tuple[int | None, bool]:
    """At most how many states a search can reach, the rank space or ``sum M^d`` to the depth
    limit, and whether there is a depth limit (the bound is then loose: layers grow far slower
    than ``M^d`` once duplicates appear, and a limit below the diameter leaves most ranks unseen)."""
    bound = puzzle.rank_size if puzzle.has_rank else None
    if max_depth is None:
        return bound, False
    reach, power = 0, 1
    for _ in range(max_depth + 1):
        reach += power
        power *= puzzle.max_moves
        if bound is not None and reach >= bound:
            return bound, True
    return reach, True


def two_bit_words(rank_size: int) -> int:
    """64-bit words of a two-bit table over ``rank_size`` ranks (32 cells a word)."""
    return (rank_size + 31) // 32


def two_bit_bytes(rank_size: int) -> int:
    """Bytes of a two-bit table over ``rank_size`` ranks."""
    return 8 * two_bit_words(rank_size)


def estimates(puzzle, *, max_depth=None, keep=0, sides=1) -> list[Estimate]:
    """Every mode the puzzle can use, with its estimate."""
    state_bytes = 8 * puzzle.width
    reach, loose = reachable_bound(puzzle, max_depth)
    out = []
    if puzzle.has_rank:
        if puzzle.has_unrank:
            table = sides * two_bit_bytes(puzzle.rank_size) + 8 * keep
            out.append(Estimate("twobit", "twobit", table, table))
        bits = sides * (puzzle.rank_size + 63) // 64 * 8
        out.append(Estimate("layers", "bitset", bits, bits + state_bytes * reach + SCRATCH_BYTES, loose))
    held = 56 if puzzle.width == 1 else 48 + 3 * state_bytes  # a state's share of the table, store and layers
    hashed = None if reach is None else held * reach + SCRATCH_BYTES
    out.append(Estimate("layers", "hash", 0, hashed, loose))
    return out


def plan(puzzle, *, mode="auto", visited="auto", max_memory=None, max_depth=None, keep=0,
         need_layers=False) -> Plan:
    """The mode a search of ``puzzle`` should run in under ``max_memory`` (default: most of the
    available memory), or ``MemoryLimitError`` naming what each mode needs."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if visited not in ("auto", "bitset", "hash"):
        raise ValueError(f"visited must be 'auto', 'bitset' or 'hash', not {visited!r}")
    limit = default_limit() if max_memory is None else parse_size(max_memory)
    every = estimates(puzzle, max_depth=max_depth, keep=keep)
    candidates = [e for e in every if (mode == "auto" or e.mode == mode)
                  and (visited == "auto" or e.visited == visited)
                  and not (need_layers and e.mode == "twobit")]
    if not candidates:
        raise VecsearchError(_unavailable(puzzle, mode, visited, need_layers))
    given = max_memory is not None
    if not puzzle.prefers_two_bit:  # layers are faster when they fit
        candidates.sort(key=lambda e: e.mode == "twobit")
    explicit = mode != "auto" or visited != "auto"
    tests = (lambda e: e.bound is not None and e.bound <= limit,  # surely fits
             lambda e: e.certain <= limit and (e.bound is None or e.loose or explicit))  # may fit: guarded
    for fits in tests:
        chosen = next((e for e in candidates if fits(e)), None)
        if chosen is not None:
            return Plan(chosen, limit)
    raise MemoryLimitError(_refusal(puzzle, candidates, every, limit, given))


def fits(puzzle, **options) -> bool:
    """Whether ``plan(puzzle, **options)`` finds a mode that fits its memory."""
    try:
        plan(puzzle, **options)
    except MemoryLimitError:
        return False
    return True


def _unavailable(puzzle, mode, visited, need_layers) -> str:
    if mode == "twobit" and need_layers:
        return "the two-bit search keeps no layers: it cannot give keep_layers or per-layer states"
    if mode == "twobit":
        return f"{puzzle.name} cannot use the two-bit search: it needs rank, rank_size and unrank"
    return f"{puzzle.name} has no rank, so it cannot use a bitset"


def _refusal(puzzle, candidates, every, limit, given: bool = True) -> str:
    asked = "; ".join(e.describe() for e in candidates)
    others = [e for e in every if e not in candidates and e.bound is not None and e.bound <= limit]
    bounded = [e for e in every if e.bound is not None]
    if others:
        advice = f"mode {others[0].mode!r} would fit ({others[0].describe()})"
    elif bounded:
        smallest = min(bounded, key=lambda e: e.bound)
        advice = f"nothing fits; the least that surely fits is the {smallest.describe()}, under a limit of" \
                 f" {format_size(smallest.bound)}"
    else:
        advice = "nothing fits"
    if not others:
        advice += ("; a search limited to a depth (--max-depth, max_depth=) needs only the layers it reaches"
                   + ("; a two-bit table larger than this process's memory runs partitioned, on disk (--spill DIR)"
                      " or a dask cluster (--workers N, --scheduler)" if puzzle.has_unrank else ""))
    default = "" if given else (" (the default: 80% of the available memory, at most half the machine's; a larger"
                                " limit is asked for with max_memory= or --max-memory)")
    return (f"{puzzle.name}: the search needs more memory than its limit of {format_size(limit)}{default}"
            f" ({asked}); {advice}")


def plan_database(puzzle, group: int, max_memory=None) -> MemoryBudget:
    """Before a pattern database is enumerated (``engine.heuristic.pdb``): its bitset (a bit per rank) and
    entries (a byte per ``group`` ranks) must fit under ``max_memory`` (default: most of the
    available memory), or ``MemoryLimitError``; returns the budget its layers are checked against."""
    limit = default_limit() if max_memory is None else parse_size(max_memory)
    certain = (puzzle.rank_size + 63) // 64 * 8 + puzzle.rank_size // group + SCRATCH_BYTES
    if certain > limit:
        raise MemoryLimitError(f"{puzzle.name}: its pattern database needs {format_size(certain)} (bitset and"
                               f" entries) before any layer, over the limit of {format_size(limit)}")
    return MemoryBudget(limit, puzzle, hint=False)


class MemoryBudget:
    """Checks allocations against the limit while a search runs."""

    def __init__(self, limit: int, puzzle, hint: bool = True):
        self.limit = limit
        self.puzzle = puzzle
        self.name = puzzle.name
        self.hint = hint  # name other ways to go deeper (not for a pattern database: it needs its whole space)

    def check(self, total: int, what: str = "the next layer") -> None:
        if total > self.limit:
            hint = f"; {deeper_hint(self.puzzle)}" if self.hint else ""
            raise MemoryLimitError(f"{self.name}: {what} would take the search to {format_size(total)},"
                                   f" over its memory limit of {format_size(self.limit)}{hint}")

    def check_next_layer(self, depth: int, sizes: list[int], projected_bytes, side: str = "") -> None:
        """Stop before a layer that would pass the limit: it is projected to grow by the last
        layers' ratio, and ``projected_bytes(new states)`` says what holding it would take."""
        growth = sizes[-1] / sizes[-2]
        projected = projected_bytes(int(sizes[-1] * growth))
        if projected > self.limit:
            where = f"the {side} side " if side else ""
            raise MemoryLimitError(
                f"{self.name}: stopped {where}after depth {depth}: layer {depth + 1}, about"
                f" {sizes[-1] * growth:,.0f} states"
                f" (x{growth:.2f} per layer), would take the search to about {format_size(int(projected))}, over its"
                f" memory limit of {format_size(self.limit)}; {deeper_hint(self.puzzle)}")


def deeper_hint(puzzle) -> str:
    """Where to go when a breadth-first search runs out of memory."""
    ways = ["a path between two states: bidirectional search (vecsearch solve, vs.solve) holds two half-depth balls"]
    if puzzle.heuristic_names:
        ways.append("IDA* (method='idastar') holds almost nothing")
    if puzzle.has_unrank:
        ways.append("the whole space: the two-bit table on a cluster or on disk (--workers N, --scheduler ADDRESS,"
                    " --spill DIR)")
    return "; ".join(ways)
