"""A Game on the Chessboard (CEOI 1999): conventions, judge answers, the matching fact and the
diameter, against plain Python."""

import itertools
import math
import random

import numpy as np
import pytest
from reference import bfs_layers, distances, replay
from reference_chessboard import matching_cost, matching_cost_brute_force, neighbours, parse, random_position, rows

import vecsearch as vs
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles.chessboard import chessboard, shortest

SAMPLE = "1111\n0000\n1110\n0010\n\n1010\n0101\n1010\n0101\n"
CORNER, OPPOSITE = "1111 1110 1000 0000", "0000 0001 0111 1111"  # the 8 fields nearest opposite corners


def mask_of(position: str) -> int:
    return sum(1 << i for i, v in enumerate(position) if v == "1")


def judge(text):
    answers, errors = vs.get_problem("chessboard").solve_text(text)
    return answers, (errors[0] if errors else None)


def case_text(start: str, final: str) -> str:
    return f"{rows(start)}\n\n{rows(final)}\n"


def check_answer(start: str, final: str, output: str, expected: int):
    """``k`` then ``k`` moves that replay with the reference rules from start to final."""
    lines = output.split("\n")
    assert int(lines[0]) == expected and len(lines) == expected + 1
    assert replay(start, lines[1:], neighbours) == final


# --- conventions -------------------------------------------------------------------------------

def test_state_is_the_black_mask_and_text_round_trips():
    puzzle = chessboard()
    state = puzzle.state("1000 0000 0000 0011")
    assert state == 1 | 1 << 14 | 1 << 15
    assert puzzle.format_state(state) == "1000 0000 0000 0011"
    assert puzzle.state("1000\n0000\n0000\n0011\n") == state
    assert puzzle.board(state) == "1000\n0000\n0000\n0011"


def test_moves_are_the_24_swaps_in_documented_order_and_skip_equal_stones():
    puzzle = chessboard()
    assert puzzle.move_names[:4] == ("1 1 1 2", "1 2 1 3", "1 3 1 4", "2 1 2 2")
    assert puzzle.move_names[12:14] == ("1 1 2 1", "1 2 2 2") and puzzle.move_names[23] == "3 4 4 4"
    rng = random.Random(5)
    for _ in range(300):
        position = random_position(rng, rng.randint(0, 16))
        children, moves = layer_kernels(puzzle).neighbours(np.array([mask_of(position)]), puzzle.tables, False)
        got = {puzzle.move_names[m]: int(c) for c, m in zip(children, moves, strict=True)}
        expected = {name: mask_of(child) for name, child in neighbours(position) if child != position}
        assert got == expected


def test_component_is_the_stone_count_and_rank_is_colex_within_it():
    puzzle = chessboard()
    masks = np.arange(1 << 16, dtype=np.int64)
    components = layer_kernels(puzzle).components(masks, puzzle.tables)
    ranks = layer_kernels(puzzle).ranks(masks, puzzle.tables)
    assert puzzle.rank_size == math.comb(16, 8) == 12_870
    for k in range(17):
        subsets = sorted(itertools.combinations(range(16), k), key=lambda s: s[::-1])  # colex order
        in_order = np.array([sum(1 << i for i in s) for s in subsets], np.int64)
        assert (components[in_order] == k).all()
        assert ranks[in_order].tolist() == list(range(math.comb(16, k)))
        for r in range(0, len(in_order), 97):
            assert puzzle.functions["unrank_state"](r, k, puzzle.tables) == in_order[r]


# --- the judge -------------------------------------------------------------------------------

def test_sample_gives_four_swaps():
    answers, error = judge(vs.get_problem("chessboard").sample())
    assert error is None and len(answers) == 1 and answers[0].note is None
    check_answer(parse("1111 0000 1110 0010"), parse("1010 0101 1010 0101"), answers[0].output, 4)


@pytest.fixture(scope="module")
def goals_and_distances():
    """A few final positions with every stone count, and the reference distance of every
    position to each (a plain-Python BFS from the final position; moves are reversible)."""
    rng = random.Random(1999)
    goals = [random_position(rng, k) for k in (1, 3, 5, 7, 8, 8, 9, 12, 15)] + [parse(OPPOSITE)]
    return [(goal, distances([goal], neighbours)) for goal in goals]


def test_random_cases_against_the_reference(goals_and_distances):
    rng = random.Random(7)
    cases = []
    for goal, _ in goals_and_distances:
        k = goal.count("1")
        cases += [(random_position(rng, k), goal) for _ in range(30)]
        cases += [(random_position(rng, rng.choice([j for j in range(17) if j != k])), goal) for _ in range(3)]
    cases.append((parse(CORNER), parse(OPPOSITE)))
    text = "\n".join(case_text(start, final) for start, final in cases)
    answers, error = judge(text)
    assert error is None and len(answers) == len(cases)
    reference = dict(goals_and_distances)
    for number, ((start, final), answer) in enumerate(zip(cases, answers, strict=True), 1):
        if start.count("1") != final.count("1"):
            assert answer.output == "-1"
            assert answer.note == (f"case {number}: the start has {start.count('1')} black stones and the final"
                                   f" position {final.count('1')}; a swap never changes the count, so it is"
                                   " unreachable")
        else:
            check_answer(start, final, answer.output, reference[final][start])
            assert answer.note is None


def test_distance_is_the_minimum_matching_cost():
    rng = random.Random(11)
    for _ in range(300):
        k = rng.randint(1, 10)  # the matching reference is exponential in k
        start, final = random_position(rng, k), random_position(rng, k)
        assert len(shortest(rows(start), rows(final))) == matching_cost(start, final)
    for _ in range(30):  # the matching reference itself, against brute force
        k = rng.randint(1, 6)
        start, final = random_position(rng, k), random_position(rng, k)
        assert matching_cost(start, final) == matching_cost_brute_force(start, final)


def test_distance_table_equals_matching_cost_from_the_corner():
    puzzle = chessboard()
    table = vs.DistanceTable(puzzle, CORNER)
    positions = ["".join("1" if i in s else "0" for i in range(16)) for s in itertools.combinations(range(16), 8)]
    sample = random.Random(2).sample(positions, 600)
    lengths, _ = table.solve_many(np.array([mask_of(p) for p in sample]))
    assert lengths.tolist() == [matching_cost(p, parse(CORNER)) for p in sample]


def test_edge_cases():
    text = "".join([
        case_text(parse(CORNER), parse(CORNER)),  # start == final
        "\n", case_text(parse("1000 0000 0000 0000"), parse("0100 0000 0000 0000")),  # one swap
        "\n", case_text(parse("1000 0000 0000 0000"), parse("1100 0000 0000 0000")),  # counts differ
        "\n", case_text("0" * 16, "0" * 16), "\n", case_text("1" * 16, "1" * 16),  # one position each
        "\n", case_text(parse(CORNER), parse(OPPOSITE)),  # the diameter
    ])
    answers, error = judge(text)
    assert error is None
    assert [a.output for a in answers[:5]] == ["0", "1\n1 1 1 2", "-1", "0", "0"]
    assert "1 black stones and the final position 2" in answers[2].note
    check_answer(parse(CORNER), parse(OPPOSITE), answers[5].output, 20)


def test_empty_input_has_no_answers():
    assert judge("") == ([], None) and judge("\n\n") == ([], None)


def test_cases_without_empty_lines_or_with_extra_ones_are_read():
    answers, error = judge("\n\n1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n\n\n\n  1010 \n0101\n1010\n0101\n\n"
                           "1010\n0101\n1010\n0101")
    assert error is None and [a.output.split("\n")[0] for a in answers] == ["4", "0"]


# --- layers and diameter ---------------------------------------------------------------------

def test_layers_from_the_corner_equal_the_reference_and_reach_20():
    expected = [len(layer) for layer in bfs_layers([parse(CORNER)], neighbours)]
    result = vs.bfs("chessboard", CORNER, keep_layers=True)
    assert result.layer_sizes == expected and result.depth == 20 and sum(expected) == 12_870
    assert OPPOSITE in {chessboard().format_state(s) for s in result.last_layer.states}


def symmetric_images(position: str) -> set[str]:
    """The position under the 8 symmetries of the square, with and without colours exchanged."""
    grid = [position[i:i + 4] for i in range(0, 16, 4)]
    images = set()
    for _ in range(4):
        grid = ["".join(grid[3 - c][r] for c in range(4)) for r in range(4)]  # rotate a quarter turn
        for g in (grid, [row[::-1] for row in grid]):
            flat = "".join(g)
            images |= {flat, flat.translate(str.maketrans("01", "10"))}
    return images


def test_diameter_of_eight_and_eight_is_20():
    """Every swap commutes with the board's symmetries and with exchanging the colours, so the
    eccentricity of one position per symmetry class gives the diameter."""
    seen, eccentricities = set(), []
    for subset in itertools.combinations(range(16), 8):
        position = "".join("1" if i in subset else "0" for i in range(16))
        if position in seen:
            continue
        seen |= symmetric_images(position)
        eccentricities.append(vs.bfs("chessboard", mask_of(position)).depth)
    assert len(seen) == 12_870
    assert max(eccentricities) == 20


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("second_case,line,message", [
    ("1111\n0000\n111\n0010\n\n1010\n0101\n1010\n0101\n", 13,
     "start position, row 3: '111' has 3 characters; expected 4 characters 0/1"),
    ("1111\n0000\n1110\n0010\n\n1010\n0101\n10120\n0101\n", 18,
     "final position, row 3: '10120' has 5 characters; expected 4 characters 0/1"),
    ("1111\n0000\n1110\n0010\n\n1010\n01x1\n1010\n0101\n", 17,
     "final position, row 2: '01x1' has 'x' at column 3; expected 0 or 1"),
    ("1111\n0 00\n", 12, "start position, row 2: '0 00' has ' ' at column 2; expected 0 or 1"),
    ("1111\n0000\n1110\n\n1010\n0101\n1010\n0101\n", 13,
     "the start position has only 3 row(s) (from line 11) before the empty line 14;"
     " expected 4 rows of 4 characters 0/1"),
    ("1111\n0000\n1110\n0010\n\n1010\n0101\n", 17,
     "the final position has only 2 row(s) (from line 16) at the end of the input;"
     " expected 4 rows of 4 characters 0/1"),
    ("1111\n0000\n1110\n0010\n", 11,
     "the input ends after the start position; expected an empty line and the final position"
     " (4 rows of 4 characters 0/1)"),
])
def test_bad_input_is_located_and_earlier_cases_answered(second_case, line, message):
    answers, error = judge(SAMPLE + "\n" + second_case)
    assert len(answers) == 2 and answers[0].output.startswith("4\n") and answers[1].output == "error"
    assert (error.case, error.line) == (2, line)
    assert str(error) == f"case 2, line {line}: {message}"


def test_bad_states_are_refused():
    puzzle = chessboard()
    with pytest.raises(vs.InvalidPuzzleInput, match="row 2: '000' has 3 characters"):
        puzzle.state("1111 000 1110 0010")
    with pytest.raises(vs.InvalidPuzzleInput, match="expected 4 rows of 4 characters 0/1, got 3 row"):
        puzzle.state("1111 0000 1110")
    with pytest.raises(vs.InvalidPuzzleInput, match="not a 16-bit mask"):
        puzzle.state(1 << 16)
