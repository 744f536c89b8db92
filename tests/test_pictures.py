"""Pictures of states and solutions: well-formed SVG that shows the state it was made from.

Each picture is parsed with ``xml.etree``; its squares, pieces and labels are read back by
position and compared with the state's text (which the puzzle tests check against the rules).
"""

import xml.etree.ElementTree as ET

import pytest

import vecsearch as vs

NS = "{http://www.w3.org/2000/svg}"


def read_board(svg: str, rows: int, cols: int):
    """The squares of a one-board picture row-major: ``(fill, piece colour or None, text)``."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and float(root.get("width")) > 0 and float(root.get("height")) > 0
    rects = root.findall(f"{NS}rect")
    assert len(rects) == rows * cols
    boxes = sorted((float(r.get("y")), float(r.get("x")), float(r.get("width")), r.get("fill")) for r in rects)
    cells = [[fill, None, ""] for *_, fill in boxes]

    def cell_at(x, y):
        hits = [i for i, (top, left, size, _) in enumerate(boxes) if left < x < left + size and top < y < top + size]
        assert len(hits) == 1, (x, y)
        return hits[0]

    for circle in root.findall(f"{NS}circle"):
        cells[cell_at(float(circle.get("cx")), float(circle.get("cy")))][1] = circle.get("fill")
    for text in root.findall(f"{NS}text"):
        cells[cell_at(float(text.get("x")), float(text.get("y")))][2] = text.text
    return [tuple(c) for c in cells]


def test_sliding_tiles_in_their_cells():
    text = "8 6 7 2 5 4 3 x 1"
    puzzle = vs.get_puzzle("sliding-3x3")
    cells = read_board(puzzle.show(text)._repr_svg_(), 3, 3)
    assert [label or "x" for _, _, label in cells] == text.split()
    blank = text.split().index("x")
    assert len({fill for i, (fill, _, _) in enumerate(cells) if i != blank}) == 1 != cells[blank][0] != cells[0][0]


def test_chessboard_black_stones_where_the_ones_are():
    text = "1111 0000 1110 0010"
    cells = read_board(vs.get_puzzle("chessboard").show(text)._repr_svg_(), 4, 4)
    assert ["1" if piece == "#000000" else "0" for _, piece, _ in cells] == list(text.replace(" ", ""))
    assert {piece for _, piece, _ in cells} == {"#000000", "#ffffff"}


def test_solitaire_pieces_on_their_squares():
    text = "2 4 3 3 3 6 8 8"
    cells = read_board(vs.get_puzzle("solitaire").show(text)._repr_svg_(), 8, 8)
    values = [int(v) for v in text.split()]
    squares = {(values[i] - 1) * 8 + values[i + 1] - 1 for i in range(0, 8, 2)}
    assert {i for i, (_, piece, _) in enumerate(cells) if piece} == squares


def test_cubes_top_colours_and_orientations():
    text = "WBR RBW E BWR WRB BRW RWB WBR WBR"
    cells = read_board(vs.get_puzzle("cubes").show(text)._repr_svg_(), 3, 3)
    tokens = text.split()
    assert [label or "E" for _, _, label in cells] == tokens
    colour = {}
    for (fill, _, _), token in zip(cells, tokens, strict=True):
        assert colour.setdefault(token[0], fill) == fill  # one colour per top colour
    assert len(set(colour.values())) == 4  # W, B, R and the empty square differ


def test_gap_cards_aces_and_gaps():
    rows = ["12 13 14 15 16 17 --", "22 23 24 25 26 27 --", "32 33 34 35 36 -- 37", "42 43 44 45 46 -- 47"]
    cells = read_board(vs.get_puzzle("gap").show(" ".join(rows))._repr_svg_(), 4, 8)
    expected = [token for r, row in enumerate(rows) for token in [f"{r + 1}1", *row.split()]]
    assert [label or "--" for _, _, label in cells] == expected
    suits = {}
    for (fill, _, label) in cells:
        if label:
            assert suits.setdefault(label[0], fill) == fill  # cards tinted by suit


def test_solution_strip_shows_every_state_and_move():
    puzzle = vs.get_puzzle("cubes")
    solution = vs.solve(puzzle, "WBR WBR WBR WBR E WBR WBR WBR WBR", "WBR WBR WBR WBR WBR WBR E WBR WBR")
    root = ET.fromstring(solution._repr_svg_())
    assert len(root.findall(f"{NS}rect")) == 9 * (len(solution) + 1)
    captions = [t.text for t in root.findall(f"{NS}text") if ":" in (t.text or "") or t.text == "start"]
    assert captions == ["start"] + [f"{i}: {m}" for i, m in enumerate(solution.move_names, 1)]
    html = ET.fromstring(solution._repr_html_())
    assert html.find("p/code").text == str(solution) and html.find(f"{NS}svg") is not None


def test_puzzle_without_pictures_shows_text():
    def expand(state, tables, children, moves):
        children[0] = (state + 1) % 5
        moves[0] = 0
        return 1

    puzzle = vs.Puzzle("ring", vs.Rules(expand, reversible=False), 1, start=0, goal=3)
    view = puzzle.show(2)
    assert view._repr_svg_() is None and view._repr_html_() == "<pre>2</pre>"
    solution = vs.solve(puzzle, method="bfs")
    assert solution._repr_svg_() is None
    assert ET.fromstring(solution._repr_html_()).find("pre").text == "0\n1\n2\n3"


@pytest.mark.parametrize("name", ["sliding-4x4", "chessboard", "solitaire", "cubes", "gap"])
def test_every_builtin_puzzle_draws_its_start(name):
    puzzle = vs.get_puzzle(name)
    state = puzzle.start_states()[0]
    board = puzzle.draw(state if puzzle.width == 1 else tuple(state))
    assert len(read_board(board.svg(), board.rows, board.cols)) == board.rows * board.cols


def test_permutation_puzzles_show_each_orbit_with_its_pieces_and_twists(tmp_path):
    path = tmp_path / "two.tws"
    path.write_text("Set A 3 3\nSet B 2 1\nMove X\nA\n2 3 1\n1 0 2\nEnd\nMove Y\nB\n2 1\nEnd\n")
    puzzle = vs.get_puzzle(str(path))

    def read(text):
        root = ET.fromstring(puzzle.show(text)._repr_svg_())
        rects = sorted((float(r.get("y")), float(r.get("x")), r.get("fill")) for r in root.findall(f"{NS}rect"))
        texts = sorted((float(t.get("y")), float(t.get("x")), t.text) for t in root.findall(f"{NS}text"))
        return [fill for *_, fill in rects], [label for *_, label in texts]

    solved_fills, solved_texts = read("A 1 2 3 / 0 0 0  B 1 2")
    assert solved_texts == ["A", "1", "2", "3", "B", "1", "2"] and len(set(solved_fills)) == 1  # no twist marks
    fills, texts = read("X")
    orbits = puzzle.format_state(puzzle.state("X")).split("  ")  # "A p p p / t t t", "B p p"
    pieces, twists = orbits[0].split(" / ")
    assert texts[:4] == ["A"] + [p + "\u2032" * int(t) for p, t in zip(pieces.split()[1:], twists.split(), strict=True)]
    assert texts[4:] == orbits[1].split() and any("\u2032" in t for t in texts)
    assert all(f != solved_fills[0] for f in fills[:3]) and fills[3:] == solved_fills[3:]  # A: none home; B: solved
