"""Puzzles whose states are values (``vecsearch.values``), checked against plain-Python references:
the examples (water jugs, Rush Hour, Lights Out), a permutation and a subset of one's own, goals
given as conditions, and the errors a broken value rule gets."""

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest
from reference import bfs_layers, distances, replay
from reference_values import jugs as jug_reference
from reference_values import lights_out as lights_reference
from reference_values import rush_hour as rush_reference

import vecsearch as vs

sys.path.insert(0, str(Path(__file__).parent.parent / "examples"))
import jugs  # noqa: E402
import lights_out  # noqa: E402
import rush_hour  # noqa: E402

CARD_1 = ["AA...O", "P..Q.O", "PXXQ.O", "P..Q..", "B...CC", "B.RRR."]


def layer_sets(puzzle, result):
    return [{tuple(puzzle.values.unpack(s)) for s in layer.states.tolist()} for layer in result.layers]


@pytest.mark.parametrize("capacity", [(8, 5, 3), (40, 27, 21, 13, 8)])
def test_jugs_enumerate_as_the_reference_does(capacity):
    start = (capacity[0],) + (0,) * (len(capacity) - 1)
    puzzle = jugs.jugs(list(capacity), list(start), list(start))
    expected = bfs_layers([start], jug_reference(capacity))
    assert layer_sets(puzzle, vs.bfs(puzzle, keep_layers=True)) == expected
    assert vs.bfs(puzzle, mode="twobit").layer_sizes == [len(layer) for layer in expected]


def test_the_jugs_measure_four_and_four_in_seven_pours():
    solution = vs.solve(jugs.puzzle)
    assert len(solution) == 7 == distances([(8, 0, 0)], jug_reference((8, 5, 3)))[(4, 4, 0)]
    assert replay((8, 0, 0), solution.move_names, jug_reference((8, 5, 3))) == (4, 4, 0)
    assert str(solution).split()[0] == "A>B" and jugs.puzzle.format_state(solution.states[-1]) == "4 4 0"


def test_rush_hour_card_one():
    start, neighbours = rush_reference(CARD_1)
    puzzle = rush_hour.card(CARD_1)
    assert tuple(puzzle.values.unpack(puzzle.start_states()[0])) == start
    expected = bfs_layers([start], neighbours)
    assert layer_sets(puzzle, vs.bfs(puzzle, keep_layers=True)) == expected
    solution = vs.solve(puzzle)  # the goal is a condition: a forward search stops on it
    nearest = next(d for d, layer in enumerate(expected) if any(state[-1] == 4 for state in layer))
    assert len(solution) == nearest == 8
    assert replay(start, solution.move_names, neighbours)[-1] == 4


@pytest.mark.parametrize("n", [3, 4])
def test_lights_out(n):
    puzzle = lights_out.lights_out(n)
    start = (1,) * (n * n)
    expected = bfs_layers([start], lights_reference(n))
    assert layer_sets(puzzle, vs.bfs(puzzle, keep_layers=True)) == expected
    assert vs.bfs(puzzle, mode="twobit").layer_sizes == [len(layer) for layer in expected]
    dist = distances([start], lights_reference(n))
    solution = vs.solve(puzzle)
    assert len(solution) == dist[(0,) * (n * n)] and replay(start, solution.move_names, lights_reference(n)) == \
        (0,) * (n * n)


# --- a permutation and a subset of one's own ----------------------------------------------------
def flips(order, tables, after, moves):  # pancakes: flip the top k
    for k in range(2, len(order) + 1):
        after[k - 2] = order
        for i in range(k):
            after[k - 2, i] = order[k - 1 - i]
        moves[k - 2] = k - 2
    return len(order) - 1


def test_a_permutation_is_ranked_by_its_lehmer_code():
    n = 6
    puzzle = vs.ValuePuzzle("pancakes", vs.Permutation(n), flips, n - 1, start=list(range(n)))
    assert puzzle.rank_size == 720
    neighbours = lambda s: [(str(k - 2), s[:k][::-1] + s[k:]) for k in range(2, n + 1)]  # noqa: E731
    expected = bfs_layers([tuple(range(n))], neighbours)
    assert layer_sets(puzzle, vs.bfs(puzzle, keep_layers=True)) == expected
    assert vs.bfs(puzzle, mode="twobit").layer_sizes == [len(layer) for layer in expected]
    ranks = sorted(puzzle.rank_of(puzzle.state(list(p))) for p in itertools.permutations(range(n)))
    assert ranks == list(range(720)) and all(puzzle.unrank_of(r) == puzzle.state(puzzle.values.unpack(
        puzzle.unrank_of(r))) for r in range(0, 720, 37))


def hops(cells, tables, after, moves):  # tokens on a ring of cells, each steps to a free neighbour
    n, k = len(cells), 0
    for i in range(n):
        for step in range(-1, 2, 2):
            j = (i + step) % n
            if cells[i] == 1 and cells[j] == 0:
                after[k] = cells
                after[k, i] = 0
                after[k, j] = 1
                moves[k] = 2 * i + (step > 0)
                k += 1
    return k


def test_a_subset_of_given_size_is_ranked_in_colex_order():
    puzzle = vs.ValuePuzzle("ring", vs.Subset(9, 3), hops, 18, start=[1, 1, 1, 0, 0, 0, 0, 0, 0],
                            goal=[0, 0, 0, 1, 0, 1, 0, 1, 0])
    assert puzzle.rank_size == 84

    def neighbours(state):
        out = []
        for i, j in itertools.product(range(9), range(9)):
            if state[i] and not state[j] and (j - i) % 9 in (1, 8):
                out.append(("", tuple(1 if x == j else 0 if x == i else v for x, v in enumerate(state))))
        return out

    expected = bfs_layers([(1, 1, 1, 0, 0, 0, 0, 0, 0)], neighbours)
    assert layer_sets(puzzle, vs.bfs(puzzle, keep_layers=True)) == expected
    assert vs.bfs(puzzle, mode="twobit").layer_sizes == [len(layer) for layer in expected]
    assert len(vs.solve(puzzle)) == distances([(1, 1, 1, 0, 0, 0, 0, 0, 0)], neighbours)[(0, 0, 0, 1, 0, 1, 0, 1, 0)]


# --- goals as conditions -------------------------------------------------------------------------
def all_dark(lights, tables):
    return lights.sum() == 0


def test_a_condition_is_met_forwards_and_listed_for_the_methods_that_start_from_the_goal():
    """Forward search tests the condition on every layer; bidirectional search, tables and pairs
    list the goal states by scanning the rank space; all agree with the goal given as a state."""
    states = lights_out.lights_out(3)
    condition = vs.ValuePuzzle("lights-dark", vs.Subset(9), lights_out.press, 9, tables=states.tables,
                               start=[1] * 9, goal=all_dark)
    expected = len(vs.solve(states))
    for method in ("bfs", "bidirectional", "table"):
        assert len(vs.solve(condition, method=method)) == expected
    assert vs.solve_many(condition, [[1] * 9, [0] * 9]).lengths.tolist() == [expected, 0]
    assert vs.solve_many(condition, [[1] * 9, [0] * 9], method="pairs").lengths.tolist() == [expected, 0]


def test_a_condition_without_unrank_is_searched_forwards_only():
    def steps(state, tables, children, moves):  # a ring of 1000 states, steps of 1 and 7 either way
        for m in range(4):
            children[m] = (state + (1, 999, 7, 993)[m]) % 1000
            moves[m] = m
        return 4

    puzzle = vs.Puzzle("ring", steps, 4, rank=vs.Rank(lambda s, t: s, 1000), start=0, goal=lambda s, t: s == 500)
    ring = lambda s: [(str(m), (s + d) % 1000) for m, d in enumerate((1, 999, 7, 993))]  # noqa: E731
    assert len(vs.solve(puzzle)) == distances([0], ring)[500]
    with pytest.raises(vs.VecsearchError, match=r"ring's goal is a condition, and without unrank its states cannot"
                                                 r" be listed .* search forwards \(method='bfs'\)"):
        vs.solve(puzzle, method="bidirectional")


def turns(dials, tables, after, moves):  # turn one dial on; after[k] starts as a copy of the dials
    for i in range(3):
        after[i, i] = (dials[i] + 1) % 4
        moves[i] = i
    return 3


def turns_back(dials, tables, before, moves):
    for i in range(3):
        before[i, i] = (dials[i] + 3) % 4
        moves[i] = i
    return 3


@pytest.mark.parametrize("check", [True, False])
def test_a_move_writes_only_the_values_it_changes(check):
    """Each row of the children (and predecessors) starts as a copy of the state's values, in the
    Python probe and in the compiled adapters alike."""
    rules = vs.Rules(turns, predecessors=turns_back, reversible=False)
    puzzle = vs.ValuePuzzle("dials", vs.Vector([4, 4, 4]), rules, 3, start=[0, 0, 0], goal=[3, 2, 1], check=check)
    dial = lambda s: [(str(i), s[:i] + ((s[i] + 1) % 4,) + s[i + 1:]) for i in range(3)]  # noqa: E731
    assert layer_sets(puzzle, vs.bfs(puzzle, keep_layers=True)) == bfs_layers([(0, 0, 0)], dial)
    assert len(vs.solve(puzzle, method="bidirectional")) == 6 == len(vs.solve(puzzle))


# --- a broken value rule ------------------------------------------------------------------------
def overflowing(jugs_, tables, after, moves):  # pours everything, however full the other jug
    k = 0
    for i in range(3):
        for j in range(3):
            if i != j and jugs_[i] > 0:
                after[k] = jugs_
                after[k, i] = 0
                after[k, j] += jugs_[i]
                moves[k] = 3 * i + j
                k += 1
    return k


def test_a_value_outside_its_range_is_named():
    def make(check):
        return vs.ValuePuzzle("spill", vs.Vector([9, 6, 4]), vs.Rules(overflowing, reversible=False), 9,
                              start=[8, 0, 0], check=check)

    with pytest.raises(vs.PuzzleDefinitionError, match=r"^spill: expand\('8 0 0'\) gives child 0 \[0 8 0\]: value 8 at"
                                                       r" position 1 is outside its range 0\.\.5$"):
        vs.bfs(make(True))  # the probe on first use, in Python: said once, not wrapped in another message
    with pytest.raises(vs.PuzzleDefinitionError, match=r"spill: expand\('8 0 0'\) gave child 0 the value 8 at"
                                                       r" position 1, outside its range 0\.\.5"):
        vs.bfs(make(False))  # the compiled adapter
    with pytest.raises(vs.PuzzleDefinitionError, match=r"pancakes: expand\('0 1 2 3'\) gave child 0 values that are"
                                                       r" not a permutation of 0\.\.3"):
        vs.bfs(vs.ValuePuzzle("pancakes", vs.Permutation(4), twice, 1, start=[0, 1, 2, 3], check=False))


def twice(order, tables, after, moves):  # the top pancake twice: not a permutation
    after[0] = order
    after[0, 1] = order[0]
    moves[0] = 0
    return 1


def test_values_are_read_and_written_as_text():
    puzzle = jugs.puzzle
    assert puzzle.format_state(puzzle.state("8 0 0")) == "8 0 0" == puzzle.format_state(puzzle.state([8, 0, 0]))
    with pytest.raises(vs.InvalidPuzzleInput, match=r"value 9 at position 0 is outside its range 0\.\.8"):
        puzzle.state("9 0 0")
    with pytest.raises(vs.InvalidPuzzleInput, match=r"value 2 \('x'\) is not an integer; a state is 3 values"):
        puzzle.state("8 x 0")
    assert np.array_equal(puzzle.states([[8, 0, 0], [4, 4, 0]]), [puzzle.state("8 0 0"), puzzle.state("4 4 0")])
