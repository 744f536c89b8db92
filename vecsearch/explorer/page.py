"""The static page: an explorer's answers for a sample of each layer, with its script and style.

``snapshot(explorer, per_layer)`` asks the explorer, ahead of time, everything the page may
ask: the overview, the pages of up to ``per_layer`` states of each layer (spread evenly over
the layer), and the neighbours of every state on those pages and on the solution. The page
needs nothing else: no network, no kernel. ``fragment`` is that page as an HTML fragment (a
notebook's output); ``document`` as a whole file.
"""

from __future__ import annotations

import html
import json
import uuid
from pathlib import Path

from vecsearch.contract import is_whole
from vecsearch.explorer.records import Records, sample_positions, state_id

PER_LAYER = 48  # states of each layer a static page holds
HERE = Path(__file__).resolve().parent


def script() -> str:
    """The explorer's script (``explorer.js``): one view, fed by a snapshot or by the kernel."""
    return (HERE / "explorer.js").read_text()


def style() -> str:
    return (HERE / "explorer.css").read_text()


def snapshot(explorer, per_layer: int = PER_LAYER) -> dict:
    """Everything a static page shows: ``overview`` (with each layer's ``available`` states),
    ``pages`` by ``"side/depth/page"``, ``neighbours`` by state id, ``records`` and ``palette``."""
    if not is_whole(per_layer, 1):
        raise ValueError(f"per_layer must be a whole number, 1 or more, not {per_layer!r}")
    records = Records(explorer)
    overview = dict(explorer.overview(records), live=False)
    pages, shown = {}, []
    per_page = explorer.per_page
    for s, side in enumerate(explorer.sides):
        available = []
        for depth, size in enumerate(side.sizes):
            states = side.states_at(depth, sample_positions(size, per_layer))
            available.append(len(states))
            shown.append(states)
            for page in range((len(states) + per_page - 1) // per_page):
                ids = records.add(states[page * per_page:(page + 1) * per_page])
                pages[f"{s}/{depth}/{page}"] = {"side": s, "depth": depth, "page": page, "total": size, "ids": ids}
        overview["sides"][s] = dict(overview["sides"][s], available=available)
    if explorer.solution is not None:
        shown.append(explorer.solution.states)
    neighbours = {}
    for states in shown:
        for i in range(len(states)):
            key = state_id(states[i])
            if key not in neighbours:
                neighbours[key] = explorer.neighbour_ids(states[i:i + 1], records)
    return {"overview": overview, "pages": pages, "neighbours": neighbours, "records": records.found,
            "palette": list(explorer.pictures.palette)}


def fragment(data: dict) -> str:
    """The page as an HTML fragment: a container, the style, the snapshot and the script that
    draws the one from the other (scoped to the container: several may share a document)."""
    key = f"vsx-{uuid.uuid4().hex[:12]}"
    text = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")  # no "</script>" inside
    return (f'<div id="{key}">The explorer draws itself with JavaScript: run the cell, or trust the notebook.</div>'
            f'<style>{style()}</style>'
            f'<script type="application/json" id="{key}-data">{text}</script>'
            f'<script>(function () {{\n{script()}\nvsxMountStatic(document.getElementById("{key}"),'
            f' JSON.parse(document.getElementById("{key}-data").textContent));\n}})();</script>')


def document(data: dict) -> str:
    """The page as a whole HTML file (it loads nothing from anywhere)."""
    title = html.escape(f"{data['overview']['puzzle']}: vecsearch explorer")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{title}</title></head>\n'
            f'<body>\n{fragment(data)}\n</body>\n</html>\n')
