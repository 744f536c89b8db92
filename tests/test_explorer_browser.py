"""The explorer in a real browser (headless Chromium, tests/browser.py): the standalone page, the
widget's script fed by the kernel's answers, and the notebook's rendered output. Each test
clicks through layers, pages, neighbours and a solution, reads the states the page shows from
its data attributes and its pictures, and checks them against the plain-Python BFS of
tests/reference.py.

``VECSEARCH_SHOTS=DIR`` saves a screenshot of each view in DIR.
"""

import json
import os
from pathlib import Path

import pytest
from browser import INSTALL, Browser, missing
from reference import bfs_layers, distances, sliding_goal, sliding_neighbours, sliding_tuple

from vecsearch.cli import main
from vecsearch.explorer import explore
from vecsearch.explorer.page import script

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser's process
NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "05_explorer.ipynb"


@pytest.fixture(scope="module")
def browser():
    absent = missing()
    if absent:
        pytest.fail(f"the browser tests need {absent}: {INSTALL}; or deselect them with -m 'not browser'")
    browser = Browser()
    yield browser
    browser.close()


def shot(browser, name):
    directory = os.environ.get("VECSEARCH_SHOTS")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        browser.driver.save_screenshot(str(Path(directory) / f"{name}.png"))


def cards(browser, where, root=None):
    """``(text, depths, move)`` of each state card shown in ``where`` (a CSS selector), within
    ``root`` (an element) if given."""
    found = browser.driver.execute_script(
        "return [...(arguments[0] || document).querySelectorAll(arguments[1])]"
        ".map((c) => [c.dataset.text, c.dataset.depths, c.dataset.move || null]);", root, f"{where} .vsx-card")
    return [(text, [int(d) for d in depths.split(",")], move) for text, depths, move in found]


def tiles_drawn(browser, card):
    """The tiles a card's picture shows, read from the SVG by position: each label's square,
    0 for a square without one (the blank)."""
    squares, labels = browser.driver.execute_script("""
        const box = (e) => e.getBoundingClientRect();
        const svg = arguments[0].querySelector('svg');
        return [[...svg.querySelectorAll('rect')].map((r) => [box(r).left, box(r).top, box(r).width]),
                [...svg.querySelectorAll('text')].map((t) => [box(t).left + box(t).width / 2,
                                                              box(t).top + box(t).height / 2, t.textContent])];
    """, card)
    squares.sort(key=lambda s: (round(s[1]), round(s[0])))
    drawn = [0] * len(squares)
    for x, y, label in labels:
        [k] = [k for k, (left, top, size) in enumerate(squares) if left < x < left + size and top < y < top + size]
        drawn[k] = int(label)
    return tuple(drawn)


def read_layer(browser, side, depth):
    """Open a layer by its bar and page through it: the cards of every page."""
    browser.click(f'.vsx-bar[data-side="{side}"][data-depth="{depth}"]')
    found = cards(browser, ".vsx-grid")
    pages = int(browser.one(".vsx-page").get_attribute("data-pages"))
    for page in range(1, pages):
        browser.click('.vsx-nav [data-act="next"]')
        assert browser.one(".vsx-page").get_attribute("data-page") == str(page)
        found += cards(browser, ".vsx-grid")
    return found


def test_the_page_shows_every_layer_and_each_states_neighbours(browser, tmp_path):
    rows, cols = 2, 3
    neighbours = sliding_neighbours(rows, cols)
    layers = bfs_layers([sliding_goal(rows, cols)], neighbours)
    page = explore(f"sliding-{rows}x{cols}", per_page=30).save(tmp_path / "page.html", per_layer=100)  # every state
    browser.open(page)
    bars = browser.all('.vsx-bar[data-side="0"]')
    assert [int(b.get_attribute("data-size")) for b in bars] == [len(layer) for layer in layers]
    for depth, layer in enumerate(layers):
        shown = read_layer(browser, 0, depth)
        assert sorted(sliding_tuple(text) for text, _, _ in shown) == sorted(layer)
        assert all(depths == [depth] for _, depths, _ in shown)
    for card in browser.all(".vsx-grid .vsx-card"):
        assert tiles_drawn(browser, card) == sliding_tuple(card.get_attribute("data-text"))
    reference = distances([sliding_goal(rows, cols)], neighbours)
    browser.click('.vsx-bar[data-side="0"][data-depth="9"]')
    for k in range(3):
        browser.click(f".vsx-grid .vsx-card:nth-child({k + 1})")
        chosen = sliding_tuple(browser.one(".vsx-selected .vsx-card").get_attribute("data-text"))
        kids = cards(browser, ".vsx-neighbours")
        assert {(move, sliding_tuple(text)) for text, _, move in kids} == set(neighbours(chosen))
        assert all(depths == [reference[sliding_tuple(text)]] for text, depths, _ in kids)
    browser.click(".vsx-neighbours .vsx-card")  # a neighbour becomes the state shown
    assert browser.one(".vsx-selected .vsx-card").get_attribute("data-text") == kids[0][0]
    shot(browser, "page-2x3")


def test_the_page_steps_along_a_solution_between_two_frontiers(browser, tmp_path):
    rows, cols = 2, 4
    neighbours = sliding_neighbours(rows, cols)
    goal = sliding_goal(rows, cols)
    start = min(bfs_layers([goal], neighbours, max_depth=20)[20])
    text = " ".join(str(t) if t else "x" for t in start)
    page = tmp_path / "path.html"
    assert main(["explore", f"sliding-{rows}x{cols}", "--start", text, "--goal", " ".join(map(str, goal[:-1])) + " x",
                 "--per-layer", "24", "-o", str(page)]) == 0
    browser.open(page)
    sizes = [[int(b.get_attribute("data-size")) for b in browser.all(f'.vsx-bar[data-side="{s}"]')] for s in (0, 1)]
    sizes[1].reverse()  # the goal's side is drawn from the right
    assert sizes[0] == [len(layer) for layer in bfs_layers([start], neighbours, max_depth=len(sizes[0]) - 1)]
    assert sizes[1] == [len(layer) for layer in bfs_layers([goal], neighbours, max_depth=len(sizes[1]) - 1)]
    from_start, to_goal = distances([start], neighbours), distances([goal], neighbours)
    strip = browser.all(".vsx-strip .vsx-card")
    moves = [c.find_element("css selector", ".vsx-move").text.split(": ")[-1] for c in strip[1:]]
    path = [start]
    for step in range(len(strip)):
        assert browser.one(".vsx-step").get_attribute("data-step") == str(step)
        text, depths, _ = cards(browser, ".vsx-selected")[0]
        state = sliding_tuple(text)
        assert state == path[-1]
        assert depths == [from_start[state] if from_start[state] < len(sizes[0]) else -1,
                          to_goal[state] if to_goal[state] < len(sizes[1]) else -1]
        if step < len(moves):
            path.append(dict(neighbours(state))[moves[step]])
            browser.click('.vsx-solution-nav [data-act="next"]')
    assert path[-1] == goal and len(moves) == 20 == to_goal[start]
    browser.click('.vsx-solution-nav [data-act="prev"]')
    assert browser.one(".vsx-step").get_attribute("data-step") == str(len(moves) - 1)
    depth = len(sizes[1]) - 1  # the goal's frontier, sampled
    browser.click(f'.vsx-bar[data-side="1"][data-depth="{depth}"]')
    shown = cards(browser, ".vsx-grid")
    assert shown and all(to_goal[sliding_tuple(t)] == depth == d[1] for t, d, _ in shown)
    shot(browser, "page-bidirectional-2x4")


WIDGET_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div id="w"></div>
<script type="module">
window.sent = []; window.handlers = []; window.state = {};
window.deliver = (message) => window.handlers.forEach((handler) => handler(message));
const model = {
  get: (key) => window.state[key], set: (key, value) => { window.state[key] = value; }, save_changes: () => {},
  send: (content) => window.sent.push(content), on: (event, handler) => window.handlers.push(handler), off: () => {},
};
const url = URL.createObjectURL(new Blob([document.getElementById("esm").textContent], {type: "text/javascript"}));
const widget = (await import(url)).default;
widget.render({model, el: document.getElementById("w")});
</script>
<script type="text/plain" id="esm">ESM</script></body></html>"""


def test_the_widget_pages_through_whole_layers_by_asking_the_kernel(browser, tmp_path):
    """The widget's own module (anywidget's ``render``), in Chromium, with a stand-in for the
    widget's model that carries each message to the real ``ExplorerWidget`` in this process."""
    rows, cols = 2, 4
    neighbours = sliding_neighbours(rows, cols)
    layers = bfs_layers([sliding_goal(rows, cols)], neighbours)
    widget = explore(f"sliding-{rows}x{cols}").widget()
    replies = []
    widget.send = replies.append
    page = tmp_path / "widget.html"
    assert "</script" not in script().lower()  # so it can stand inside a script element
    page.write_text(WIDGET_PAGE.replace("ESM", widget._esm))

    def settle():
        while True:
            sent = browser.driver.execute_script("return window.sent.splice(0)")
            if not sent:
                busy = browser.driver.execute_script("const r = document.querySelector('.vsx-root');"
                                                     " return !r || r.dataset.busy !== '0';")
                if not busy:
                    return
            for content in sent:
                widget._reply(widget, content, [])
            for reply in replies:
                browser.driver.execute_script("window.deliver(arguments[0])", reply)
            replies.clear()

    browser.driver.get(page.as_uri())
    settle()
    depth = max(range(len(layers)), key=lambda d: len(layers[d]))  # 1,000s of states: far past a static sample
    browser.driver.execute_script("arguments[0].click()", browser.one(f'.vsx-bar[data-side="0"][data-depth="{depth}"]'))
    settle()
    assert browser.one(".vsx-root").get_attribute("data-live") == "1"
    pages = int(browser.one(".vsx-page").get_attribute("data-pages"))
    assert pages == (len(layers[depth]) + 11) // 12
    shown = []
    for act, number in (("first", 0), ("next", 1), ("last", pages - 1)):
        browser.driver.execute_script("arguments[0].click()", browser.one(f'.vsx-nav [data-act="{act}"]'))
        settle()
        assert browser.one(".vsx-page").get_attribute("data-page") == str(number)
        shown.append({sliding_tuple(text) for text, _, _ in cards(browser, ".vsx-grid")})
    assert len(shown[0]) == len(shown[1]) == 12 and len(shown[2]) == len(layers[depth]) - 12 * (pages - 1)
    assert all(page_states <= layers[depth] for page_states in shown) and not shown[0] & shown[1]
    browser.driver.execute_script("arguments[0].click()", browser.one(".vsx-grid .vsx-card"))
    settle()
    chosen = browser.one(".vsx-selected .vsx-card").get_attribute("data-text")
    assert {(move, sliding_tuple(text)) for text, _, move in cards(browser, ".vsx-neighbours")} == \
        set(neighbours(sliding_tuple(chosen)))
    view = browser.driver.execute_script("return window.state.view")
    assert view["depth"] == depth and view["page"] == pages - 1
    assert widget.explorer.puzzle.format_state(int(view["selected"])) == chosen
    shot(browser, "widget-2x4")


@pytest.mark.slow
def test_the_notebooks_rendered_output_explores_the_3x4_space(browser, tmp_path):
    """05_explorer.ipynb run as nbmake runs it; each explorer output's HTML (what a notebook
    shows where widgets do not run) opened as a page, its states checked against the reference."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(outputs) == 2 and all("vsxMountStatic" in o.data["text/html"] for o in outputs)
    assert "application/vnd.jupyter.widget-state+json" in notebook.metadata["widgets"]
    page = tmp_path / "notebook.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
                    + "".join(f"<div class='output'>{o.data['text/html']}</div>" for o in outputs) + "</body></html>")
    browser.open(page)
    explorer, bidirectional = browser.all(".vsx-root")
    assert explorer.get_attribute("data-puzzle") == "sliding-3x4"
    neighbours = sliding_neighbours(3, 4)
    layers = bfs_layers([sliding_goal(3, 4)], neighbours, max_depth=14)
    sizes = [int(b.get_attribute("data-size")) for b in browser.all(".vsx-bar", explorer)]
    assert sizes == [len(layer) for layer in layers] and sum(sizes) == 17_884
    for depth in (3, 14):
        browser.click(f'.vsx-bar[data-depth="{depth}"]', explorer)
        shown = cards(browser, ".vsx-grid", explorer)
        assert len(shown) == min(12, len(layers[depth])) and all(d == [depth] for _, d, _ in shown)
        assert {sliding_tuple(t) for t, _, _ in shown} <= layers[depth]
    browser.click(".vsx-grid .vsx-card", explorer)
    chosen = sliding_tuple(browser.one(".vsx-selected .vsx-card", explorer).get_attribute("data-text"))
    assert {(m, sliding_tuple(t)) for t, _, m in cards(browser, ".vsx-neighbours", explorer)} == set(neighbours(chosen))
    shot(browser, "notebook-3x4")
    start = sliding_tuple(browser.one(".vsx-strip .vsx-card", bidirectional).get_attribute("data-text"))
    browser.click('.vsx-solution-nav [data-act="last"]', bidirectional)
    end = browser.one(".vsx-selected .vsx-card", bidirectional)
    assert sliding_tuple(end.get_attribute("data-text")) == sliding_goal(3, 4)
    assert json.loads("[" + end.get_attribute("data-depths") + "]")[1] == 0
    assert start == sliding_tuple("5 10 3 1 11 6 4 7 2 8 9 x")
    browser.driver.execute_script("arguments[0].scrollIntoView()", bidirectional)
    shot(browser, "notebook-3x4-bidirectional")
