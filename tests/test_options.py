"""Every option is honoured or refused: none is accepted and then dropped.

The methods registry declares which options each method honours; these tests hold each method to
its declaration (an undeclared option is refused with a message naming it, a declared one
reaches the search), and check the command-line options that were once accepted and ignored.
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest
from command_line import run
from reference import distances, pack_sliding, sliding_goal, sliding_neighbours
from test_engine import random_state

import vecsearch as vs
from vecsearch.engine.batch import methods

EIGHT_FAR = "8 6 7 2 5 4 3 x 1"  # 31 moves from the goal


@pytest.fixture
def thread_counts(monkeypatch):
    """The thread counts searches set (``blocks.thread_limit``), recorded."""
    seen = []
    original = numba.set_num_threads
    monkeypatch.setattr(numba, "set_num_threads", lambda n: seen.append(n) or original(n))
    return seen


def test_every_method_names_runners_that_exist():
    from vecsearch.engine.batch.solve import RUNNERS_OF_ONE
    from vecsearch.engine.batch.strategies import RUNNERS_OF_CHUNK

    for method in methods.METHODS.values():
        assert method.many in RUNNERS_OF_CHUNK
        assert method.one is None or method.one in RUNNERS_OF_ONE
    assert set(methods.names(one=True)) == {m.name for m in methods.METHODS.values() if m.one is not None}


@pytest.mark.parametrize("name", sorted(methods.METHODS))
def test_every_method_refuses_an_option_it_does_not_honour(name):
    puzzle = vs.get_puzzle("sliding-2x3")
    with pytest.raises(methods.MethodError, match=rf"method '{name}' does not take colour; it takes max_depth"):
        methods.check(name, puzzle, {"colour": 1})
    for option in methods.METHODS[name].options:
        assert methods.check(name, vs.get_puzzle("sliding-3x3"), {option: None}).name == name


def test_methods_refuse_puzzles_that_lack_what_they_need():
    gap = vs.get_puzzle("gap")  # directed, no predecessors
    for name in ("table", "pairs", "start-tables", "start-balls"):
        with pytest.raises(methods.MethodError, match=f"method '{name}' needs .*; gap has not"):
            methods.check(name, gap)
    with pytest.raises(methods.MethodError, match="needs a heuristic; gap has not"):
        vs.solve(gap, gap.start_states(), method="idastar")
    with pytest.raises(methods.MethodError, match="'pairs' for one instance"):
        vs.solve("eight", EIGHT_FAR, method="pairs")


def test_solve_by_table_honours_max_depth_and_threads_and_refuses_the_rest(thread_counts):
    vs.clear_caches("distance_tables")
    assert len(vs.solve("eight", EIGHT_FAR, method="table", threads=1)) == 31
    assert 1 in thread_counts  # the table was built on one thread
    with pytest.raises(vs.NoSolution, match="within 30 moves"):
        vs.solve("eight", EIGHT_FAR, method="table", max_depth=30)
    with pytest.raises(methods.MethodError, match="'table' does not take strategy"):
        vs.solve("eight", EIGHT_FAR, method="table", strategy="alternate")


@pytest.mark.parametrize("method", ["table", "pairs", "bidirectional", "bfs", "start-balls"])
def test_solve_many_honours_max_depth_on_every_path(method):
    neighbours = sliding_neighbours(2, 3)
    distance = distances([sliding_goal(2, 3)], neighbours)
    rng = random.Random(21)
    starts = [random_state(2, 3, rng) for _ in range(40)]
    found = vs.solve_many("sliding-2x3", [pack_sliding(s) for s in starts], method=method, max_depth=12)
    expected = [d if d <= 12 else -1 for d in (distance.get(s, -1) for s in starts)]
    assert found.method == method and found.lengths.tolist() == expected
    assert any(d > 12 for d in distance.values()) and -1 in expected  # the limit cut some answers


def test_solve_many_honours_threads_on_the_table_path(thread_counts):
    vs.clear_caches("distance_tables")
    starts = np.repeat(vs.get_puzzle("sliding-2x3").goal_states(), 5000)
    found = vs.solve_many("sliding-2x3", starts, method="auto", threads=1)
    assert found.method == "table" and 1 in thread_counts


def test_the_batch_command_honours_max_depth_in_judge_format():
    text = "1 2 3 4 5 6 7 x 8\n" + EIGHT_FAR + "\n"
    code, out, _ = run("batch", "eight", "-", "--format", "judge", stdin=text)
    assert code == 0 and out.splitlines()[0] == "r" and len(out.splitlines()[1]) == 31
    code, out, _ = run("batch", "eight", "-", "--format", "judge", "--max-depth", "30", stdin=text)
    assert code == 0 and out.splitlines() == ["r", "unsolvable"]


def test_the_command_line_refuses_a_method_the_puzzle_cannot_run():
    from vecsearch.puzzles import gap

    layout = gap.gap_puzzle().format_state(gap.GOAL).replace("\n", " ")
    code, out, err = run("batch", "gap", "-", "--method", "table", stdin=f'{{"id": 1, "start": "{layout}"}}\n')
    assert (code, out) == (2, "") and err.startswith("vecsearch: error: method 'table' needs predecessors")
    code, out, err = run("batch", "gap", "-", "--input", "jsonl", stdin='{"id": 1, "start": "1 2"}\n')
    assert (code, out) == (2, '{"id": 1, "error": "expected 28 cells (4 rows of 7: cards 12..47 without aces, -- for a'
                              ' gap), got 2 tokens"}\n')  # the only instance is malformed: nothing to solve


def test_a_batch_result_prints_short():
    found = vs.solve_many("sliding-2x3", ["1 2 3 4 5 x", "1 2 3 4 x 5", "1 2 3 5 4 x"], method="pairs")
    assert repr(found) == "<ManySolutions sliding-2x3: 2 of 3 solved by 'pairs', longest 1>"


ENTRY_POINTS = {
    "bfs": lambda **o: vs.bfs("pancake-5", **o),
    "bidirectional": lambda **o: vs.bidirectional("pancake-5", "2 1 3 4 5", **o),
    "solve": lambda **o: vs.solve("pancake-5", "2 1 3 4 5", **o),
    "solve_many": lambda **o: vs.solve_many("pancake-5", ["2 1 3 4 5"], **o),
    "DistanceTable": lambda **o: vs.DistanceTable("pancake-5", **o),
    "solve_pairs": lambda **o: vs.solve_pairs("pancake-5", ["2 1 3 4 5"], ["1 2 3 4 5"], **o),
}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_a_depth_limit_or_thread_count_that_means_nothing_is_refused(entry):
    call = ENTRY_POINTS[entry]
    for depth in (-1, 2.5, True, "3"):
        with pytest.raises(ValueError, match=f"max_depth must be a whole number of moves, 0 or more .or None., not"
                                             f" {depth!r}"):
            call(max_depth=depth)
    for threads in (0, -2, 1.5):
        with pytest.raises(ValueError, match=f"threads must be a whole number, 1 or more .or None for all cores.,"
                                             f" not {threads!r}"):
            call(threads=threads)
    assert call(max_depth=np.int64(3), threads=1) is not None  # numpy's integers are whole numbers


def test_a_count_of_kept_states_or_of_a_chunks_instances_that_means_nothing_is_refused(tmp_path):
    for kept in (-1, 2.5, True):  # numpy's "negative dimensions are not allowed", or a TypeError, deep inside
        with pytest.raises(ValueError, match=rf"^keep_farthest must be a whole number, 0 or more .* not {kept}$"):
            vs.bfs("sliding-2x3", keep_farthest=kept)
    for size in (0, -3, 2.5):  # each was taken: 0 as the default, -3 and 2.5 as 1
        with pytest.raises(ValueError, match=rf"^chunk_size must be a whole number, 1 or more .or None., not {size}$"):
            vs.solve_many("eight", ["1 2 3 4 5 6 7 x 8"], chunk_size=size)
    assert vs.solve_many("eight", [EIGHT_FAR, "1 2 3 4 5 6 7 x 8"], chunk_size=1).lengths.tolist() == [31, 1]
    for limit in ("max_forward", "max_backward"):
        with pytest.raises(ValueError, match=f"^{limit} must be a whole number of moves, 0 or more .or None., not -1$"):
            vs.solve_pairs("eight", [EIGHT_FAR], ["1 2 3 4 5 6 7 8 x"], **{limit: -1})
    with pytest.raises(ValueError, match="^max_states must be a whole number, 1 or more .or None., not -1$"):
        vs.to_networkx("sliding-2x3", max_states=-1)  # "more than -1 states within 0 moves"
    with pytest.raises(ValueError, match="^per_layer must be a whole number, 1 or more, not 2.5$"):
        vs.explore("sliding-2x3").save(tmp_path / "page.html", per_layer=2.5)  # it wrote a page


def test_a_name_or_a_batch_of_the_wrong_type_is_refused_saying_what_was_expected():
    for name in (5, None, ["eight"]):
        with pytest.raises(TypeError, match=f"a puzzle or problem is named by a str, not a {type(name).__name__}"):
            vs.get_puzzle(name)
        with pytest.raises(TypeError, match="named by a str" if name is None or name == 5 else "unhashable"):
            vs.get_problem(name)
    for batch in (5, "1 2 3 4 5 6 7 x 8"):
        with pytest.raises(TypeError, match=f"instances are an iterable of starts.*not a {type(batch).__name__}$"):
            vs.solve_many("eight", batch)
    for entry in (vs.bfs, vs.solve, vs.distance_table, vs.warm_up, vs.validate, vs.explore, vs.to_networkx):
        with pytest.raises(TypeError, match="^expected a Puzzle or the name of one .a str., not a list$"):
            entry(["sliding-2x3"])  # it failed on a missing attribute of the list, deep inside


def test_warm_up_and_validate_take_a_puzzles_name_as_every_entry_point_does():
    assert vs.validate("sliding-2x3") > 0 and vs.warm_up("sliding-2x3", validate=False) > 0
