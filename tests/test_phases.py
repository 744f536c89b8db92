"""Where a layer's time goes: the profile's per-phase seconds add up to each layer's seconds and
land in the phases that did the work; the text table, the CSV and the CLI show them."""

import csv
import io

import pytest
from command_line import run
from numba import njit

import vecsearch as vs
from vecsearch.kernels.phases import PHASES


@pytest.mark.parametrize("name, options", [("sliding-2x4", {"mode": "layers"}), ("pancake-8", {"mode": "twobit"}),
                                           ("sliding-3x3", {"mode": "twobit"}), ("pocket-htm", {"visited": "hash"}),
                                           ("sliding-3x3", {"mode": "layers", "max_depth": 5})])
def test_phases_add_up_to_each_layers_seconds(name, options):
    profile = vs.bfs(name, **options).profile
    for record in profile.records:
        phases = [getattr(record, p) for p in PHASES]
        assert min(phases) >= 0
        assert sum(phases) == pytest.approx(record.seconds, rel=1e-6, abs=1e-9)
    totals = profile.phase_totals()
    assert sum(totals.values()) == pytest.approx(profile.seconds, rel=1e-3)


def test_each_phase_is_timed_where_its_work_is_done():
    twobit = vs.bfs("sliding-3x4", mode="twobit", max_depth=16).profile.phase_totals()
    assert twobit["scan"] > 0 and twobit["expand"] > 0 and twobit["claim"] > 0 and twobit["compact"] == 0
    layered = vs.bfs("sliding-3x4", mode="layers", max_depth=16).profile.phase_totals()
    assert layered["expand"] > 0 and layered["claim"] > 0 and layered["compact"] > 0 and layered["scan"] == 0
    assert layered["rank"] < layered["expand"] / 10  # the sliding puzzles rank a child as they make it
    apart = vs.bfs(_counter(), mode="layers").profile.phase_totals()  # ranks each child with rank()
    assert apart["rank"] > 0


def test_the_table_csv_and_cli_show_the_phases():
    profile = vs.bfs("pancake-7").profile
    table = profile.phase_table()
    assert table.splitlines()[0].split()[-len(PHASES):] == list(PHASES)
    assert len(table.splitlines()) == len(profile.records) + 3 and "share" in table.splitlines()[-1]
    rows = list(csv.DictReader(io.StringIO(profile.to_csv())))
    assert all(sum(float(row[p]) for p in PHASES) == pytest.approx(float(row["seconds"]), abs=1e-6) for row in rows)
    code, out, _ = run("profile", "pancake-6", "--phases")
    assert code == 0 and "share" in out and all(p in out.split("share")[0] for p in PHASES)


SIZE = 1 << 16


@njit
def _counter_expand(state, tables, children, moves):
    children[0] = (state + 1) % SIZE
    children[1] = (5 * state) % SIZE
    moves[0] = 0
    moves[1] = 1
    return 2


@njit
def _counter_rank(state, tables):
    return state


def _counter():
    return vs.Puzzle("counter", vs.Rules(_counter_expand, reversible=False), 2, rank=vs.Rank(_counter_rank, SIZE),
                     start=1)
