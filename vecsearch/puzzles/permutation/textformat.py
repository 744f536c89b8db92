"""The text format of permutation puzzles: the subset of twsearch's ``.tws`` format that
describes orbits of distinct pieces.

Conventions: lines are split on blanks; ``#`` starts a comment; blank lines are ignored; pieces
and slots are numbered from 1; orientations from 0.

```
Name 2x2x2                  optional: the puzzle's name
Set CORNERS 8 3             an orbit: name, number of slots, orientations per piece (1: none)
Solved                      optional block: the solved state (default: the identity)
CORNERS                       orbit name
1 2 3 4 5 6 7 8               the piece in each slot
0 0 0 0 0 0 0 0               optional: the orientation of each slot's piece (default 0)
End
Move U                      a move: one block per orbit it changes, orbits left out stay put
CORNERS
4 1 2 3 5 6 7 8               slot i receives the piece from slot p[i]
0 0 0 0 0 0 0 0               optional: o[j] is added to the orientation of the piece leaving slot j
End
```

The orientation line of a ``Move`` block is indexed by the slot a piece *leaves* (ksolve's and
twsearch's convention), so in the notation of ``definition`` a move's ``twist[i] = o[p[i]]``.
Each ``Move`` is a generator: ``PermutationPuzzle(definition, metric)`` makes the move set from
it (``htm``: all its powers, as twsearch does; ``qtm``: it and its inverse).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzles.permutation.definition import Orbit, PermutationDefinition

COMMANDS = ("Name", "Set", "Solved", "Move")


def load_definition(path) -> PermutationDefinition:
    """Read a definition file; its name defaults to the file's stem. A bare name that is no file
    here (``"2x2x2"`` or ``"2x2x2.tws"``) is one of the definitions shipped with vecsearch."""
    path = Path(path)
    source = path if path.exists() or path.parent != Path(".") else _bundled(path.name)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        shipped = ", ".join(sorted(Path(entry.name).stem for entry in _data().iterdir() if entry.name.endswith(".tws")))
        raise InvalidPuzzleInput(f"cannot read puzzle definition {path}: {getattr(error, 'strerror', None) or error}"
                                 f" (shipped with vecsearch, by name: {shipped})") from None
    try:
        return parse_definition(text, default_name=path.stem)
    except InvalidPuzzleInput as error:
        raise error.located(source=str(path)) from None


def _data():
    return resources.files("vecsearch").joinpath("data")


def _bundled(name: str):
    return _data().joinpath(name if name.endswith(".tws") else f"{name}.tws")


def parse_definition(text: str, default_name: str = "puzzle") -> PermutationDefinition:
    """A ``PermutationDefinition`` from the text format; errors name the line and token."""
    lines = [(n, line.split("#", 1)[0].split()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, tokens) for n, tokens in lines if tokens]
    name, orbits, moves, solved = default_name, {}, {}, None
    at = 0
    while at < len(lines):
        number, tokens = lines[at]
        command = tokens[0]
        if command == "Name":
            _expect_count(tokens, 2, number, "Name NAME")
            name = tokens[1]
        elif command == "Set":
            _expect_count(tokens, 4, number, "Set NAME SLOTS ORIENTATIONS")
            if tokens[1] in orbits:
                raise InvalidPuzzleInput(f"orbit {tokens[1]!r} is defined twice", line=number)
            orbits[tokens[1]] = Orbit(tokens[1], _number(tokens[2], number, 1), _number(tokens[3], number, 1))
        elif command in ("Solved", "Move"):
            if command == "Move":
                _expect_count(tokens, 2, number, "Move NAME")
                if tokens[1] in moves:
                    raise InvalidPuzzleInput(f"move {tokens[1]!r} is defined twice", line=number)
            elif solved is not None:
                raise InvalidPuzzleInput("a second Solved block", line=number)
            block, at = _block(lines, at + 1, orbits, is_move=command == "Move")
            if command == "Move":
                moves[tokens[1]] = block
            else:
                solved = block
            continue
        else:
            raise InvalidPuzzleInput(f"unknown command {command!r}; expected one of {', '.join(COMMANDS)}",
                                     line=number)
        at += 1
    if not orbits:
        raise InvalidPuzzleInput("no Set line: a puzzle needs at least one orbit")
    try:
        return PermutationDefinition(name, list(orbits.values()), moves, solved)
    except PuzzleDefinitionError as error:
        raise InvalidPuzzleInput(str(error)) from None


def _block(lines, at, orbits, is_move):
    """The orbit chunks of a Solved or Move block up to its End line, 0-based."""
    chunks = {}
    while at < len(lines):
        number, tokens = lines[at]
        if tokens == ["End"]:
            return chunks, at + 1
        if len(tokens) != 1 or tokens[0] not in orbits:
            raise InvalidPuzzleInput(f"expected an orbit name ({', '.join(orbits)}) or End, got {' '.join(tokens)!r}",
                                     line=number)
        orbit = orbits[tokens[0]]
        if orbit.name in chunks:
            raise InvalidPuzzleInput(f"orbit {orbit.name} appears twice in one block", line=number)
        at += 1
        pieces = _numbers(lines, at, orbit.size, 1, orbit.size, "slot" if is_move else "piece")
        if sorted(pieces) != list(range(1, orbit.size + 1)):
            raise InvalidPuzzleInput(f"{orbit.name}: {' '.join(map(str, pieces))} is not a permutation of"
                                     f" 1..{orbit.size}", line=lines[at][0])
        at += 1
        twists = [0] * orbit.size
        if at < len(lines) and lines[at][1][0].isdigit():
            twists = _numbers(lines, at, orbit.size, 0, orbit.orientations - 1, "orientation")
            at += 1
        permutation = tuple(p - 1 for p in pieces)
        if is_move:
            twists = [twists[p] for p in permutation]  # indexed by the slot a piece leaves
        chunks[orbit.name] = (permutation, tuple(twists))
    raise InvalidPuzzleInput("block not closed by End", line=lines[-1][0])


def _numbers(lines, at, count, low, high, what):
    if at >= len(lines):
        raise InvalidPuzzleInput(f"expected {count} {what} numbers, got the end of the text", line=lines[-1][0])
    number, tokens = lines[at]
    if len(tokens) != count:
        raise InvalidPuzzleInput(f"expected {count} {what} numbers, got {len(tokens)} tokens", line=number)
    values = [_number(token, number, low) for token in tokens]
    for token, value in zip(tokens, values):
        if value > high:
            raise InvalidPuzzleInput(f"{what} {token!r} is out of range {low}..{high}", line=number)
    return values


def _number(token, line, low):
    if not token.isdigit() or int(token) < low:
        raise InvalidPuzzleInput(f"token {token!r} is not a whole number >= {low}", line=line)
    return int(token)


def _expect_count(tokens, count, line, form):
    if len(tokens) != count:
        raise InvalidPuzzleInput(f"expected `{form}`, got {' '.join(tokens)!r}", line=line)


def format_definition(definition: PermutationDefinition) -> str:
    """The text form of ``definition`` (``parse_definition`` reads it back)."""
    out = [f"Name {definition.name}", ""]
    out += [f"Set {o.name} {o.size} {o.orientations}" for o in definition.orbits]
    if definition.solved != definition.identity():
        out += ["", "Solved"]
        for orbit, (pieces, twists) in zip(definition.orbits, definition.solved):
            out += [orbit.name, _line(p + 1 for p in pieces), _line(twists)]
        out.append("End")
    for move in definition.moves:
        out += ["", f"Move {move.name}"]
        for orbit in definition.orbits:
            if orbit.name in move.changes:
                permutation, twist = move.changes[orbit.name]
                leaving = [0] * orbit.size
                for i, p in enumerate(permutation):
                    leaving[p] = twist[i]
                out += [orbit.name, _line(p + 1 for p in permutation)]
                if orbit.orientations > 1:
                    out.append(_line(leaving))
        out.append("End")
    return "\n".join(out) + "\n"


def _line(values) -> str:
    return " ".join(str(v) for v in values)


__all__ = ["format_definition", "load_definition", "parse_definition"]
