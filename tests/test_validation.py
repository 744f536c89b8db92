"""A user's puzzle, written as in notebook 02, is probed once: broken contracts give precise errors."""

import numpy as np
import pytest

import vecsearch as vs

# Lights Out 3x3: pressing a light toggles it and its side neighbours; a state is the 9-bit mask.
MASKS = np.array([(1 << i) | (1 << i - 3 if i >= 3 else 0) | (1 << i + 3 if i < 6 else 0)
                  | (1 << i - 1 if i % 3 else 0) | (1 << i + 1 if i % 3 < 2 else 0) for i in range(9)], np.int64)


def lights(expand, rank_size=512, unrank=None, expand_rank=None, near_rank=None, component=None, **options):
    settings = dict(tables=(MASKS,), start=0, goal=511)
    settings.update(options)
    rank = vs.Rank(lambda s, t: s, rank_size, unrank=unrank, expand_rank=expand_rank, near_rank=near_rank)
    return vs.Puzzle("lights-out", vs.Rules(expand, component=component), 9, rank=rank, **settings)


def good_expand(state, tables, children, moves):
    for m in range(9):
        children[m] = state ^ tables[0][m]
        moves[m] = m
    return 9


def test_a_correct_puzzle_validates_and_warms_up():
    puzzle = lights(good_expand)
    assert vs.validate(puzzle) == 64
    assert len(vs.solve(puzzle)) == 5


def forgets_return(state, tables, children, moves):
    for m in range(9):
        children[m] = state ^ tables[0][m]
        moves[m] = m


def returns_float(state, tables, children, moves):
    good_expand(state, tables, children, moves)
    return 9.0


def returns_arrays(state, tables, children, moves):
    good_expand(state, tables, children, moves)
    return children, moves


def writes_wide_children(state, tables, children, moves):
    for m in range(9):
        children[m, 0] = state ^ tables[0][m]
        moves[m] = m
    return 9


def counts_too_many(state, tables, children, moves):
    good_expand(state, tables, children, moves)
    return 10


def bad_move_index(state, tables, children, moves):
    for m in range(9):
        children[m] = state ^ tables[0][m]
        moves[m] = m + 1
    return 9


def one_way(state, tables, children, moves):
    children[0] = state | tables[0][0]
    moves[0] = 0
    return 1


def python_only(state, tables, children, moves):
    for m in range(9):
        children[m] = state ^ tables[0][m]
        moves[m] = m + 0 * int(state).bit_count()  # fine in Python, not in numba
    return 9


@pytest.mark.parametrize("expand,options,message", [
    (forgets_return, {},
     r"lights-out: expand\('0'\) returned None \(NoneType\); expected an int, the number of children"),
    (returns_float, {}, r"returned 9\.0 \(float\); expected an int"),
    (returns_arrays, {}, r"returned \(array\(.*\(tuple\); expected an int"),
    (counts_too_many, {}, r"expand\('0'\) returned 10 children; expected 0\.\.max_moves=9"),
    (writes_wide_children, {},
     r"expand\('0'\) writes outside the children array .*narrow \(width=1\): write children\[k\]"),
    (good_expand, {"rank_size": 256}, r"rank\('\d+'\) is \d+; expected an int in 0\.\.rank_size-1 = 255"),
    (bad_move_index, {}, r"child 8 has move 9; expected 0\.\.8"),
    (one_way, {}, r"expand\('11'\) does not include '0', although move '0' leads there .*reversible=False"),
    (good_expand, {"start": 1 << 70},
     r"the start state is not a state of 1 word\(s\): state word \d+ does not fit"),
    (python_only, {}, r"lights-out: numba cannot compile python_only \(\S*test_validation\.py, line \d+\):"
                      r" Unknown attribute 'bit_count' of type int64"),
])
def test_broken_user_puzzles_are_named_precisely(expand, options, message):
    puzzle = lights(expand, **options)
    with pytest.raises(vs.PuzzleDefinitionError, match=message):
        vs.validate(puzzle)


def stuck_after_one_press(state, tables, children, moves):
    if state == tables[0][0]:
        raise ZeroDivisionError("a pressed light")
    return good_expand(state, tables, children, moves)


def test_a_function_that_raises_and_a_rank_two_states_share_are_named():
    with pytest.raises(vs.PuzzleDefinitionError, match=rf"^lights-out: expand\('{MASKS[0]}'\) raised ZeroDivisionError:"
                                                       r" a pressed light$") as raised:
        vs.validate(lights(stuck_after_one_press))
    assert isinstance(raised.value.__cause__, ZeroDivisionError)  # the user's own, for their traceback
    halves = vs.Puzzle("lights-out", good_expand, 9, rank=vs.Rank(lambda s, t: s // 2, 256), tables=(MASKS,), start=0)
    with pytest.raises(vs.PuzzleDefinitionError, match=r"^lights-out: rank\('(\d+)'\) and rank\('(\d+)'\) are both"
                                                       r" \d+; a rank numbers each state of a component apart$"):
        vs.validate(halves)  # a bitset search would count 2 of them as 1
    odd = vs.Puzzle("lights-out", good_expand, 9, rank=vs.Rank(lambda s, t: 1 // (s & 1) * s, 512), tables=(MASKS,),
                    start=1)
    with pytest.raises(vs.PuzzleDefinitionError, match=r"^lights-out: rank\('\d+'\) raised ZeroDivisionError"):
        vs.validate(odd)


COSTS = {0: 1}  # numba cannot read a global dict


def dict_heuristic(state, tables):
    return COSTS.get(state, 0)


def test_an_uncompilable_function_is_named_with_numbas_first_cause():
    puzzle = lights(good_expand, heuristic=dict_heuristic)
    with pytest.raises(vs.PuzzleDefinitionError,
                       match=r"numba cannot compile dict_heuristic \(\S*test_validation\.py, line \d+\): Untyped global"
                             r" name 'COSTS'") as error:
        vs.solve(puzzle, method="astar")
    assert "COSTS" in str(error.value.__cause__)  # numba's full message stays one attribute away


def test_a_puzzle_without_start_or_goal_is_probed_from_a_given_state():
    puzzle = lights(good_expand, start=None, goal=None)
    with pytest.raises(vs.PuzzleDefinitionError, match=r"lights-out has no start or goal of its own to probe from:"
                                                       r" give states, as in validate\(puzzle, STATE\)"):
        vs.validate(puzzle)
    assert vs.validate(puzzle, 0) == 64
    assert vs.validate(puzzle, [0, 511], limit=5) == 5
    with pytest.raises(vs.InvalidPuzzleInput, match="lights-out has no start or goal of its own: give a start state"):
        vs.bfs(puzzle)
    assert vs.bfs(puzzle, 0).total_states == 512


def test_a_bare_table_array_is_refused_with_the_shape_expected():
    with pytest.raises(vs.PuzzleDefinitionError,
                       match=r"tables is a tuple of arrays; wrap a single array as \(array,\)"):
        lights(good_expand, tables=MASKS)


def wide_expand(state, tables, children, moves):
    for m in range(4):
        children[m, 0] = state[0] + (m == 0) - (m == 1)
        children[m, 1] = state[1] + (m == 2) - (m == 3)
        children[m, 2] = 0  # a third word, but the puzzle is two words wide
        moves[m] = m
    return 4


def test_state_outside_the_declared_width():
    puzzle = vs.Puzzle("grid", vs.Rules(wide_expand, width=2), 4, start=(0, 0), goal=(3, 3))
    with pytest.raises(vs.PuzzleDefinitionError,
                       match=r"grid: expand\('0 0'\) writes outside the children array"
                             r" .*2 words wide: write children\[k, 0\.\.1\]"):
        vs.warm_up(puzzle)  # warm_up validates first


def test_wide_start_with_too_many_words():
    puzzle = vs.Puzzle("grid", vs.Rules(wide_expand, width=2), 4, start=(0, 0, 0), goal=(3, 3))
    with pytest.raises(vs.PuzzleDefinitionError, match=r"grid: the start state is not a state of 2 word\(s\)"):
        vs.validate(puzzle)


def test_component_must_be_invariant():
    def parity(state, tables):
        return state & 1

    puzzle = lights(good_expand, component=parity)
    with pytest.raises(vs.PuzzleDefinitionError, match=r"move '0' changes the component from 0 to 1 \('0' -> '11'\)"):
        vs.validate(puzzle)


def rank_steps(rank, component, tables, ranks):
    for m in range(9):
        ranks[m] = rank ^ tables[0][m]
    return 9


def presses_of_the_first_row(rank, component, tables, ranks):
    for m in range(3):
        ranks[m] = rank ^ tables[0][m]
    return 3


def a_press_of_another_puzzle(rank, component, tables, ranks):
    ranks[0] = rank ^ 1
    return 1


def test_rank_steps_give_the_childrens_ranks_and_near_ones_some_of_them():
    identity = dict(unrank=lambda r, c, t: r, expand_rank=rank_steps)
    puzzle = lights(good_expand, near_rank=presses_of_the_first_row, **identity)
    assert vs.validate(puzzle) == 64
    assert vs.bfs(puzzle, mode="twobit").total_states == 512
    with pytest.raises(vs.PuzzleDefinitionError, match=r"near_rank\(0, 0\) gives the ranks \[1\]; the children of '0'"
                                                       r" have the ranks \[11, 23, 38, 89, 186, 200, 308, 416, 464\]"):
        vs.validate(lights(good_expand, near_rank=a_press_of_another_puzzle, **identity))
    with pytest.raises(vs.PuzzleDefinitionError, match=r"expand_rank\(0, 0\) gives the ranks \[1\]"):
        vs.validate(lights(good_expand, unrank=lambda r, c, t: r, expand_rank=a_press_of_another_puzzle))
    with pytest.raises(vs.PuzzleDefinitionError, match="near_rank needs expand_rank too"):
        lights(good_expand, unrank=lambda r, c, t: r, near_rank=presses_of_the_first_row)


@pytest.mark.parametrize("name", ["pancake-12", "sliding-3x4", "topspin-9", "lrx-8"])
def test_built_in_rank_steps_validate(name):
    assert vs.validate(vs.get_puzzle(name)) == 64
