"""Progress bars for long work, all drawn by one helper (``progress_bar``).

``tqdm.auto`` draws a widget in notebooks and text on a terminal (standard error). Who uses it:

- ``layer_progress``: layered searches (``bfs``, ``bidirectional``, ``DistanceTable``, pattern
  database builds), fed by the per-layer callback; the bar counts layers, its postfix shows
  the side and depth of the last layer, the states found so far and their rate (per second of
  search, compile time excluded);
- ``solve_pairs`` (pairs solved), IDA* (``idastar``: iterations, with the bound and nodes per
  second) and batches (``iter_many``: instances answered).

``enabled``: True draws a bar (needs tqdm, ``pip install 'vecsearch[progress]'``); False draws
none; None draws one when standard error is a terminal and tqdm is installed. Off by default
in library calls.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys

from vecsearch.optional import require

MIN_TIMED = 1e-3  # seconds of search before a rate is shown


class Bar:
    """What the work advances: ``advance(n, postfix)``; does nothing when no bar is drawn."""

    def __init__(self, bar=None):
        self._bar = bar

    def advance(self, n: int = 1, postfix: str | None = None) -> None:
        if self._bar is None:
            return
        if postfix is not None:
            self._bar.set_postfix_str(postfix, refresh=False)
        self._bar.update(n)


def wanted(enabled) -> bool:
    """Whether to draw: ``enabled``, or if None, whether standard error is a terminal and tqdm
    is installed."""
    if enabled is None:
        return sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None
    return bool(enabled)


@contextlib.contextmanager
def progress_bar(enabled, description: str, *, unit: str, total: int | None = None):
    """Yields a ``Bar`` of ``total`` steps (None: unknown) named ``description``; the bar is
    closed on exit, leaving its last frame on screen."""
    if not wanted(enabled):
        yield Bar()
        return
    tqdm = require("tqdm.auto", "progress=True").tqdm
    with tqdm(desc=description, unit=unit, total=total, file=sys.stderr, smoothing=0.1) as bar:
        yield Bar(bar)


@contextlib.contextmanager
def layer_progress(enabled, on_layer, description: str):
    """Yields the callback the search should call per record: ``on_layer`` itself when
    no bar is ``wanted``, else one that also advances a bar (closed on exit)."""
    if not wanted(enabled):
        yield on_layer
        return
    states, seconds = 0, 0.0
    with progress_bar(enabled, description, unit=" layers") as bar:
        def advance(record):
            nonlocal states, seconds
            states += record.states
            seconds += record.seconds
            rate = f", {states / seconds:,.0f} states/s" if seconds >= MIN_TIMED else ""  # too quick: no rate
            bar.advance(1, f"{record.side} depth {record.depth}, {states:,} states{rate}")
            if on_layer is not None:
                on_layer(record)

        yield advance
