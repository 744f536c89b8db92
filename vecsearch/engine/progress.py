"""A progress bar for long searches, fed by the per-layer callback (``on_layer``).

``tqdm.auto`` draws a widget in notebooks and text on a terminal. The bar counts layers; its
postfix shows the side and depth of the last layer, the states found so far and their rate
(per second of search, compile time excluded).
Off by default in library calls (``progress=True`` turns it on; needs tqdm,
``pip install 'vecsearch[progress]'``).
"""

from __future__ import annotations

import contextlib

from vecsearch.optional import require


@contextlib.contextmanager
def layer_progress(enabled: bool, on_layer, description: str):
    """Yields the callback the search should call per record: ``on_layer`` itself when
    ``enabled`` is false, else one that also advances a tqdm bar (closed on exit)."""
    if not enabled:
        yield on_layer
        return
    tqdm = require("tqdm.auto", "progress=True").tqdm
    states, seconds = 0, 0.0
    with tqdm(desc=description, unit=" layers", leave=False) as bar:
        def advance(record):
            nonlocal states, seconds
            states += record.states
            seconds += record.seconds
            rate = states / max(seconds, 1e-9)
            bar.set_postfix_str(f"{record.side} depth {record.depth}, {states:,} states, {rate:,.0f} states/s",
                                refresh=False)
            bar.update(1)
            if on_layer is not None:
                on_layer(record)

        yield advance
