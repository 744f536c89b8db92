"""solve_pairs: many start/goal searches in one kernel call, against the plain-Python reference."""

import random

import numpy as np
import pytest
from numba import njit
from reference import bfs_layers, distances, pack_sliding, replay, sliding_neighbours
from test_engine import random_state
from test_user_puzzles import (
    LIMIT,
    SIDE,
    climb,
    climb_expand,
    climb_neighbours,
    climb_predecessors,
    grid_expand,
    grid_neighbours,
)

import vecsearch as vs
from vecsearch.engine.runtime import caches
from vecsearch.engine.tables import pairs
from vecsearch.puzzles.sliding import sliding


def check(result, starts, goals, neighbours, expected):
    assert result.lengths.tolist() == [-1 if d is None else d for d in expected]
    for i, (start, goal) in enumerate(zip(starts, goals, strict=True)):
        if expected[i] is not None:
            names = [result.puzzle.move_names[m] for m in result.moves_of(i)]
            end = replay(start, names, neighbours)
            assert end in goal if isinstance(goal, (set, frozenset)) else end == goal


@pytest.mark.parametrize("rows,cols", [(2, 3), (2, 4)])
def test_random_pairs_equal_the_reference(rows, cols, threads):
    rng = random.Random(rows * 10 + cols)
    neighbours = sliding_neighbours(rows, cols)
    goals = [random_state(rows, cols, rng) for _ in range(4)]
    cases = []
    for goal in goals:
        dist = distances([goal], neighbours)
        for _ in range(40):
            start = random_state(rows, cols, rng, rng.randint(0, 40))
            if rng.random() < 0.2:  # the other component: tiles 1 and 2 exchanged
                start = tuple({1: 2, 2: 1}.get(t, t) for t in start)
            cases.append((start, goal, dist.get(start)))
    starts, goal_list, expected = zip(*cases, strict=True)
    result = vs.solve_pairs(sliding(rows, cols), [pack_sliding(s) for s in starts],
                            [pack_sliding(g) for g in goal_list], threads=threads)
    assert result.method == "pairs"
    assert any(d is None for d in expected) and any(d is not None for d in expected)
    check(result, starts, goal_list, neighbours, expected)


def test_depth_limits_and_per_side_budgets(threads):
    rng = random.Random(3)
    neighbours = sliding_neighbours(3, 3)
    goal = random_state(3, 3, rng)
    dist = distances([goal], neighbours)
    starts = [random_state(3, 3, rng, rng.randint(5, 60)) for _ in range(60)]
    puzzle = sliding(3, 3)
    packed = [pack_sliding(s) for s in starts]
    for limits in [dict(max_depth=12), dict(max_depth=0), dict(max_forward=3, max_backward=5),
                   dict(max_forward=0, max_depth=9), dict(max_backward=0, max_depth=7)]:
        result = vs.solve_pairs(puzzle, packed, [pack_sliding(goal)] * len(starts), threads=threads, **limits)
        cap = min(limits.get("max_depth", 99), limits.get("max_forward", 99) + limits.get("max_backward", 99))
        expected = [dist[s] if dist[s] <= cap else None for s in starts]
        check(result, starts, [goal] * len(starts), neighbours, expected)


def test_start_and_goal_sets(threads):
    rng = random.Random(9)
    neighbours = sliding_neighbours(2, 4)
    cases = []
    for _ in range(30):
        starts = {random_state(2, 4, rng) for _ in range(rng.randint(1, 3))}
        goals = {random_state(2, 4, rng) for _ in range(rng.randint(1, 4))}
        dist = distances(list(goals), neighbours)
        cases.append((starts, goals, min(dist[s] for s in starts)))
    result = vs.solve_pairs(sliding(2, 4), [[pack_sliding(s) for s in starts] for starts, _, _ in cases],
                            [[pack_sliding(g) for g in goals] for _, goals, _ in cases], threads=threads)
    for i, (starts, goals, expected) in enumerate(cases):
        assert result.lengths[i] == expected
        names = [result.puzzle.move_names[m] for m in result.moves_of(i)]
        assert any(replay(s, names, neighbours) in goals for s in starts if _legal(s, names, neighbours))


def _legal(start, names, neighbours):
    try:
        replay(start, names, neighbours)
        return True
    except AssertionError:
        return False


def test_the_depth_tables_are_left_clean_and_reused():
    puzzle = sliding(2, 3)
    rng = random.Random(1)
    states = [pack_sliding(random_state(2, 3, rng)) for _ in range(50)]
    first = vs.solve_pairs(puzzle, states, states[::-1], threads=2)
    tables = caches.PAIR_DEPTH_TABLES.entries[(puzzle.rank_size, 2)]
    assert (tables == pairs.UNSEEN).all()
    again = vs.solve_pairs(puzzle, states, states[::-1], threads=2)
    assert np.array_equal(first.lengths, again.lengths) and np.array_equal(first.moves, again.moves)
    assert caches.PAIR_DEPTH_TABLES.entries[(puzzle.rank_size, 2)] is tables  # reused, not rebuilt
    vs.clear_caches("pair_depth_tables")
    assert len(caches.PAIR_DEPTH_TABLES) == 0


def test_directed_puzzles_with_and_without_predecessors():
    cases = [(1, 199), (5, 6), (7, 3), (0, 128), (3, 197), (150, 150)]
    expected = [next((d for d, layer in enumerate(bfs_layers([s], climb_neighbours)) if g in layer), None)
                for s, g in cases]
    ranked = vs.Puzzle("climb-ranked", vs.Rules(climb_expand, predecessors=climb_predecessors, reversible=False),
                       vs.Moves(2, ("+1", "*2")), rank=vs.Rank(line_rank, LIMIT))
    for puzzle, method in ((ranked, "pairs"), (climb(predecessors=climb_predecessors), "bidirectional"),
                           (climb(), "bidirectional")):
        result = vs.solve_pairs(puzzle, [s for s, _ in cases], [g for _, g in cases])
        assert result.method == method
        check(result, [s for s, _ in cases], [g for _, g in cases], climb_neighbours, expected)


# --- a long line: sides deeper than the byte depth tables fall back to `bidirectional` -----------
LINE = 1200


@njit
def line_expand(state, tables, children, moves):
    k = 0
    if state + 1 < LINE:
        children[k] = state + 1
        moves[k] = 0
        k += 1
    if state > 0:
        children[k] = state - 1
        moves[k] = 1
        k += 1
    return k


@njit
def line_rank(state, tables):
    return state


def line_neighbours(state):
    return [(name, state + step) for name, step in (("+", 1), ("-", -1)) if 0 <= state + step < LINE]


def test_paths_longer_than_the_depth_tables_are_searched_one_by_one():
    puzzle = vs.Puzzle("line", line_expand, vs.Moves(2, "+-"), rank=vs.Rank(line_rank, LINE))
    starts, goals = [0, 10, LINE - 1, 600], [LINE - 1, 20, 0, 100]
    result = vs.solve_pairs(puzzle, starts, goals)
    check(result, starts, goals, line_neighbours, [abs(s - g) for s, g in zip(starts, goals, strict=True)])


@njit
def grid_rank(state, tables):
    return state[0] * SIDE + state[1]


def test_wide_states_with_a_rank(threads):
    puzzle = vs.Puzzle("grid-ranked", vs.Rules(grid_expand, width=2), vs.Moves(4, "EWNS"),
                       rank=vs.Rank(grid_rank, SIDE * SIDE))
    rng = random.Random(6)
    starts = [(rng.randrange(SIDE), rng.randrange(SIDE)) for _ in range(40)]
    goals = [(rng.randrange(SIDE), rng.randrange(SIDE)) for _ in range(40)]
    result = vs.solve_pairs(puzzle, starts, goals, threads=threads)
    assert result.method == "pairs"
    check(result, starts, goals, grid_neighbours,
          [abs(a - c) + abs(b - d) for (a, b), (c, d) in zip(starts, goals, strict=True)])


def test_mismatched_inputs_are_refused():
    with pytest.raises(vs.InvalidPuzzleInput, match="2 start\\(s\\) but 1 goal\\(s\\)"):
        vs.solve_pairs("sliding-2x2", ["1 2 3 x", "1 2 x 3"], ["1 2 3 x"])
    with pytest.raises(vs.InvalidPuzzleInput, match="start states of pair 1 lie in different components"):
        vs.solve_pairs("sliding-2x2", ["1 2 3 x", ["1 2 3 x", "2 1 3 x"]], ["1 2 3 x", "1 2 3 x"])
