"""The two-bit search: equal to the layered search on every built-in dense puzzle, push and pull
as the rule says, directed puzzles, start sets, the farthest states, mod-3 distance tables."""

import numpy as np
import pytest
from numba import njit
from reference import bfs_layers, goal_distances, replay, sliding_neighbours, unpack_sliding

import vecsearch as vs
from vecsearch.engine.twobit import search as twobit_search
from vecsearch.engine.twobit.search import MethodCosts

DENSE = ["sliding-2x2", "sliding-2x3", "sliding-3x2", "sliding-2x4", "sliding-3x3", "pocket-htm", "pocket-qtm",
         "pancake-2", "pancake-4", "pancake-7", "pancake-8", "topspin-5", "topspin-7-3", "lrx-3", "lrx-6"]


@pytest.mark.parametrize("name", DENSE)
def test_twobit_equals_layers_on_built_in_dense_puzzles(name, threads):
    layered = vs.bfs(name, mode="layers", threads=threads)
    twobit = vs.bfs(name, mode="twobit", threads=threads)
    assert twobit.profile.visited == "twobit" and layered.profile.visited == "bitset"
    assert twobit.layer_sizes == layered.layer_sizes
    assert twobit.complete and twobit.depth == layered.depth
    assert {int(s) for s in twobit.last_layer.states} == {int(s) for s in layered.last_layer.states}


def test_each_state_is_expanded_once_and_pull_waits_for_fewer_unreached_than_frontier_states():
    """Layers of the 3x3 are too small to time, so the choice follows the counts; a push
    generates exactly the frontier's children (no earlier layer is expanded again)."""
    puzzle = vs.get_puzzle("sliding-3x3")
    neighbours = sliding_neighbours(3, 3)
    layers = bfs_layers([tuple(range(1, 9)) + (0,)], neighbours)
    records = vs.bfs(puzzle, mode="twobit").profile.records
    assert [r.states for r in records] == [len(layer) for layer in layers]
    for d, record in enumerate(records[1:]):
        pull = puzzle.rank_size - sum(len(layer) for layer in layers[:d + 1]) < len(layers[d])
        assert record.method == ("pull" if pull else "push"), record.depth
        if not pull:
            assert record.generated == sum(len(neighbours(s)) for s in layers[d]), record.depth
    assert records[-1].method == "pull" and records[1].method == "push"


@pytest.mark.parametrize("block,round_words", [(3, 8), (13, 100), (64, 1 << 10)])
@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3)])
def test_layers_equal_the_reference_however_the_table_is_cut(monkeypatch, block, round_words, rows, cols):
    """The table cut into many blocks and rounds on two threads (odd sizes: the eight-word skip of
    the scan meets the ends of blocks, and the 2x3's last word has cells past its 360 ranks), push
    and pull layers alike: the plain-Python BFS's layers."""
    monkeypatch.setattr(twobit_search, "BLOCK_WORDS", block)
    monkeypatch.setattr(twobit_search, "ROUND_WORDS", round_words)
    cells = rows * cols
    layers = bfs_layers([tuple(range(1, cells)) + (0,)], sliding_neighbours(rows, cols))
    result = vs.bfs(f"sliding-{rows}x{cols}", mode="twobit", threads=2)
    assert result.layer_sizes == [len(layer) for layer in layers]
    assert {r.method for r in result.profile.records} == {"push", "pull"}
    assert {tuple(unpack_sliding(int(s), cells)) for s in result.last_layer.states} == set(layers[-1])


def test_push_or_pull_from_measured_costs():
    costs = MethodCosts()
    assert costs.pull(expanded=100, unreached=99) and not costs.pull(expanded=100, unreached=100)
    costs.record("push", MethodCosts.MIN_STATES, 1.0)
    costs.record("pull", MethodCosts.MIN_STATES - 1, 100.0)  # too small to time: ignored
    assert costs.pull(expanded=100, unreached=99)
    costs.record("pull", MethodCosts.MIN_STATES, 4.0)  # a pulled rank costs 4 pushed states
    assert costs.pull(expanded=100, unreached=24) and not costs.pull(expanded=100, unreached=26)


def test_start_sets_depth_limits_and_backward_search():
    puzzle = vs.get_puzzle("sliding-3x3")
    starts = ["1 2 3 4 5 6 7 8 x", "1 2 3 4 5 6 x 7 8", "8 6 7 2 5 4 3 x 1"]
    for options in [dict(max_depth=7), dict(backward=True), dict()]:
        twobit = vs.bfs(puzzle, starts, mode="twobit", **options)
        assert twobit.layer_sizes == vs.bfs(puzzle, starts, mode="layers", **options).layer_sizes
    limited = vs.bfs(puzzle, starts, mode="twobit", max_depth=7)
    assert not limited.complete and limited.depth == 7


def test_farthest_states_are_kept_up_to_a_limit():
    full = vs.bfs("pancake-8", mode="layers")
    kept = vs.bfs("pancake-8", mode="twobit", keep_farthest=100)
    assert len(full.last_layer) == 455 and len(kept.last_layer) == 100
    assert {int(s) for s in kept.last_layer.states} <= {int(s) for s in full.last_layer.states}


def test_twobit_needs_unrank():
    puzzle = vs.Puzzle("counter", vs.Rules(_counter_expand, reversible=False), 2, rank=vs.Rank(identity_rank, SIZE),
                       start=0)
    with pytest.raises(vs.VecsearchError, match="needs rank, rank_size and unrank"):
        vs.bfs(puzzle, mode="twobit")
    with pytest.raises(vs.VecsearchError, match="keeps no layers"):
        vs.bfs("pancake-5", mode="twobit", keep_layers=True)


# --- a directed puzzle with rank and unrank: x -> x + 1, x -> 3x (mod 1000) -------------------
SIZE = 1000


@njit
def _counter_expand(state, tables, children, moves):
    children[0] = (state + 1) % SIZE
    children[1] = (3 * state) % SIZE
    moves[0] = 0
    moves[1] = 1
    return 2


@njit
def _counter_predecessors(state, tables, parents, moves):
    k = 0
    parents[k] = (state - 1) % SIZE
    moves[k] = 0
    k += 1
    for p in range(SIZE):  # a plain search for x with 3x = state (mod 1000): 3 is invertible
        if (3 * p) % SIZE == state:
            parents[k] = p
            moves[k] = 1
            k += 1
    return k


@njit
def identity_rank(state, tables):
    """The state itself as its rank (puzzles whose states are small integers; ``identity_unrank``)."""
    return state


@njit
def identity_unrank(rank, component, tables):
    return rank


def counter_neighbours(state):
    return [("+1", (state + 1) % SIZE), ("*3", (3 * state) % SIZE)]


@pytest.mark.parametrize("predecessors", [None, _counter_predecessors], ids=["push-only", "with-predecessors"])
def test_directed_puzzles(predecessors):
    puzzle = vs.Puzzle("counter", vs.Rules(_counter_expand, reversible=False, predecessors=predecessors), 2,
                       rank=vs.Rank(identity_rank, SIZE, unrank=identity_unrank), start=7)
    result = vs.bfs(puzzle, mode="twobit")
    expected = bfs_layers([7], counter_neighbours)
    assert result.layer_sizes == [len(layer) for layer in expected]
    assert {int(s) for s in result.last_layer.states} == expected[-1]
    methods = {r.method for r in result.profile.records}
    assert methods == ({"push", "pull"} if predecessors is not None else {"push"})


# --- mod-3 distance tables ---------------------------------------------------------------------
@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3)])
def test_mod3_distance_table_descends_to_the_goal(rows, cols, threads):
    puzzle = vs.get_puzzle(f"sliding-{rows}x{cols}")
    neighbours = sliding_neighbours(rows, cols)
    goal = tuple(range(1, rows * cols)) + (0,)
    dist = goal_distances(rows, cols)
    table = vs.DistanceTable(puzzle, storage="mod3", threads=threads)
    assert table.max_distance == max(dist.values())
    layers = vs.bfs(puzzle, mode="layers", keep_layers=True).layers
    starts = np.concatenate([layer.states[:40] for layer in layers] + [puzzle.states("2 1 " + " ".join(
        str(t) for t in range(3, rows * cols)) + " x")])  # the last one is in the other component
    lengths, moves = table.solve_many(starts)
    for i, packed in enumerate(starts):
        start = unpack_sliding(int(packed), rows * cols)
        if start not in dist:
            assert lengths[i] == -1
            continue
        assert lengths[i] == dist[start]
        assert replay(start, [puzzle.move_names[m] for m in moves[i, :lengths[i]]], neighbours) == goal
    assert (lengths == vs.DistanceTable(puzzle).solve_many(starts)[0]).all()


def test_mod3_distance_table_for_a_permutation_puzzle():
    puzzle = vs.get_puzzle("pocket-qtm")
    table = vs.DistanceTable(puzzle, storage="mod3")
    assert table.max_distance == 14 and table.profile.visited == "twobit"
    farthest = vs.bfs(puzzle, mode="twobit", keep_farthest=5).last_layer.states
    for state in farthest:
        solution = table.solution(state)
        assert len(solution) == 14 and solution.replay()
        assert int(solution.states[-1]) == int(puzzle.goal_states()[0])
