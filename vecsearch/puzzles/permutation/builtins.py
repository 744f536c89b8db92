"""Built-in permutation puzzles, and definition files by path.

- ``pocket-htm`` / ``pocket-qtm``: the 2x2x2 cube with its DBL corner fixed: moves U, R, F in
  the half-turn metric (U, U2, U') or the quarter-turn metric (U, U'); 3,674,160 states.
- ``pocket-full``: all six faces turn and no corner is fixed, half-turn metric; 88,179,840
  states (each position of the cube in space counts apart).
- ``pancake-N`` (2 <= N <= 16): a stack of N pancakes, slot 1 the top; move ``rK`` reverses
  the top K (2 <= K <= N). Solved: sizes 1..N from the top.
- ``topspin-N`` / ``topspin-N-K`` (2 <= K <= N <= 16, default K = 4): N tokens on a ring;
  ``L`` / ``L'`` turn the ring one slot (slot i takes the token of slot i+1 / i-1) and ``T``
  reverses the K tokens in the turnstile (slots 1..K).
- ``lrx-N`` (3 <= N <= 16): a row of N; ``L`` / ``L'`` rotate it, ``X`` swaps slots 1 and 2
  (the Cayley graph of S_N with those generators).
- ``PATH.tws`` (or ksolve's ``PATH.def``, or cubing.js's ``PATH.kpuzzle.json``): a definition
  file (``textformat``, ``kpuzzle``), half-turn metric; ``PATH.tws:qtm`` (quarter turns) or
  ``PATH.tws:given`` (the moves as written) for another.
"""

from __future__ import annotations

import re
from functools import cache

from vecsearch.errors import InvalidPuzzleInput
from vecsearch.puzzles.permutation.definition import METRICS, Orbit, PermutationDefinition
from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle
from vecsearch.puzzles.permutation.textformat import load_definition
from vecsearch.registry import DEFINITION_SUFFIXES

MAX_SLOTS = 16  # one orbit of N distinct pieces without orientation packs into 4N <= 64 bits

PUZZLES = {
    "pocket-htm": "2x2x2 cube, DBL corner fixed, half-turn metric (3,674,160 states)",
    "pocket-qtm": "2x2x2 cube, DBL corner fixed, quarter-turn metric",
    "pocket-full": "2x2x2 cube, all six faces turn, half-turn metric (88,179,840 states)",
    "pancake-N": "N pancakes (2 <= N <= 16), prefix reversals r2..rN",
    "topspin-N[-K]": "TopSpin: N tokens on a ring (N <= 16), turnstile of K (default 4)",
    "lrx-N": "1 x N row: rotate left/right (L, L'), exchange the first two (X)",
    "FILE.tws[:METRIC]": "a permutation puzzle definition file (.tws, ksolve .def, KPuzzle .json; see README);"
                         " METRIC htm (default), qtm or given",
}
PROBLEMS = {}


def cube_definition() -> PermutationDefinition:
    """The 2x2x2 cube with all six face turns, shipped as ``vecsearch/data/2x2x2.tws``."""
    return load_definition("2x2x2")


def pancake_definition(n: int) -> PermutationDefinition:
    moves = {f"r{k}": {"STACK": list(range(k - 1, -1, -1)) + list(range(k, n))} for k in range(2, n + 1)}
    return PermutationDefinition(f"pancake-{n}", [Orbit("STACK", n)], moves)


def ring_definition(name: str, n: int, flip: int) -> PermutationDefinition:
    """A ring of ``n`` turned by ``L``, with the first ``flip`` slots reversed by ``T`` (``X``
    when ``flip`` is 2)."""
    turn = [(i + 1) % n for i in range(n)]
    reverse = list(range(flip - 1, -1, -1)) + list(range(flip, n))
    moves = {"L": {"RING": turn}, "T" if flip > 2 else "X": {"RING": reverse}}
    return PermutationDefinition(name, [Orbit("RING", n)], moves)


@cache
def _builtin(name: str) -> PermutationPuzzle | None:
    if name in ("pocket-htm", "pocket-qtm"):
        return PermutationPuzzle(cube_definition().restricted(["U", "R", "F"]), name[-3:], name=name)
    if name == "pocket-full":
        return PermutationPuzzle(cube_definition(), "htm", name=name)
    match = re.fullmatch(r"(pancake|topspin|lrx)-(\d+)(?:-(\d+))?", name)
    if not match or (match[3] and match[1] != "topspin"):
        return None
    family, n = match[1], int(match[2])
    flip = int(match[3] or 4) if family == "topspin" else 2
    low = {"pancake": 2, "topspin": flip, "lrx": 3}[family]
    if not low <= n <= MAX_SLOTS or flip < 2:
        bounds = f"{low} <= N <= {MAX_SLOTS}" + (", 2 <= K <= N" if family == "topspin" else "")
        raise InvalidPuzzleInput(f"{name}: need {bounds}")
    if family == "pancake":
        return PermutationPuzzle(pancake_definition(n), "given", name=name)
    return PermutationPuzzle(ring_definition(name, n, flip), "qtm", name=name)


def from_name(name: str) -> PermutationPuzzle | None:
    """A built-in by name, or a definition file ``PATH.tws``, ``PATH.def`` or ``PATH.json``
    (``PATH.tws:METRIC`` for another metric than the half-turn one)."""
    suffixes = "|".join(suffix.removeprefix(".") for suffix in DEFINITION_SUFFIXES)
    match = re.fullmatch(rf"(.+\.(?:{suffixes}))(?::(\w*))?", name)
    if match is None:
        return _builtin(name)
    path, metric = match[1], match[2] if match[2] is not None else "htm"
    if metric not in METRICS:
        raise InvalidPuzzleInput(f"{name}: unknown metric {metric!r} after the file name; expected one of"
                                 f" {', '.join(METRICS)}")
    return PermutationPuzzle(load_definition(path), metric)
