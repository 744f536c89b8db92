"""A few small searches through most kernel templates, to run with the JIT on and off.

``python tests/plain_python_searches.py`` prints their results as JSON. ``test_plain_python``
runs it with ``NUMBA_DISABLE_JIT=1`` (every kernel as Python, through the intrinsics' Python
binding) and compares with the same searches compiled; ``kernel_coverage.py`` runs it under
coverage and reports each template's lines. Small enough to take seconds as Python.
"""

import json
import sys
from pathlib import Path

import vecsearch as vs

sys.path[:0] = [str(Path(__file__).parent / "data"), str(Path(__file__).parent.parent / "examples")]
import hanoi  # noqa: E402  (a user's puzzle in a module of its own: guarded, its kernels on disk)
import jugs  # noqa: E402  (over values: a Vector)
import lights_out  # noqa: E402  (over values: a Subset)

EIGHT_START = "1 2 3 4 5 6 0 7 8"  # two moves from the goal, and eight more below
EIGHT_FAR = "1 2 3 0 4 6 7 5 8"


def steps(state, tables, children, moves):
    """A puzzle defined in ``__main__`` when the script runs."""
    children[0], children[1] = (state + 7) % 101, (state + 94) % 101
    moves[0], moves[1] = 0, 1
    return 2


def results() -> dict:
    """Each search's answer (layer sizes, path lengths, lengths of many)."""
    eight = vs.get_puzzle("eight")
    own = vs.Puzzle("steps", steps, 2, rank=vs.Rank(lambda state, tables: state, 101), start=1)
    far = vs.solve(eight, EIGHT_FAR, method="bidirectional")
    return {
        "eight bfs (bitset)": vs.bfs(eight, max_depth=12).layer_sizes,
        "eight bfs (hash)": vs.bfs(eight, max_depth=9, visited="hash").layer_sizes,
        "eight bidirectional": [len(far), far.moves == vs.solve(eight, EIGHT_FAR, method="idastar").moves],
        "sliding-2x3 table": vs.solve_many("sliding-2x3", ["1 2 3 4 5 0", "0 1 2 3 4 5"],
                                           method="table").lengths.tolist(),
        "eight pairs": vs.solve_many(eight, [EIGHT_START], method="pairs").lengths.tolist(),
        "two-bit sliding-2x3": vs.bfs("sliding-2x3", mode="twobit").layer_sizes,
        "two-bit pancake-5 segments": vs.bfs("pancake-5", mode="twobit", segments=2).layer_sizes,
        "hanoi-4 (a user's module)": vs.bfs(hanoi.puzzle(4)).layer_sizes,
        "jugs (values)": vs.bfs(jugs.puzzle).layer_sizes,
        "jugs solved": str(vs.solve(jugs.puzzle)),
        "lights-out-2 (values)": vs.bfs(lights_out.lights_out(2)).layer_sizes,
        "steps (a script's own)": vs.bfs(own).layer_sizes,
        "steps table (ranks, no unrank)": vs.DistanceTable(own, 1).distances_of([5, 36, 50]).tolist(),
        "hanoi-3 path": len(vs.solve(hanoi.puzzle(3))),
        "sliding-2x2 states": sum(vs.bfs("sliding-2x2").layer_sizes),
    }


if __name__ == "__main__":
    print(json.dumps(results(), default=int))  # numpy integers (the kernels' counts, run as Python)
