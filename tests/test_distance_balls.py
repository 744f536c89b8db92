"""Distance tables cut at a radius (balls), searches that meet them, reversed solutions, and
the hash set with wide states, against the plain-Python reference."""

import random

import numpy as np
import pytest
from numba import njit
from reference import distances, goal_distances, pack_sliding, replay, sliding_goal, sliding_neighbours
from test_engine import random_state
from test_twobit import identity_rank, identity_unrank

import vecsearch as vs
from vecsearch.puzzles.sliding import sliding


@pytest.mark.parametrize("radius", [0, 3, 8, None])
def test_ball_records_exactly_the_states_within_its_radius(radius):
    puzzle = sliding(2, 4)
    dist = goal_distances(2, 4)
    table = vs.DistanceTable(puzzle, max_depth=radius)
    assert table.complete == (radius is None)
    assert table.radius == radius
    states = list(dist)
    lengths, _ = table.solve_many(np.array([pack_sliding(s) for s in states]))
    for state, length in zip(states, lengths, strict=True):
        assert length == (dist[state] if radius is None or dist[state] <= radius else -1)


RING = 500  # positions on a ring, moves +1 -1 +7 -7 (their ranks: the positions)
JUMPS = np.array([1, RING - 1, 7, RING - 7], np.int64)


@njit
def jump(state, tables, children, moves):
    for m in range(4):
        children[m] = (state + tables[0][m]) % RING
        moves[m] = m
    return 4


@pytest.mark.parametrize("radius", [None, 20])
@pytest.mark.parametrize("unrank", [identity_unrank, None], ids=["two-bit", "layers"])
def test_a_whole_table_is_found_by_the_two_bit_search_where_ranks_unrank(unrank, radius):
    """With an unrank, a whole table's layers are found by the two-bit search, its late ones
    pulled (each unreached rank looks for a parent); a ball, or without an unrank, by a search
    of layers with a bitset."""
    puzzle = vs.Puzzle("ring", jump, vs.Moves(4, ("+1", "-1", "+7", "-7"), (1, 0, 3, 2)),
                       rank=vs.Rank(identity_rank, RING, unrank=unrank), tables=(JUMPS,), start=0, goal=0)
    expected = distances([0], lambda s: [(m, (s + int(j)) % RING) for m, j in enumerate(JUMPS)])
    table = vs.DistanceTable(puzzle, max_depth=radius)
    assert table.distances_of(np.arange(RING)).tolist() == \
        [expected[s] if radius is None or expected[s] <= radius else -1 for s in range(RING)]
    assert table.complete == (radius is None) and table.max_distance == min(max(expected.values()), radius or RING)
    methods = [record.method for record in table.profile.records]
    two_bit = unrank is not None and radius is None
    assert table.profile.visited == ("twobit" if two_bit else "bitset") and ("pull" in methods) == two_bit


@pytest.mark.parametrize("radius", [0, 2, 5, 12, None])
def test_meeting_a_ball_from_a_set_of_starts_is_shortest(radius, threads):
    puzzle = sliding(3, 3)
    neighbours = sliding_neighbours(3, 3)
    goal = sliding_goal(3, 3)
    dist = goal_distances(3, 3)
    table = vs.DistanceTable(puzzle, max_depth=radius)
    rng = random.Random(radius or 99)
    for _ in range(25):
        starts = {random_state(3, 3, rng, moves=rng.randint(0, 60)) for _ in range(rng.randint(1, 4))}
        expected = min(dist[s] for s in starts)
        limit = rng.choice([None, expected, expected - 1, expected + 2])
        result = table.search([pack_sliding(s) for s in starts], max_depth=limit, threads=threads)
        if limit is not None and expected > limit:
            assert result.solution is None and not result.complete
            continue
        solution = result.solution
        assert len(solution) == expected
        first = tuple((int(solution.states[0]) >> (4 * i)) & 15 for i in range(9))
        assert first in starts
        assert replay(first, solution.move_names, neighbours) == goal
        assert solution.replay()


def test_meeting_a_ball_from_another_component_is_unreachable_at_once():
    table = vs.DistanceTable("sliding-3x3", max_depth=4)
    result = table.search(["1 2 3 4 5 6 8 7 x"], max_depth=40)
    assert result.solution is None and result.complete and result.profile.records == []


def test_a_ball_proves_there_is_no_path_within_the_limit():
    table = vs.DistanceTable("sliding-3x3", max_depth=10)
    result = table.search(["8 6 7 2 5 4 3 x 1"], max_depth=30)  # 31 moves from the goal
    assert result.solution is None and not result.complete
    assert result.depth == 20  # layers 0..20 of the start side, then 20 + 1 + 10 > 30
    assert len(table.search(["8 6 7 2 5 4 3 x 1"], max_depth=31).solution) == 31


def test_reversed_solution_walks_back():
    solution = vs.solve("eight", "2 3 4 1 5 x 7 6 8")
    back = solution.reversed()
    assert len(back) == len(solution)
    assert np.array_equal(back.states, solution.states[::-1])
    assert back.replay()
    start = tuple(int(t) if t != "x" else 0 for t in "1 2 3 4 5 6 7 8 x".split())
    end = replay(start, back.move_names, sliding_neighbours(3, 3))
    assert end == tuple(int(t) if t != "x" else 0 for t in "2 3 4 1 5 x 7 6 8".split())


def test_distance_tables_are_cached_per_radius():
    assert vs.distance_table("sliding-2x3", max_depth=3) is vs.distance_table("sliding-2x3", max_depth=3)
    assert vs.distance_table("sliding-2x3", max_depth=3) is not vs.distance_table("sliding-2x3")


def test_pooled_bitsets_come_back_clear():
    """Searches big enough that their bitsets are cleared wholesale, then reused."""
    puzzle = sliding(3, 3)
    dist = goal_distances(3, 3)
    rng = random.Random(4)
    for _ in range(6):
        start = random_state(3, 3, rng, moves=200)
        assert vs.bidirectional(puzzle, pack_sliding(start), strategy="forward").distance == dist[start]
    assert vs.bfs(puzzle).total_states == 181_440


def test_distance_only_searches_skip_the_path():
    puzzle = sliding(3, 3)
    full = vs.bidirectional(puzzle, "8 6 7 2 5 4 3 x 1")
    bare = vs.bidirectional(puzzle, "8 6 7 2 5 4 3 x 1", path=False)
    assert bare.solution is None and bare.found and bare.length == full.length == len(full.solution) == 31
    assert vs.bfs(puzzle, "1 2 3 4 5 6 7 x 8", "1 2 3 4 5 6 7 8 x", path=False).length == 1
    table = vs.DistanceTable(puzzle, max_depth=10)
    assert table.search(["8 6 7 2 5 4 3 x 1"], path=False).length == 31
    assert table.search(["8 6 7 2 5 4 3 x 1"], max_depth=30, path=False).length is None


@pytest.mark.parametrize("visited", ["bitset", "hash"])
def test_forward_only_searches_grow_many_layers_per_call_within_limits(visited):
    """One-sided searches grow small layers several at a time; limits and meetings must still
    fall on the right layer."""
    puzzle = sliding(3, 3)
    neighbours = sliding_neighbours(3, 3)
    dist = goal_distances(3, 3)
    rng = random.Random(8)
    for _ in range(10):
        start = random_state(3, 3, rng, moves=rng.randint(5, 60))
        d = dist[start]
        short = vs.bidirectional(puzzle, pack_sliding(start), strategy="forward", max_depth=d - 1, visited=visited)
        assert short.length is None and not short.complete
        assert short.profile.side("forward")[-1].depth == d - 1
        found = vs.bidirectional(puzzle, pack_sliding(start), strategy="forward", max_depth=d, visited=visited)
        assert found.length == d and replay(start, found.solution.move_names, neighbours) == sliding_goal(3, 3)
    layers = vs.bfs(puzzle, "1 2 3 4 5 6 7 8 x", max_depth=12, visited=visited).layer_sizes
    assert layers == [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748]  # OEIS A089473
