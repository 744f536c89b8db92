"""Profiles as data, table, HTML and plot; progress bars; the optional dependencies' errors."""

import sys
import types
import xml.etree.ElementTree as ET
from itertools import pairwise

import matplotlib
import pytest
from reference import bfs_layers, distances, sliding_goal, sliding_neighbours

import vecsearch as vs


@pytest.fixture(scope="module")
def enumeration():
    """The whole 2x3 sliding space from its goal, and the reference layer sizes."""
    result = vs.bfs("sliding-2x3")
    expected = [len(layer) for layer in bfs_layers([sliding_goal(2, 3)], sliding_neighbours(2, 3))]
    return result, expected


@pytest.fixture(scope="module")
def meeting():
    """A bidirectional search: a profile with both sides."""
    return vs.bidirectional("sliding-3x3", "8 6 7 2 5 4 3 x 1", "1 2 3 4 5 6 7 8 x")


def test_to_pandas_totals_equal_the_states_found(enumeration):
    result, expected = enumeration
    frame = result.profile.to_pandas()
    assert list(frame.columns) == list(result.profile.columns)
    assert len(frame) == len(result.profile.records)
    assert frame["states"].sum() == sum(expected) == result.total_states
    assert frame.loc[frame.states > 0, "states"].tolist() == expected
    assert (frame.generated - frame.duplicates == frame.states)[frame.depth > 0].all()


def test_to_pandas_keeps_both_sides(meeting):
    frame = meeting.profile.to_pandas()
    for side in ("forward", "backward"):
        assert frame[frame.side == side].states.tolist() == meeting.profile.layer_sizes(side)


def test_html_table_is_well_formed_and_lists_every_record(enumeration):
    result, expected = enumeration
    table = ET.fromstring(result.profile._repr_html_())
    header = [th.text for th in table.find("thead").iter("th")]
    rows = [[td.text for td in tr.iter("td")] for tr in table.find("tbody").iter("tr")]
    assert len(rows) == len(result.profile.records)
    states = [int(row[header.index("states")].replace(",", "")) for row in rows]
    assert [s for s in states if s] == expected
    assert f"total {sum(expected):,} states" in table.find("caption").text
    assert result.profile.table() == str(result.profile)


def test_plot_draws_layer_sizes_per_side(meeting):
    matplotlib.use("Agg")
    figure = meeting.profile.plot(label="eight")
    sizes, children, branching, timing = figure.axes[:4]
    drawn = {line.get_label(): list(line.get_ydata()) for line in sizes.get_lines()}
    assert drawn == {f"eight {side}": meeting.profile.layer_sizes(side) for side in ("forward", "backward")}
    assert sizes.get_yscale() == "log"
    forward = meeting.profile.side("forward")
    dups = next(line for line in children.get_lines() if line.get_label() == "eight forward duplicates")
    assert [None if y != y else y for y in dups.get_ydata()] == [r.duplicates or None for r in forward]  # 0: left out
    growth = next(line for line in branching.get_lines() if line.get_label() == "eight forward")
    assert list(growth.get_ydata()) == pytest.approx([b.states / a.states for a, b in pairwise(forward)])
    seconds = next(line for line in timing.get_lines() if line.get_label() == "eight forward seconds")
    assert list(seconds.get_ydata()) == [r.seconds for r in forward]


def test_plot_leaves_zeros_off_log_panels_starts_amounts_at_zero_and_names_the_puzzle(meeting):
    import math

    matplotlib.use("Agg")
    figure = meeting.profile.plot(label="eight")
    sizes, children, branching, timing, memory = figure.axes
    dups = next(line for line in children.get_lines() if line.get_label() == "eight forward duplicates")
    assert meeting.profile.side("forward")[0].duplicates == 0 and math.isnan(dups.get_ydata()[0])  # depth 0
    for axis in (sizes, children):
        assert all(y > 0 or math.isnan(y) for line in axis.get_lines() for y in line.get_ydata())
    assert all(axis.get_ylim()[0] == 0 for axis in (branching, timing, memory))
    assert figure.get_suptitle() == f"eight: {meeting.profile.total_states:,} states"


def test_plot_profiles_compares_several(enumeration, meeting):
    matplotlib.use("Agg")
    figure = vs.plot_profiles({"2x3": enumeration[0].profile, "3x3 meet": meeting.profile})
    labels = [line.get_label() for line in figure.axes[0].get_lines()]
    assert labels == ["2x3 forward", "3x3 meet forward", "3x3 meet backward"]
    with pytest.raises(ValueError, match="2 labels for 1 profiles"):
        vs.plot_profiles([meeting.profile], labels=["a", "b"])
    figure = vs.plot_profiles([enumeration[0], meeting])  # results stand for their profiles, named by puzzle
    labels = [line.get_label() for line in figure.axes[0].get_lines()]
    assert labels == ["sliding-2x3 forward", "sliding-3x3 forward", "sliding-3x3 backward"]
    with pytest.raises(TypeError, match="^plot_profiles takes profiles or search results, not int$"):
        vs.plot_profiles([meeting, 5])


def test_heuristic_profiles_plot_per_bound():
    matplotlib.use("Agg")
    result = vs.solve_many("sliding-3x3", ["8 6 7 2 5 4 3 x 1"], method="idastar")
    figure = result.profile.plot()
    line = figure.axes[0].get_lines()[0]
    assert list(line.get_xdata()) == [r.bound for r in result.profile.records]
    assert list(line.get_ydata()) == [r.expanded for r in result.profile.records]
    assert figure.axes[0].get_xlabel() == "f-bound"


@pytest.mark.parametrize("blocked,call", [
    (("pandas",), lambda profile: profile.to_pandas()),
    (("matplotlib", "matplotlib.pyplot"), lambda profile: profile.plot()),
])
def test_missing_optional_dependency_names_the_extra(enumeration, monkeypatch, blocked, call):
    for module in blocked:
        monkeypatch.setitem(sys.modules, module, None)  # makes `import module` raise ImportError
    with pytest.raises(ImportError, match=r"needs \w+, which is not installed: pip install 'vecsearch\[plot\]'"):
        call(enumeration[0].profile)


class RecordingBar:
    """Stands in for ``tqdm.auto.tqdm``: records what the search tells the bar."""

    made = []

    def __init__(self, **options):
        self.options, self.updates, self.postfix, self.closed = options, 0, [], False
        RecordingBar.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.closed = True

    def update(self, n):
        self.updates += n

    def set_postfix_str(self, text, refresh=True):
        self.postfix.append(text)


def test_progress_bar_counts_layers_and_states(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", types.SimpleNamespace(tqdm=RecordingBar))
    RecordingBar.made.clear()
    seen = []
    result = vs.bidirectional("sliding-3x3", "8 6 7 2 5 4 3 x 1", "1 2 3 4 5 6 7 8 x", progress=True,
                              on_layer=seen.append)
    assert seen == result.profile.records  # the user's callback still gets every record
    (bar,) = RecordingBar.made
    assert bar.closed and bar.updates == len(seen) and "sliding-3x3" in bar.options["desc"]
    last = seen[-1]
    assert bar.postfix[-1].startswith(f"{last.side} depth {last.depth}, {result.profile.total_states:,} states")


def test_progress_bar_draws_with_tqdm(capsys):
    result = vs.bfs("sliding-2x3", progress=True)
    assert "bfs sliding-2x3" in capsys.readouterr().err and result.total_states == 360


def test_the_progress_bars_last_frame_shows_the_whole_search(capsys):
    result = vs.bfs("pocket-htm", progress=True)
    frames = [f for f in capsys.readouterr().err.replace("\r", "\n").splitlines() if f.strip()]
    assert f"depth {result.depth}, {result.total_states:,} states" in frames[-1]  # not a layer behind
    assert "1,000,000,000 states/s" not in "".join(frames)  # no rate from a layer too quick to time


def test_progress_is_off_by_default(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    vs.bidirectional("sliding-2x3", "1 2 3 4 x 5", "x 1 2 4 5 3")
    assert capsys.readouterr().err == ""
    with pytest.raises(ImportError, match=r"pip install 'vecsearch\[progress\]'"):
        vs.bfs("sliding-2x3", progress=True)


def test_profile_of_a_depth_limited_ball_matches_the_reference():
    result = vs.bfs("sliding-3x3", max_depth=12)
    expected = [len(layer) for layer in bfs_layers([sliding_goal(3, 3)], sliding_neighbours(3, 3), max_depth=12)]
    frame = result.profile.to_pandas()
    assert frame.states.tolist() == expected and frame.states.sum() == result.total_states


@pytest.fixture
def bars(monkeypatch):
    """The bars drawn, recorded instead (``RecordingBar``)."""
    monkeypatch.setitem(sys.modules, "tqdm.auto", types.SimpleNamespace(tqdm=RecordingBar))
    RecordingBar.made.clear()
    return RecordingBar.made


def test_one_progress_helper_for_tables_pairs_idastar_and_pattern_databases(bars, tmp_path):
    from vecsearch.engine.tables.distance import DistanceTable
    from vecsearch.engine.tables.pairs import solve_pairs
    from vecsearch.puzzles.sliding.patterns import pattern_database

    table = DistanceTable("sliding-2x3", progress=True)
    starts = ["1 2 3 4 x 5", "x 1 2 4 5 3", "1 2 3 4 5 x"]
    found = solve_pairs("sliding-2x3", starts, ["1 2 3 4 5 x"] * 3, progress=True)
    distance = distances([sliding_goal(2, 3)], sliding_neighbours(2, 3))
    solution = vs.solve("sliding-3x3", "8 6 7 2 5 4 3 x 1", method="idastar", heuristic="manhattan", progress=True)
    layers = []
    pattern_database(2, 3, (0, 1, 2), 5, directory=tmp_path, progress=True, on_layer=layers.append)
    assert [bar.closed for bar in bars] == [True] * 4
    table_bar, pairs_bar, ida_bar, pdb_bar = bars
    assert table_bar.updates == len(table.profile.records) and "distance table sliding-2x3" in table_bar.options["desc"]
    assert pairs_bar.updates == pairs_bar.options["total"] == 3
    assert found.lengths.tolist() == [distance[tuple(int(t) if t != "x" else 0 for t in s.split())] for s in starts]
    records = solution.profile.records
    assert ida_bar.updates == len(records) and ida_bar.postfix[-1].startswith(f"f <= {len(solution)}, "
                                                                              f"{records[-1].expanded:,} nodes")
    assert ida_bar.postfix[-1].endswith(" nodes/s")
    assert pdb_bar.updates == len(layers) > 0 and "pattern database" in pdb_bar.options["desc"]
