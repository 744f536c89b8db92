"""cubing.js's KPuzzle JSON (``*.kpuzzle.json``): the second text format of permutation puzzles.

```
{"name": "2x2x2",
 "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],   (or a map of name: {...})
 "defaultPattern": {"CORNERS": {"pieces": [0, 1, ...], "orientation": [0, ...],
                                "orientationMod": [0, ...]}},                    (or "startStateData")
 "moves": {"U": {"CORNERS": {"permutation": [1, 2, 3, 0, ...], "orientationDelta": [0, ...]}}},
 "derivedMoves": {"F": "[x: U]", "Uv": "y"}}
```

Conventions are cubing.js's, which are ``definition``'s: pieces, slots and orientations from 0;
``permutation[i]`` is the slot whose piece lands in slot ``i``, ``orientationDelta[i]`` what it
gains there. Repeated pieces in the pattern are identical; an ``orientationMod`` of 1 ignores a
piece's orientation (``?``), 0 or ``numOrientations`` counts it; other moduli (an orientation
counted mod 2 of 4) are refused. ``derivedMoves`` are algorithms over the moves: move names
with an amount (``R2``, ``U'``, ``R2'``), ``(A B)n``, commutators ``[A, B]`` and conjugates
``[A: B]`` (a derived move named like a move is the move). Moves named like rotations are
rotations (``definition.is_rotation``), as in ``textformat``. A move or the pattern may give an
orbit that ``orbits`` does not declare (twsearch's kilominx keeps the megaminx's edges): cubing.js
reads only the declared orbits, and so do we, with a note naming what was left out.
"""

from __future__ import annotations

import json
import re
import warnings

from vecsearch.errors import DefinitionNote, InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzles.permutation.definition import Move, Orbit, PermutationDefinition, is_rotation

TOKEN = re.compile(r"\s*([\[\](),:]|[^\s\[\](),:]+)")
AMOUNT = re.compile(r"(.*?)(\d*)('?)")


def parse_kpuzzle(text: str, default_name: str = "puzzle") -> PermutationDefinition:
    """A ``PermutationDefinition`` from KPuzzle JSON; errors name the field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidPuzzleInput(f"not JSON: {error.msg}", line=error.lineno) from None
    if not isinstance(data, dict) or "orbits" not in data or "moves" not in data:
        raise InvalidPuzzleInput("a KPuzzle definition is a JSON object with \"orbits\" and \"moves\"")
    orbits = _orbits(data["orbits"])
    undeclared: dict[str, list[str]] = {}  # an orbit "orbits" lacks: the fields that give it
    pattern = data.get("defaultPattern", data.get("startStateData", {}))
    solved = {name: _pattern_orbit(orbits[name], part)
              for name, part in _declared(orbits, pattern, "defaultPattern", undeclared)}
    moves = {name: Move(name, {orbit: _move_orbit(orbits[orbit], name, part)
                               for orbit, part in _declared(orbits, changes, f"move {name}", undeclared)})
             for name, changes in _items(data["moves"], "moves")}
    name = str(data.get("name") or default_name)
    try:
        probe = PermutationDefinition(name, list(orbits.values()), moves.values())
        derived = _derived(probe, dict(_items(data.get("derivedMoves") or {}, "derivedMoves")))
        every = list(probe.moves) + derived
        rotations = [m for m in every if is_rotation(m.name)]
        notes = [f"{', '.join(m.name for m in rotations)}: whole-puzzle rotations (twsearch's reading), not search"
                 " moves: left out (definition.rotations keeps them)"] if rotations else []
        if undeclared:
            fields = list(dict.fromkeys(f for named in undeclared.values() for f in named))
            notes.append(f"{', '.join(undeclared)}: not in \"orbits\" ({', '.join(orbits)}): ignored in"
                         f" {_listed(fields)}, as cubing.js ignores them")
        definition = PermutationDefinition(name, list(orbits.values()), [m for m in every if not is_rotation(m.name)],
                                           solved, rotations=rotations, notes=notes)
    except PuzzleDefinitionError as error:
        raise InvalidPuzzleInput(str(error)) from None
    for note in notes:
        warnings.warn(DefinitionNote(f"{name}: {note}"), stacklevel=2)
    return definition


def _items(value, field):
    if not isinstance(value, dict):
        raise InvalidPuzzleInput(f"\"{field}\" must be a JSON object")
    return value.items()


def _orbits(value) -> dict[str, Orbit]:
    rows = value if isinstance(value, list) else [{"orbitName": k, **v} for k, v in _items(value, "orbits")]
    out = {}
    for row in rows:
        try:
            name = row["orbitName"]
            out[name] = Orbit(name, int(row["numPieces"]), int(row.get("numOrientations", row.get("orientations"))))
        except (KeyError, TypeError, ValueError):
            raise InvalidPuzzleInput(f"orbit {row!r}: expected orbitName, numPieces and numOrientations") from None
    return out


def _numbers(part, key, orbit: Orbit, where: str, default=None):
    values = part.get(key, default)
    if values is None or not isinstance(values, list) or len(values) != orbit.size \
            or not all(isinstance(v, int) for v in values):
        raise InvalidPuzzleInput(f"{where}: \"{key}\" must be a list of {orbit.size} whole numbers")
    return values


def _declared(orbits, value, field, undeclared):
    """The items of ``value`` (by orbit name) whose orbit ``orbits`` declares; the fields that
    give another orbit are added to ``undeclared[orbit]``."""
    for orbit, part in _items(value, field):
        if orbit in orbits:
            yield orbit, part
        else:
            undeclared.setdefault(orbit, []).append(field)


def _listed(fields):
    """``moves U, Uv and defaultPattern`` for the fields ``move U``, ``move Uv``, ``defaultPattern``."""
    moves = [f.removeprefix("move ") for f in fields if f.startswith("move ")]
    parts = ([f"move{'s' if len(moves) > 1 else ''} {', '.join(moves)}"] if moves else []) \
        + [f for f in fields if not f.startswith("move ")]
    return " and ".join(parts)


def _pattern_orbit(orbit, part):
    where = f"defaultPattern, orbit {orbit.name}"
    pieces = _numbers(part, "pieces", orbit, where)
    twists = _numbers(part, "orientation", orbit, where, [0] * orbit.size)
    moduli = _numbers(part, "orientationMod", orbit, where, [0] * orbit.size)
    if any(m not in (0, 1, orbit.orientations) for m in moduli):
        bad = next(m for m in moduli if m not in (0, 1, orbit.orientations))
        raise InvalidPuzzleInput(f"{where}: orientationMod {bad} is not supported: vecsearch counts an orientation"
                                 f" in full (0 or {orbit.orientations}) or ignores it (1)")
    return pieces, [None if m == 1 else t for m, t in zip(moduli, twists, strict=True)]


def _move_orbit(orbit, move, part):
    where = f"move {move}, orbit {orbit.name}"
    permutation = _numbers(part, "permutation", orbit, where)
    delta = _numbers(part, "orientationDelta", orbit, where, part.get("orientation", [0] * orbit.size))
    return permutation, [d % orbit.orientations for d in delta]


def _derived(definition: PermutationDefinition, algorithms: dict) -> list[Move]:
    """The derived moves, each made once every move its algorithm names is known."""
    known = {m.name: m for m in definition.moves}
    made, pending = [], {name: text for name, text in algorithms.items() if name not in known}  # moves come first
    while pending:
        ready = {}
        for name, text in pending.items():
            try:
                ready[name] = Move(name, _Algorithm(definition, known, text, name).element().changes)
            except KeyError:
                continue
        if not ready:
            name, text = next(iter(pending.items()))
            _Algorithm(definition, known | {n: None for n in pending}, text, name).check_names()
            raise InvalidPuzzleInput(f"derivedMoves {name}: {text!r} names a move that is never defined")
        for name, move in ready.items():
            known[name] = move
            made.append(move)
            del pending[name]
    return made


class _Algorithm:
    """A recursive-descent reading of one algorithm; ``KeyError`` for a move not known yet."""

    def __init__(self, definition, known, text, name):
        self.definition, self.known, self.text, self.name = definition, known, text, name
        self.tokens = TOKEN.findall(text)
        self.at = 0

    def element(self) -> Move:
        move = self._sequence()
        if self.at != len(self.tokens):
            self._fail(f"unexpected {self.tokens[self.at]!r}")
        return move

    def check_names(self):
        for token in self.tokens:
            name = AMOUNT.fullmatch(token)[1]
            if token not in "[](),:" and name not in self.known:
                raise InvalidPuzzleInput(f"derivedMoves {self.name}: {token!r} names no move")

    def _fail(self, what):
        raise InvalidPuzzleInput(f"derivedMoves {self.name}: {what} in {self.text!r}")

    def _sequence(self) -> Move:
        move = Move("", {})
        while self.at < len(self.tokens) and self.tokens[self.at] not in ")],:":
            move = self.definition.then(move, self._unit())
        return move

    def _unit(self) -> Move:
        token = self.tokens[self.at]
        self.at += 1
        if token == "(":
            inner = self._sequence()
            self._expect(")")
            return self._amount(inner, self._suffix())
        if token == "[":
            a = self._sequence()
            kind = self.tokens[self.at] if self.at < len(self.tokens) else None
            if kind not in (",", ":"):
                self._fail("expected , or : inside [ ]")
            self.at += 1
            b = self._sequence()
            self._expect("]")
            then, back = self.definition.then, self.definition.inverse
            made = then(then(a, b), back(a)) if kind == ":" else then(then(then(a, b), back(a)), back(b))
            return self._amount(made, self._suffix())
        name, digits, prime = AMOUNT.fullmatch(token).groups()
        if name not in self.known:
            if token in self.known:
                return self.known[token]
            raise KeyError(name)
        return self._amount(self.known[name], (int(digits) if digits else 1) * (-1 if prime else 1))

    def _suffix(self) -> int:
        if self.at < len(self.tokens) and re.fullmatch(r"\d*'?", self.tokens[self.at]):
            digits, prime = re.fullmatch(r"(\d*)('?)", self.tokens[self.at]).groups()
            self.at += 1
            return (int(digits) if digits else 1) * (-1 if prime else 1)
        return 1

    def _expect(self, token):
        if self.at >= len(self.tokens) or self.tokens[self.at] != token:
            self._fail(f"expected {token!r}")
        self.at += 1

    def _amount(self, move: Move, amount: int) -> Move:
        base = move if amount >= 0 else self.definition.inverse(move)
        out = Move("", {})
        for _ in range(abs(amount)):
            out = self.definition.then(out, base)
        return out
