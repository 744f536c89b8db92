"""What the engine keeps between calls in one process, and how to drop it.

Every cache is a ``Cache`` registered here by name; ``clear_caches()`` (``vecsearch.clear_caches``)
empties them all, or the ones named. Entries live until they are cleared or the process ends;
keys hold the puzzle objects themselves (compared by identity), so a key never outlives what it
names and is never reused by another object.

- ``kernels``: each puzzle's layer kernel module, and the IDA* / A* kernels per heuristic
  function (compiled code stays loaded in numba after a clear; only the lookup is dropped);
- ``distance_tables``: distance tables by puzzle, goal layer, depth limit and storage
  (``distance_table``, the ``table`` and ``start-tables`` methods): a byte or two bits per rank;
- ``heuristics``: heuristics made per puzzle, goal layer, name and options (pattern databases);
- ``pair_depth_tables``: the per-thread depth tables of ``solve_pairs`` (two bytes per rank and
  thread, kept all unseen between calls);
- ``bitsets``: zeroed visited bitsets handed back by finished searches, by size (bounded by
  ``visited.POOL_BYTES``);
- ``goal_layers``: the goal states of a goal given as a condition, by puzzle and component
  (``goals.goal_layer``: a scan of the rank space).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

_registry: dict[str, Cache] = {}


class Cache:
    """A named process-wide map from keys to values built on first use."""

    def __init__(self, name: str, what: str):
        self.name = name
        self.what = what
        self.entries: dict = {}
        self._lock = threading.RLock()  # one build per key, even from several threads
        _registry[name] = self

    def get(self, key: Hashable, build: Callable[[], object]):
        """The value for ``key``, built by ``build()`` the first time."""
        with self._lock:
            if key not in self.entries:
                self.entries[key] = build()
            return self.entries[key]

    def discard(self, key: Hashable) -> None:
        """Drop the entry for ``key`` (an entry left unusable, e.g. by a search stopped half-way)."""
        with self._lock:
            self.entries.pop(key, None)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"<Cache {self.name!r}: {len(self)} entries ({self.what})>"


KERNELS = Cache("kernels", "kernel modules per puzzle and per heuristic function")
DISTANCE_TABLES = Cache("distance_tables", "distance tables per puzzle, goal, depth limit and storage")
HEURISTICS = Cache("heuristics", "heuristics per puzzle, goal, name and options")
PAIR_DEPTH_TABLES = Cache("pair_depth_tables", "solve_pairs' per-thread depth tables per rank space")
BITSETS = Cache("bitsets", "zeroed visited bitsets kept for reuse, by size")
GOAL_LAYERS = Cache("goal_layers", "the states a goal condition accepts, per puzzle and component")


def clear_caches(*names: str) -> None:
    """Empty the caches named (all of them by default).

    Parameters
    ----------
    *names : str
        ``"kernels"``, ``"distance_tables"``, ``"heuristics"``, ``"pair_depth_tables"``,
        ``"bitsets"``.

    Examples
    --------
    >>> table = vs.distance_table("sliding-2x3")
    >>> vs.clear_caches("distance_tables")
    >>> vs.distance_table("sliding-2x3") is table
    False
    """
    unknown = set(names) - set(_registry)
    if unknown:
        raise ValueError(f"unknown cache(s) {sorted(unknown)}; the caches are {', '.join(_registry)}")
    for name in names or tuple(_registry):
        _registry[name].clear()
