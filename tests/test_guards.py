"""A user's broken rule is a PuzzleDefinitionError naming it, never a crash, in every search mode.

One puzzle family (a ring of states, moves +-1 and +-7) whose table says which rule to break at
which state: the same compiled kernels serve every case. ``check=False`` skips the probe on first
use, so that the compiled guards are what stops each broken rule; the probe has its own tests.
"""

import re
import subprocess
import sys

import numpy as np
import pytest
from numba import njit
from reference import bfs_layers

import vecsearch as vs

N = 4096
STEPS = np.array([1, N - 1, 7, N - 7], np.int64)
TRAP = 1000  # the state whose rule is broken: far from every start and goal below
FINE, WRITES_PAST_ROOM, COUNTS_PAST_ROOM, BAD_MOVE, BAD_RANK = range(5)


@njit
def ring_expand(state, tables, children, moves):
    kind, trap = tables[1][0], tables[1][1]
    count = 4
    if state == trap and kind == WRITES_PAST_ROOM:
        count = 40
    for m in range(count):
        children[m] = (state + tables[0][m % 4]) % N
        moves[m] = m % 4
    if state == trap and kind == BAD_MOVE:
        moves[2] = 9
    return 40 if state == trap and kind == COUNTS_PAST_ROOM else count


@njit
def ring_rank(state, tables):
    return state + N if state == tables[1][1] and tables[1][0] == BAD_RANK else state


@njit
def ring_unrank(rank, component, tables):
    return rank


@njit
def ring_heuristic(state, htables):
    goal = htables[-1][0]
    d = abs(state - goal)
    d = min(d, N - d)
    return (d + 6) // 7


def ring(kind, check=False):
    return vs.Puzzle("ring", vs.Rules(ring_expand), vs.Moves(4, ("+1", "-1", "+7", "-7"), (1, 0, 3, 2)),
                     rank=vs.Rank(ring_rank, N, unrank=ring_unrank), tables=(STEPS, np.array([kind, TRAP], np.int64)),
                     heuristic=ring_heuristic, start=0, goal=N // 2, check=check)


EXPECTED = {  # writing past the room: an index out of range, or (the room shared with other states) a count past it
    WRITES_PAST_ROOM: r"ring: expand\('1000'\) (failed in compiled code: an index out of range|returned 40 children;"
                      r" expected 0\.\.max_moves=4)",
    COUNTS_PAST_ROOM: r"ring: expand\('1000'\) returned 40 children; expected 0\.\.max_moves=4",
    BAD_MOVE: r"ring: expand\('1000'\) gave entry 2 the move 9; expected 0\.\.3",
    BAD_RANK: r"ring: rank\('1000'\) gave the rank 5096; expected 0\.\.rank_size-1 = 4095",
}
MODES = {
    "layers": lambda p: vs.bfs(p, mode="layers"),
    "hash": lambda p: vs.bfs(p, visited="hash"),
    "twobit": lambda p: vs.bfs(p, mode="twobit"),
    "segments": lambda p: vs.bfs(p, segments=2),
    "bidirectional": lambda p: vs.solve(p, 900, 1100),
    "table": lambda p: vs.DistanceTable(p, 0),
    "pairs": lambda p: vs.solve_pairs(p, [TRAP, 5], [TRAP + 10, 9]),
    "idastar": lambda p: vs.solve(p, 993, 1007, method="idastar"),
    "astar": lambda p: vs.solve(p, 993, 1007, method="astar"),
}
RANKLESS = {"hash", "idastar", "astar"}  # modes that never rank a state


def test_the_ring_is_fine_when_no_rule_is_broken():
    puzzle = ring(FINE, check=True)
    layers = bfs_layers([0], lambda s: [(m, (s + int(STEPS[m])) % N) for m in range(4)])
    assert vs.bfs(puzzle).layer_sizes == [len(layer) for layer in layers]
    assert len(vs.solve(puzzle, 993, 1007, method="idastar")) == 2


KIND_IDS = {WRITES_PAST_ROOM: "writes past room", COUNTS_PAST_ROOM: "count past room", BAD_MOVE: "move",
            BAD_RANK: "rank"}


@pytest.mark.parametrize(("mode", "kind"), [pytest.param(mode, kind, id=f"{KIND_IDS[kind]}-{mode}") for kind in EXPECTED
                                            for mode in MODES if not (kind == BAD_RANK and mode in RANKLESS)])
def test_a_broken_rule_is_named_in_every_mode(mode, kind):
    with pytest.raises(vs.PuzzleDefinitionError, match=EXPECTED[kind]):
        MODES[mode](ring(kind))


def test_the_guards_cost_the_built_in_puzzles_nothing():
    """Built-in families run unguarded kernels: their functions are vecsearch's own."""
    from vecsearch.engine.runtime.codegen import layer_kernels
    from vecsearch.engine.runtime.guarded import kernel_tables

    for name in ("eight", "pancake-6", "cubes", "gap"):
        puzzle = vs.get_puzzle(name)
        assert puzzle.trusted and kernel_tables(puzzle) is puzzle.tables
        assert layer_kernels(puzzle).expand_state.py_func.__module__.startswith("vecsearch.puzzles")
    from vecsearch.kernels.first_class import Compiled
    from vecsearch.kernels.guards import GUARD, SLOT_EXPAND

    assert not ring(FINE).trusted and isinstance(kernel_tables(ring(FINE))[GUARD][SLOT_EXPAND], Compiled)


CRASH = """
import numpy as np, vecsearch as vs
def expand(state, tables, children, moves):
    for m in range(40):  # room for 9
        children[m] = state ^ m
        moves[m] = 0
    return 40
def rank(state, tables):
    return state + 600  # past rank_size
for rules, rank in ((expand, lambda s, t: s), (lambda s, t, c, m: 0, rank)):
    puzzle = vs.Puzzle("bug", rules, 9, rank=vs.Rank(rank, 512), start=3, check=False)
    try:
        vs.solve(puzzle, 3, 5)
    except vs.PuzzleDefinitionError as error:
        print(type(error).__name__, error)
print("still alive")
"""


def test_the_issues_crashes_are_errors_and_the_process_lives():
    """The two aborts of the report (a write past capacity in solve, a rank past rank_size in
    bfs), in a process of their own: each is an exception, and the script goes on."""
    done = subprocess.run([sys.executable, "-c", CRASH], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.match(r"BrokenRule bug: expand\('3'\) (failed in compiled code: an index out of range|returned 40"
                    r" children; expected 0\.\.max_moves=9)", lines[0])
    assert lines[1].startswith("BrokenRule bug: rank('3') gave the rank 603")
    assert lines[2] == "still alive"
