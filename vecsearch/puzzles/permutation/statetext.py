"""States of a permutation puzzle as text, and back (Python states: ``definition`` conventions).

Per orbit, the pieces slot by slot (as the solved state numbers them: from 1, identical pieces
share a number), then ``/`` and their orientations if the orbit has any (``?`` where a piece's
orientation is ignored); several orbits are each preceded by the orbit's name, and orbits left
out are as in the solved state. A text made only of move names (the moves, their powers,
rotations and aliases, each also with any amount, as cubing.js writes them: ``R2'``, ``R3``) is
that sequence applied to the solved state.
"""

from __future__ import annotations

import itertools
import operator
import re

from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzles.permutation.definition import PermutationDefinition


def format_state(definition: PermutationDefinition, state) -> str:
    chunks = []
    for j, (orbit, (pieces, twists)) in enumerate(zip(definition.orbits, state, strict=True)):
        text = " ".join(definition.label_name(j, p) for p in pieces)
        if orbit.orientations > 1:
            text += " / " + " ".join("?" if p in definition.wild[j] else str(t)
                                     for p, t in zip(pieces, twists, strict=True))
        chunks.append(text if len(definition.orbits) == 1 else f"{orbit.name} {text}")
    return "  ".join(chunks)


class MoveText:
    """The moves a state's text may name (``names``: name to move), and each as a *gather* of
    the points: a sequence of moves is played by one gather per move (``play``).

    Point ``first_j + i * k + o`` is slot ``i`` of orbit ``j`` (``k`` orientations) seen at
    orientation ``o``; a state holds at each point the solved point of what is seen there (the
    piece from slot ``h`` with twist ``t`` added to its solved one, seen at ``o``: ``first_j + h *
    k + (o - t) % k``). A move sending the piece of slot ``P[i]`` to slot ``i`` with ``T[i]`` added
    to its twist makes point ``i * k + o`` see what point ``P[i] * k + (o - T[i]) % k`` saw."""

    def __init__(self, definition: PermutationDefinition, names: dict):
        self.definition = definition
        self.names = names
        self._bases = {m.name for m in definition.moves + definition.rotations + definition.aliases} & set(names)
        sizes = (o.size * o.orientations for o in definition.orbits)
        *self.firsts, self.points = itertools.accumulate(sizes, initial=0)  # each orbit's first point; all
        self.gathers = {name: operator.itemgetter(*self._gather(move)) for name, move in names.items()}

    def canonical(self, token: str) -> str | None:
        """The name of the move ``token`` writes: a name, or a move's name with another amount,
        as cubing.js's algorithms write them (``R2'`` is ``R2``, ``R3`` is ``R'``); "" for a whole
        turn (``R4``), None when it writes no move."""
        if token in self.names:
            return token
        name, digits, prime = re.fullmatch(r"(.*?)(\d*)('?)", token).groups()
        if name not in self._bases and prime and token[:-1] in self._bases:  # a name ending in digits: R2'
            name, digits = token[:-1], ""
        if name not in self._bases:
            return None
        base = self.names[name]
        order = self.definition.order(base)
        power = (int(digits or 1) * (-1 if prime else 1)) % order
        return self.definition.powers(base, "htm")[power - 1].name if power else ""

    def _gather(self, move) -> list[int]:
        gather = list(range(self.points))
        for first, orbit in zip(self.firsts, self.definition.orbits, strict=True):
            if orbit.name in move.changes:
                k = orbit.orientations
                for i, (p, t) in enumerate(zip(*move.changes[orbit.name], strict=True)):
                    for o in range(k):
                        gather[first + i * k + o] = first + p * k + (o - t) % k
        return gather

    def play(self, tokens) -> tuple:
        """The Python state that the moves ``tokens`` make of the solved state."""
        points = tuple(range(self.points))
        for token in tokens:
            points = self.gathers[token](points)
        d, out = self.definition, []
        for j, (first, orbit, (home, home_twists)) in enumerate(zip(self.firsts, d.orbits, d.solved, strict=True)):
            k = orbit.orientations
            pieces, twists = [], []
            for i in range(orbit.size):
                h, seen = divmod(points[first + i * k] - first, k)  # seen at 0: (-t) % k
                pieces.append(home[h])
                twists.append(0 if home[h] in d.wild[j] else (home_twists[h] - seen) % k)
            out.append((tuple(pieces), tuple(twists)))
        return tuple(out)


def read_state(definition: PermutationDefinition, text: str, moves: MoveText):
    """The Python state a text describes (pieces, or moves from the solved state), checked:
    the solved state's pieces, legal, every move playable."""
    tokens = text.split()
    move_names = moves.names
    named = tokens if all(t in move_names for t in tokens) else [moves.canonical(t) for t in tokens]  # names first
    if tokens and all(name is not None for name in named):
        tokens = [name for name in named if name]
        if not definition.constrained:  # every move is playable everywhere
            return moves.play(tokens)
        state = definition.solved
        for token in tokens:
            if not definition.playable(state, move_names[token]):
                raise InvalidPuzzleInput(f"move {token} cannot be played there (it would split a block of pieces, or"
                                         " enter an illegal state)")
            state = definition.apply(state, move_names[token])
        return state
    if tokens and named[0] is not None:  # moves from the solved state, one of them unknown
        at = named.index(None)
        raise InvalidPuzzleInput(f"token {at + 1} is {tokens[at]!r}; expected a move name ({' '.join(move_names)})")
    try:
        state = _read_orbits(definition, tokens)
    except InvalidPuzzleInput as error:
        orbits = {o.name for o in definition.orbits}
        if all(t.isdigit() or t in "/?" or t in orbits for t in tokens):
            raise
        raise InvalidPuzzleInput(f"{error.message}, or moves from the solved state (move names:"
                                 f" {' '.join(move_names)})") from None
    try:
        definition.check_state(state)
    except PuzzleDefinitionError as error:
        raise InvalidPuzzleInput(str(error)) from None
    if not definition.is_legal(state):
        raise InvalidPuzzleInput("the state is illegal: a slot holds a piece that an Illegal line forbids there")
    return state


def _read_orbits(definition: PermutationDefinition, tokens):
    orbits = definition.orbits
    state = list(definition.solved)
    index = {o.name: j for j, o in enumerate(orbits)}
    at, seen = 0, set()
    if len(orbits) == 1 and (not tokens or tokens[0] not in index):
        state[0], at = _read_orbit(definition, 0, tokens, 0)
        seen.add(0)
    while at < len(tokens):
        j = index.get(tokens[at])
        if j is None or j in seen:
            expected = f"orbit {tokens[at]} only once" if j is not None else f"an orbit name ({', '.join(index)})"
            raise InvalidPuzzleInput(f"token {at + 1} is {tokens[at]!r}; expected {expected}")
        seen.add(j)
        state[j], at = _read_orbit(definition, j, tokens, at + 1)
    if not seen:
        raise InvalidPuzzleInput(f"empty state; expected {', '.join(index)} followed by their pieces")
    return tuple(state)


def _read_orbit(definition: PermutationDefinition, j: int, tokens, at):
    orbit = definition.orbits[j]
    names = {str(name): label for label, name in enumerate(definition.label_names[j])}
    pieces = []
    for i in range(at, at + orbit.size):
        if i >= len(tokens):
            raise InvalidPuzzleInput(f"expected {orbit.size} {orbit.name} piece numbers, the text ends after"
                                     f" {len(tokens)} tokens")
        if tokens[i] not in names:
            raise InvalidPuzzleInput(f"token {i + 1} is {tokens[i]!r}; expected a {orbit.name} piece number"
                                     f" {_numbers(definition.label_names[j])}")
        pieces.append(names[tokens[i]])
    at += orbit.size
    twists = [0] * orbit.size
    if orbit.orientations > 1 and at < len(tokens) and tokens[at] == "/":
        twists = []
        for i, piece in zip(range(at + 1, at + 1 + orbit.size), pieces, strict=True):
            token = tokens[i] if i < len(tokens) else None
            wild = piece in definition.wild[j]
            if token == "?" and wild:
                twists.append(0)
            elif token is not None and token.isdigit() and int(token) < orbit.orientations and not wild:
                twists.append(int(token))
            else:
                expected = "?: its orientation is ignored" if wild else \
                    f"a {orbit.name} orientation number 0..{orbit.orientations - 1}"
                raise InvalidPuzzleInput(f"token {i + 1} is {token!r}; expected {expected}")
        at += orbit.size + 1
    return (tuple(pieces), tuple(twists)), at


def _numbers(names) -> str:
    """``1..7`` for consecutive numbers, else the numbers separated by commas."""
    if list(names) == list(range(names[0], names[0] + len(names))) and len(names) > 2:
        return f"{names[0]}..{names[-1]}"
    return ", ".join(map(str, names))
