"""Published layer counts (tests/data/sliding_layers.json, from the OEIS)."""

import pytest

import vecsearch as vs


def _cases(golden, slow):
    return [pytest.param(key, marks=[pytest.mark.slow] if slow else [], id=key)
            for key, entry in golden.items() if bool(entry.get("slow")) == slow]


def _check(entry, key, visited="auto", mode="auto"):
    expected = entry["counts"][: entry["max_depth"] + 1] if "max_depth" in entry else entry["counts"]
    result = vs.bfs(entry["puzzle"], entry["start"], max_depth=entry.get("max_depth"), visited=visited, mode=mode)
    got = result.layer_sizes
    if got != expected:
        rows = [f"  depth {d:>3}: expected {e:>12,} got {g:>12,}{'   <--' if e != g else ''}"
                for d, (e, g) in enumerate(zip(expected + [0] * len(got), got + [0] * len(expected), strict=True))
                if d < max(len(expected), len(got))]
        pytest.fail(f"{key} ({entry['puzzle']} from {entry['start']!r}) layer counts differ:\n" + "\n".join(rows))


def pytest_generate_tests(metafunc):
    if "golden_key" in metafunc.fixturenames:
        import json
        from pathlib import Path

        stored = json.loads((Path(__file__).parent / "data" / "sliding_layers.json").read_text())
        golden = {k: v for k, v in stored.items() if not k.startswith("_")}
        metafunc.parametrize("golden_key", _cases(golden, False) + _cases(golden, True))


def test_published_layer_counts(golden_key, sliding_golden):
    _check(sliding_golden[golden_key], golden_key)


@pytest.mark.parametrize("key", ["A089473", "A090035"])
def test_hash_set_mode_matches_published_counts(key, sliding_golden):
    _check(sliding_golden[key], key, visited="hash")


@pytest.mark.parametrize("key", ["A089474", "A090034", "A090035", "A090036"])
def test_two_bit_searches_match_published_counts(key, sliding_golden):
    """Rank steps by rows (the 3x3 from its centre) and by columns (the boards of two rows)."""
    _check(sliding_golden[key], key, mode="twobit")
