"""Puzzles users define themselves: narrow and wide, reversible and directed, cached or not."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit
from reference import bfs_layers, distances, replay
from test_twobit import identity_rank, identity_unrank

import vecsearch as vs
from vecsearch.engine.runtime import codegen
from vecsearch.engine.runtime.codegen import layer_kernels

# --- a directed puzzle defined at module level (its kernels are generated and cached) -------
LIMIT = 200


@njit
def climb_expand(state, tables, children, moves):
    """Moves: +1 and *2, staying below LIMIT. Not reversible."""
    k = 0
    if state + 1 < LIMIT:
        children[k] = state + 1
        moves[k] = 0
        k += 1
    if state > 0 and 2 * state < LIMIT:
        children[k] = 2 * state
        moves[k] = 1
        k += 1
    return k


@njit
def climb_predecessors(state, tables, parents, moves):
    k = 0
    if state >= 1:
        parents[k] = state - 1
        moves[k] = 0
        k += 1
    if state % 2 == 0 and state > 0:
        parents[k] = state // 2
        moves[k] = 1
        k += 1
    return k


def climb_neighbours(state):
    out = []
    if state + 1 < LIMIT:
        out.append(("+1", state + 1))
    if state > 0 and 2 * state < LIMIT:
        out.append(("*2", 2 * state))
    return out


def climb(predecessors=None):
    return vs.Puzzle("climb", vs.Rules(climb_expand, reversible=False, predecessors=predecessors),
                     vs.Moves(2, ("+1", "*2")), start=1, goal=LIMIT - 1)


def test_directed_forward_bfs_matches_reference():
    result = vs.bfs(climb(), keep_layers=True)
    expected = bfs_layers([1], climb_neighbours)
    assert [{int(s) for s in layer.states} for layer in result.layers] == expected


def test_directed_path_without_predecessors_is_rebuilt_by_scanning():
    puzzle = climb()
    solution = vs.solve(puzzle, 3, 197)
    expected = next(d for d, layer in enumerate(bfs_layers([3], climb_neighbours)) if 197 in layer)
    assert len(solution) == expected
    assert replay(3, solution.move_names, climb_neighbours) == 197


def test_directed_puzzle_refuses_backward_work_without_predecessors():
    puzzle = climb()
    with pytest.raises(vs.VecsearchError, match="cannot search backwards"):
        vs.bidirectional(puzzle, 3, 197, max_backward=2)
    with pytest.raises(vs.VecsearchError, match="can only search forwards"):
        vs.bfs(puzzle, 197, backward=True)
    with pytest.raises(vs.VecsearchError, match="needs predecessors"):
        vs.DistanceTable(vs.Puzzle("climb-ranked", vs.Rules(climb_expand, reversible=False), 2,
                                   rank=vs.Rank(lambda s, t: s, LIMIT), goal=LIMIT - 1))


def test_directed_bidirectional_with_predecessors():
    puzzle = climb(predecessors=climb_predecessors)
    for start, goal in [(1, 199), (5, 6), (7, 3), (0, 128)]:
        layers = bfs_layers([start], climb_neighbours)
        expected = next((d for d, layer in enumerate(layers) if goal in layer), None)
        result = vs.bidirectional(puzzle, start, goal)
        assert result.distance == expected
        if expected is not None:
            assert replay(start, result.solution.move_names, climb_neighbours) == goal
        else:
            assert result.complete


# --- a wide (two-word) puzzle without a rank: hash-set deduplication ------------------------
SIDE = 25


@njit
def grid_expand(state, tables, children, moves):
    k = 0
    for m in range(4):
        x = state[0] + (m == 0) - (m == 1)
        y = state[1] + (m == 2) - (m == 3)
        if 0 <= x < SIDE and 0 <= y < SIDE:
            children[k, 0] = x
            children[k, 1] = y
            moves[k] = m
            k += 1
    return k


def grid_neighbours(state):
    x, y = state
    steps = {"E": (1, 0), "W": (-1, 0), "N": (0, 1), "S": (0, -1)}
    return [(name, (x + dx, y + dy)) for name, (dx, dy) in steps.items()
            if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE]


def test_wide_states_use_a_hash_set_and_match_reference(threads):
    puzzle = vs.Puzzle("grid", vs.Rules(grid_expand, width=2), vs.Moves(4, "EWNS"), start=(3, 4),
                       goal=(20, 1))
    result = vs.bfs(puzzle, keep_layers=True, threads=threads)
    assert result.profile.visited == "hash"
    assert [{tuple(row) for row in layer.states.tolist()} for layer in result.layers] == \
        bfs_layers([(3, 4)], grid_neighbours)
    solution = vs.solve(puzzle)
    assert len(solution) == 17 + 3
    assert replay((3, 4), solution.move_names, grid_neighbours) == (20, 1)
    assert puzzle.format_state(solution.states[-1]) == "20 1"


def test_wide_states_taken_in_parts_and_resumed_from_a_checkpoint(tmp_path, monkeypatch):
    # a wide state's key indexes a store of the states: the store grows with the table, a part at a time
    from vecsearch.engine.runtime import visited

    monkeypatch.setattr(visited, "CLAIM_PART", 7)
    puzzle = vs.Puzzle("grid", vs.Rules(grid_expand, width=2), vs.Moves(4, "EWNS"), start=(3, 4), goal=(20, 1))
    expected = bfs_layers([(3, 4)], grid_neighbours)
    result = vs.bfs(puzzle, keep_layers=True, threads=2)
    assert [{tuple(row) for row in layer.states.tolist()} for layer in result.layers] == expected
    assert replay((3, 4), vs.solve(puzzle).move_names, grid_neighbours) == (20, 1)
    first = vs.bfs(puzzle, max_depth=9, checkpoint=tmp_path / "ck")
    assert first.profile.visited == "hash"
    assert vs.bfs(puzzle, resume=tmp_path / "ck").layer_sizes == [len(layer) for layer in expected]
    saved = np.full((16, 2), -1, np.int64)  # a checkpoint from before stores: the table held whole states
    saved[[3, 9, 10]] = [(1, 2), (5, 5), (0, 7)]
    restored = visited.make_visited(puzzle, "hash")
    restored.restore({"keys": saved}, 3)
    assert restored.count == 3 and restored.add(np.array([(5, 5), (6, 6), (0, 7)], np.int64)).tolist() == [[6, 6]]


# --- a puzzle written in a notebook cell: plain functions, the kernels from the disk cache ----
def test_puzzle_defined_in_a_function_runs_on_cached_kernels_and_warms_up():
    masks = np.array([sum(1 << c for c in (i, i - 3, i + 3) if 0 <= c < 9)
                      | (1 << (i - 1) if i % 3 else 0) | (1 << (i + 1) if i % 3 < 2 else 0)
                      for i in range(9)], dtype=np.int64)

    def lights_expand(state, tables, children, moves):  # a plain function: vecsearch jits it
        for m in range(9):
            children[m] = state ^ tables[0][m]
            moves[m] = m
        return 9

    def lights_rank(state, tables):
        return state

    puzzle = vs.Puzzle("lights-out-3x3", lights_expand, 9, rank=vs.Rank(lights_rank, 512), tables=(masks,), start=0,
                       goal=511)
    assert Path(layer_kernels(puzzle).__file__).parent == codegen.cache_dir()  # no code of the puzzle in them
    assert vs.warm_up(puzzle) > 0
    result = vs.bfs(puzzle, keep_layers=True)
    expected = bfs_layers([0], lambda s: [(m, s ^ int(masks[m])) for m in range(9)])
    assert [{int(s) for s in layer.states} for layer in result.layers] == expected
    assert result.profile.compile_seconds == 0  # warm_up compiled all it uses: the search compiles nothing
    assert len(vs.solve(puzzle)) == 5


def test_user_state_text_round_trip_and_errors():
    puzzle = climb()
    assert puzzle.parse_state(" 42 ") == 42 and puzzle.format_state(42) == "42"
    with pytest.raises(vs.InvalidPuzzleInput, match="not an integer"):
        puzzle.parse_state("forty")
    with pytest.raises(vs.InvalidPuzzleInput, match="expected 1 integer"):
        puzzle.parse_state("1 2")
    with pytest.raises(vs.PuzzleDefinitionError, match="the Rank needs its size"):
        vs.Puzzle("broken", climb_expand, 2, rank=vs.Rank(climb_expand))


def test_a_count_that_is_no_whole_number_of_at_least_one_is_refused_by_name():
    rank = vs.Rank(lambda state, tables: state, 100)
    for size in (0, -5, 2.5, True):  # 2.5 was taken as 2, 0 named only when a search probed the rank
        with pytest.raises(vs.PuzzleDefinitionError, match=rf"^broken: the Rank's size must be a whole number, 1 or"
                                                           rf" more, not {size!r}$"):
            vs.Puzzle("broken", climb_expand, 2, rank=vs.Rank(rank.rank, size))
    for moves in (0, vs.Moves(2.5), vs.Moves(np.float64(2.0))):
        with pytest.raises(vs.PuzzleDefinitionError, match="^broken: the number of moves must be a whole number"):
            vs.Puzzle("broken", climb_expand, moves, rank=rank)
    with pytest.raises(vs.PuzzleDefinitionError, match=r"^broken: the width \(words a state\) must be a whole"):
        vs.Puzzle("broken", vs.Rules(climb_expand, width=1.5), 2, rank=rank)
    with pytest.raises(vs.PuzzleDefinitionError, match="^broken: max_predecessors must be a whole number"):
        vs.Puzzle("broken", vs.Rules(climb_expand, reversible=False, predecessors=climb_expand, max_predecessors=0),
                  2, rank=rank)
    made = vs.Puzzle("fine", climb_expand, np.int64(2), rank=vs.Rank(rank.rank, np.uint16(100)))
    assert (made.max_moves, made.rank_size) == (2, 100) and type(made.rank_size) is int


# --- three jugs 8-5-3, hand-packed (4 bits each): more predecessors than moves ---------------
CAPACITY = (8, 5, 3)
POURS = np.array([(i, j) for i in range(3) for j in range(3) if i != j], np.int64)


@njit
def jug(state, i):
    return (state >> (4 * i)) & 15


@njit
def with_jugs(state, i, a, j, b):
    return state & ~((15 << (4 * i)) | (15 << (4 * j))) | (a << (4 * i)) | (b << (4 * j))


@njit
def pour_expand(state, tables, children, moves):
    k = 0
    for m in range(6):
        i, j = tables[0][m, 0], tables[0][m, 1]
        x = min(jug(state, i), tables[1][j] - jug(state, j))
        if x > 0:
            children[k] = with_jugs(state, i, jug(state, i) - x, j, jug(state, j) + x)
            moves[k] = m
            k += 1
    return k


@njit
def pour_predecessors(state, tables, parents, moves):
    """The states a pour i -> j leads here from: pouring x emptied i, or filled j."""
    k = 0
    for m in range(6):
        i, j = tables[0][m, 0], tables[0][m, 1]
        a, b = jug(state, i), jug(state, j)
        for x in range(1, b + 1):
            if a + x <= tables[1][i] and (a == 0 or b == tables[1][j]):
                parents[k] = with_jugs(state, i, a + x, j, b - x)
                moves[k] = m
                k += 1
    return k


def jugs(max_predecessors=None):
    return vs.Puzzle("jugs", vs.Rules(pour_expand, reversible=False, predecessors=pour_predecessors,
                                      max_predecessors=max_predecessors),
                     6, tables=(POURS, np.array(CAPACITY, np.int64)), start=8, goal=4 + (4 << 4))


def jug_neighbours(state):
    out = []
    for m, (i, j) in enumerate(POURS.tolist()):
        x = min(state[i], CAPACITY[j] - state[j])
        if x > 0:
            after = list(state)
            after[i] -= x
            after[j] += x
            out.append((str(m), tuple(after)))
    return out


def test_predecessors_have_a_capacity_of_their_own():
    """The jugs have more predecessors than moves: ``validate`` refused a correct function when
    predecessors could only fill ``max_moves`` entries; with ``max_predecessors`` it passes, and
    searches over predecessors agree with a plain-Python forward BFS."""
    with pytest.raises(vs.PuzzleDefinitionError, match=r"predecessors\('\d+'\) writes outside the children array"
                                                       r" .* k < max_predecessors=6"):
        vs.validate(jugs())
    puzzle = jugs(max_predecessors=24)
    assert vs.validate(puzzle) > 1 and puzzle.max_children == 24
    layers = bfs_layers([(8, 0, 0)], jug_neighbours)
    packed = {(a, b, c): a | b << 4 | c << 8 for a in range(9) for b in range(6) for c in range(4)}
    depth = next(d for d, layer in enumerate(layers) if (4, 4, 0) in layer)
    assert len(vs.bidirectional(puzzle).solution) == depth == 7
    backward = vs.bfs(puzzle, packed[(4, 4, 0)], backward=True, keep_layers=True)
    assert any(packed[(8, 0, 0)] in set(layer.states.tolist()) for layer in backward.layers[depth:depth + 1])


# --- the contract is checked on first use -----------------------------------------------------
def test_a_broken_puzzle_is_probed_on_first_use_once_and_the_probe_can_be_skipped():
    def rank(state, tables):
        return state + 1  # one past rank_size at 511

    def lights(check=True):
        masks = np.array([1 << i for i in range(9)], np.int64)
        return vs.Puzzle("lights", lambda s, t, c, m: _toggles(s, t, c, m), 9, rank=vs.Rank(rank, 512),
                         tables=(masks,), start=511, check=check)

    puzzle = lights()
    with pytest.raises(vs.PuzzleDefinitionError, match=r"lights: rank\('511'\) is 512; expected an int in"
                                                       r" 0\.\.rank_size-1 = 511"):
        vs.bfs(puzzle)  # the probe, in Python, before any kernel runs
    assert not puzzle.checked
    unprobed = lights(check=False)
    with pytest.raises(vs.PuzzleDefinitionError, match=r"lights: rank\('511'\) gave the rank 512"):
        vs.bfs(unprobed)  # the compiled guard
    fine = vs.Puzzle("fine", _toggles, 9, rank=vs.Rank(lambda s, t: s, 512),
                     tables=(np.array([1 << i for i in range(9)], np.int64),), start=0)
    assert not fine.checked and vs.bfs(fine).total_states == 512 and fine.checked


@njit
def _toggles(state, tables, children, moves):
    for m in range(9):
        children[m] = state ^ tables[0][m]
        moves[m] = m
    return 9



DIAL = 500  # a dial turned one way only: +1 or +7 notches


@njit
def turn(state, tables, children, moves):
    children[0], children[1] = (state + 1) % DIAL, (state + 7) % DIAL
    moves[0], moves[1] = 0, 1
    return 2


@njit
def turned_from(state, tables, parents, moves):
    parents[0], parents[1] = (state + DIAL - 1) % DIAL, (state + DIAL - 7) % DIAL
    moves[0], moves[1] = 0, 1
    return 2


def test_a_directed_puzzles_table_holds_the_distances_to_its_goal():
    """Built backwards by the two-bit search (ranks that unrank): a push steps to predecessors, a
    pull (the late layers) looks among an unreached state's children; as the plain-Python search
    of the reversed moves."""
    puzzle = vs.Puzzle("dial", vs.Rules(turn, reversible=False, predecessors=turned_from),
                       vs.Moves(2, ("+1", "+7")), rank=vs.Rank(identity_rank, DIAL, unrank=identity_unrank), start=1,
                       goal=0)
    table = vs.DistanceTable(puzzle)
    expected = distances([0], lambda s: [("+1", (s - 1) % DIAL), ("+7", (s - 7) % DIAL)])
    assert table.profile.visited == "twobit" and "pull" in [r.method for r in table.profile.records]
    assert table.distances_of(np.arange(DIAL)).tolist() == [expected[s] for s in range(DIAL)]
