"""Pictures of search profiles with matplotlib (imported lazily: ``pip install 'vecsearch[plot]'``).

``plot_profiles`` draws one profile or compares several (forward vs backward budgets, two
puzzles) on four panels: states per depth for each side on a log scale; new vs duplicate
children; the effective branching factor (states at depth d over states at depth d-1); seconds
and MiB held per layer. Heuristic searches' profiles (``BoundRecord``s) are drawn per f-bound:
nodes expanded, children generated, children per expanded node, seconds and MiB.
"""

from __future__ import annotations

from functools import cache

from vecsearch.optional import require

_SIDE_STYLE = {"forward": "-", "backward": "--"}


@cache
def _figure_class():
    """A matplotlib figure that a notebook shows once: pyplot's inline backend draws it at the end
    of the cell, so the figure returned as the cell's value shows nothing more."""
    from matplotlib.figure import Figure

    class ProfileFigure(Figure):
        def _ipython_display_(self):
            pass

    return ProfileFigure


def plot_profiles(profiles, labels=None, *, axes=None, title: str | None = None):
    """Draw several profiles on the same four panels, to compare how searches grow.

    The panels: layer sizes per side (log), new against duplicate children, the effective
    branching factor, and seconds and MiB per layer. Needs ``pip install 'vecsearch[plot]'``.

    Parameters
    ----------
    profiles : list of Profile, or dict
        The profiles, or ``{label: profile}``; a search's result (``vs.bfs(...)``) stands for
        its profile.
    labels : list of str, optional
        One per profile (with a list; default: the puzzles' names when results are given).
    axes : sequence of matplotlib.axes.Axes, optional
        Four axes to draw on (default: a new 2x2 figure).
    title : str, optional
        The figure's (default: each label with its total states; ``""``: none).

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn.

    See Also
    --------
    Profile.plot : One profile.

    Examples
    --------
    >>> figure = vs.plot_profiles({"2x3": vs.bfs("sliding-2x3").profile,
    ...                            "3x3": vs.bfs("sliding-3x3").profile})
    >>> len(figure.axes) >= 4
    True
    """
    if isinstance(profiles, dict):
        labels, profiles = list(profiles), list(profiles.values())
    given = list(profiles)
    profiles = [getattr(p, "profile", p) for p in given]  # a search's result stands for its profile
    wrong = [type(p).__name__ for p in profiles if not hasattr(p, "records")]
    if wrong:
        raise TypeError(f"plot_profiles takes profiles or search results, not {', '.join(wrong)}")
    if not profiles or not all(p.records for p in profiles):
        raise ValueError("plot_profiles needs at least one profile, each with records")
    if labels is None and all(hasattr(g, "puzzle") for g in given):
        labels = [g.puzzle.name for g in given]
    if labels is None:
        labels = [""] if len(profiles) == 1 else [f"#{i + 1}" for i in range(len(profiles))]
    labels = list(labels)
    if len(labels) != len(profiles):
        raise ValueError(f"{len(labels)} labels for {len(profiles)} profiles")
    if axes is None:
        pyplot = require("matplotlib.pyplot", "Profile.plot()")
        figure, grid = pyplot.subplots(2, 2, figsize=(11, 7), layout="constrained", FigureClass=_figure_class())
        axes = grid.ravel()
    else:
        require("matplotlib", "Profile.plot()")
        axes = list(axes)
        if len(axes) != 4:
            raise ValueError(f"plot_profiles draws four panels, got {len(axes)} axes")
        figure = axes[0].figure
    memory = axes[3].twinx()
    heuristic = hasattr(profiles[0].records[0], "bound")
    for index, (profile, label) in enumerate(zip(profiles, labels, strict=True)):
        colour = f"C{index}"
        for side, records in _sides(profile):
            name = " ".join(part for part in (label, side) if part)
            style = dict(color=colour, linestyle=_SIDE_STYLE.get(side, "-"), marker=".")
            x = [_x(r) for r in records]
            if heuristic:
                _line(axes[0], x, _positive([r.expanded for r in records]), name, style)
                _line(axes[1], x, _positive([r.generated for r in records]), name, style)
                ratios = [(xi, r.generated / r.expanded) for xi, r in zip(x, records, strict=True) if r.expanded]
            else:
                _line(axes[0], x, _positive([r.states for r in records]), name, style)
                _line(axes[1], x, _positive([r.states for r in records]), f"{name} new".strip(), style)
                _line(axes[1], x, _positive([r.duplicates for r in records]), f"{name} duplicates".strip(),
                      {**style, "marker": "x", "alpha": 0.6})
                ratios = [(x[i], records[i].states / records[i - 1].states)
                          for i in range(1, len(records)) if records[i - 1].states and records[i].states]
            if ratios:
                _line(axes[2], [a for a, _ in ratios], [b for _, b in ratios], name, style)
            _line(axes[3], x, [r.seconds for r in records], f"{name} seconds".strip(), style)
            _line(memory, x, [r.bytes / 2**20 for r in records], f"{name} MiB".strip(),
                  {**style, "linestyle": ":", "marker": None})
    xlabel = "f-bound" if heuristic else "depth"
    titles = (("nodes expanded", "children generated", "children per expanded node", "seconds and MiB")
              if heuristic else ("states per depth", "new vs duplicate children", "effective branching factor",
                                 "seconds and MiB per layer"))
    for axis, text in zip(axes, titles, strict=True):
        axis.set_title(text)
        axis.set_xlabel(xlabel)
        axis.grid(True, alpha=0.3)
    for axis in axes[:2]:
        axis.set_yscale("log")
    axes[3].set_ylabel("seconds")
    memory.set_ylabel("MiB held")
    for axis in (axes[2], axes[3], memory):  # amounts: from zero, so that a flat line looks flat
        axis.set_ylim(bottom=0)
    for axis in axes[:3]:
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize="small")
    handles = [h for a in (axes[3], memory) for h in a.get_legend_handles_labels()[0]]
    if handles:
        axes[3].legend(handles=handles, fontsize="small")
    if title is None:
        title = "; ".join(_headline(profile, label) for profile, label in zip(profiles, labels, strict=True))
    if title:
        figure.suptitle(title)
    return figure


def _headline(profile, label: str) -> str:
    """What a profile's figure is of: its label (the puzzle) and its total states or nodes."""
    heuristic = hasattr(profile.records[0], "bound")
    total = f"{profile.expanded:,} nodes expanded" if heuristic else f"{profile.total_states:,} states"
    return f"{label}: {total}" if label else total


def _positive(values):
    """``values`` for a log scale: zeros (and below) left out, so that no line drops to the axis."""
    return [v if v > 0 else float("nan") for v in values]


def _sides(profile):
    sides = dict.fromkeys(r.side for r in profile.records)
    return [(side, profile.side(side)) for side in sides]


def _x(record):
    return record.bound if hasattr(record, "bound") else record.depth


def _line(axis, x, y, label, style):
    axis.plot(x, y, label=label or None, **style)
