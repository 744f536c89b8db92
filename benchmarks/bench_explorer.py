"""The explorer on the 3x4 sliding puzzle's 239,500,800 states: a page of any layer, on demand.

The explorer reads a distance table of one byte per rank (built by the engine: its seconds are
printed as the reference the explorer's own set-up is measured against) and counts each layer's
ranks per block once, so a page is one block scanned and a dozen ranks unranked. The figure is
the median seconds of a page request (``Explorer.answer``, as the widget sends them), over pages
drawn at random from every layer; beside it, a page found the obvious way, by scanning the whole
table for the layer's ranks, in the same run. Checked: the layer sizes against OEIS A090166, and
the depth of states on the pages against IDA*'s optimal solution lengths (pattern databases, an
independent search).
"""

import json
import random
import statistics
import time
from pathlib import Path

import numpy as np
from run import Benchmark

DATA = Path(__file__).parent.parent / "tests" / "data"


def pages_3x4():
    import vecsearch as vs
    from vecsearch.explorer import explore
    from vecsearch.explorer.page import snapshot

    puzzle = vs.get_puzzle("sliding-3x4")
    started = time.perf_counter()
    table = vs.DistanceTable(puzzle, puzzle.goal_states())
    built = time.perf_counter() - started
    started = time.perf_counter()
    explorer = explore(table)
    counted = time.perf_counter() - started
    published = json.loads((DATA / "sliding_layers.json").read_text())["A090166"]["counts"]
    assert explorer.layer_sizes() == published, "layer sizes differ from OEIS A090166"
    explorer.answer({"kind": "page", "side": 0, "depth": 1, "page": 0})  # kernels loaded
    rng = random.Random(12)
    requests = [(d, rng.randrange((published[d] + explorer.per_page - 1) // explorer.per_page))
                for d in (rng.randrange(len(published)) for _ in range(40))]
    seconds, shown = [], []
    for depth, page in requests:
        started = time.perf_counter()
        answer = explorer.answer({"kind": "page", "side": 0, "depth": depth, "page": page, "known": 99})
        seconds.append(time.perf_counter() - started)
        assert len(answer["ids"]) == min(explorer.per_page, published[depth] - page * explorer.per_page)
        assert all(answer["records"][i]["depths"] == [depth] for i in answer["ids"])
        shown.append((depth, answer["ids"][0]))
    neighbours = []
    for _, state_id in shown[:20]:
        started = time.perf_counter()
        explorer.answer({"kind": "state", "id": state_id, "known": 99})
        neighbours.append(time.perf_counter() - started)
    checked = sorted(shown, key=lambda s: s[0])[::5]
    for depth, state_id in checked:  # an independent search agrees with each depth shown
        solution = vs.solve(puzzle, explorer.state_of(state_id), method="idastar")
        assert len(solution) == depth, (state_id, depth, len(solution))
    depth = int(np.argmax(published))
    started = time.perf_counter()
    ranks = np.flatnonzero(table.distances == depth)[:explorer.per_page]  # the obvious way: scan the table
    scan = time.perf_counter() - started
    assert len(ranks) == explorer.per_page
    started = time.perf_counter()
    page = json.dumps(snapshot(explorer))
    static = time.perf_counter() - started
    median = statistics.median(seconds)
    detail = (f"page of a layer: median {median * 1e3:.1f} ms (max {max(seconds) * 1e3:.1f} ms, {len(seconds)} pages"
              f" over all layers); a state's neighbours: median {statistics.median(neighbours) * 1e3:.1f} ms;"
              f" reference, scanning the table for the largest layer: {scan * 1e3:.0f} ms a page; the engine's"
              f" table {built:.1f} s, the explorer's counts {counted:.2f} s; static page (48 a layer)"
              f" {static:.1f} s, {len(page) / 2**20:.1f} MiB; counts = A090166, {len(checked)} depths = IDA*")
    return median * 1e3, detail


BENCHMARKS = [
    Benchmark("explorer: sliding-3x4 whole space, a page", 50.0, "ms", pages_3x4, peak_mib=900),
]
