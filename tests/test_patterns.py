"""Patterns (the solved state with pieces made identical, or ``?``): the states they match as
starts and goals, their coset spaces, and the distances between two of them ("God's number
between phases"), against plain-Python searches over every state of the puzzle."""

import functools
from collections import Counter

import pytest
from command_line import run
from reference import bfs_layers, distances, labelled_neighbours

import vecsearch as vs
from vecsearch.puzzles.permutation import PermutationDefinition, PermutationPuzzle, phases

TWO_GEN = vs.load_definition("2x2x2").restricted(["U", "R"])  # 6 corners turned by U and R: 29,160 positions
PUZZLE = PermutationPuzzle(TWO_GEN, representation="group")  # slots UBL UBR UFR UFL DFR DBR
D_PAIR = "? ? ? ? 5 6"  # the two D corners in place and oriented; the U layer anything
U_COLOURS = "1 1 1 1 5 6 / 0 0 0 0 0 0"  # solved but for the order of the U corners


def neighbours(puzzle):
    d = puzzle.definition
    moves = [(m.name, {0: m.changes["CORNERS"]}, None) for m in puzzle.move_list]
    return labelled_neighbours(moves, [3], d.wild)


@functools.cache
def all_positions() -> list:
    return [s for layer in bfs_layers([TWO_GEN.solved], neighbours(PUZZLE)) for s in layer]


@pytest.fixture(scope="module")
def positions():
    return all_positions()


@functools.cache
def away_from(goal: str | None) -> dict:
    """Every position's distance to the positions ``goal`` matches (None: the solved one), by a
    plain BFS over the group; once per goal, for the tests that share it."""
    goals = matching(all_positions(), u_colours=goal == U_COLOURS, d_pair=goal == D_PAIR) if goal else [TWO_GEN.solved]
    return distances(goals, neighbours(PUZZLE))


def matching(positions, d_pair=False, u_colours=False):
    def ok(state):
        pieces, twists = state[0]
        if d_pair:
            return pieces[4:] == (4, 5) and twists[4:] == (0, 0)
        return sorted(pieces[:4]) == [0, 1, 2, 3] and pieces[4:] == (4, 5) and not any(twists)
    return [s for s in positions if ok(s)]


def test_a_pattern_matches_the_states_that_look_like_it(positions):
    pattern = PUZZLE.pattern(D_PAIR)
    assert {PUZZLE.pieces(s) for s in pattern.states()} == set(matching(positions, d_pair=True))
    assert {PUZZLE.pieces(s) for s in PUZZLE.states(U_COLOURS)} == set(matching(positions, u_colours=True))
    assert all(pattern.matches(s) for s in pattern.states())
    coset = pattern.puzzle  # its solved state is the pattern: the U corners alike, orientations not counted
    assert coset.format_state(coset.goal_states()[0]) == "1 1 1 1 5 6 / ? ? ? ? 0 0"
    expected = bfs_layers([coset.definition.solved], neighbours(coset))
    assert vs.bfs(coset).layer_sizes == [len(layer) for layer in expected]


def test_starts_and_goals_may_be_patterns(positions):
    starts = matching(positions, d_pair=True)
    result = vs.bfs(PUZZLE, PUZZLE.pattern(D_PAIR))
    assert result.layer_sizes == [len(layer) for layer in bfs_layers(starts, neighbours(PUZZLE))]
    scrambled = PUZZLE.parse_state("R U R' U R U2 R")
    away = away_from(U_COLOURS)
    solution = vs.solve(PUZZLE, scrambled, goal=U_COLOURS)
    assert len(solution) == away[PUZZLE.pieces(scrambled)]
    assert PUZZLE.pieces(solution.states[-1]) in set(matching(positions, u_colours=True))
    many = vs.solve_many(PUZZLE, [{"id": "a", "start": "R U R' U R U2 R", "goal": U_COLOURS},
                                  {"id": "b", "start": "U R", "goal": D_PAIR}])
    assert many.lengths.tolist() == [away[PUZZLE.pieces(scrambled)], 1]


@pytest.mark.parametrize("puzzle", [PUZZLE, PermutationPuzzle(TWO_GEN, representation="coordinates")],
                         ids=["group", "coordinates"])
@pytest.mark.parametrize("start,goal", [(D_PAIR, None), (D_PAIR, U_COLOURS), (U_COLOURS, D_PAIR)])
def test_god_s_number_between_two_patterns(positions, puzzle, start, goal):
    solved_text = PUZZLE.format_state(PUZZLE.goal_states()[0])
    away = away_from(goal)  # every position reaches the goal in this group
    starts = matching(positions, d_pair=start == D_PAIR, u_colours=start == U_COLOURS)
    # counted as both patterns tell positions apart: with U_COLOURS and D_PAIR, the U corners are alike
    alike = goal is not None

    def seen(state):
        pieces, twists = state[0]
        return tuple(0 if alike and p < 4 else p for p in pieces), twists

    expected = Counter({seen(s): away[s] for s in starts}.values())
    result = phases(puzzle, start, goal or solved_text)
    assert result.counts == [expected.get(d, 0) for d in range(max(expected) + 1)]
    assert (result.maximum, result.unreachable, result.left_out) == (max(expected), 0, 0)


def test_positions_are_what_the_solved_state_reaches(positions):
    free = PermutationPuzzle(TWO_GEN, representation="coordinates")  # its rank spans 6 times the positions
    assert free.reaches(TWO_GEN.solved) and sum(map(free.reaches, positions)) == len(positions) == 29160
    assert len(free.pattern(D_PAIR).states()) == len(matching(positions, d_pair=True))  # only positions
    identical = PermutationPuzzle(PermutationDefinition("layers", TWO_GEN.orbits, TWO_GEN.moves,
                                                        {"CORNERS": [0, 0, 0, 0, 4, 5]}))
    assert identical.reaches(identical.definition.solved) is None  # identical pieces: the component only
    coset = PUZZLE.pattern(U_COLOURS).puzzle  # phases counts the coset space's states the solved one reaches
    assert phases(PUZZLE, U_COLOURS, D_PAIR).left_out == 0 and len(PUZZLE.pattern(D_PAIR).states(
        PUZZLE.pattern(D_PAIR).meet(PUZZLE.pattern(U_COLOURS), "both"))) <= coset.rank_size


@pytest.mark.parametrize("text,message", [
    ("? ? ? ? 5 6 / ? ? ? ? 1 0", "slot 5: orientation '1'; a pattern keeps the solved state's"),
    ("1 1 ? ? 5 6 / 0 ? ? ? 0 0", "pieces of class 1 must all have their orientation ignored"),
    ("? ? ? 5 6", "expected 6 CORNERS pieces"),
    ("CORNERS ? EDGES ?", r"pattern token 3 is 'EDGES'; expected an orbit name \(CORNERS\)"),
])
def test_bad_patterns_are_refused(text, message):
    with pytest.raises(vs.InvalidPuzzleInput, match=message):
        PUZZLE.pattern(text)
    layers = PermutationDefinition("layers", TWO_GEN.orbits, TWO_GEN.moves, {"CORNERS": [0, 0, 0, 0, 4, 4]})
    with pytest.raises(vs.InvalidPuzzleInput, match="slots holding identical pieces in the solved state get"):
        PermutationPuzzle(layers).pattern("1 1 1 1 5 6")


def test_the_command_line_phases(tmp_path):
    path = tmp_path / "two-gen.tws"
    from vecsearch.puzzles.permutation import format_definition

    path.write_text(format_definition(TWO_GEN))
    code, out, _ = run("phases", str(path), "--from", D_PAIR)
    result = phases(PUZZLE, D_PAIR, PUZZLE.format_state(PUZZLE.goal_states()[0]))
    assert code == 0 and out.startswith(str(result))
    assert f"{result.starts:,} starts, at most {result.maximum} moves" in out
    code, _, err = run("bfs", str(path), "--start", D_PAIR, "--csv")
    assert code == 0 and err.startswith("vecsearch: note: --start is a pattern: the search starts"
                                        f" from the {result.starts:,} states it matches")


def test_phases_take_a_puzzles_name_and_refuse_a_puzzle_without_pieces():
    by_name = vs.phases("pancake-5", "? ? ? 4 5", "1 2 3 4 5")
    assert by_name.counts == vs.phases(vs.get_puzzle("pancake-5"), "? ? ? 4 5", "1 2 3 4 5").counts == [1, 2, 2, 1]
    for make in (lambda: vs.phases("eight", "1 2 3 4 5 6 7 8 x", "1 2 3 4 5 6 7 8 x"),
                 lambda: vs.Pattern(vs.get_puzzle("eight"), "1 2 3 4 5 6 7 8 x")):
        with pytest.raises(vs.InvalidPuzzleInput, match="sliding-3x3: patterns are states of permutation puzzles"):
            make()
