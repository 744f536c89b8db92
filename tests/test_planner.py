"""The memory planner: estimates, the mode it picks under a limit, refusals, guarded runs."""

import re
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from test_twobit import identity_rank, identity_unrank

import vecsearch as vs
from vecsearch.engine.layered.enumeration import KEEP_FARTHEST
from vecsearch.engine.runtime import planner


def test_sizes_are_read_and_written():
    assert planner.parse_size("512M") == 512 << 20
    assert planner.parse_size("1.5GiB") == 3 << 29
    assert planner.parse_size("2g") == 2 << 30
    assert planner.parse_size(4096) == 4096
    for bad in ["", "12X", "-1G", "0"]:
        with pytest.raises(ValueError, match="memory size"):
            planner.parse_size(bad)
    assert planner.format_size(3 << 29) == "1.5 GiB" and planner.format_size(100) == "100 B"


def test_the_default_limit_is_below_what_is_available():
    available = planner.available_bytes()
    assert 0 < planner.default_limit() < available


def test_estimates_per_mode():
    puzzle = vs.get_puzzle("sliding-3x4")
    n = puzzle.rank_size
    by_mode = {e.visited: e for e in planner.estimates(puzzle)}
    assert by_mode["twobit"].certain == by_mode["twobit"].bound == 8 * ((n + 31) // 32)
    assert by_mode["bitset"].certain == 8 * ((n + 63) // 64)
    assert by_mode["bitset"].bound >= by_mode["bitset"].certain + 8 * n
    assert by_mode["hash"].certain == 0 and by_mode["hash"].bound > by_mode["bitset"].bound
    shallow = {e.visited: e for e in planner.estimates(puzzle, max_depth=3)}
    assert shallow["hash"].loose and shallow["hash"].bound < 10 * (1 + 4 + 16 + 64) * 8 + planner.SCRATCH_BYTES


def test_an_oversized_search_is_refused_before_it_starts_with_the_estimates():
    with pytest.raises(vs.MemoryLimitError) as error:
        vs.bfs("sliding-3x4", max_memory="10M")
    message = str(error.value)
    n = vs.get_puzzle("sliding-3x4").rank_size
    table = planner.format_size(8 * ((n + 31) // 32) + 8 * KEEP_FARTHEST)  # the table and the farthest states
    assert table == "57.6 MiB" and "limit of 10.0 MiB" in message
    assert f"two-bit table {table}" in message and "bitset + layers 28.6 MiB at the start, up to" in message
    assert f"nothing fits; the least that surely fits is the two-bit table {table}, under a limit of {table}" in message
    assert "--max-depth" in message and "--spill DIR" in message  # the ways beyond: a depth limit, partitioned
    with pytest.raises(vs.MemoryLimitError, match=r"limit of 20.0 MiB \(bitset \+ layers 28.6 MiB at the start, up to"):
        vs.bfs("sliding-3x4", mode="layers", visited="bitset", max_memory="20M")


def test_auto_prefers_the_faster_mode_that_fits():
    assert vs.bfs("pancake-9").profile.visited == "twobit"  # moves in rank space: two bits first
    assert vs.bfs("sliding-3x3", max_memory="1G").profile.visited == "bitset"  # cheaper from states: layers
    small = vs.bfs("sliding-3x3", max_memory="2M")  # the layers might need more than 2 MiB
    assert small.profile.visited == "twobit" and small.total_states == 181440


def test_a_large_dense_rank_space_is_searched_in_two_bits_first():
    """Children built as states, yet from 2^24 ranks on the two-bit search comes first where every
    rank is a state (sliding puzzles, permutation puzzles in the labels form); not where the
    ranks may be sparse (a user's puzzle) or few."""
    sliding = [vs.get_puzzle(f"sliding-{shape}") for shape in ("2x5", "3x4", "4x4")]
    assert [p.prefers_two_bit for p in sliding] == [False, True, True]
    assert planner.plan(sliding[1]).mode == "twobit" and planner.plan(sliding[0]).mode == "layers"
    assert planner.plan(sliding[2], max_depth=10).mode == "layers"  # the whole space fits nowhere: a ball
    definitions = Path(__file__).parent / "data" / "definitions"
    small, large = (vs.PermutationPuzzle(vs.load_definition(definitions / f"twsearch-main-{name}.tws"),
                                         representation="labels") for name in ("puzzlerchallenger", "skewb"))
    assert small.rank_size < 1 << 24 <= large.rank_size
    assert (small.prefers_two_bit, large.prefers_two_bit) == (False, True)
    sparse = vs.Puzzle("line", line_steps, 2, rank=vs.Rank(identity_rank, 1 << 25, unrank=identity_unrank), start=0)
    assert not sparse.prefers_two_bit and planner.plan(sparse, max_memory="1G").mode == "layers"


@njit
def line_steps(state, tables, children, moves):
    children[0], children[1] = state + 1, state - 1
    moves[0], moves[1] = 0, 1
    return 2


def test_a_layered_search_that_outgrows_its_limit_stops_before_allocating():
    with pytest.raises(vs.MemoryLimitError) as error:
        vs.bfs("pancake-9", mode="layers", max_memory=600_000)  # the bitset fits, the layers do not
    assert "would take the search to" in str(error.value) and "over its memory limit of 585.9 KiB" in str(error.value)
    partial = error.value.result
    assert partial is not None and 0 < partial.total_states < 362880
    assert partial.layer_sizes == vs.bfs("pancake-9").layer_sizes[:len(partial.layer_sizes)]


@njit
def _grid_expand(state, tables, children, moves):
    k = 0
    for m in range(4):
        x = state[0] + (m == 0) - (m == 1)
        y = state[1] + (m == 2) - (m == 3)
        if 0 <= x < 400 and 0 <= y < 400:
            children[k, 0] = x
            children[k, 1] = y
            moves[k] = m
            k += 1
    return k


def test_a_hash_set_search_is_guarded_as_it_grows():
    grid = vs.Puzzle("grid-400", vs.Rules(_grid_expand, width=2), 4, start=(0, 0))
    assert vs.bfs(grid, max_depth=20, max_memory="64M").total_states == 231
    with pytest.raises(vs.MemoryLimitError, match="over its memory limit of 1.0 MiB"):
        vs.bfs(grid, max_memory="1M")


def test_a_wide_hash_search_holds_at_most_its_bound():
    # wide states in a store that 8-byte keys index: (48 + 24w) bytes a state at most, not 56w
    grid = vs.Puzzle("grid-400", vs.Rules(_grid_expand, width=2), 4, start=(0, 0))
    result = vs.bfs(grid, keep_layers=True)
    assert result.total_states == 400 * 400 and result.profile.visited == "hash"
    assert max(r.bytes for r in result.profile.records) <= (48 + 24 * 2) * 400 * 400  # scratch too: 0.3 MB here
    assert planner.estimates(grid, max_depth=3)[0].bound == (48 + 24 * 2) * (1 + 4 + 16 + 64) + planner.SCRATCH_BYTES


def test_distance_tables_are_planned_too():
    with pytest.raises(vs.MemoryLimitError, match="storage='mod3' needs a quarter of that"):
        vs.DistanceTable("pancake-9", max_memory=300_000)
    table = vs.DistanceTable("pancake-9", storage="mod3", max_memory=300_000)
    assert table.max_distance == 10
    assert table.distance(np.int64(vs.get_puzzle("pancake-9").parse_state("2 1 3 4 5 6 7 8 9"))) == 1


def published_4x4_counts():
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parent / "data" / "sliding_layers.json").read_text())["A089484"]["counts"]


def test_a_depth_limit_plans_for_the_layers_it_reaches_not_the_whole_space():
    puzzle = vs.get_puzzle("sliding-4x4")
    with pytest.raises(vs.MemoryLimitError, match="two-bit table 2.4 TiB"):
        planner.plan(puzzle)  # the whole space fits nowhere
    limited = planner.plan(puzzle, max_depth=22)  # 4^22 passes the rank space, yet the search is small
    assert (limited.mode, limited.visited) == ("layers", "hash")


def test_a_search_stops_before_the_layer_that_would_pass_the_limit_with_its_layers_and_a_hint():
    with pytest.raises(vs.MemoryLimitError) as stop:
        vs.bfs("sliding-4x4", max_depth=40, max_memory="24M")
    message, found = str(stop.value), stop.value.result
    depth = found.depth
    assert f"stopped after depth {depth}: layer {depth + 1}, about" in message and "limit of 24.0 MiB" in message
    assert "bidirectional search" in message and "IDA*" in message and "--workers N" in message
    assert 14 <= depth < 40 and found.layer_sizes == published_4x4_counts()[:depth + 1]
    assert found.profile.records[-1].bytes <= 24 << 20  # it stopped before passing the limit, not after


def test_a_search_towards_a_goal_stops_before_both_sides_pass_the_limit():
    deep = "15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 x"  # far from the goal: the sides never meet in 32 MiB
    with pytest.raises(vs.MemoryLimitError) as stop:
        vs.solve("sliding-4x4", deep, max_memory="32M")
    message, found = str(stop.value), stop.value.result
    assert re.search(r"sliding-4x4: stopped the (forward|backward) side after depth \d+: layer \d+, about", message)
    assert "limit of 32.0 MiB" in message and "IDA* (method='idastar')" in message
    assert found is not None and found.solution is None and found.profile.peak_bytes <= 32 << 20
    counts = published_4x4_counts()
    backward = found.profile.layer_sizes("backward")
    assert len(backward) > 10 and backward == counts[:len(backward)]  # from the goal: the published layers


def test_pattern_databases_are_planned_before_they_are_built(tmp_path):
    from vecsearch.puzzles.sliding.patterns import PatternSpace, pattern_database

    space = PatternSpace(4, 4, 8)  # the 8-tile pattern of the 4x4: 4.15 G ranks, 519 M entries
    with pytest.raises(vs.MemoryLimitError,
                       match=r"sliding-4x4-pattern-8: its pattern database needs 1\.\d GiB"
                             r" \(bitset and entries\) before any layer, over the limit of 1\.0 GiB"):
        pattern_database(4, 4, range(8, 16), 0, directory=tmp_path, max_memory="1G")
    assert space.rank_size == 16 * 15 * 14 * 13 * 12 * 11 * 10 * 9 * 8 and not list(tmp_path.iterdir())
    with pytest.raises(vs.MemoryLimitError, match=r"layer \d+ would take the search to"):
        pattern_database(3, 3, (0, 1, 3, 4), 8, directory=tmp_path, max_memory=(48 << 20) + 15200)


def test_by_default_a_search_takes_at_most_half_the_machine(monkeypatch):
    """vertushka.tws (71,425,670,400 ranks) planned a 16.6 GiB two-bit table under 80% of a 24 GB
    machine's available memory, and held three quarters of the machine: by default at most half."""
    monkeypatch.setattr(planner, "physical_bytes", lambda: 24 * 10 ** 9)
    monkeypatch.setattr(planner, "available_bytes", lambda: 22 * 10 ** 9)
    assert planner.default_limit() == 12 * 10 ** 9

    class Vertushka:  # what the planner reads of the puzzle
        name, width, max_moves, has_rank, has_unrank, prefers_two_bit = "Vertushka", 1, 10, True, True, True
        rank_size = 71_425_670_400

    with pytest.raises(vs.MemoryLimitError, match=r"limit of 11.2 GiB \(the default: 80% of the available memory, at"
                                                  r" most half the machine's; a larger limit is asked for with"
                                                  r" max_memory= or --max-memory\) \(two-bit table 16.6 GiB"):
        planner.plan(Vertushka())
    assert planner.plan(Vertushka(), max_memory="17G").mode == "twobit"


# --- large tables: huge pages -----------------------------------------------------------------
def test_large_tables_start_on_a_huge_page_hold_their_fill_and_are_written_like_any_array(monkeypatch):
    from vecsearch.engine.runtime import large_arrays

    small = large_arrays.table_array(1000, np.int64, -1)
    assert small.shape == (1000,) and small.dtype == np.int64 and (small == -1).all()
    monkeypatch.setattr(large_arrays, "HUGE_FROM", 0)  # every table a mapping of its own
    for dtype, fill in ((np.int64, -1), (np.uint8, 255), (np.uint64, 0)):
        table = large_arrays.table_array(100_003, dtype, fill)
        assert table.shape == (100_003,) and table.dtype == dtype and (table == fill).all()
        table[::7] = 3
        assert int(table[7]) == 3 and int(table[8]) == fill and table.flags.writeable
        if hasattr(large_arrays.mmap, "MADV_HUGEPAGE"):
            assert table.ctypes.data % large_arrays.HUGE_PAGE == 0


def test_a_two_bit_search_on_huge_pages_finds_the_same_layers(monkeypatch):
    from vecsearch.engine.runtime import large_arrays

    published = [1, 6, 30, 149, 543, 1357, 1903, 1016, 35]  # OEIS A058986, n = 7
    assert vs.bfs("pancake-7", mode="twobit").profile.layer_sizes() == published
    monkeypatch.setattr(large_arrays, "HUGE_FROM", 0)
    assert vs.bfs("pancake-7", mode="twobit").profile.layer_sizes() == published
