"""The text format of permutation puzzles: twsearch's ``.tws`` and its ancestor, ksolve's ``.def``.

Conventions: lines are split on blanks; ``#`` starts a comment (any bytes may follow: a file
that is not UTF-8 is read as Latin-1); blank lines are ignored; pieces and slots are numbered
from 1 (``StartState`` and ``MoveTransformation``: from 0); orientations from 0.

```
Name 2x2x2                  optional: the puzzle's name (the rest of the line)
Set CORNERS 8 3             an orbit: name, number of slots, orientations per piece (1: none)
Solved                      optional block: the solved state (default: the identity)
CORNERS                       orbit name (orbits left out: the identity)
1 2 3 4 5 6 7 8               the piece in each slot; a repeated number: identical pieces
0 0 0 0 0 0 0 0               optional: each slot's orientation; ? ignores the piece's orientation
End
Move U                      a move: one block per orbit it changes, orbits left out stay put
CORNERS
4 1 2 3 5 6 7 8               slot i receives the piece from slot p[i]
0 0 0 0 0 0 0 0               optional: o[j] is added to the orientation of the piece leaving slot j
End
MoveSequence R Fv L Fv      a move made of other moves (and rotations), written after them
MoveAlias 3Rw 3r            another name for a move, for move text only (not a search move)
Illegal SLICE 3 17          a state with piece 17 in slot 3 of SLICE is never entered (more
                            pieces may follow on the line)
Block                       ksolve: pieces bandaged together (a move moves all or none of them)
EDGES                         orbit name
8                             its pieces in the block
End
```

``StartState`` is ``Solved`` with pieces from 0; ``MoveTransformation`` is ``Move`` with slots
from 0 and each orientation added to the piece *arriving* in that slot. Moves named like
whole-puzzle rotations (``x``, ``y``, ``z``, ``Fv``: ``definition.is_rotation``) are rotations,
as twsearch reads them: kept in ``definition.rotations``, never search moves (a note says so).
ksolve's ``Ignore`` (what a ksolve scramble may leave unsolved; it does not change the puzzle)
and its deprecated ``Multiplicators``, ``ParallelMoves`` and ``MoveLimits`` are read past with
a note; ``ForbiddenPairs`` and ``ForbiddenGroups`` (ksolve's restrictions on consecutive moves)
are refused. Each ``Move`` is a generator: ``PermutationPuzzle(definition, metric)`` makes the
move set from it (``htm``: all its powers, as twsearch does; ``qtm``: it and its inverse).
"""

from __future__ import annotations

import re
import warnings
from importlib import resources
from pathlib import Path

from vecsearch.errors import DefinitionNote, InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzles.permutation.definition import Move, Orbit, PermutationDefinition, is_rotation
from vecsearch.puzzles.permutation.kpuzzle import parse_kpuzzle
from vecsearch.puzzles.permutation.statetext import format_state

COMMANDS = ("Name", "Set", "Solved", "StartState", "Move", "MoveTransformation", "MoveSequence", "MoveAlias",
            "Illegal", "Block", "Ignore")
SKIPPED = ("Multiplicators", "ParallelMoves", "MoveLimits")  # ksolve reads past them too (deprecated)
SCRAMBLES = ("Scramble", "ScrambleState", "StartState", "ScrambleAlg")  # the blocks of a scramble file (.scr)
REFUSED = {name: f"{name} (ksolve's ban on some consecutive moves) is not supported: vecsearch counts every move"
                 " sequence" for name in ("ForbiddenPairs", "ForbiddenGroups")}


def load_definition(path) -> PermutationDefinition:
    """Read a puzzle definition file: twsearch's ``.tws``, ksolve's ``.def`` or a KPuzzle JSON.

    Parameters
    ----------
    path : str or path
        A ``.tws`` or ``.def`` file (the same text format), or cubing.js's KPuzzle JSON
        (``.json``). A bare name that is no file here (``"2x2x2"`` or ``"2x2x2.tws"``) is one of
        the definitions shipped with vecsearch.

    Returns
    -------
    PermutationDefinition
        Its name defaults to the file's stem.

    Raises
    ------
    InvalidPuzzleInput
        The file cannot be read, or a line is malformed or uses a feature that is refused; the
        message names the file, the line and the feature.

    Examples
    --------
    >>> corners = vs.load_definition("2x2x2")
    >>> corners.name, [move.name for move in corners.moves]
    ('2x2x2', ['U', 'R', 'F', 'D', 'L', 'B'])
    >>> puzzle = vs.PermutationPuzzle(corners.restricted(["U", "R", "F"]), "qtm")
    >>> vs.bfs(puzzle).layer_sizes[-3:]
    [782536, 90280, 276]
    """
    path = Path(path)
    source = path if path.exists() or path.parent != Path(".") else _bundled(path.name)
    try:
        data = source.read_bytes()
    except OSError as error:
        shipped = ", ".join(sorted(Path(entry.name).stem for entry in _data().iterdir() if entry.name.endswith(".tws")))
        raise InvalidPuzzleInput(f"cannot read puzzle definition {path}: {error.strerror or error}"
                                 f" (shipped with vecsearch, by name: {shipped})") from None
    try:
        if path.suffix == ".json":
            return parse_kpuzzle(decode(data), default_name=path.stem.removesuffix(".kpuzzle"))
        return parse_definition(decode(data), default_name=path.stem)
    except InvalidPuzzleInput as error:
        raise error.located(source=str(path)) from None


def decode(data: bytes) -> str:
    """Text from a file's bytes: UTF-8, else Latin-1 (every byte is a character: ksolve's files
    carry Latin-1 names in their comments)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _data():
    return resources.files("vecsearch").joinpath("data")


def _bundled(name: str):
    return _data().joinpath(name if name.endswith(".tws") else f"{name}.tws")


class _Lines:
    """The non-blank lines of a text, comments removed, as ``(number, tokens, text)``."""

    def __init__(self, text: str):
        self.rows = []
        for number, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0]
            if line.split():
                self.rows.append((number, line.split(), line.strip()))
        self.at = 0

    def next(self, what: str):
        if self.at >= len(self.rows):
            last = self.rows[-1][0] if self.rows else 1
            raise InvalidPuzzleInput(f"expected {what}, got the end of the text", line=last)
        self.at += 1
        return self.rows[self.at - 1]

    def peek(self):
        return self.rows[self.at][1] if self.at < len(self.rows) else None


def parse_definition(text: str, default_name: str = "puzzle") -> PermutationDefinition:
    """A ``PermutationDefinition`` from the text format; errors name the line and token, and
    notes (``DefinitionNote`` warnings) what was read but not taken as part of the puzzle."""
    lines = _Lines(text)
    reader = _Reader(default_name)
    while lines.peek() is not None:
        reader.command(lines)
    return reader.definition()


class _Reader:
    def __init__(self, default_name: str):
        self.name = default_name
        self.orbits: dict[str, Orbit] = {}
        self.solved = None
        self.moves: dict[str, tuple[int, Move]] = {}  # name: (line, move as read)
        self.sequences: list[tuple[int, str, list[str], bool]] = []  # (line, name, tokens, is an alias)
        self.illegal: dict[str, dict[int, set]] = {}  # orbit: {slot: piece numbers as written}
        self.blocks: list[tuple[int, dict]] = []
        self.notes: list[str] = []

    def command(self, lines: _Lines) -> None:
        number, tokens, text = lines.next("a command")
        word = tokens[0]
        if word in REFUSED:
            raise InvalidPuzzleInput(REFUSED[word], line=number)
        if word == "Name":
            self.name = text[len("Name"):].strip() or self.name
        elif word == "Set":
            _expect(tokens, 4, number, "Set NAME SLOTS ORIENTATIONS")
            if tokens[1] in self.orbits:
                raise InvalidPuzzleInput(f"orbit {tokens[1]!r} is defined twice", line=number)
            if self.solved is not None or self.moves:
                raise InvalidPuzzleInput(f"Set {tokens[1]} after a Solved or Move block: orbits come first",
                                         line=number)
            self.orbits[tokens[1]] = Orbit(tokens[1], _number(tokens[2], number, 1), _number(tokens[3], number, 1))
        elif word in ("Solved", "StartState"):
            _expect(tokens, 1, number, word)
            if self.solved is not None:
                raise InvalidPuzzleInput("a second Solved block", line=number)
            self.solved = _position(lines, self.orbits, "state", word == "StartState", self.notes)
        elif word in ("Move", "MoveTransformation"):
            _expect(tokens, 2, number, f"{word} NAME")
            self._name_free(tokens[1], number)
            chunks, marked = _position(lines, self.orbits, "move", word == "MoveTransformation", self.notes)
            self.moves[tokens[1]] = (number, Move(tokens[1], chunks, marked))
        elif word in ("MoveSequence", "MoveAlias"):
            if len(tokens) < 3 or (word == "MoveAlias" and len(tokens) != 3):
                raise InvalidPuzzleInput(f"expected `{word} NAME {'MOVE' if word == 'MoveAlias' else 'MOVES...'}`,"
                                         f" got {text!r}", line=number)
            self._name_free(tokens[1], number)
            moves = [t for token in tokens[2:] for t in token.split(",") if t]
            self.sequences.append((number, tokens[1], moves, word == "MoveAlias"))
        elif word == "Illegal":
            self._illegal(tokens, number)
        elif word == "Block":
            self.blocks.append((number, _block(lines, self.orbits)))
        elif word == "Ignore":
            _position(lines, self.orbits, "ignore", False, self.notes)
            self.notes.append(f"line {number}: Ignore (what a ksolve scramble may leave unsolved) does not change the"
                              " puzzle: read and left out")
        elif word in SKIPPED:
            while lines.next(f"End of {word}")[1] != ["End"]:
                pass
            self.notes.append(f"line {number}: {word} (deprecated in ksolve, which ignores it): left out")
        else:
            raise InvalidPuzzleInput(f"unknown command {word!r}; expected one of {', '.join(COMMANDS)}", line=number)

    def _name_free(self, name: str, number: int) -> None:
        if name in self.moves or any(name == s[1] for s in self.sequences):
            raise InvalidPuzzleInput(f"move {name!r} is defined twice", line=number)
        if name in self.orbits:
            raise InvalidPuzzleInput(f"{name!r} names both a move and an orbit", line=number)

    def _illegal(self, tokens, number: int) -> None:
        if len(tokens) < 4 or tokens[1] not in self.orbits:
            raise InvalidPuzzleInput(f"expected `Illegal ORBIT SLOT PIECE...` with an orbit of"
                                     f" {', '.join(self.orbits)}, got {' '.join(tokens)!r}", line=number)
        orbit = self.orbits[tokens[1]]
        slot = _number(tokens[2], number, 1)
        if slot > orbit.size:
            raise InvalidPuzzleInput(f"slot {slot} is out of range 1..{orbit.size}", line=number)
        pieces = self.illegal.setdefault(orbit.name, {}).setdefault(slot - 1, set())
        pieces.update((_number(t, number, 1), number) for t in tokens[3:])

    def definition(self) -> PermutationDefinition:
        if not self.orbits:
            raise InvalidPuzzleInput("no Set line: a puzzle needs at least one orbit")
        solved = self.solved[0] if self.solved is not None else {}
        moves, rotations, aliases = self._classified()
        labels = {o: sorted(set(solved[o][0]) if o in solved else range(self.orbits[o].size)) for o in self.orbits}
        illegal = {o: {slot: {_label(labels[o], v - 1, o, n) for v, n in given} for slot, given in slots.items()}
                   for o, slots in self.illegal.items()}
        blocks = [{o: {_label(labels[o], v - 1, o, n) for v in pieces} for o, pieces in block.items()}
                  for n, block in self.blocks]
        if rotations:
            self.notes.append(f"{', '.join(m.name for m in rotations)}: whole-puzzle rotations (twsearch's reading),"
                              " not search moves: left out (definition.rotations keeps them)")
        try:
            definition = PermutationDefinition(self.name, list(self.orbits.values()), moves, solved,
                                               rotations=rotations, aliases=aliases, illegal=illegal, blocks=blocks,
                                               notes=self.notes)
        except PuzzleDefinitionError as error:
            raise InvalidPuzzleInput(str(error)) from None
        if not definition.is_legal(definition.solved):
            raise InvalidPuzzleInput("the solved state is itself illegal (an Illegal line forbids one of its pieces)")
        for note in self.notes:
            warnings.warn(DefinitionNote(f"{self.name}: {note}"), stacklevel=3)
        return definition

    def _classified(self):
        """The search moves, rotations and aliases: sequences resolved in rounds, as twsearch does
        (a sequence may use moves, rotations, and sequences resolved before, with their powers)."""
        try:
            probe = PermutationDefinition(self.name, list(self.orbits.values()), {})
        except PuzzleDefinitionError as error:
            raise InvalidPuzzleInput(str(error)) from None
        known: dict[str, Move] = {}
        made: list[tuple[str, Move, bool]] = []

        def add(move: Move, alias: bool, number: int):
            try:
                checked = probe._move(move.name, move)
            except PuzzleDefinitionError as error:
                raise InvalidPuzzleInput(str(error).removeprefix(f"{self.name}: "), line=number) from None
            made.append((move.name, checked, alias))
            known.update((power.name, power) for power in probe.powers(checked, "htm"))

        for number, move in self.moves.values():
            add(move, False, number)
        pending = list(self.sequences)
        while pending:
            ready = [s for s in pending if all(t in known for t in s[2])]
            if not ready:
                number, name, tokens, _ = pending[0]
                unknown = next(t for t in tokens if t not in known)
                raise InvalidPuzzleInput(f"{name}: {unknown!r} names no move, rotation or earlier sequence",
                                         line=number)
            for number, name, tokens, alias in ready:
                move = known[tokens[0]]
                for token in tokens[1:]:
                    move = probe.then(move, known[token])
                add(Move(name, move.changes, move.marked), alias, number)
                pending.remove((number, name, tokens, alias))
        moves = [m for name, m, alias in made if not alias and not is_rotation(name)]
        rotations = [m for name, m, alias in made if not alias and is_rotation(name)]
        aliases = [m for name, m, alias in made if alias]
        return moves, rotations, aliases


def parse_scrambles(definition: PermutationDefinition, text: str) -> list[tuple[str, str]]:
    """The instances of a twsearch scramble file (``.scr``), in order: ``(name, start)``, the
    start as ``statetext`` reads it (a state, or moves from the solved state).

    ``Scramble NAME`` is a position block as ``Solved`` writes one (pieces from 1; orbits left
    out are as in the solved state), ``ScrambleState NAME`` and ``StartState NAME`` the same with
    pieces from 0, and ``ScrambleAlg NAME`` moves over any number of lines; each ends with
    ``End``. A name given again is told apart by its count (``noname (2)``: twsearch writes every
    position it emits as ``noname``). What a block holds is checked as each instance's start (an
    error of that instance); the file's own structure here, each error naming its line.
    """
    lines = _Lines(text)
    orbits = {orbit.name: orbit for orbit in definition.orbits}
    scrambles, notes, seen = [], [], {}
    while lines.peek() is not None:
        number, tokens, line = lines.next("a scramble")
        if tokens[0] not in SCRAMBLES:
            compact = " (twsearch's compact positions are not read)" if tokens[0] == "CPOS" else ""
            raise InvalidPuzzleInput(f"expected one of {', '.join(SCRAMBLES)} and a name, got {line!r}{compact}",
                                     line=number)
        _expect(tokens, 2, number, f"{tokens[0]} NAME")
        if tokens[0] == "ScrambleAlg":
            moves = []
            while (row := lines.next("moves or End"))[1] != ["End"]:
                moves += row[1]
            start = " ".join(moves) if moves else format_state(definition, definition.solved)
        else:
            chunks, _ = _position(lines, orbits, "state", tokens[0] != "Scramble", notes)
            start = _state_text(definition, chunks)
        seen[tokens[1]] = seen.get(tokens[1], 0) + 1
        scrambles.append((tokens[1] if seen[tokens[1]] == 1 else f"{tokens[1]} ({seen[tokens[1]]})", start))
    for note in notes:
        warnings.warn(DefinitionNote(f"scrambles: {note}"), stacklevel=2)
    return scrambles


def _state_text(definition: PermutationDefinition, chunks: dict) -> str:
    """``statetext``'s text of a position block (``{orbit: (pieces from 0, twists)}``); the
    orbits it leaves out are left out of the text too, which reads them as solved."""
    if not chunks:
        return format_state(definition, definition.solved)
    parts = []
    for orbit in definition.orbits:
        if orbit.name in chunks:
            pieces, twists = chunks[orbit.name]
            text = " ".join(str(p + 1) for p in pieces)
            if orbit.orientations > 1:
                text += " / " + " ".join("?" if t is None else str(t) for t in twists)
            parts.append(text if len(definition.orbits) == 1 else f"{orbit.name} {text}")
    return "  ".join(parts)


def _label(labels, value, orbit, line) -> int:
    """The label of piece number ``value`` (0-based as written) of ``orbit``."""
    if value not in labels:
        raise InvalidPuzzleInput(f"piece {value + 1} is not a piece of orbit {orbit} (its solved state has"
                                 f" {' '.join(str(v + 1) for v in labels)})", line=line)
    return labels.index(value)


def _position(lines: _Lines, orbits: dict, kind: str, zero_based: bool, notes: list):
    """A Solved (``kind`` "state"), Move ("move") or Ignore ("ignore") block up to its End line:
    ``{orbit: (pieces, twists)}`` (0-based; a move's twists indexed by the slot a piece lands
    in; None for an ignored orientation) and, for a move, ``{orbit: slots}`` marked as moved by
    an orientation change that the orbit's orientations reduce to nothing. A text that ends
    after a whole orbit, without End (a truncated file), ends the block, with a note."""
    chunks, marked = {}, {}
    while True:
        if lines.peek() is None and chunks:
            notes.append(f"line {lines.rows[-1][0]}: the text ends without the block's End: read as if it followed")
            return chunks, marked
        number, tokens, text = lines.next("an orbit name or End")
        if tokens == ["End"]:
            return chunks, marked
        if len(tokens) != 1 or tokens[0] not in orbits:
            raise InvalidPuzzleInput(f"expected an orbit name ({', '.join(orbits)}) or End, got {text!r}", line=number)
        orbit = orbits[tokens[0]]
        if orbit.name in chunks:
            raise InvalidPuzzleInput(f"orbit {orbit.name} appears twice in one block", line=number)
        low = 0 if zero_based or kind == "ignore" else 1
        number, tokens, _ = lines.next(f"{orbit.size} numbers of orbit {orbit.name}")
        high = {"state": 255, "ignore": 1, "move": orbit.size - 1 + low}[kind]
        pieces = _numbers(tokens, number, orbit.size, low, high, "slot" if kind == "move" else "piece")
        if kind == "move" and sorted(pieces) != list(range(low, orbit.size + low)):
            raise InvalidPuzzleInput(f"{orbit.name}: {' '.join(map(str, pieces))} is not a permutation of"
                                     f" {low}..{orbit.size - 1 + low}", line=number)
        pieces = tuple(p - low for p in pieces)
        twists = (0,) * orbit.size
        following = lines.peek()
        if following is not None and (following[0][0].isdigit() or following[0] == "?"):
            number, tokens, _ = lines.next("orientations")
            high = {"state": orbit.orientations - 1, "ignore": 1, "move": None}[kind]  # a move's: mod k (ksolve)
            twists = _numbers(tokens, number, orbit.size, 0, high, "orientation", wild=kind == "state")
        if kind == "move":
            raw = twists if zero_based else tuple(twists[p] for p in pieces)  # indexed by the slot landed in
            twists = tuple(t % orbit.orientations for t in raw)
            if orbit.orientations == 1 and any(raw):
                marked[orbit.name] = {i for i, t in enumerate(raw) if t}
        chunks[orbit.name] = (pieces, tuple(twists))


def _block(lines: _Lines, orbits: dict) -> dict:
    """A ksolve Block: ``{orbit: piece numbers}`` (1-based as written) up to End."""
    block = {}
    while True:
        number, tokens, text = lines.next("an orbit name or End")
        if tokens == ["End"]:
            if not block:
                raise InvalidPuzzleInput("an empty Block", line=number)
            return block
        if len(tokens) != 1 or tokens[0] not in orbits:
            raise InvalidPuzzleInput(f"expected an orbit name ({', '.join(orbits)}) or End, got {text!r}", line=number)
        orbit = orbits[tokens[0]]
        number, tokens, _ = lines.next(f"pieces of orbit {orbit.name} in the block")
        block[orbit.name] = set(_numbers(tokens, number, None, 1, orbit.size, "piece"))


def _numbers(tokens, line, count, low, high, what, wild=False):
    if count is not None and len(tokens) != count:
        raise InvalidPuzzleInput(f"expected {count} {what} numbers, got {len(tokens)} tokens", line=line)
    values = []
    for token in tokens:
        if wild and token == "?":
            values.append(None)
            continue
        value = _number(token, line, low)
        if high is not None and value > high:
            raise InvalidPuzzleInput(f"{what} {token!r} is out of range {low}..{high}", line=line)
        values.append(value)
    return values


def _number(token, line, low):
    if not re.fullmatch(r"\d+", token) or int(token) < low:
        raise InvalidPuzzleInput(f"token {token!r} is not a whole number >= {low}", line=line)
    return int(token)


def _expect(tokens, count, line, form):
    if len(tokens) != count:
        raise InvalidPuzzleInput(f"expected `{form}`, got {' '.join(tokens)!r}", line=line)


__all__ = ["decode", "load_definition", "parse_definition", "parse_scrambles"]
