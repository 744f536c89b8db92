"""Gap (POJ 2046): conventions, judge answers, solutions and input errors, against the
plain-Python reference in tests/reference_gap.py."""

import random

import numpy as np
import pytest
import reference_gap as ref

import vecsearch as vs
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles import gap
from vecsearch.puzzles.gap import gap_puzzle

PUZZLE = gap_puzzle()
CARDS = [10 * s + v for s in range(1, 5) for v in range(1, 8)]


def random_layouts(rng, count):
    layouts = []
    for _ in range(count):
        cards = CARDS[:]
        rng.shuffle(cards)
        layouts.append([cards[7 * r:7 * r + 7] for r in range(4)])
    return layouts


def engine_state(layout):
    """The engine state of a reference layout (after the set-up), via the text form."""
    cells = [layout[8 * r + c] for r in range(4) for c in range(1, 8)]
    return PUZZLE.parse_state(" ".join(str(card) if card else "--" for card in cells))


def judge(text):
    answers, errors = vs.get_problem("gap").solve_text(text)
    return [a.output for a in answers], (errors[0] if errors else None)


def judge_text(layouts, count=None):
    blocks = [ref.layout_text(rows) for rows in layouts]
    return f"{len(layouts) if count is None else count}\n\n" + "\n\n".join(blocks) + "\n"


# --- conventions -----------------------------------------------------------------------------

def test_state_holds_each_cards_cell_in_five_bits():
    rows = [[12, 13, 14, 15, 16, 17, 21], [22, 23, 24, 25, 26, 27, 31],
            [32, 33, 34, 35, 36, 37, 41], [42, 43, 44, 45, 46, 47, 11]]
    state = gap.set_up(rows)
    for card in range(24):
        suit, value = card // 6 + 1, card % 6 + 2
        cell = [c for row in rows for c in row].index(10 * suit + value)
        assert (state[card // 12] >> (5 * (card % 12))) & 31 == cell
    assert state[0] < 1 << 60 and state[1] < 1 << 60
    assert PUZZLE.format_state(state).splitlines()[0] == "12 13 14 15 16 17 --"
    assert PUZZLE.parse_state(PUZZLE.format_state(state)) == state
    assert gap.GOAL == engine_state(ref.GOAL) and gap.GOAL == state


def test_moves_match_the_reference():
    rng = random.Random(1)
    for rows in random_layouts(rng, 150):
        layout = ref.set_up(rows)
        for _ in range(rng.randint(0, 6)):
            options = ref.neighbours(layout)
            if options:
                layout = rng.choice(options)[1]
        children, moves = layer_kernels(PUZZLE).neighbours(np.array([engine_state(layout)]), PUZZLE.tables, False)
        got = {(PUZZLE.move_names[m], tuple(c)) for c, m in zip(children.tolist(), moves.tolist(), strict=True)}
        assert got == {(name, engine_state(child)) for name, child in ref.neighbours(layout)}


def test_search_is_forward_only():
    assert not PUZZLE.reversible and not PUZZLE.searchable_backward
    with pytest.raises(vs.VecsearchError, match="cannot search backwards"):
        vs.bidirectional(PUZZLE, gap.GOAL, gap.GOAL, max_backward=1)


# --- the judge ---------------------------------------------------------------------------------

def test_sample():
    out, error = judge(vs.get_problem("gap").sample())
    assert error is None and out == ["0", "33", "60", "-1"]


def test_random_layouts_match_the_reference_and_solutions_replay():
    layouts = random_layouts(random.Random(2), 200)
    expected = [ref.solve(rows)[0] for rows in layouts]
    out, error = judge(judge_text(layouts))
    assert error is None and out == [str(d) for d in expected]
    assert sum(d == -1 for d in expected) > 100 and sum(d > 0 for d in expected) > 30
    for rows, distance in zip(layouts, expected, strict=True):
        if distance < 0:
            with pytest.raises(vs.NoSolution):
                vs.solve(PUZZLE, gap.set_up(rows), method="bfs")
            continue
        solution = vs.solve(PUZZLE, gap.set_up(rows), method="bfs")
        assert len(solution) == distance
        assert ref.replay(ref.set_up(rows), solution.move_names) == ref.GOAL
        assert solution.replay()


def test_edge_cases():
    dead = [[17, 11, 12, 13, 14, 15, 16], [27, 21, 22, 23, 24, 25, 26],
            [37, 31, 32, 33, 34, 35, 36], [47, 41, 42, 43, 44, 45, 46]]  # every gap right of a 7
    after_aces = [[11, 13, 14, 15, 16, 17, 12], [21, 23, 24, 25, 26, 27, 22],
                  [31, 33, 34, 35, 36, 37, 32], [41, 43, 44, 45, 46, 47, 42]]  # gaps right of the aces
    suits_crossed = [[41, 42, 43, 44, 45, 46, 47], [31, 32, 33, 34, 35, 36, 37],
                     [21, 22, 23, 24, 25, 26, 27], [11, 12, 13, 14, 15, 16, 17]]  # row r takes suit r's 2
    layouts = [dead, after_aces, suits_crossed]
    expected = [ref.solve(rows) for rows in layouts]
    assert expected[0] == (-1, 1)
    out, error = judge(judge_text(layouts))
    assert error is None and out == [str(d) for d, _ in expected]
    assert PUZZLE.format_state(gap.set_up(after_aces)).splitlines()[0] == "-- 13 14 15 16 17 12"
    moves = [m.split()[1] for m in PUZZLE.describe(vs.solve(PUZZLE, gap.set_up(after_aces)))]
    assert sorted(moves[:4]) == ["12", "22", "32", "42"]  # the 2s go first, after the aces (in some order)


def unsolvable_component(rng, at_least):
    """A layout whose set-up cannot reach the goal but reaches ``at_least`` layouts: found by
    hill-climbing over card swaps (random layouts rarely exceed 15,000)."""
    cards = CARDS[:]
    rng.shuffle(cards)
    best = 0
    while best < at_least:
        i, j = rng.sample(range(28), 2)
        cards[i], cards[j] = cards[j], cards[i]
        result = vs.bfs(PUZZLE, gap.set_up([cards[7 * r:7 * r + 7] for r in range(4)]), gap.GOAL)
        if result.solution is None and result.profile.total_states - 1 >= best:
            best = result.profile.total_states - 1  # less the goal side's one state
        else:
            cards[i], cards[j] = cards[j], cards[i]
    return [cards[7 * r:7 * r + 7] for r in range(4)], best


def test_a_large_unsolvable_component():
    rows, size = unsolvable_component(random.Random(0), 20_000)
    assert ref.solve(rows) == (-1, size)
    assert judge(judge_text([rows]))[0] == ["-1"]


# --- bad input ----------------------------------------------------------------------------------

GOOD = "12 13 14 15 16 17 21\n22 23 24 25 26 27 31\n32 33 34 35 36 37 41\n42 43 44 45 46 47 11\n"


@pytest.mark.parametrize("second,count,line,message", [
    (GOOD.replace("45", "23"), 2, 11, "card 23 appears 2 times (rows 2, 4); missing: 45"),
    (GOOD.replace("45", "48"), 2, 11, "token '48' is not a card; expected a card 11..47 (suit 1-4, value 1-7)"),
    (GOOD.replace("45", "x"), 2, 11, "token 'x' is not a card"),
    (GOOD.replace(" 31\n", "\n"), 2, 9, "row 2 has 6 cards; expected 7"),
    (GOOD.replace(" 31\n", " 31 45\n"), 2, 9, "row 2 has 8 cards; expected 7"),
    (GOOD, 1, 8, "more layouts than the count 1 on line 1"),
    ("", 3, 8, "reached the end of the input; expected row 1 of layout 2 of 3"),
    (GOOD.rsplit("\n", 2)[0] + "\n", 2, 11, "reached the end of the input; expected row 4 of layout 2 of 2"),
])
def test_bad_input_names_layout_line_and_token(second, count, line, message):
    out, error = judge(f"{count}\n\n{GOOD}\n{second}")  # the second layout starts on line 8
    assert out == ["0", "error"]  # the layout before the bad one is answered, the bad one marked
    assert error.case == 2 and error.line == line
    assert str(error).startswith(f"case 2, line {line}: {message}")


@pytest.mark.parametrize("text,message", [
    ("x\n", "expected the number of layouts (one integer >= 0), got 'x'"),
    ("1 2\n", "expected the number of layouts (one integer >= 0), got '1 2'"),
    ("", "reached the end of the input; expected the number of layouts"),
])
def test_bad_count_line(text, message):
    out, error = judge(text)
    assert out == ["error"] and error.case == 1 and error.line == 1
    assert message in str(error)


def test_text_form_round_trips_and_errors():
    rng = random.Random(4)
    for rows in random_layouts(rng, 20):
        state = gap.set_up(rows)
        assert PUZZLE.parse_state(PUZZLE.format_state(state)) == state
    with pytest.raises(vs.InvalidPuzzleInput, match="token '21' is not a card; expected a card 12..47"):
        PUZZLE.parse_state(GOOD)
    with pytest.raises(vs.InvalidPuzzleInput, match="expected 28 cells"):
        PUZZLE.parse_state("12 13")
