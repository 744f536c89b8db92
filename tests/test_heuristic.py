"""A* and IDA* against plain-Python breadth-first distances; pattern databases against a
plain-Python 0-1 BFS of the abstract space; heuristics never above the true distance."""

import mmap
import random
from collections import deque
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from reference import distances, goal_distances, pack_sliding, replay, sliding_goal, sliding_neighbours, unpack_sliding

import vecsearch as vs
from vecsearch.engine.heuristic.evaluation import heuristic_values, resolve_heuristic
from vecsearch.puzzles.sliding import sliding
from vecsearch.puzzles.sliding.patterns import pattern_database


def random_arrangements(rows, cols, count, seed):
    """Uniformly random arrangements of the tiles (half of them unsolvable)."""
    rng = random.Random(seed)
    cells = list(range(rows * cols))
    out = []
    for _ in range(count):
        rng.shuffle(cells)
        out.append(tuple(cells))
    return out


@pytest.fixture(scope="module", params=[(3, 3), (2, 4)], ids=["3x3", "2x4"])
def space(request):
    rows, cols = request.param
    goal = sliding_goal(rows, cols)
    neighbours = sliding_neighbours(rows, cols)
    return rows, cols, goal, neighbours, goal_distances(rows, cols)


@pytest.mark.parametrize("heuristic", ["linear-conflict", "pdb", "manhattan"])
def test_idastar_lengths_equal_bfs_distances_and_paths_replay(space, heuristic):
    rows, cols, goal, neighbours, dist = space
    starts = random_arrangements(rows, cols, 1500, seed=rows * cols)
    found = vs.solve_many(sliding(rows, cols), [pack_sliding(s) for s in starts], method="idastar", heuristic=heuristic)
    for i, start in enumerate(starts):
        assert found.lengths[i] == dist.get(start, -1), start
        if start in dist:
            assert replay(start, found.formatted(i), neighbours) == goal
    assert found.profile.expanded > 0


def test_many_with_long_searches_set_aside_and_split_gives_the_same_answers(space, monkeypatch):
    """``idastar_many`` sets a start aside once an iteration expands ``split_from`` nodes and
    finishes it alone, its iterations split across threads: lengths, paths and unreachable
    starts stay right."""
    from vecsearch.engine.heuristic import idastar

    rows, cols, goal, neighbours, dist = space
    starts = random_arrangements(rows, cols, 60, seed=5) + [goal]
    set_aside = []
    iterations = idastar._iterations
    monkeypatch.setattr(idastar, "_iterations", lambda *args: set_aside.append(args[3]) or iterations(*args))
    found = vs.solve_many(sliding(rows, cols), [pack_sliding(s) for s in starts], method="idastar",
                          heuristic="manhattan", split_from=20, threads=2)
    assert len(set_aside) > 10
    for i, start in enumerate(starts):
        assert found.lengths[i] == dist.get(start, -1), start
        if start in dist:
            assert replay(start, found.formatted(i), neighbours) == goal


def test_astar_and_single_idastar_lengths_equal_bfs_distances(space):
    rows, cols, goal, neighbours, dist = space
    puzzle = sliding(rows, cols)
    starts = [s for s in random_arrangements(rows, cols, 400, seed=7) if s in dist][:150]
    for start in starts:
        for method in ("astar", "idastar"):
            solution = vs.solve(puzzle, pack_sliding(start), method=method)
            assert len(solution) == dist[start]
            assert replay(start, solution.move_names, neighbours) == goal
            assert solution.replay()


def test_profile_records_nodes_per_f_bound():
    solution = vs.solve("sliding-3x3", "8 6 7 2 5 4 3 x 1", method="idastar", heuristic="manhattan")
    bounds = [r.bound for r in solution.profile.records]
    assert bounds == sorted(bounds) and bounds[-1] == 31 == len(solution)
    assert all(b % 2 == 1 for b in bounds)  # Manhattan keeps the parity of the distance
    assert "expanded" in str(solution.profile) and solution.profile.to_csv().startswith("side,bound,expanded")
    profile = solution.profile
    assert profile.nodes_per_second == pytest.approx(sum(r.expanded for r in profile.records)
                                                     / sum(r.seconds for r in profile.records))
    assert f"({profile.nodes_per_second:,.0f} nodes/s)" in str(profile)
    astar = vs.solve("sliding-3x3", "8 6 7 2 5 4 3 x 1", method="astar", heuristic="manhattan").profile
    assert [r.bound for r in astar.records][-1] == 31 and astar.expanded < solution.profile.expanded


def test_goal_in_another_component_and_depth_limit():
    puzzle = sliding(3, 3)
    with pytest.raises(vs.NoSolution):
        vs.solve(puzzle, "1 2 3 4 5 6 8 7 x", method="idastar")
    with pytest.raises(vs.NoSolution):
        vs.solve(puzzle, "8 6 7 2 5 4 3 x 1", method="astar", max_depth=30)
    with pytest.raises(ValueError, match="choose one of"):
        vs.solve(puzzle, "1 2 3 4 5 6 7 x 8", method="idastar", heuristic="nosuch")


def test_other_goal_states():
    rows, cols = 3, 3
    rng = random.Random(5)
    neighbours = sliding_neighbours(rows, cols)
    puzzle = sliding(rows, cols)
    for _ in range(3):
        goal = tuple(rng.sample(range(9), 9))
        dist = distances([goal], neighbours)
        starts = [s for s in random_arrangements(rows, cols, 200, seed=rng.random()) if s in dist][:40]
        for heuristic in ("pdb", "linear-conflict"):
            found = vs.solve_many(puzzle, [pack_sliding(s) for s in starts], pack_sliding(goal), method="idastar",
                                  heuristic=heuristic)
            assert found.lengths.tolist() == [dist[s] for s in starts]


def test_user_puzzle_with_heuristic_and_inverse_moves():
    """A user puzzle: the sliding rules again, with a plain-Python Manhattan heuristic that reads
    the goal from the tables appended by default."""
    base = sliding(2, 3)

    def manhattan(state, tables):
        goal = tables[-1][0]
        h = 0
        for c in range(6):
            tile = (state >> (4 * c)) & 15
            if tile:
                for g in range(6):
                    if (goal >> (4 * g)) & 15 == tile:
                        h += abs(c // 3 - g // 3) + abs(c % 3 - g % 3)
        return h

    from vecsearch.puzzles.sliding.rules import expand

    puzzle = vs.Puzzle("user-2x3", expand, vs.Moves(4, "udlr", (1, 0, 3, 2)), tables=base.tables, heuristic=manhattan,
                       goal=base.goal_states()[0], start=base.goal_states()[0])
    goal = sliding_goal(2, 3)
    dist = distances([goal], sliding_neighbours(2, 3))
    starts = [s for s in random_arrangements(2, 3, 60, seed=3) if s in dist][:10]
    for start in starts:  # single searches: the serial kernel compiles faster than the batch one
        solution = vs.solve(puzzle, pack_sliding(start), method="idastar")
        assert len(solution) == dist[start] and replay(start, solution.move_names, sliding_neighbours(2, 3)) == goal
    with pytest.raises(vs.PuzzleDefinitionError):
        vs.Puzzle("bad", expand, vs.Moves(4, inverses=(1, 0)))


# --- pattern databases against a plain-Python 0-1 BFS of the abstract space ------------------

def abstract_distances(rows, cols, homes, blank_home):
    """Least pattern-tile moves from each placement of the pattern tiles (blank anywhere) to
    ``homes``: 0-1 BFS over (tile cells, blank cell), blank moves into other cells free."""
    cells = rows * cols
    start = (tuple(homes), blank_home)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        tiles, blank = state
        r, c = divmod(blank, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if not (0 <= r + dr < rows and 0 <= c + dc < cols):
                continue
            target = (r + dr) * cols + c + dc
            moved = tuple(blank if t == target else t for t in tiles)
            cost = int(target in tiles)
            child = (moved, target)
            if child not in dist or dist[state] + cost < dist[child]:
                dist[child] = dist[state] + cost
                (queue.append if cost else queue.appendleft)(child)
    best = {}
    for (tiles, _), d in dist.items():
        best[tiles] = min(best.get(tiles, d), d)
    assert len(best) == np.prod(range(cells - len(homes) + 1, cells + 1))
    return best


def entry_index(tiles, cells):
    """Lehmer rank of distinct cells among ``cells`` (the database's entry order)."""
    index, used = 0, []
    for i, cell in enumerate(tiles):
        digit = cell - sum(u < cell for u in used)
        weight = 1
        for j in range(i + 1, len(tiles)):
            weight *= cells - j
        index += digit * weight
        used.append(cell)
    return index


@pytest.mark.parametrize("rows,cols,homes,blank", [
    (2, 3, (0, 1, 2), 5), (2, 3, (3, 4), 5), (3, 3, (0, 1, 3, 4), 8), (3, 3, (2, 5, 6), 0), (2, 4, (1, 2, 5, 6, 7), 0),
    (3, 3, (1, 3, 5, 7), 4), (4, 4, (1, 4, 9), 0),  # blank regions split by the tiles (the 4x4: its corner)
])
def test_pattern_database_entries_equal_abstract_distances(rows, cols, homes, blank, tmp_path):
    packed, facts, _, built = pattern_database(rows, cols, homes, blank, directory=tmp_path)
    assert built and facts["saturated"] == 0
    expected = abstract_distances(rows, cols, homes, blank)
    values = np.concatenate([packed & 15, packed >> 4])  # even entries, then odd ones
    half = len(packed)
    for tiles, d in expected.items():
        i = entry_index(tiles, rows * cols)
        stored = values[i // 2] if i % 2 == 0 else values[half + i // 2]
        manhattan = sum(abs(t // cols - h // cols) + abs(t % cols - h % cols)
                        for t, h in zip(tiles, homes, strict=True))
        assert manhattan + 2 * int(stored) == d, (tiles, d)
    again, _, _, rebuilt = pattern_database(rows, cols, homes, blank, directory=tmp_path)
    assert not rebuilt and np.array_equal(again, packed)  # loaded from the saved file


def test_a_cached_array_is_mapped_read_or_mapped_for_lookups(tmp_path):
    from vecsearch.engine.runtime.saved_arrays import cached_array, database_path

    values = np.arange(1000, dtype=np.uint8)
    built, facts, _, fresh = cached_array("made", lambda: (values, {"what": "counts"}), tmp_path)
    assert fresh and facts == {"what": "counts"} and np.array_equal(built, values)
    never = lambda: pytest.fail("a saved array is not built again")  # noqa: E731
    mapped = cached_array("made", never, tmp_path)[0]
    assert isinstance(mapped, np.memmap) and not mapped.flags.writeable and np.array_equal(mapped, values)
    def memory(array):  # what holds an array's bytes
        while isinstance(array, np.ndarray) and array.base is not None:
            array = array.base
        return array.obj if isinstance(array, memoryview) else array

    read = cached_array("made", never, tmp_path, load="read")[0]
    assert type(read) is np.ndarray and type(memory(read)) is np.ndarray and np.array_equal(read, values)
    looked_up = cached_array("made", never, tmp_path, load="lookups")[0]
    assert type(looked_up) is np.ndarray and isinstance(memory(looked_up), mmap.mmap)
    assert np.array_equal(looked_up, values)
    looked_up[3] = 200  # writeable, copy-on-write: the file keeps its values
    assert np.array_equal(np.load(database_path("made", tmp_path)), values)
    with pytest.raises(ValueError, match="load must be one of map, read, lookups"):
        cached_array("made", never, tmp_path, load="copy")
    path = database_path("made", tmp_path)
    for broken in (path.read_bytes()[:100], b"not an array"):  # cut short, overwritten: built again, replaced
        spoilt = path.with_suffix(".spoilt")
        spoilt.write_bytes(broken)
        spoilt.replace(path)  # a new file: the arrays mapped above keep theirs
        again, facts, _, fresh = cached_array("made", lambda: (values, {"what": "again"}), tmp_path, load="lookups")
        assert fresh and facts == {"what": "again"} and np.array_equal(again, values)
        assert np.array_equal(np.load(path), values)


@pytest.mark.parametrize("rows,cols,partition,reflect", [
    (3, 3, None, True), (3, 3, [[1, 2, 3], [4, 5, 6], [7, 8]], True), (3, 3, [[1, 4, 7], [2, 5]], False),
    (2, 4, None, True), (2, 4, [[1, 2, 5, 6], [3, 4, 7]], True),
])
def test_additive_heuristics_never_exceed_the_true_distance(rows, cols, partition, reflect, tmp_path):
    puzzle = sliding(rows, cols)
    dist = goal_distances(rows, cols)
    states = list(dist)
    random.Random(1).shuffle(states)
    states = states[:5000]
    packed = np.array([pack_sliding(s) for s in states], dtype=np.int64)
    truth = np.array([dist[s] for s in states])
    options = dict(partition=partition, reflect=reflect, directory=tmp_path)
    pdb = resolve_heuristic(puzzle, puzzle.goal_states(), "pdb", **options)
    values = {name: heuristic_values(resolve_heuristic(puzzle, puzzle.goal_states(), name), packed)
              for name in ("manhattan", "linear-conflict")}
    values["pdb"] = heuristic_values(pdb, packed)
    for name, h in values.items():
        assert np.all(h <= truth), name
        assert np.all((truth - h) % 2 == 0), name  # every bound keeps the distance's parity
        assert h[truth == 0].tolist() == [0] * int(np.sum(truth == 0))
    assert np.all(values["manhattan"] <= values["linear-conflict"])
    assert np.all(values["manhattan"] <= values["pdb"]) and values["pdb"].mean() > values["manhattan"].mean()


def test_the_4x4_default_takes_7_8_once_built_else_6_6_3(tmp_path):
    from vecsearch.engine.runtime.saved_arrays import database_path
    from vecsearch.puzzles.sliding.heuristics import (
        canonical_patterns,
        default_partition,
        layout_partition,
        partition_name,
    )

    puzzle = sliding(4, 4)
    for tiles in (puzzle.tiles(puzzle.goal_states()[0]), list(range(16))):
        assert sorted(map(len, default_partition(puzzle, tiles, tmp_path))) == [3, 6, 6]
        big = layout_partition(puzzle, tiles, "7-8")
        assert sorted(map(len, big)) == [7, 8] and sorted(t for p in big for t in p) == list(range(1, 16))
        home = tiles.index(0)
        for pattern in big:  # two whole rows, or two rows but the blank's home
            rows = {tiles.index(t) // 4 for t in pattern} | ({home // 4} if len(pattern) == 7 else set())
            assert len(rows) == 2 and max(rows) - min(rows) == 1
        _, turned, canonical = canonical_patterns(puzzle, tiles, big)
        for names in ([name for name, _, _ in canonical], [partition_name(puzzle, turned, canonical)]):
            for name in names:  # the patterns' files, or the partition's
                database_path(name, tmp_path).parent.mkdir(exist_ok=True)
                database_path(name, tmp_path).touch()
            assert default_partition(puzzle, tiles, tmp_path) == big
            for name in names:
                database_path(name, tmp_path).unlink()
            assert sorted(map(len, default_partition(puzzle, tiles, tmp_path))) == [3, 6, 6]
    with pytest.raises(vs.InvalidPuzzleInput, match="needs the 4x4 with the blank's home in a corner"):
        elsewhere = puzzle.states(puzzle.encode("1 2 3 4 5 x 6 7 8 9 10 11 12 13 14 15".split()))
        resolve_heuristic(puzzle, elsewhere, "pdb78")
    with pytest.raises(ValueError, match="has no heuristic 'pdb78'"):
        resolve_heuristic(sliding(3, 3), sliding(3, 3).goal_states(), "pdb78")


@pytest.mark.parametrize("rows,cols,partition,reflect", [
    (3, 3, None, True), (3, 3, [[1, 2, 3], [4, 5, 6], [7, 8]], False),
    (3, 3, [[1], [2], [3], [4], [5, 6, 7, 8]], True),  # more patterns than an update tracks: whole
    (4, 4, [[1, 2, 3], [5, 6, 9], [4, 8, 12]], True),  # tiles in no pattern count their Manhattan distance
])
def test_bounds_updated_from_the_parent_equal_whole_ones_along_random_walks(rows, cols, partition, reflect, tmp_path):
    from vecsearch.puzzles.sliding.lookups import additive_pdb, additive_pdb_update

    puzzle = sliding(rows, cols)
    made = resolve_heuristic(puzzle, puzzle.goal_states(), "pdb", partition=partition, reflect=reflect,
                             directory=tmp_path)
    assert made.update is additive_pdb_update
    neighbours = sliding_neighbours(rows, cols)
    rng = random.Random(5)
    state = unpack_sliding(int(puzzle.goal_states()[0]), rows * cols)
    packed = [puzzle.encode([str(t) if t else "x" for t in state])]
    for _ in range(300):
        state = rng.choice(neighbours(state))[1]
        packed.append(puzzle.encode([str(t) if t else "x" for t in state]))
    bound, info = additive_pdb_update(packed[0], -1, packed[0], made.tables)
    assert bound == additive_pdb(packed[0], made.tables)
    for parent, child in pairwise(packed):
        bound, info = additive_pdb_update(parent, info, child, made.tables)
        assert bound == additive_pdb(child, made.tables)


def test_mirror_images_of_a_goal_share_pattern_databases(tmp_path):
    puzzle = sliding(3, 3)
    korf = puzzle.encode([str(t) for t in range(9)])
    ours = resolve_heuristic(puzzle, puzzle.goal_states(), "pdb", directory=tmp_path)
    theirs = resolve_heuristic(puzzle, puzzle.states(korf), "pdb", directory=tmp_path)
    assert ours.details["built"] and not theirs.details["built"]
    assert set(ours.details["databases"]) == set(theirs.details["databases"])
    neighbours = sliding_neighbours(3, 3)
    goal = unpack_sliding(korf, 9)
    dist = distances([goal], neighbours)
    states = list(dist)[::97]
    h = heuristic_values(theirs, np.array([pack_sliding(s) for s in states], dtype=np.int64))
    assert np.all(h <= np.array([dist[s] for s in states]))


# --- the 15-puzzle: a few of Korf's instances (the easiest for these databases) -------------

KORF = {int(line.split()[0]): line.split() for line in
        (Path(__file__).parent / "data" / "korf100.txt").read_text().splitlines() if not line.startswith("#")}
EASY = [79, 12, 55, 97]


@pytest.mark.slow  # builds the 15-puzzle's pattern databases on an empty cache (about a minute)
def test_korf_instances_solved_optimally_towards_korfs_goal():
    puzzle = sliding(4, 4)
    goal = puzzle.encode([str(t) for t in range(16)])
    starts = [puzzle.encode(KORF[n][3:]) for n in EASY]
    found = vs.solve_many(puzzle, starts, goal)
    assert found.method == "idastar"
    assert found.lengths.tolist() == [int(KORF[n][1]) for n in EASY]
    for i, n in enumerate(EASY):
        start = tuple(int(t) for t in KORF[n][3:])
        assert replay(start, found.formatted(i), sliding_neighbours(4, 4)) == tuple(range(16))


@pytest.mark.slow  # builds the 15-puzzle's pattern databases on an empty cache (about a minute)
def test_single_korf_instance_by_idastar_with_profile():
    puzzle = sliding(4, 4)
    goal = puzzle.encode([str(t) for t in range(16)])
    solution = vs.solve(puzzle, puzzle.encode(KORF[79][3:]), goal, method="idastar")
    assert len(solution) == int(KORF[79][1]) and solution.replay()
    assert solution.profile.records[-1].bound == len(solution)


# --- a wide (two-word) user puzzle: a walled grid, Manhattan distance as the heuristic -------
SIDE, WALL_X, GAP_Y = 12, 6, 9


@njit
def walled_expand(state, tables, children, moves):
    k = 0
    for m in range(4):
        x = state[0] + (m == 0) - (m == 1)
        y = state[1] + (m == 2) - (m == 3)
        if 0 <= x < SIDE and 0 <= y < SIDE and (x != WALL_X or y == GAP_Y):
            children[k, 0] = x
            children[k, 1] = y
            moves[k] = m
            k += 1
    return k


@njit
def grid_manhattan(state, tables):
    goal = tables[-1][0]
    return abs(state[0] - goal[0]) + abs(state[1] - goal[1])


def walled_neighbours(state):
    x, y = state
    steps = {"E": (1, 0), "W": (-1, 0), "N": (0, 1), "S": (0, -1)}
    return [(name, (x + dx, y + dy)) for name, (dx, dy) in steps.items()
            if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE and (x + dx != WALL_X or y + dy == GAP_Y)]


@pytest.mark.parametrize("method", ["idastar", "astar"])
def test_wide_user_puzzle(method):
    puzzle = vs.Puzzle("walled-grid", vs.Rules(walled_expand, width=2), vs.Moves(4, "EWNS", (1, 0, 3, 2)),
                       heuristic=grid_manhattan, start=(1, 1), goal=(10, 2))
    dist = distances([(10, 2)], walled_neighbours)
    for start in [(1, 1), (0, 11), (5, 0), (10, 2), (7, 9)]:
        solution = vs.solve(puzzle, start, method=method)
        assert len(solution) == dist[start]
        assert replay(start, solution.move_names, walled_neighbours) == (10, 2)


def test_iterations_split_across_threads_give_the_same_lengths(space):
    rows, cols, goal, neighbours, dist = space
    puzzle = sliding(rows, cols)
    starts = [s for s in random_arrangements(rows, cols, 200, seed=11) if s in dist][:40]
    for start in starts:
        solution = vs.solve(puzzle, pack_sliding(start), method="idastar", heuristic="manhattan", split_from=0,
                            threads=2)
        assert len(solution) == dist[start]
        assert replay(start, solution.move_names, neighbours) == goal


def test_a_split_iteration_enters_its_subtrees_in_depth_first_order(space, monkeypatch):
    """The subtrees of an iteration split across threads are taken in the order one depth-first
    search within the bound enters them, the children of least heuristic value first, so the
    threads look first where one thread would (the 3x3x3's hardest golden scramble: 274 k nodes in
    its last iteration, not 2.9 M as the moves come)."""
    from vecsearch.engine.heuristic import idastar

    rows, cols, goal, neighbours, dist = space
    puzzle = sliding(rows, cols)
    monkeypatch.setattr(idastar, "SUBTREES_PER_THREAD", 1)  # two subtrees wanted: the start's children
    entered = []
    subtrees = idastar._subtrees

    def noting(puzzle, chosen, roots, roots_h, fixed, depth, bound, automaton=None):
        if depth == 1:
            entered.append(roots_h.tolist())
        return subtrees(puzzle, chosen, roots, roots_h, fixed, depth, bound, automaton)

    monkeypatch.setattr(idastar, "_subtrees", noting)
    starts = [s for s in random_arrangements(rows, cols, 200, seed=5) if dist.get(s, 0) > 6][:20]
    for start in starts:
        solution = vs.solve(puzzle, pack_sliding(start), method="idastar", heuristic="manhattan", split_from=0,
                            threads=2)
        assert len(solution) == dist[start]
    assert len(entered) > 20 and sum(len(set(values)) > 1 for values in entered) > 10
    assert all(values == sorted(values) for values in entered)
