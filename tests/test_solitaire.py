"""Solitaire (POJ 1198): conventions, judge answers and layer counts against plain Python."""

import itertools
import math
import random

import numpy as np
import pytest
from reference import bfs_layers, replay
from reference_solitaire import (
    distance_within,
    neighbours,
    parse,
    random_config,
    random_pairs,
    random_walk,
    step_neighbours,
    text,
)

import vecsearch as vs
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles.solitaire import reachable, solitaire

SAMPLE = "4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n"


def mask_of(config) -> int:
    value = sum(1 << (8 * (r - 1) + c - 1) for r, c in config)
    return value - (1 << 64) if value >= 1 << 63 else value


def config_of(state) -> frozenset:
    value = int(state) & ((1 << 64) - 1)
    return frozenset((i // 8 + 1, i % 8 + 1) for i in range(64) if value >> i & 1)


def judge(text_in):
    answers, errors = vs.get_problem("solitaire").solve_text(text_in)
    return [a.output for a in answers], (errors[0] if errors else None)


def check_path(first, second, solution, expected_length):
    """The engine's labelled moves replay with the reference rules from ``first`` to ``second``."""
    assert len(solution) == expected_length
    assert replay(first, solution.move_names, neighbours) == second
    assert [config_of(s) for s in solution.states] == [
        replay(first, solution.move_names[:i], neighbours) for i in range(len(solution) + 1)]


# --- conventions -------------------------------------------------------------------------------

def test_state_is_the_occupancy_mask_and_text_round_trips():
    puzzle = solitaire()
    state = puzzle.state("8 8 1 1 4 5 1 2")
    assert state == mask_of({(8, 8), (1, 1), (4, 5), (1, 2)})
    assert state < 0  # square (8, 8) is bit 63
    assert puzzle.format_state(state) == "1 1 1 2 4 5 8 8"
    assert puzzle.state(puzzle.format_state(state)) == state
    assert puzzle.state([(1, 1), (1, 2), (4, 5), (8, 8)]) == state
    assert puzzle.board(puzzle.state("1 1 1 8 8 1 8 8")).splitlines() == ["o......o"] + ["." * 8] * 6 + ["o......o"]


def test_moves_are_piece_order_times_four_plus_direction_against_the_reference():
    puzzle = solitaire()
    rng = random.Random(4)
    configs = [random_config(rng) for _ in range(300)] + [parse("1 1 1 2 2 1 8 8"), parse("4 4 4 5 4 6 4 7")]
    for config in configs:
        state = np.array([mask_of(config)], np.int64)
        children, moves = layer_kernels(puzzle).neighbours(state, puzzle.tables, False)
        squares = sorted(config)
        got = {}
        for child, move in zip(children, moves, strict=True):
            row, col = squares[move // 4]
            got[f"{row} {col} {'UDLR'[move % 4]}"] = config_of(child)
        assert got == dict(neighbours(config))
        assert puzzle.move_labels(np.repeat(state, len(moves)), moves) == list(got)


def test_rank_is_the_colex_rank_and_perfect():
    puzzle = solitaire()
    subsets = list(itertools.combinations(range(64), 4))
    masks = np.array([mask_of({(s // 8 + 1, s % 8 + 1) for s in subset}) for subset in subsets], np.int64)
    ranks = layer_kernels(puzzle).ranks(masks, puzzle.tables)
    assert puzzle.rank_size == math.comb(64, 4) == 635_376
    assert np.array_equal(np.sort(ranks), np.arange(puzzle.rank_size))
    for i in range(0, len(subsets), 997):
        assert ranks[i] == sum(math.comb(c, j + 1) for j, c in enumerate(subsets[i]))
        assert puzzle.functions["unrank_state"](ranks[i], 0, puzzle.tables) == masks[i]


def test_bad_states_are_refused():
    puzzle = solitaire()
    with pytest.raises(vs.InvalidPuzzleInput, match="exactly 4 bits"):
        puzzle.state(7)
    with pytest.raises(vs.InvalidPuzzleInput, match="piece 2 has column 9"):
        puzzle.state([(1, 1), (1, 9), (2, 2), (3, 3)])


# --- the judge -------------------------------------------------------------------------------

def test_sample_is_yes_at_distance_seven():
    assert judge(vs.get_problem("solitaire").sample()) == (["YES"], None)
    first, second = SAMPLE.splitlines()
    solution = reachable(first, second)
    check_path(parse(first), parse(second), solution, 7)
    assert str(solution).count(",") == 6  # "r c D" labels joined by ", "


@pytest.mark.parametrize("walks,strangers,far,edge", [
    (60, 10, 15, 8),
    pytest.param(260, 40, 80, 40, marks=pytest.mark.slow),  # its distances: tests/data/make_goldens.py
])
def test_random_pairs_against_the_reference(walks, strangers, far, edge, reference_goldens):
    pairs = random_pairs(walks, strangers)
    golden = reference_goldens["solitaire_pairs"]
    if [golden["walks"], golden["strangers"]] == [walks, strangers]:  # the plain-Python reference's, made once
        expected = golden["distances"]
        assert expected[:20] == [distance_within(a, b, 8) for a, b in pairs[:20]]  # still the reference's
    else:
        expected = [distance_within(a, b, 8) for a, b in pairs]
    # both answers, and the edge
    assert sum(d is None for d in expected) > far and sum(d in (7, 8) for d in expected) > edge
    out, error = judge("".join(f"{text(a)}\n{text(b)}\n" for a, b in pairs))
    assert error is None
    assert out == ["NO" if d is None else "YES" for d in expected]
    for (a, b), d in zip(pairs, expected, strict=True):
        solution = reachable(text(a), text(b))
        if d is None:
            assert solution is None
        else:
            check_path(a, b, solution, d)


def test_exact_budget_eight_is_yes_and_nine_is_no(reference_goldens):
    """Pairs exactly 8 and 9 apart: finding them by random walks takes the reference seconds
    (tests/data/make_goldens.py did), telling their distances a fraction of one."""
    exact = {int(d): [tuple(parse(line) for line in pair) for pair in pairs]
             for d, pairs in reference_goldens["solitaire_exact_pairs"]["pairs"].items()}
    for d, pairs in exact.items():
        assert [distance_within(a, b, 9) for a, b in pairs] == [d] * len(pairs)  # the reference's, now
    out, error = judge("".join(f"{text(a)}\n{text(b)}\n" for a, b in exact[8] + exact[9]))
    assert error is None and out == ["YES"] * 3 + ["NO"] * 3
    for a, b in exact[9]:
        assert reachable(text(a), text(b)) is None
        check_path(a, b, reachable(text(a), text(b), within=9), 9)
        check_path(a, b, vs.solve("solitaire", text(a), text(b)), 9)


def test_empty_input_has_no_answers():
    assert judge("") == ([], None) and judge("\n  \n") == ([], None)


def test_same_set_in_another_order_is_yes_with_no_moves():
    out, _ = judge("4 4 4 5 5 4 6 5\n6 5 5 4 4 5 4 4\n")
    assert out == ["YES"]
    assert len(reachable("4 4 4 5 5 4 6 5", "6 5 5 4 4 5 4 4")) == 0


def test_pieces_in_corners():
    corners = parse("1 1 1 8 8 1 8 8")
    assert len(neighbours(corners)) == 8  # two directions per corner
    rng = random.Random(3)
    targets = [random_walk(corners, n, rng) for n in (1, 4, 8, 8, 12)]
    targets += [parse("2 2 2 7 7 2 7 7"), parse("1 2 2 1 7 8 8 7")]
    out, _ = judge("".join(f"{text(corners)}\n{text(t)}\n" for t in targets))
    assert out == ["NO" if distance_within(corners, t, 8) is None else "YES" for t in targets]
    solution = reachable(text(corners), "2 2 2 7 7 2 7 7")
    check_path(corners, parse("2 2 2 7 7 2 7 7"), solution, 8)


@pytest.mark.parametrize("first,second,with_jumps", [
    ("4 4 4 5 1 1 1 8", "4 5 4 6 1 1 1 8", 1),  # (4, 4) jumps over (4, 5); two steps otherwise
    ("4 1 4 2 4 3 4 4", "4 3 4 4 4 5 4 6", 4),  # a line moves two squares by leapfrogging
    ("1 1 1 2 1 3 1 4", "1 5 1 6 1 7 1 8", 8),  # four squares: 16 steps, 8 moves with jumps
])
def test_targets_close_only_thanks_to_jumps(first, second, with_jumps):
    a, b = parse(first), parse(second)
    assert distance_within(a, b, 8) == with_jumps
    assert distance_within(a, b, with_jumps, step_neighbours) is None  # farther without jumps
    assert judge(f"{first}\n{second}\n") == (["YES"], None)
    check_path(a, b, reachable(first, second), with_jumps)


# --- whole space ---------------------------------------------------------------------------

def test_bfs_from_the_sample_start_reaches_everything_within_22():
    result = vs.bfs("solitaire")
    assert result.total_states == 635_376 and result.depth == 22
    assert len(result.last_layer) == 1


def test_layer_counts_equal_a_plain_python_bfs(reference_goldens):
    golden = reference_goldens["solitaire"]  # the plain-Python BFS's layers, made by tests/data/make_goldens.py
    expected = golden["layers"]
    first = [len(layer) for layer in bfs_layers([parse(golden["start"])], neighbours, max_depth=4)]
    assert first == expected[:5]  # the golden is still what the reference computes
    result = vs.bfs("solitaire", golden["start"])
    assert result.layer_sizes == expected
    assert sum(expected) == 635_376 and len(expected) == 23


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("bad_line,message", [
    ("1 2 3 4 5 6 7", "expected 8 integers (r1 c1 r2 c2 r3 c3 r4 c4), got 7 token(s) in '1 2 3 4 5 6 7'"),
    ("1 2 3 4 5 6 7 8 1", "expected 8 integers (r1 c1 r2 c2 r3 c3 r4 c4), got 9 token(s)"),
    ("1 2 3 4 5 6 9 8", "token 7 is '9'; expected a row 1..8"),
    ("1 2 3 0 5 6 7 8", "token 4 is '0'; expected a column 1..8"),
    ("1 2 3 4 5 x 7 8", "token 6 is 'x'; expected a column 1..8"),
    ("1 2 3 4 1 2 7 8", "pieces 1 and 3 both stand on row 1, column 2"),
    ("1 2 3 4 5 6 -7 8", "token 7 is '-7'; expected a row 1..8"),
])
def test_bad_line_is_located_and_earlier_pairs_answered(bad_line, message):
    out, error = judge(f"{SAMPLE}\n2 4 3 3 3 6 4 6\n{bad_line}\n1 1 1 2 1 3 1 4\n")
    assert out == ["YES", "error"]
    assert (error.case, error.line) == (2, 5)
    assert str(error).startswith(f"case 2, line 5: {message}")


def test_a_missing_second_line_is_an_error_after_the_answered_pairs():
    out, error = judge(SAMPLE + "1 1 1 2 1 3 1 4\n\n")
    assert out == ["YES", "error"]
    assert str(error) == ("case 2, line 3: the input ends after the first configuration;"
                          " expected a second line of 8 integers (the target)")
