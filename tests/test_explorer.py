"""The explorer in Python: its layers, pages, samples, neighbours and depths, the page's
protocol, the widget's replies, ``to_networkx`` and ``vecsearch explore``, each against the
plain-Python searches of tests/reference.py and tests/reference_gap.py.

The same views in a real browser: tests/test_explorer_browser.py.
"""

import json
import random
import re
import sys
from itertools import pairwise

import numpy as np
import pytest
import reference_gap
from reference import bfs_layers, distances, sliding_goal, sliding_neighbours, sliding_tuple

import vecsearch as vs
from vecsearch.cli import main
from vecsearch.explorer import explore
from vecsearch.explorer.page import snapshot
from vecsearch.explorer.sources import TableSide, order_keys
from vecsearch.optional import MissingDependency

ROWS, COLS = 2, 4
PUZZLE = vs.get_puzzle(f"sliding-{ROWS}x{COLS}")
GOAL = sliding_goal(ROWS, COLS)
NEIGHBOURS = sliding_neighbours(ROWS, COLS)
START = min(bfs_layers([GOAL], NEIGHBOURS, max_depth=16)[16])  # 16 moves from the goal


def tiles(state) -> tuple:
    """A sliding state as the reference writes it, read from the puzzle's text."""
    return sliding_tuple(PUZZLE.format_state(state))


def engine(reference_state):
    return PUZZLE.parse_state(" ".join(str(t) if t else "x" for t in reference_state))


@pytest.fixture(scope="module")
def reference_layers():
    return bfs_layers([GOAL], NEIGHBOURS)


def test_a_table_explorer_holds_every_layer_of_the_reference(reference_layers):
    explorer = explore(PUZZLE)  # reversible, ranked and small: a distance table rooted at the start
    assert type(explorer.sides[0]).__name__ == "TableSide" and explorer.sides[0].complete
    assert explorer.layer_sizes() == [len(layer) for layer in reference_layers]
    for depth, layer in enumerate(reference_layers):
        states = explorer.layer(depth)
        assert len(states) == len(layer) and {tiles(s) for s in states} == layer
        assert np.array_equal(explorer.depths(states)[:, 0], np.full(len(states), depth))


def test_a_table_pages_the_same_states_in_rank_order_whatever_its_blocks(reference_layers):
    table = vs.DistanceTable(PUZZLE, PUZZLE.start_states())
    whole = TableSide(table, name="from start", label="moves")
    blocks = TableSide(table, name="from start", label="moves", block=64)  # 20,160 ranks: 315 blocks
    ranks = PUZZLE.functions["rank_state"]
    for depth, layer in enumerate(reference_layers):
        positions = np.arange(len(layer))
        states = blocks.states_at(depth, positions)
        assert np.array_equal(states, whole.states_at(depth, positions))
        assert {tiles(s) for s in states} == layer
        in_rank_order = [ranks(int(s), PUZZLE.tables) for s in states]
        assert in_rank_order == sorted(in_rank_order)
        chosen = np.sort(np.random.default_rng(depth).choice(len(layer), min(5, len(layer)), replace=False))
        assert np.array_equal(blocks.states_at(depth, chosen), states[chosen])


def test_stored_layers_to_a_depth_match_the_reference(reference_layers):
    explorer = explore(PUZZLE, engine(START), max_depth=6)
    from_start = bfs_layers([START], NEIGHBOURS, max_depth=6)
    assert type(explorer.sides[0]).__name__ == "LayerSide" and not explorer.sides[0].complete
    assert explorer.layer_sizes() == [len(layer) for layer in from_start]
    for depth, layer in enumerate(from_start):
        pages = [explorer.layer(depth, start=k, count=5) for k in range(0, len(layer), 5)]
        states = np.concatenate(pages)
        assert [tiles(s) for s in states] == [tiles(s) for s in explorer.layer(depth)]  # pages tile the layer
        assert sorted(states.tolist()) == states.tolist() and {tiles(s) for s in states} == layer
    deeper = next(iter(bfs_layers([START], NEIGHBOURS, max_depth=7)[7]))
    assert explorer.depths(engine(deeper)).tolist() == [[-1]]  # past the depth searched: on no layer


def test_neighbours_and_their_depths_match_the_reference():
    explorer = explore(PUZZLE)
    reference = distances([GOAL], NEIGHBOURS)
    rng = random.Random(3)
    for state in rng.sample(sorted(reference), 40):
        found = explorer.neighbours(engine(state))
        assert {(n.move, tiles(n.state)) for n in found} == set(NEIGHBOURS(state))
        assert all(n.depths == (reference[tiles(n.state)],) for n in found)


def test_samples_spread_over_a_layer_and_repeat(reference_layers):
    explorer = explore(PUZZLE)
    depth = max(range(len(reference_layers)), key=lambda d: len(reference_layers[d]))
    whole = explorer.layer(depth)
    sample = explorer.sample(depth, 10)
    assert len(sample) == 10 and np.array_equal(sample, explorer.sample(depth, 10))
    spacing = len(whole) // 10
    assert np.array_equal(sample, whole[[(k * len(whole)) // 10 for k in range(10)]]) and spacing > 1
    assert len(explorer.sample(0, 10)) == 1


def test_a_bidirectional_search_keeps_both_frontiers():
    result = vs.bidirectional(PUZZLE, engine(START), engine(GOAL))
    forward = bfs_layers([START], NEIGHBOURS, max_depth=len(result.layers) - 1)
    backward = bfs_layers([GOAL], NEIGHBOURS, max_depth=len(result.backward_layers) - 1)
    assert [{tiles(s) for s in layer.states} for layer in result.layers] == forward
    assert [{tiles(s) for s in layer.states} for layer in result.backward_layers] == backward
    explorer = explore(result)
    assert [s.label for s in explorer.sides] == ["moves from the start", "moves to the goal"]
    assert explorer.solution is result.solution and len(result.solution) == 16
    to_goal = distances([GOAL], NEIGHBOURS)
    from_start = distances([START], NEIGHBOURS)
    f, b = len(forward) - 1, len(backward) - 1
    for state, (ahead, behind) in zip(result.solution.states, explorer.depths(result.solution.states), strict=True):
        assert ahead == (from_start[tiles(state)] if from_start[tiles(state)] <= f else -1)
        assert behind == (to_goal[tiles(state)] if to_goal[tiles(state)] <= b else -1)


def test_a_wide_directed_puzzle_explores_by_stored_layers():
    puzzle = vs.get_puzzle("gap")
    rows = [[22, 31, 13, 44, 21, 24, 42], [17, 45, 23, 25, 41, 36, 11], [46, 34, 14, 12, 37, 32, 47],
            [16, 43, 27, 35, 15, 33, 26]]
    first = reference_gap.set_up(rows)
    layers = bfs_layers([first], reference_gap.neighbours, max_depth=4)

    def cells(layout):
        return puzzle.parse_state(" ".join(str(layout[8 * r + c]) if layout[8 * r + c] else "--"
                                           for r in range(4) for c in range(1, 8)))

    explorer = explore(puzzle, cells(first), max_depth=4)  # directed: no table, the layers a search kept
    assert puzzle.width == 2 and explorer.layer_sizes() == [len(layer) for layer in layers]
    for depth, layer in enumerate(layers):
        states = explorer.layer(depth)
        assert {tuple(s) for s in states.tolist()} == {cells(layout) for layout in layer}
        assert explorer.depths(states)[:, 0].tolist() == [depth] * len(layer)
        keys = [tuple(s) for s in states.tolist()]
        assert keys == sorted(keys)  # a wide layer pages in its words' order
    state = next(iter(layers[2]))
    assert {(n.move, n.state) for n in explorer.neighbours(cells(state))} == \
        {(move, cells(kid)) for move, kid in reference_gap.neighbours(state)}


def test_order_keys_sort_wide_states_by_their_signed_words():
    rng = np.random.default_rng(5)
    states = rng.integers(-3, 3, size=(200, 3)).astype(np.int64)
    states[:5, 0] = [np.iinfo(np.int64).min, np.iinfo(np.int64).max, -1, 0, 1]
    order = np.argsort(order_keys(states), kind="stable")
    assert [tuple(s) for s in states[order].tolist()] == sorted(tuple(s) for s in states.tolist())


def test_the_protocol_pages_names_and_expands_states(reference_layers):
    explorer = explore(PUZZLE, per_page=7)
    overview = explorer.answer({"kind": "overview"})
    assert overview["sides"][0]["sizes"] == [len(layer) for layer in reference_layers]
    first = overview["records"][overview["first"]]
    assert sliding_tuple(first["text"]) == GOAL and first["depths"] == [0] and first["board"]["c"] == COLS
    palette = overview["palette"]["entries"]
    assert overview["palette"]["start"] == 0 and len(palette) == ROWS * COLS  # one picture per tile and the blank
    depth = 9
    ids = []
    for page in range((len(reference_layers[depth]) + 6) // 7):
        answer = explorer.answer({"kind": "page", "side": 0, "depth": depth, "page": page, "known": len(palette)})
        assert answer["total"] == len(reference_layers[depth]) and len(answer["ids"]) <= 7
        assert answer["palette"] == {"start": len(palette), "entries": []}
        assert all(answer["records"][i]["depths"] == [depth] for i in answer["ids"])
        ids += answer["ids"]
        texts = {sliding_tuple(answer["records"][i]["text"]) for i in answer["ids"]}
        assert texts <= reference_layers[depth]
    assert len(ids) == len(set(ids)) == len(reference_layers[depth])
    reference = distances([GOAL], NEIGHBOURS)
    answer = explorer.answer({"kind": "state", "id": ids[0]})
    state = tiles(explorer.state_of(ids[0])[0])
    kids = {(move, sliding_tuple(answer["records"][kid]["text"])) for move, kid in answer["neighbours"]}
    assert kids == set(NEIGHBOURS(state))
    assert all(answer["records"][kid]["depths"] == [reference[sliding_tuple(answer["records"][kid]["text"])]]
               for _, kid in answer["neighbours"])


@pytest.mark.parametrize("request_, message", [
    ({"kind": "layers"}, "unknown request kind 'layers'"),
    ({"kind": "page", "side": 1, "depth": 0, "page": 0}, "no side 1"),
    ({"kind": "page", "side": 0, "depth": 99, "page": 0}, "no layer 99 on side 0: its depths are 0 to 36"),
    ({"kind": "page", "side": 0, "depth": "2", "page": 0}, "'depth' must be a whole number, got '2'"),
    ({"kind": "page", "side": 0, "depth": 1}, "'page' must be a whole number, got None"),
    ({"kind": "state", "id": "12345"}, "'12345' names no state this explorer has shown"),
    ("overview", "a request is a dict"),
])
def test_bad_requests_are_refused_by_name(request_, message):
    explorer = explore(PUZZLE)
    with pytest.raises(ValueError, match=re.escape(message)):
        explorer.answer(request_)


def test_the_widget_answers_messages_and_carries_the_static_page():
    explorer = explore(PUZZLE)
    widget = explorer.widget(per_layer=5)
    sent = []
    widget.send = sent.append
    widget._reply(widget, {"id": "v:0", "request": {"kind": "page", "side": 0, "depth": 3, "page": 0}}, [])
    widget._reply(widget, {"id": "v:1", "request": {"kind": "page", "side": 0, "depth": 77, "page": 0}}, [])
    assert sent[0]["id"] == "v:0" and sent[0]["answer"]["ids"] and "error" not in sent[0]
    assert sent[1] == {"id": "v:1", "error": "no layer 77 on side 0: its depths are 0 to 36"}
    data, _ = widget._repr_mimebundle_()
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.model_id
    assert "vsxMountStatic" in data["text/html"] and "vsxMountWidget" in widget._esm


def test_outside_a_kernel_an_explorer_shows_its_static_page():
    bundle = explore(PUZZLE)._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/plain"} and "vsxMountStatic" in bundle["text/html"]


def test_a_snapshot_holds_a_sample_of_each_layer_and_their_neighbours(reference_layers):
    explorer = explore(PUZZLE)
    data = snapshot(explorer, per_layer=9)
    sides = data["overview"]["sides"]
    assert sides[0]["available"] == [min(9, len(layer)) for layer in reference_layers]
    for depth in range(len(reference_layers)):
        ids = [i for page in range(2) for i in data["pages"].get(f"0/{depth}/{page}", {"ids": []})["ids"]]
        assert [tiles(s) for s in explorer.sample(depth, 9)] == [sliding_tuple(data["records"][i]["text"]) for i in ids]
        for i in ids:
            kids = {(move, sliding_tuple(data["records"][kid]["text"])) for move, kid in data["neighbours"][i]}
            assert kids == set(NEIGHBOURS(sliding_tuple(data["records"][i]["text"])))


def test_explore_refuses_what_it_cannot_page():
    with pytest.raises(vs.VecsearchError, match="kept 1 of its 37 layers"):
        explore(vs.bfs(PUZZLE))  # only the last layer kept
    with pytest.raises(vs.VecsearchError, match="storage='bytes'"):
        explore(vs.DistanceTable(PUZZLE, storage="mod3"))

    def expand(state, tables, children, moves):
        children[0], children[1] = (state + 1) % 7, (state + 6) % 7
        moves[0], moves[1] = 0, 1
        return 2

    ring = vs.Puzzle("ring", expand, 2, rank=vs.Rank(lambda s, t: s, 7), start=0, goal=3)
    with pytest.raises(vs.VecsearchError, match="ring has no unrank"):
        explore(vs.DistanceTable(ring))
    explorer = explore(ring)  # no unrank: stored layers instead
    assert explorer.layer_sizes() == [1, 2, 2, 2]
    assert explorer.answer({"kind": "overview"})["records"]["0"]["board"] is None  # no pictures: text


def test_to_networkx_matches_the_reference_graph():
    graph = vs.to_networkx("sliding-2x3")
    neighbours = sliding_neighbours(2, 3)
    reference = distances([sliding_goal(2, 3)], neighbours)
    puzzle = vs.get_puzzle("sliding-2x3")
    assert graph.number_of_nodes() == len(reference) == 360
    for node, data in graph.nodes(data=True):
        assert data["depth"] == reference[sliding_tuple(data["text"])] and puzzle.format_state(node) == data["text"]
        edges = {(key, sliding_tuple(graph.nodes[kid]["text"])) for _, kid, key in graph.out_edges(node, keys=True)}
        assert edges == set(neighbours(sliding_tuple(data["text"])))
    near = vs.to_networkx("sliding-2x3", max_depth=3)
    assert sorted(d for _, d in near.nodes(data="depth")) == sorted(d for d in reference.values() if d <= 3)
    assert all(near.nodes[a]["depth"] <= 3 and near.nodes[b]["depth"] <= 3 for a, b in near.edges())
    with pytest.raises(vs.VecsearchError, match=r"more than 100 states within \d+ moves.*give max_depth"):
        vs.to_networkx("sliding-2x3", max_states=100)


def test_to_networkx_names_the_extra_when_networkx_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "networkx", None)
    with pytest.raises(MissingDependency, match=re.escape("pip install 'vecsearch[graph]'")):
        vs.to_networkx("sliding-2x3")


def test_the_command_writes_a_page_with_both_frontiers(tmp_path, capsys):
    page = tmp_path / "page.html"
    start, goal = " ".join(str(t) if t else "x" for t in START), " ".join(str(t) if t else "x" for t in GOAL)
    assert main(["explore", PUZZLE.name, "--start", start, "--goal", goal, "--per-layer", "4", "-o", str(page)]) == 0
    assert "wrote" in capsys.readouterr().err
    data = json.loads(re.search(r'<script type="application/json" id="vsx-\w+-data">(.*?)</script>',
                                page.read_text()).group(1))
    sides = data["overview"]["sides"]
    for side, root in zip(sides, (START, GOAL), strict=True):
        layers = bfs_layers([root], NEIGHBOURS, max_depth=len(side["sizes"]) - 1)
        assert side["sizes"] == [len(layer) for layer in layers]
    path = [sliding_tuple(data["records"][i]["text"]) for i in data["overview"]["solution"]["ids"]]
    assert path[0] == START and path[-1] == GOAL and len(path) == 17
    moves = data["overview"]["solution"]["moves"]
    assert all(dict(NEIGHBOURS(a))[move] == b for (a, b), move in zip(pairwise(path), moves, strict=True))
    assert main(["explore", PUZZLE.name, "--start", "1 2 3", "-o", str(page)]) == 2
    assert "expected 8 tokens" in capsys.readouterr().err
    assert main(["explore", PUZZLE.name, "-o", str(tmp_path / "none" / "page.html")]) == 2
    assert f"cannot write {tmp_path / 'none' / 'page.html'}: no directory" in capsys.readouterr().err
