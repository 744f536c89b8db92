"""Conventions of vecsearch.puzzles.sliding (board, rules): layout, moves, components, rank."""

import itertools
import math
import random

import numpy as np
import pytest
from reference import pack_sliding, sliding_goal, sliding_neighbours, sliding_solvable, thread_ranks, unpack_sliding

import vecsearch as vs
from vecsearch.contract import RANK_MEMORY
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.puzzles.sliding import sliding


def test_layout_is_four_bits_per_cell_row_major():
    p = sliding(3, 3)
    state = p.parse_state("2 3 4 1 5 x 7 6 8")
    assert state == pack_sliding((2, 3, 4, 1, 5, 0, 7, 6, 8))
    assert p.format_state(state) == "2 3 4 1 5 x 7 6 8"
    assert p.parse_state(p.format_state(state)) == state


def test_fifteen_puzzle_uses_all_64_bits():
    p = sliding(4, 4)
    text = "15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 x"
    state = p.parse_state(text)
    assert unpack_sliding(state, 16) == tuple(range(15, 0, -1)) + (0,)
    assert p.format_state(state) == text
    assert p.parse_state("x 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15") == pack_sliding(tuple(range(16)))


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_moves_are_named_by_the_blank_and_match_the_reference(rows, cols):
    p = sliding(rows, cols)
    neighbours = sliding_neighbours(rows, cols)
    rng = random.Random(rows * 10 + cols)
    for _ in range(50):
        cells = list(range(rows * cols))
        rng.shuffle(cells)
        state = tuple(cells)
        children, moves = layer_kernels(p).neighbours(np.array([pack_sliding(state)]), p.tables, False)
        got = {(p.move_names[m], unpack_sliding(int(c), rows * cols)) for c, m in zip(children, moves, strict=True)}
        assert got == set(neighbours(state))


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)])
def test_rank_is_perfect_within_each_component(rows, cols):
    p = sliding(rows, cols)
    cells = rows * cols
    every = np.array([pack_sliding(s) for s in itertools.permutations(range(cells))], np.int64)
    components = layer_kernels(p).components(every, p.tables)
    ranks = layer_kernels(p).ranks(every, p.tables)
    for c in (0, 1):
        chosen = ranks[components == c]
        assert sorted(chosen.tolist()) == list(range(math.factorial(cells) // 2))
        for state, r in list(zip(every[components == c], chosen, strict=True))[::97]:
            assert p.functions["unrank_state"](int(r), c, p.tables) == state


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (2, 4), (4, 4)])
def test_component_agrees_with_the_textbook_solvability_rule(rows, cols):
    p = sliding(rows, cols)
    goal = sliding_goal(rows, cols)
    goal_component = layer_kernels(p).components(np.array([pack_sliding(goal)]), p.tables)[0]
    rng = random.Random(7)
    for _ in range(200):
        cells = list(range(rows * cols))
        rng.shuffle(cells)
        state = tuple(cells)
        same = layer_kernels(p).components(np.array([pack_sliding(state)]), p.tables)[0] == goal_component
        assert same == sliding_solvable(state, rows, cols, goal)


@pytest.mark.parametrize("text,problem", [
    ("1 2 3 4 5 6 7 8", "expected 9 tokens"),
    ("1 2 3 4 5 6 7 8 8", "tile 8 appears twice"),
    ("1 2 3 4 5 6 7 8 y", "token 9 is 'y'"),
    ("1 2 3 x 5 6 7 8 x", "blank appears twice"),
    ("0 1 2 3 4 5 6 7 9", "token 9 is '9'"),
])
def test_bad_state_text_names_the_problem(text, problem):
    with pytest.raises(vs.InvalidPuzzleInput, match=problem):
        sliding(3, 3).parse_state(text)


@pytest.mark.parametrize("name", ["sliding-1x5", "sliding-5x4", "sliding-2x9"])
def test_bad_sizes_are_refused(name):
    with pytest.raises(vs.InvalidPuzzleInput, match="R, C >= 2 and R\\*C <= 16"):
        vs.get_puzzle(name)


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 3), (4, 2), (2, 7), (4, 4)])
def test_expand_ranked_and_expand_rank_give_the_rank_of_every_child(rows, cols):
    from vecsearch.puzzles.sliding.rules import expand_rank, expand_ranked

    p = sliding(rows, cols)
    rng = random.Random(rows * cols)
    children, moves, ranks = np.empty(4, np.int64), np.empty(4, np.int64), np.empty(4, np.int64)
    memory = np.full(RANK_MEMORY, -1, np.int64)  # one for all: each rank far from the one before
    for _ in range(300):
        cells = list(range(rows * cols))
        rng.shuffle(cells)
        state = pack_sliding(tuple(cells))
        count = expand_ranked(state, p.tables, children, moves, ranks)
        assert count == len(sliding_neighbours(rows, cols)(tuple(cells)))
        expected = layer_kernels(p).ranks(children[:count].copy(), p.tables).tolist()
        assert ranks[:count].tolist() == expected
        component = int(layer_kernels(p).components(np.array([state]), p.tables)[0])
        parent = int(layer_kernels(p).ranks(np.array([state]), p.tables)[0])
        assert expand_rank(parent, component, p.tables, ranks, memory) == count and ranks[:count].tolist() == expected


@pytest.mark.parametrize("rows,cols", [(3, 3), (2, 5), (5, 2), (3, 4), (4, 3), (2, 7)])
def test_expand_rank_shares_the_unranking_of_consecutive_ranks(rows, cols):
    """A thread's ranks stepped one after the other through one memory (the tile sequence taken
    again only from the first digit that changed) give the children of unrank, expand, rank, in
    both components, across blank cells."""
    p = sliding(rows, cols)
    kernels, tables = layer_kernels(p), p.tables
    block = p.rank_size // (rows * cols)
    ranks = np.unique(np.concatenate([np.array(thread_ranks(p.rank_size, int(tables.chunk_size[0]))),
                                      np.arange(block - 20, block + 20)]))  # from one blank cell to the next
    for component in (0, 1):
        states = kernels.unrank_many(ranks, component, tables)
        children, starts = kernels.neighbour_ranks(ranks, component, tables, False, False)
        for i in range(len(ranks)):
            via = kernels.ranks(kernels.neighbours(states[i:i + 1], tables, False)[0], tables).tolist()
            assert children[starts[i]:starts[i + 1]].tolist() == via, (component, int(ranks[i]))
