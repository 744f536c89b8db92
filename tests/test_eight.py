"""Eight (POJ 1077) in its judge format."""

import random

import pytest
import reference
from reference import replay, sliding_goal, sliding_neighbours, sliding_solvable, sliding_tuple

import vecsearch as vs

NEIGHBOURS = sliding_neighbours(3, 3)
GOAL = sliding_goal(3, 3)


@pytest.fixture(scope="module")
def goal_distances():
    return reference.goal_distances(3, 3)


def solve_text(text):
    answers, errors = vs.get_problem("eight").solve_text(text)
    return [a.output for a in answers], (errors[0] if errors else None)


def test_sample_gives_a_shortest_answer():
    out, error = solve_text(vs.get_problem("eight").sample())
    assert error is None and len(out) == 1
    assert len(out[0]) == 19
    assert replay(sliding_tuple("2 3 4 1 5 x 7 6 8"), out[0], NEIGHBOURS) == GOAL


def test_random_puzzles_get_shortest_strings_or_unsolvable(goal_distances):
    rng = random.Random(2)
    puzzles = []
    for _ in range(300):
        cells = list(range(9))
        rng.shuffle(cells)
        puzzles.append(tuple(cells))
    text = "\n".join(" ".join(str(t) if t else "x" for t in p) for p in puzzles)
    out, error = solve_text(text)
    assert error is None and len(out) == len(puzzles)
    for puzzle, answer in zip(puzzles, out, strict=True):
        if not sliding_solvable(puzzle, 3, 3, GOAL):
            assert answer == "unsolvable"
        else:
            assert len(answer) == goal_distances[puzzle]
            assert replay(puzzle, answer, NEIGHBOURS) == GOAL


def test_edge_cases():
    text = "1 2 3 4 5 6 7 8 x\n8 6 7 2 5 4 3 x 1\n  6\t4 7 8 5 x 3 2 1  \n\n1 2 3 4 5 6 8 7 x\n"
    out, error = solve_text(text)
    assert error is None
    assert out[0] == ""  # already solved: an empty line
    assert len(out[1]) == len(out[2]) == 31  # the two hardest positions
    assert out[3] == "unsolvable"


def test_blank_in_every_cell(goal_distances):
    lines = []
    for b in range(9):
        cells = [1, 2, 3, 4, 5, 6, 7, 8]
        cells.insert(b, 0)
        lines.append(tuple(cells))
    out, _ = solve_text("\n".join(" ".join(str(t) if t else "x" for t in p) for p in lines))
    for puzzle, answer in zip(lines, out, strict=True):
        if puzzle in goal_distances:
            assert len(answer) == goal_distances[puzzle]
        else:
            assert answer == "unsolvable"


@pytest.mark.parametrize("bad_line,message", [
    ("1 2 3 4 5 6 7 8", "expected 9 tokens for sliding-3x3, got 8"),
    ("1 2 3 4 5 6 7 8 x 9", "expected 9 tokens for sliding-3x3, got 10"),
    ("1 2 3 4 5 6 7 7 x", "tile 7 appears twice (tokens 7 and 8)"),
    ("1 2 3 4 5 6 7 8 0", "token 9 is '0'; expected a tile 1..8 or x"),
    ("1 2 3 4 5 6 7 8 X", "token 9 is 'X'; expected a tile 1..8 or x"),
])
def test_malformed_line_is_located_and_marked_and_the_next_answered(bad_line, message):
    out, error = solve_text(f"2 3 4 1 5 x 7 6 8\n\n{bad_line}\n1 2 3 4 5 6 7 8 x\n")
    assert len(out) == 3 and len(out[0]) == 19 and out[1] == "error" and out[2] == ""  # answers keep their places
    assert error.line == 3 and error.case == 2
    assert str(error) == f"case 2, line 3: {message}"
