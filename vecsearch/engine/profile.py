"""The profile of a search: one record per layer and side, as data, then text.

A record describes how one layer came to be: the ``frontier`` (previous layer) was expanded into
``generated`` children, of which ``states`` were new (first reached at ``depth``) and
``duplicates`` were not. Depth 0 records the start (or goal) states themselves.
"""

from __future__ import annotations

import csv
import io
from dataclasses import astuple, dataclass, field, fields


@dataclass(frozen=True)
class LayerRecord:
    side: str  # "forward" or "backward"
    depth: int
    states: int  # states first reached at this depth
    frontier: int  # size of the layer expanded to make this one
    generated: int  # children generated from the frontier
    duplicates: int  # generated children already seen
    seconds: float  # wall time of the expansion (compile time excluded)
    bytes: int  # memory held by this side after the expansion (visited set + stored layers)
    method: str = "push"  # how the layer was found: "push" (expand the frontier) or "pull" (search the unreached)


COLUMNS = tuple(f.name for f in fields(LayerRecord))


@dataclass
class Profile:
    """Per-layer records of a search, with its totals."""

    records: list[LayerRecord] = field(default_factory=list)
    compile_seconds: float = 0.0  # JIT compile / cache load during the search, not in `seconds`
    visited: str = ""  # "bitset", "hash" or "twobit" (2 bits per rank)

    def add(self, record: LayerRecord) -> None:
        self.records.append(record)

    def side(self, side: str) -> list[LayerRecord]:
        return [r for r in self.records if r.side == side]

    @property
    def seconds(self) -> float:
        """Search time: the sum of the layer times."""
        return sum(r.seconds for r in self.records)

    @property
    def total_states(self) -> int:
        return sum(r.states for r in self.records)

    @property
    def peak_bytes(self) -> int:
        peaks = {}
        for r in self.records:
            peaks[r.side] = max(peaks.get(r.side, 0), r.bytes)
        return sum(peaks.values())

    def layer_sizes(self, side: str = "forward") -> list[int]:
        """``states`` per depth for one side."""
        return [r.states for r in self.side(side)]

    def to_records(self) -> list[dict]:
        return [dict(zip(COLUMNS, astuple(r))) for r in self.records]

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in self.records:
            writer.writerow(astuple(r))
        return out.getvalue()

    def __str__(self) -> str:
        methods = any(r.method != "push" for r in self.records) or self.visited == "twobit"
        header = f"{'side':<8} {'depth':>5} {'states':>13} {'frontier':>13} {'generated':>14} {'dups':>14} {'seconds':>9} {'MiB':>8}"
        lines = [header + ("  method" if methods else "")]
        for r in self.records:
            lines.append(
                f"{r.side:<8} {r.depth:>5} {r.states:>13,} {r.frontier:>13,} {r.generated:>14,} "
                f"{r.duplicates:>14,} {r.seconds:>9.4f} {r.bytes / 2**20:>8.1f}" + (f"  {r.method}" if methods else "")
            )
        lines.append(
            f"total {self.total_states:,} states in {self.seconds:.4f} s search"
            f" + {self.compile_seconds:.3f} s compile ({self.visited} visited set)"
        )
        return "\n".join(lines)
