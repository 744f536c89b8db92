"""The profile of a search: one record per layer and side, as data, then text.

A record describes how one layer came to be: the ``frontier`` (previous layer) was expanded into
``generated`` children, of which ``states`` were new (first reached at ``depth``) and
``duplicates`` were not. Depth 0 records the start (or goal) states themselves.

Heuristic searches record ``BoundRecord``s instead: per f-bound of IDA* (one depth-first
iteration) or per f-value of A* (the nodes expanded with that f).

As data (``to_records``, ``to_csv``, ``to_pandas``), text (``str``, ``table``), HTML in notebooks,
and a picture (``plot``; several profiles side by side: ``vecsearch.plots.plot_profiles``).
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import astuple, dataclass, field, fields

from vecsearch.kernels.phases import PHASES


@dataclass(frozen=True)
class LayerRecord:
    """One layer of a layered search: its size, the work that made it, its time and memory.

    Parameters
    ----------
    side : str
        ``"forward"`` or ``"backward"``.
    depth : int
        Moves from the side's root.
    states : int
        States first reached at this depth.
    frontier : int
        States of the layer expanded to make this one.
    generated : int
        Children generated from the frontier.
    duplicates : int
        Generated children already seen.
    seconds : float
        Wall time of the expansion (compile time excluded).
    bytes : int
        Memory held by this side after the expansion (visited set and stored layers).
    method : str
        ``"push"`` (the frontier expanded) or ``"pull"`` (the unreached states searched for a
        parent in the frontier).
    scan, unrank, expand, rank, claim, compact : float
        ``seconds`` split by phase (they add up to it; all 0 in the layers of a partitioned
        search, whose segments run apart, and of pattern-database builds).

    Examples
    --------
    >>> record = vs.bfs("sliding-2x3").profile.records[3]
    >>> record.depth, record.states, record.frontier, record.generated, record.duplicates
    (3, 5, 3, 8, 3)
    """

    side: str  # "forward" or "backward"
    depth: int
    states: int  # states first reached at this depth
    frontier: int  # size of the layer expanded to make this one
    generated: int  # children generated from the frontier
    duplicates: int  # generated children already seen
    seconds: float  # wall time of the expansion (compile time excluded)
    bytes: int  # memory held by this side after the expansion (visited set + stored layers)
    method: str = "push"  # how the layer was found: "push" (expand the frontier) or "pull" (search the unreached)
    # The seconds split by phase (``vecsearch.kernels.phases``); they add up to ``seconds`` (all 0 in the
    # layers of a partitioned search, whose segments run apart, and in pattern-database builds)
    scan: float = 0.0
    unrank: float = 0.0
    expand: float = 0.0
    rank: float = 0.0
    claim: float = 0.0
    compact: float = 0.0


@dataclass(frozen=True)
class PartitionedRecord(LayerRecord):
    """A layer of a partitioned search (``vecsearch.engine.twobit.segments``): also the bytes of child
    ranks routed between segments and the seconds of the slowest segment (both phases)."""

    routed: int = 0
    slowest: float = 0.0


COLUMNS = tuple(f.name for f in fields(LayerRecord))


@dataclass(frozen=True)
class BoundRecord:
    """One iteration of a heuristic search: IDA*'s f-bound, or the nodes A* expanded at one f.

    Parameters
    ----------
    side : str
        ``"idastar"`` or ``"astar"``.
    bound : int
        IDA*: the iteration's f-bound; A*: the f-value of the nodes expanded.
    expanded : int
        Nodes whose children were generated.
    generated : int
        Children generated (a move undoing the previous one is not generated).
    seconds : float
        Wall time (compile time excluded).
    bytes : int
        Memory held by the search (stack or tables) and its heuristic's tables.

    Examples
    --------
    >>> solution = vs.solve("sliding-3x3", "8 6 7 2 5 4 3 x 1", method="idastar")
    >>> [record.bound for record in solution.profile.records]   # the bounds tried, up to 31 moves
    [29, 31]
    """

    side: str  # "idastar" or "astar"
    bound: int  # IDA*: the iteration's f-bound; A*: the f-value of the nodes expanded
    expanded: int  # nodes whose children were generated
    generated: int  # children generated (a move undoing the previous one is not generated)
    seconds: float  # wall time (compile time excluded)
    bytes: int  # memory held by the search (stack or tables) and its heuristic's tables


@dataclass(repr=False)
class Profile:
    """Per-layer records of a search, with its totals: a table, a DataFrame, a plot.

    In Jupyter a profile shows itself as an HTML table; ``str()`` is the same as text.

    Parameters
    ----------
    records : list of LayerRecord or BoundRecord
        One per layer of each side (or per bound of a heuristic search).
    compile_seconds : float
        JIT compile and cache loading during the search (not in ``seconds``).
    visited : str
        How visited states were kept: ``"bitset"``, ``"hash"`` or ``"twobit"``.

    See Also
    --------
    plot_profiles : Several profiles on the same panels.

    Examples
    --------
    >>> profile = vs.bfs("sliding-2x3").profile
    >>> profile.total_states, profile.layer_sizes()[:5], profile.visited
    (360, [1, 2, 3, 5, 6], 'bitset')
    >>> print(profile.table().splitlines()[0])
    side     depth        states      frontier      generated           dups   seconds      MiB
    """

    records: list[LayerRecord | BoundRecord] = field(default_factory=list)
    compile_seconds: float = 0.0  # JIT compile / cache load during the search, not in `seconds`
    visited: str = ""  # "bitset", "hash" or "twobit" (2 bits per rank)

    def add(self, record: LayerRecord | BoundRecord) -> None:
        """Append ``record`` (a layer, or an IDA* bound)."""
        self.records.append(record)

    @classmethod
    def summed(cls, profiles: list[Profile]) -> Profile | None:
        """One profile of heuristic searches run in parts (chunks of a batch): nodes, seconds
        and compile time summed per side and bound, memory the largest (None: no profiles)."""
        if not profiles:
            return None
        rows: dict[tuple, BoundRecord] = {}
        for record in (r for p in profiles for r in p.records if isinstance(r, BoundRecord)):
            key = (record.side, record.bound)
            old = rows.get(key)
            rows[key] = record if old is None else BoundRecord(
                record.side, record.bound, old.expanded + record.expanded, old.generated + record.generated,
                old.seconds + record.seconds, max(old.bytes, record.bytes))
        ordered = sorted(rows.values(), key=lambda r: (r.side, r.bound))
        return cls([*ordered], sum(p.compile_seconds for p in profiles), profiles[0].visited)

    def side(self, side: str) -> list[LayerRecord | BoundRecord]:
        """The records of one side (``"forward"``, ``"backward"``, ...), in order."""
        return [r for r in self.records if r.side == side]

    @property
    def seconds(self) -> float:
        """Search time: the sum of the layer times."""
        return sum(r.seconds for r in self.records)

    @property
    def total_states(self) -> int:
        """States reached, all sides and layers together."""
        return sum(getattr(r, "states", 0) for r in self.records)

    @property
    def expanded(self) -> int:
        """Nodes expanded by a heuristic search (0 for layered searches)."""
        return sum(getattr(r, "expanded", 0) for r in self.records)

    @property
    def peak_bytes(self) -> int:
        """The most memory the search held at once (each side's peak, added)."""
        peaks: dict[str, int] = {}
        for r in self.records:
            peaks[r.side] = max(peaks.get(r.side, 0), r.bytes)
        return sum(peaks.values())

    def layer_sizes(self, side: str = "forward") -> list[int]:
        """``states`` per depth for one side."""
        return [r.states for r in self.side(side) if isinstance(r, LayerRecord)]

    @property
    def columns(self) -> tuple[str, ...]:
        """The names of the records' fields (the columns of ``to_pandas``)."""
        return tuple(f.name for f in fields(self.records[0])) if self.records else COLUMNS

    def to_records(self) -> list[dict]:
        """One dict per record, keyed by ``columns``."""
        return [dict(zip(self.columns, astuple(r), strict=True)) for r in self.records]

    def to_csv(self) -> str:
        """The records as CSV text, a header line first."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        for r in self.records:
            writer.writerow(astuple(r))
        return out.getvalue()

    def to_pandas(self):
        """The records as a ``pandas.DataFrame`` (one row per record; needs pandas)."""
        from vecsearch.optional import require

        pandas = require("pandas", "Profile.to_pandas()")
        return pandas.DataFrame(self.to_records(), columns=list(self.columns))

    def plot(self, axes=None, *, label: str | None = None):
        """Plot the profile with matplotlib (layer sizes per side on a log scale, new vs
        duplicate children, effective branching factor, seconds and MiB per layer); returns the
        figure. ``axes``: four matplotlib axes to draw into. See ``vecsearch.plots``."""
        from vecsearch.plots import plot_profiles

        return plot_profiles([self], labels=None if label is None else [label], axes=axes)

    def table(self) -> str:
        """The per-layer table, as ``print(profile)`` shows it."""
        return str(self)

    def phase_totals(self) -> dict[str, float]:
        """Seconds per phase (``vecsearch.kernels.phases``) over all layers."""
        return {phase: sum(getattr(r, phase, 0.0) for r in self.records) for phase in PHASES}

    def phase_table(self) -> str:
        """Where each layer's seconds went, phase by phase, with the totals and their shares."""
        header = f"{'side':<8} {'depth':>5} {'method':<6} {'seconds':>9}" + "".join(f" {p:>8}" for p in PHASES)
        lines = [header]
        for r in self.records:
            if isinstance(r, LayerRecord):
                lines.append(f"{r.side:<8} {r.depth:>5} {r.method:<6} {r.seconds:>9.4f}"
                             + "".join(f" {getattr(r, p):>8.4f}" for p in PHASES))
        totals = self.phase_totals()
        lines.append(f"{'total':<21} {self.seconds:>9.4f}" + "".join(f" {totals[p]:>8.4f}" for p in PHASES))
        share = [100 * totals[p] / self.seconds if self.seconds else 0.0 for p in PHASES]
        lines.append(f"{'share':<31}" + "".join(f" {s:>7.1f}%" for s in share))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        columns = [c for c in self.columns if c != "bytes"] + ["MiB"]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        rows = []
        for record in self.to_records():
            record["MiB"] = record.pop("bytes") / 2**20
            cells = "".join(f"<td>{html.escape(_html_value(record[c], c))}</td>" for c in columns)
            rows.append(f"<tr>{cells}</tr>")
        total = html.escape(str(self).rsplit("\n", 1)[-1])
        return (f"<table class=\"vecsearch-profile\"><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(rows)}</tbody><caption style=\"caption-side: bottom\">{total}</caption></table>")

    def __repr__(self) -> str:
        what = f"{self.expanded:,} nodes expanded" if self.records and isinstance(self.records[0], BoundRecord) \
            else f"{self.total_states:,} states"
        return f"<Profile of {len(self.records)} records: {what} in {self.seconds:.4f} s>"

    def __str__(self) -> str:
        if self.records and isinstance(self.records[0], BoundRecord):
            return self._bounds_table()
        layers = [r for r in self.records if isinstance(r, LayerRecord)]
        methods = any(r.method != "push" for r in layers) or self.visited == "twobit"
        split = bool(layers) and isinstance(layers[-1], PartitionedRecord)
        header = (f"{'side':<8} {'depth':>5} {'states':>13} {'frontier':>13} {'generated':>14} {'dups':>14}"
                  f" {'seconds':>9} {'MiB':>8}")
        lines = [header + ("  method" if methods else "") + (f" {'routed MiB':>11} {'slowest s':>10}" if split else "")]
        for r in layers:
            lines.append(
                f"{r.side:<8} {r.depth:>5} {r.states:>13,} {r.frontier:>13,} {r.generated:>14,} "
                f"{r.duplicates:>14,} {r.seconds:>9.4f} {r.bytes / 2**20:>8.1f}"
                + (f"  {r.method:<6}" if split else f"  {r.method}" if methods else "")
                + (f" {r.routed / 2**20:>11.1f} {r.slowest:>10.4f}" if isinstance(r, PartitionedRecord)
                   else f"{'':>23}" if split else "")
            )
        lines.append(
            f"total {self.total_states:,} states in {self.seconds:.4f} s search"
            f" + {self.compile_seconds:.3f} s compile ({self.visited} visited set)"
        )
        return "\n".join(lines)

    @property
    def nodes_per_second(self) -> float:
        """Nodes expanded per second of a heuristic search (0 for layered searches)."""
        return self.expanded / self.seconds if self.seconds > 0 else 0.0

    def _bounds_table(self) -> str:
        lines = [f"{'search':<8} {'f':>5} {'expanded':>15} {'generated':>15} {'seconds':>9} {'nodes/s':>12} {'MiB':>8}"]
        for r in (r for r in self.records if isinstance(r, BoundRecord)):
            rate = f"{r.expanded / r.seconds:,.0f}" if r.seconds > 0 else "-"
            lines.append(f"{r.side:<8} {r.bound:>5} {r.expanded:>15,} {r.generated:>15,} {r.seconds:>9.4f} {rate:>12}"
                         f" {r.bytes / 2**20:>8.1f}")
        lines.append(f"total {self.expanded:,} nodes expanded in {self.seconds:.4f} s search"
                     f" ({self.nodes_per_second:,.0f} nodes/s) + {self.compile_seconds:.3f} s compile")
        return "\n".join(lines)


def _html_value(value, column: str) -> str:
    if isinstance(value, float):
        return f"{value:.1f}" if column == "MiB" else f"{value:.4f}"
    if isinstance(value, int) and column not in ("depth", "bound"):
        return f"{value:,}"
    return str(value)
