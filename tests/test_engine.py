"""bfs, bidirectional search and distance tables against the plain-Python reference."""

import functools
import os
import random
import time
import types

import numpy as np
import pytest
from reference import (
    bfs_layers,
    distances,
    goal_distances,
    pack_sliding,
    pancake_neighbours,
    replay,
    sliding_goal,
    sliding_neighbours,
    sliding_tuple,
    unpack_sliding,
)

import vecsearch as vs
from vecsearch.puzzles.sliding import sliding

SIZES = [(2, 2), (2, 3), (3, 3), (2, 4)]


def engine_layers(result, cells):
    return [{unpack_sliding(int(s), cells) for s in layer.states} for layer in result.layers]


def random_state(rows, cols, rng, moves=60):
    """A state reachable from the goal (a random walk)."""
    state = sliding_goal(rows, cols)
    neighbours = sliding_neighbours(rows, cols)
    for _ in range(moves):
        state = rng.choice(neighbours(state))[1]
    return state


@functools.cache
def layers_from_a_random_start(rows, cols):
    """(start, reference layers): computed once, shared by the parametrised runs."""
    start = random_state(rows, cols, random.Random(rows * cols))
    return start, tuple(map(frozenset, bfs_layers([start], sliding_neighbours(rows, cols))))


@pytest.mark.parametrize("rows,cols", SIZES)
@pytest.mark.parametrize("visited", ["bitset", "hash"])
def test_bfs_layers_equal_the_reference(rows, cols, visited, threads):
    start, expected = layers_from_a_random_start(rows, cols)
    result = vs.bfs(sliding(rows, cols), pack_sliding(start), keep_layers=True, visited=visited, threads=threads)
    assert engine_layers(result, rows * cols) == list(expected)
    assert result.layer_sizes == [len(layer) for layer in expected]
    assert result.complete and result.profile.total_states == sum(map(len, expected))


@pytest.mark.parametrize("part", [1, 64])
def test_a_hash_set_takes_states_in_parts_and_grows_with_those_it_keeps(part, monkeypatch):
    from vecsearch.engine.runtime import visited

    monkeypatch.setattr(visited, "CLAIM_PART", part)  # a part fills the table's room: many parts, grown between
    rng = random.Random(4)
    pool = [pack_sliding(random_state(3, 3, rng)) for _ in range(3000)]
    offered = np.array([rng.choice(pool) for _ in range(20000)], np.int64)  # each state offered about 7 times
    hashed = visited.make_visited(sliding(3, 3), "hash")
    taken = np.concatenate([hashed.add(offered[:5000]), hashed.add(offered)])
    assert taken.tolist() == list(dict.fromkeys(offered.tolist()))  # each state once, in the order first offered
    assert hashed.count == len(taken) and 2 * hashed.count <= len(hashed.keys) < 16 * hashed.count  # not 2 * 20000
    start, expected = layers_from_a_random_start(3, 3)
    result = vs.bfs(sliding(3, 3), pack_sliding(start), keep_layers=True, visited="hash", threads=2)
    assert engine_layers(result, 9) == list(expected)
    goal = pack_sliding(sliding_goal(3, 3))
    met = vs.bidirectional(sliding(3, 3), pack_sliding(start), goal, visited="hash")  # meets counted over parts
    assert len(met.solution) == next(d for d, layer in enumerate(expected) if sliding_goal(3, 3) in layer)


def test_small_spaces_grow_with_all_workers_or_alone_when_they_are_busy(monkeypatch):
    """A space with few states left grows in one call of all workers (each its own thread,
    waiting for the others after every layer); searches in several threads at once, and a
    search whose team is busy (it grows alone), find the same layers."""
    import threading

    from vecsearch.engine.runtime import blocks

    start, expected = layers_from_a_random_start(3, 3)
    search = functools.partial(vs.bfs, sliding(3, 3), pack_sliding(start), keep_layers=True, threads=2)
    results = [None] * 4
    runners = [threading.Thread(target=lambda i=i: results.__setitem__(i, search())) for i in range(4)]
    for runner in runners:
        runner.start()
    for runner in runners:
        runner.join()
    monkeypatch.setattr(blocks, "together", lambda call, workers: None)
    results.append(search())
    for result in results:
        assert engine_layers(result, 9) == list(expected)


def test_a_block_that_cuts_its_own_work_into_blocks_runs_them_itself():
    """``map_blocks`` called from one of its pool's threads (a symmetry's conjugates, asked by a
    block of a partitioned search) runs its blocks in one call there, rather than wait for a helper
    from the pool it occupies; from any other thread, its blocks are shared out as usual."""
    import threading

    from vecsearch.engine.runtime import blocks

    nested = {}

    def inner(lo, hi, calls):
        calls.append((lo, hi))
        time.sleep(0.001)  # the GIL let go, as a kernel lets it go: the other threads take blocks meanwhile
        return hi - lo

    def outer(lo, hi):
        calls = []
        done = sum(blocks.map_blocks(lambda a, b: inner(a, b, calls), hi - lo, 100))
        nested.setdefault(threading.current_thread().name, []).append(calls)
        return done

    with blocks.thread_limit(2):
        answer = []
        runner = threading.Thread(target=lambda: answer.append(sum(blocks.map_blocks(outer, 10_000, 1_000))),
                                  daemon=True)
        runner.start()
        runner.join(timeout=60)
    assert not runner.is_alive(), "a nested map_blocks waited for the pool it occupies"
    assert answer == [10_000]
    pool = [calls for name, lists in nested.items() if name.startswith("vecsearch") for calls in lists]
    others = [calls for name, lists in nested.items() if not name.startswith("vecsearch") for calls in lists]
    assert pool and all(calls == [(0, 1_000)] for calls in pool)
    assert others and all(len(calls) > 1 for calls in others)


def test_bfs_from_many_starts_with_a_depth_limit(threads):
    rng = random.Random(3)
    starts = [random_state(3, 3, rng) for _ in range(5)] * 2  # duplicates are merged
    expected = bfs_layers(set(starts), sliding_neighbours(3, 3), max_depth=6)
    result = vs.bfs(sliding(3, 3), [pack_sliding(s) for s in starts], max_depth=6, keep_layers=True, threads=threads)
    assert engine_layers(result, 9) == expected
    assert not result.complete and result.depth == 6


def test_enumeration_keeps_the_farthest_layer_only():
    result = vs.bfs("sliding-3x3")
    assert len(result.layers) == 1 and len(result.last_layer) == 2
    antipodes = {sliding(3, 3).format_state(s) for s in result.last_layer.states}
    assert antipodes == {"8 6 7 2 5 4 3 x 1", "6 4 7 8 5 x 3 2 1"}


@pytest.mark.parametrize("rows,cols", SIZES)
@pytest.mark.parametrize("strategy", ["smaller", "alternate", "forward"])
def test_bidirectional_paths_are_shortest_and_replay(rows, cols, strategy, threads):
    rng = random.Random(rows + 10 * cols)
    neighbours = sliding_neighbours(rows, cols)
    goal = sliding_goal(rows, cols)
    dist = goal_distances(rows, cols)
    puzzle = sliding(rows, cols)
    for _ in range(15):
        start = random_state(rows, cols, rng, moves=rng.randint(0, 80))
        result = vs.bidirectional(puzzle, pack_sliding(start), strategy=strategy, threads=threads)
        solution = result.solution
        assert len(solution) == dist[start]
        assert replay(start, solution.move_names, neighbours) == goal
        assert unpack_sliding(int(solution.states[0]), rows * cols) == start
        assert solution.replay()


def test_solutions_do_not_depend_on_the_threads():
    """A layer's order depends on the threads that made it; the path chosen among the shortest
    does not (run many times on one and on two threads)."""
    rng = random.Random(5)
    puzzle = sliding(3, 3)
    goal = pack_sliding(sliding_goal(3, 3))
    for _ in range(4):
        start = pack_sliding(random_state(3, 3, rng, moves=rng.randint(20, 80)))
        found = {(str(vs.bidirectional(puzzle, start, threads=threads).solution),
                  str(vs.bfs(puzzle, start, goal=goal, threads=threads).solution))
                 for threads in (1, 2) for _ in range(3)}
        assert len(found) == 1


def test_goal_sets_and_unequal_budgets():
    neighbours = sliding_neighbours(3, 3)
    rng = random.Random(11)
    goals = [random_state(3, 3, rng) for _ in range(20)]
    to_goals = distances(goals, neighbours)  # reversible moves: distance from the set = to it
    puzzle = sliding(3, 3)
    for _ in range(20):
        start = random_state(3, 3, rng)
        expected = to_goals[start]
        for budgets in [dict(), dict(max_forward=3), dict(max_backward=2), dict(max_forward=0)]:
            result = vs.bidirectional(puzzle, pack_sliding(start), [pack_sliding(g) for g in goals], **budgets)
            assert result.distance == expected
            assert replay(start, result.solution.move_names, neighbours) in goals


def test_overall_depth_limit():
    start = sliding_tuple("8 6 7 2 5 4 3 x 1")  # 31 moves from the goal
    puzzle = sliding(3, 3)
    short = vs.bidirectional(puzzle, pack_sliding(start), max_depth=30)
    assert short.solution is None and not short.complete
    assert vs.bidirectional(puzzle, pack_sliding(start), max_depth=31).distance == 31
    with pytest.raises(vs.NoSolution, match="within 30 moves"):
        vs.solve(puzzle, pack_sliding(start), max_depth=30)


def test_other_component_is_unreachable_without_searching():
    puzzle = sliding(3, 3)
    result = vs.bidirectional(puzzle, "1 2 3 4 5 6 8 7 x")
    assert result.solution is None and result.complete and result.profile.records == []
    with pytest.raises(vs.NoSolution, match="not reachable"):
        vs.solve(puzzle, "1 2 3 4 5 6 8 7 x")


def test_start_states_in_two_components_are_refused():
    with pytest.raises(vs.InvalidPuzzleInput, match="different components"):
        vs.bfs("sliding-2x2", ["1 2 3 x", "2 1 3 x"])


def test_start_equal_to_goal_is_a_zero_move_solution():
    solution = vs.solve("sliding-3x3", "1 2 3 4 5 6 7 8 x")
    assert len(solution) == 0 and str(solution) == ""


@pytest.mark.parametrize("method", ["bidirectional", "bfs", "table"])
def test_solve_front_door(method):
    solution = vs.solve("eight", "2 3 4 1 5 x 7 6 8", method=method)
    assert len(solution) == 19
    replayed = replay(sliding_tuple("2 3 4 1 5 x 7 6 8"), solution.move_names, sliding_neighbours(3, 3))
    assert replayed == sliding_goal(3, 3)


def test_solve_rejects_unknown_methods():
    with pytest.raises(ValueError, match="unknown method 'dfs'; choose one of bidirectional, bfs, table"):
        vs.solve("eight", "2 3 4 1 5 x 7 6 8", method="dfs")


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (2, 4)])
def test_distance_table_and_descent(rows, cols, threads):
    puzzle = sliding(rows, cols)
    neighbours = sliding_neighbours(rows, cols)
    goal = sliding_goal(rows, cols)
    dist = goal_distances(rows, cols)
    table = vs.DistanceTable(puzzle, threads=threads)
    assert table.max_distance == max(dist.values())
    rng = random.Random(5)
    starts = [random_state(rows, cols, rng, rng.randint(0, 50)) for _ in range(200)]
    starts.append((2, 1) + tuple(range(3, rows * cols)) + (0,))  # other component
    lengths, moves = table.solve_many(np.array([pack_sliding(s) for s in starts]))
    for i, start in enumerate(starts):
        if start not in dist:
            assert lengths[i] == -1
            continue
        assert lengths[i] == dist[start]
        names = [puzzle.move_names[m] for m in moves[i, :lengths[i]]]
        assert replay(start, names, neighbours) == goal


@pytest.mark.parametrize("storage", ["bytes", "mod3"])
def test_a_whole_distance_table_is_built_once_per_machine(storage, tmp_path, monkeypatch):
    """Saved by the first process that needs it, mapped by the next (the table and its profile as
    built); one file per puzzle, goal and storage; one that other code made is built again."""
    from vecsearch.engine.tables import distance

    built = []
    build = distance.DistanceTable.__init__
    monkeypatch.setattr(distance.DistanceTable, "__init__",
                        lambda self, *a, **k: built.append(1) or build(self, *a, **k))
    puzzle = sliding(2, 3)
    first = distance.saved_table(puzzle, puzzle.goal_states(), storage=storage, directory=tmp_path)
    again = distance.saved_table(puzzle, puzzle.goal_states(), storage=storage, directory=tmp_path)
    assert len(built) == 1 and [p.suffix for p in sorted(tmp_path.iterdir())] == [".json", ".npy"]
    assert again is not first and (again.max_distance, again.complete) == (first.max_distance, True) == (21, True)
    assert again.profile.to_records() == first.profile.to_records() and again.profile.visited == "twobit"
    dist, neighbours, goal = goal_distances(2, 3), sliding_neighbours(2, 3), sliding_goal(2, 3)
    starts = [random_state(2, 3, random.Random(i), 40) for i in range(60)] + [(2, 1, 3, 4, 5, 0)]  # + another component
    lengths, moves = again.solve_many(np.array([pack_sliding(s) for s in starts]))
    assert lengths.tolist() == [dist.get(s, -1) for s in starts]
    for start, length, row in zip(starts, lengths, moves, strict=True):
        assert length < 0 or replay(start, [puzzle.move_names[m] for m in row[:length]], neighbours) == goal
    other_goal = puzzle.states("1 2 3 4 x 5")
    assert distance.saved_table(puzzle, other_goal, storage=storage, directory=tmp_path).distance("1 2 3 4 5 x") == 1
    assert len(built) == 2 and len(list(tmp_path.glob("*.npy"))) == 2
    monkeypatch.setattr("vecsearch.fingerprint.source_digest", lambda: "another vecsearch")
    distance.saved_table(puzzle, puzzle.goal_states(), storage=storage, directory=tmp_path)
    assert len(built) == 3 and len(list(tmp_path.glob("*.npy"))) == 2  # built again, in the same file


def test_the_saved_tables_are_kept_within_their_budget_least_recently_used_first(tmp_path, monkeypatch):
    from vecsearch.engine.tables import distance

    puzzle = sliding(2, 3)
    a, b, c = (puzzle.states(text) for text in ("1 2 3 4 5 x", "1 2 3 4 x 5", "1 2 3 x 4 5"))
    saved = [distance.saved_table(puzzle, goal, directory=tmp_path).file for goal in (a, b)]
    monkeypatch.setattr(distance, "SAVED_TABLES_BYTES", sum(path.stat().st_size for path in saved))  # two of them
    for age, path in enumerate(saved, 1):
        os.utime(path, (age, age))  # a long time ago, b after a
    assert distance.saved_table(puzzle, a, directory=tmp_path).loaded  # a used now
    newest = distance.saved_table(puzzle, c, directory=tmp_path).file  # c saved: b, the least recently used, goes
    assert sorted(tmp_path.iterdir()) == sorted(p.with_suffix(s) for p in (saved[0], newest) for s in (".json", ".npy"))
    assert distance.saved_table(puzzle, c, directory=tmp_path).loaded


def test_building_a_large_table_to_save_says_so_on_stderr(tmp_path, monkeypatch, capsys):
    """As a long compile does: a table of ``ANNOUNCED_RANKS`` or more, when it is built to be
    saved; not when it is mapped, nor a smaller one."""
    from vecsearch.engine.runtime import jit
    from vecsearch.engine.tables import distance

    monkeypatch.setattr(jit, "announce", True)
    puzzle = sliding(2, 3)
    monkeypatch.setattr(distance, "ANNOUNCED_RANKS", puzzle.rank_size)
    distance.saved_table(puzzle, puzzle.goal_states(), directory=tmp_path)
    assert capsys.readouterr().err == ("vecsearch: building the distance table of sliding-2x3 (once; later runs map"
                                       f" it from {tmp_path})\n")
    distance.saved_table(puzzle, puzzle.goal_states(), directory=tmp_path)
    monkeypatch.setattr(distance, "ANNOUNCED_RANKS", puzzle.rank_size + 1)
    distance.saved_table(puzzle, puzzle.goal_states(), directory=tmp_path / "elsewhere")
    assert capsys.readouterr().err == ""


SETTINGS = types.SimpleNamespace(step=1)  # an object the fingerprint knows by its type alone


def _reads_settings(state, tables, children, moves):
    children[0] = state + SETTINGS.step
    moves[0] = 0
    return 1


def test_tables_are_saved_under_what_the_puzzle_computes_and_only_when_that_is_known():
    """The name of a saved table covers the code of the intrinsics the rules call, and a puzzle
    whose functions read an object known by its type alone (two could look alike) saves none."""
    from vecsearch.engine.tables import distance
    from vecsearch.fingerprint import exact_puzzle_digest, puzzle_digest

    eight, other = vs.get_puzzle("eight"), sliding(3, 3)
    assert exact_puzzle_digest(eight) == exact_puzzle_digest(other) != puzzle_digest(eight)  # + the intrinsics
    assert exact_puzzle_digest(sliding(2, 3)) not in (None, exact_puzzle_digest(eight))
    goals = eight.goal_states()
    assert distance._saved_name(eight, goals, "bytes") == distance._saved_name(other, goals[::-1], "bytes")
    assert distance._saved_name(eight, goals, "bytes") != distance._saved_name(eight, goals, "mod3")
    opaque = vs.Puzzle("opaque", vs.Rules(_reads_settings, reversible=False), 1,
                       rank=vs.Rank(lambda s, t: s, 8), start=0, check=False)
    assert exact_puzzle_digest(opaque) is None and distance._saved_name(opaque, opaque.states(0), "bytes") is None
    assert puzzle_digest(opaque)  # a resume still names it as before


def test_the_table_method_saves_whole_tables_and_not_balls(tmp_path, monkeypatch):
    from vecsearch.engine.tables import distance

    folder = tmp_path
    monkeypatch.setattr(distance, "cache_dir", lambda: folder)
    puzzle = sliding(2, 3)
    vs.clear_caches("distance_tables")
    try:
        assert vs.distance_table(puzzle, max_depth=5).radius == 5 and not (tmp_path / "tables").exists()
        many = vs.solve_many(puzzle, ["1 2 3 4 x 5", "x 5 4 3 2 1"], method="table")
        assert many.lengths.tolist() == [1, 15] and len(list((tmp_path / "tables").glob("*.npy"))) == 1
        # towards another goal (one per batch, or per start of a batch): for this process only
        assert vs.distance_table(puzzle, "x 5 4 3 2 1").distance("1 2 3 4 5 x") == 15
        assert vs.solve_many(puzzle, [("a", "1 2 3 4 x 5", "1 2 3 4 5 x"), ("b", "x 5 4 3 2 1", "1 2 3 4 5 x")],
                             method="start-tables").lengths.tolist() == [1, 15]
        assert len(list((tmp_path / "tables").glob("*.npy"))) == 1
        folder = tmp_path / "blocked"  # its "tables" a file: nothing can be saved, the table is this process's
        folder.mkdir()
        (folder / "tables").write_text("")
        vs.clear_caches("distance_tables")
        assert vs.distance_table(puzzle).distance("x 5 4 3 2 1") == 15
    finally:
        vs.clear_caches("distance_tables")


def test_profile_records_every_layer_and_keeps_compile_time_apart():
    result = vs.bfs("sliding-2x4")
    records = result.profile.records
    assert [r.depth for r in records] == list(range(len(records)))
    assert sum(r.states for r in records) == 20160 == result.total_states
    for r in records[1:]:
        assert r.generated == r.states + r.duplicates and r.frontier > 0 and r.seconds >= 0
    assert result.profile.compile_seconds >= 0
    text = str(result.profile)
    assert "20,160 states" in text and "compile" in text
    csv_lines = result.profile.to_csv().splitlines()
    assert csv_lines[0].split(",")[:3] == ["side", "depth", "states"]
    assert len(csv_lines) == len(records) + 1


def test_enumeration_frees_each_frontier_chunk_once_the_next_layer_has_a_state(monkeypatch):
    """With small chunks and every layer expanded in rounds (no small-layer shortcut), a layered
    enumeration gives the same layers and last layer as the plain-Python reference while holding
    less at its peak than when the frontier is kept whole."""
    import tracemalloc

    from vecsearch.engine.layered import enumeration
    from vecsearch.engine.runtime import layers, visited

    monkeypatch.setattr(visited, "GROW_BELOW", 0)  # every layer expanded on its own
    monkeypatch.setattr(visited, "TOGETHER_STATES", 0)
    monkeypatch.setattr(layers, "CHUNK_BYTES", 16 << 10)
    monkeypatch.setattr(visited, "ROUND", 1024)
    expected = bfs_layers([tuple(range(1, 9))], pancake_neighbours(8))
    puzzle = vs.get_puzzle("pancake-8")
    made = enumeration._Layered.__init__
    peaks = {}
    for consume in (False, True):
        def init(self, *args, consume=consume, **kwargs):
            made(self, *args, **kwargs)
            self.side.consume_frontier = consume

        monkeypatch.setattr(enumeration._Layered, "__init__", init)
        tracemalloc.start()
        result = vs.bfs(puzzle, mode="layers", visited="bitset")
        peaks[consume] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert result.layer_sizes == [len(layer) for layer in expected]
        last = {tuple(int(t) for t in puzzle.format_state(s).split()) for s in result.last_layer.states}
        assert last == expected[-1]
    largest = 8 * max(len(layer) for layer in expected)
    assert peaks[True] < peaks[False] - largest / 2
