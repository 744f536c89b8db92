"""Patterns of permutation puzzles: the solved state seen coarsely.

A pattern is written like a state (``statetext``) and read against the puzzle's solved state:
the number at slot ``i`` names a *class* for the piece the solved state has there; pieces given
the same number, or ``?``, become identical, and an orientation ``?`` stops counting theirs
(other orientations are the solved state's). ``ORBIT ?`` makes a whole orbit ``?``. The pattern
*matches* every state that looks like the solved state once those pieces are told apart no more:
"the cross is solved" (the four cross edges in place and oriented, everything else ``?``).

- ``Pattern.puzzle``: the coset space, the puzzle with the pattern as its solved state
  (identical pieces: ``labels``); searching from a state's ``project``ion to its solved state
  solves for the pattern, and its states are the classes of states the pattern tells apart.
- ``Pattern.states(puzzle)``: the states of the puzzle (or of a finer coarsening) that match,
  enumerated, in the solved state's component: a goal set, or the starts of a search.
- ``phases(puzzle, start, goal)``: from every position matching ``start``, the distance to the
  nearest matching ``goal``, in the coarsest puzzle that tells both patterns apart ("God's number
  between two phases" of a method); positions the puzzle cannot reach from its solved state are
  left out.

A coarsening is stored per orbit as ``classes[j][label]`` (the class of each of the puzzle's
labels) and ``ignored[j]`` (the classes whose orientation is not counted).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from vecsearch.errors import InvalidPuzzleInput
from vecsearch.puzzles.permutation.definition import PermutationDefinition

MAX_MATCHES = 1 << 22  # states a pattern may enumerate (in Python: about 10 s)


class Coarsening:
    """A way of telling a puzzle's pieces apart less: classes of its labels, per orbit."""

    def __init__(self, puzzle, classes, ignored, name: str):
        self.fine = puzzle  # the PermutationPuzzle coarsened
        self.classes = tuple(tuple(c) for c in classes)
        self.ignored = tuple(frozenset(i) for i in ignored)
        self.name = name
        self._puzzle = None

    @classmethod
    def identity(cls, puzzle):
        """The puzzle itself, as a coarsening (its ``puzzle`` is the puzzle)."""
        d = puzzle.definition
        same = cls(puzzle, [range(len(names)) for names in d.label_names], d.wild, puzzle.name)
        same._puzzle = puzzle
        return same

    def meet(self, other: Coarsening, name: str) -> Coarsening:
        """The coarsest coarsening finer than both: pieces told apart by either are told apart."""
        classes, ignored = [], []
        for mine, theirs, skip_mine, skip_theirs in zip(self.classes, other.classes, self.ignored, other.ignored,
                                                        strict=True):
            pairs = sorted(set(zip(mine, theirs, strict=True)))
            classes.append([pairs.index(pair) for pair in zip(mine, theirs, strict=True)])
            ignored.append({pairs.index((a, b)) for a, b in pairs if a in skip_mine and b in skip_theirs})
        return Coarsening(self.fine, classes, ignored, name)

    def _finer_than(self, other: Coarsening) -> bool:
        """Whether every class of ``self`` lies in one of ``other``'s (and counts orientation if it does)."""
        for mine, theirs, skip_mine, skip_theirs in zip(self.classes, other.classes, self.ignored, other.ignored,
                                                        strict=True):
            into = {}
            for a, b in zip(mine, theirs, strict=True):
                if into.setdefault(a, b) != b or (a in skip_mine and b not in skip_theirs):
                    return False
        return True

    def _numbers(self, j: int) -> dict[int, int]:
        """Orbit ``j``'s classes numbered as the smallest piece in each (as the puzzle writes it)."""
        names, number = self.fine.definition.label_names[j], {}
        for label, c in enumerate(self.classes[j]):
            number[c] = min(number.get(c, names[label]), names[label])
        return number

    def label_of(self, j: int) -> dict[int, int]:
        """Orbit ``j``'s classes as labels of ``puzzle`` (its labels are the numbers in order)."""
        number = self._numbers(j)
        order = sorted(number.values())
        return {c: order.index(n) for c, n in number.items()}

    @property
    def definition(self) -> PermutationDefinition:
        """The fine puzzle with this coarsening of its solved state."""
        d = self.fine.definition
        solved = {}
        for j, (orbit, (pieces, twists)) in enumerate(zip(d.orbits, d.solved, strict=True)):
            number = self._numbers(j)
            classes = [self.classes[j][p] for p in pieces]
            solved[orbit.name] = ([number[c] - 1 for c in classes],
                                  [None if c in self.ignored[j] else t for c, t in zip(classes, twists, strict=True)])
        return PermutationDefinition(self.name, d.orbits, d.moves, solved, rotations=d.rotations, aliases=d.aliases)

    @property
    def puzzle(self):
        """The coset space: the puzzle with this coarsening of its solved state as its solved state."""
        if self._puzzle is None:
            self._puzzle = type(self.fine)(self.definition, self.fine.metric, name=self.name)
        return self._puzzle

    def project(self, state):
        """The Python state of ``puzzle`` (this coarsening's) that a state of the fine puzzle looks like."""
        out = []
        for j, (pieces, twists) in enumerate(state):
            label = self.label_of(j)
            out.append((tuple(label[self.classes[j][p]] for p in pieces),
                        tuple(0 if self.classes[j][p] in self.ignored[j] else t
                              for p, t in zip(pieces, twists, strict=True))))
        return tuple(out)

    def states(self, within: Coarsening | None = None) -> np.ndarray:
        """The states of ``within``'s puzzle (default: the fine puzzle) that match this
        coarsening's solved state (packed): the positions, the states its solved state reaches,
        when that puzzle's pieces are distinct (``PermutationPuzzle.reaches``), else those in its
        solved state's component (the invariants its rank keeps)."""
        within = within or Coarsening.identity(self.fine)
        if not within._finer_than(self):
            raise InvalidPuzzleInput(f"{within.name} does not tell apart every piece {self.name} does")
        d, target = self.fine.definition, within.puzzle
        per_orbit, total = [], 1
        for j, (orbit, (pieces, twists)) in enumerate(zip(d.orbits, d.solved, strict=True)):
            label = within.label_of(j)
            options = _orbit_matches(orbit, [label[within.classes[j][p]] for p in pieces],
                                     [self.classes[j][p] for p in pieces], twists,
                                     {label[c] for c in within.ignored[j]}, self.ignored[j])
            per_orbit.append(options)
            total *= options[0]
            if total > MAX_MATCHES:
                raise InvalidPuzzleInput(f"{self.name} matches more than {MAX_MATCHES:,} states of {within.name};"
                                         " search its coset space instead (Pattern.puzzle)")
        states = target.states(_encoded(target, itertools.product(*(o[1] for o in per_orbit))))
        return _in_component(target, states, target.goal_states())


def _orbit_matches(orbit, fine, coarse, twists, fine_ignored, coarse_ignored):
    """``(count, iterator)`` of an orbit's ``(pieces, twists)`` of the fine classes that match
    the coarse classes slot by slot (``twists``: the solved state's)."""
    slots_of = {}
    for slot, c in enumerate(coarse):
        slots_of.setdefault(c, []).append(slot)
    groups = [(slots, sorted(fine[s] for s in slots)) for slots in slots_of.values()]
    count = math.prod(math.factorial(len(labels)) // math.prod(math.factorial(labels.count(v)) for v in set(labels))
                      for _, labels in groups)
    free = sum(1 for s, f in enumerate(fine) if f not in fine_ignored and coarse[s] in coarse_ignored)
    count *= orbit.orientations ** free

    def arrangements():
        for choice in itertools.product(*(_multiset_permutations(labels) for _, labels in groups)):
            pieces = [0] * orbit.size
            for (slots, _), labels in zip(groups, choice, strict=True):
                for s, v in zip(slots, labels, strict=True):
                    pieces[s] = v
            choices = [[0] if pieces[s] in fine_ignored else range(orbit.orientations) if coarse[s] in coarse_ignored
                       else [twists[s]] for s in range(orbit.size)]
            for chosen in itertools.product(*choices):
                yield tuple(pieces), tuple(chosen)

    return count, list(arrangements()) if count <= MAX_MATCHES else []


def _encoded(puzzle, states) -> list:
    """The packed states of those ``states`` that the solved state reaches, when the puzzle can
    tell (``PermutationPuzzle.reaches``)."""
    return [puzzle.encode(state) for state in states if puzzle.reaches(state) is not False]


def _multiset_permutations(values):
    values = sorted(values)
    while True:
        yield tuple(values)
        i = len(values) - 2
        while i >= 0 and values[i] >= values[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(values) - 1
        while values[j] <= values[i]:
            j -= 1
        values[i], values[j] = values[j], values[i]
        values[i + 1:] = reversed(values[i + 1:])


def _in_component(puzzle, states, reference):
    from vecsearch.engine import components

    return states[components(puzzle, states) == components(puzzle, reference)[0]]


class Pattern(Coarsening):
    """The solved state seen coarsely: the set of states that look like it.

    Written like a state: pieces that do not matter are ``?`` (or share a number: identical),
    and an orientation ``?`` stops counting it. A pattern is a goal set or a start set, and its
    coset space (``pattern.puzzle``) is the puzzle with the pattern as its solved state.

    Parameters
    ----------
    puzzle : PermutationPuzzle or str
        The puzzle, or its name.
    text : str
        The pattern, written as a state of the puzzle is.

    See Also
    --------
    phases : The distances from one pattern to another.

    Examples
    --------
    >>> cube = vs.get_puzzle("2x2x2.tws")
    >>> face = cube.pattern("? ? ? ? 5 6 7 8")            # the D face solved
    >>> vs.bfs(face.puzzle).layer_sizes
    [1, 15, 198, 2030, 15396, 61768, 53528, 3144]
    >>> face.matches(cube.state("U")), face.matches(cube.state("R U"))
    (True, False)
    """

    def __init__(self, puzzle, text: str):
        puzzle = permutation_puzzle(puzzle)
        self.text = text
        classes, ignored = _read(puzzle.definition, text)
        super().__init__(puzzle, classes, ignored, f"{puzzle.name} [{' '.join(text.split())}]")

    def matches(self, state) -> bool:
        """Whether a state of the puzzle (packed) matches the pattern."""
        return self.project(self.fine.pieces(state)) == self.puzzle.definition.solved

    def __repr__(self) -> str:
        return f"<Pattern {self.text!r} of {self.fine.name}>"


def _read(definition: PermutationDefinition, text: str):
    """Per orbit, the class of each label and the classes whose orientation is ignored."""
    tokens = text.split()
    index = {o.name: j for j, o in enumerate(definition.orbits)}
    given = {}
    at = 0
    if len(definition.orbits) == 1 and tokens and tokens[0] not in index:
        tokens = [definition.orbits[0].name] + tokens
    while at < len(tokens):
        j = index.get(tokens[at])
        if j is None or j in given:
            expected = f"orbit {tokens[at]} only once" if j is not None else f"an orbit name ({', '.join(index)})"
            raise InvalidPuzzleInput(f"pattern token {at + 1} is {tokens[at]!r}; expected {expected}")
        orbit = definition.orbits[j]
        following = tokens[at + 2] if at + 2 < len(tokens) else None
        if tokens[at + 1:at + 2] == ["?"] and (following is None or not (following == "?" or following.isdigit())):
            given[j], at = (["?"] * orbit.size, ["?"] * orbit.size), at + 2
            continue
        pieces = tokens[at + 1:at + 1 + orbit.size]
        if len(pieces) < orbit.size or not all(t == "?" or t.isdigit() for t in pieces):
            raise InvalidPuzzleInput(f"pattern: expected {orbit.size} {orbit.name} pieces (numbers or ?) after"
                                     f" token {at + 1}")
        at += 1 + orbit.size
        labels, solved_twists = definition.solved[j]  # without '/': ? for ? pieces, else the solved state's
        twists = ["?" if p == "?" or v in definition.wild[j] else str(t)
                  for p, v, t in zip(pieces, labels, solved_twists, strict=True)]
        if at < len(tokens) and tokens[at] == "/":
            twists = tokens[at + 1:at + 1 + orbit.size]
            if len(twists) < orbit.size:
                raise InvalidPuzzleInput(f"pattern: expected {orbit.size} {orbit.name} orientations after '/'")
            at += 1 + orbit.size
        given[j] = (pieces, twists)
    classes, ignored = [], []
    for j, orbit in enumerate(definition.orbits):
        labels, solved_twists = definition.solved[j]
        pieces, twists = given.get(j, ([str(definition.label_names[j][v]) for v in labels],
                                       [str(t) for t in solved_twists]))
        if j not in given and definition.wild[j]:
            twists = ["?" if v in definition.wild[j] else t for v, t in zip(labels, twists, strict=True)]
        names = sorted({p for p in pieces if p != "?"}, key=int) + (["?"] if "?" in pieces else [])
        of_label, skip = {}, set()
        for slot, (label, piece, twist) in enumerate(zip(labels, pieces, twists, strict=True)):
            c = names.index(piece)
            if of_label.setdefault(label, c) != c:
                raise InvalidPuzzleInput(f"pattern, orbit {orbit.name}: slots holding identical pieces in the solved"
                                         f" state get different classes ({names[of_label[label]]} and {piece})")
            if twist == "?":
                skip.add(c)
            elif label in definition.wild[j]:
                raise InvalidPuzzleInput(f"pattern, orbit {orbit.name}, slot {slot + 1}: the puzzle ignores that"
                                         " piece's orientation; write ?")
            elif twist != str(solved_twists[slot]):
                raise InvalidPuzzleInput(f"pattern, orbit {orbit.name}, slot {slot + 1}: orientation {twist!r}; a"
                                         f" pattern keeps the solved state's ({solved_twists[slot]}) or ignores it (?)")
        for label, twist in zip(labels, twists, strict=True):
            if (twist == "?") != (of_label[label] in skip):
                raise InvalidPuzzleInput(f"pattern, orbit {orbit.name}: pieces of class {names[of_label[label]]}"
                                         " must all have their orientation ignored (?) or none")
        classes.append([of_label[v] for v in range(len(definition.label_names[j]))])
        ignored.append(skip)
    return classes, ignored


def permutation_puzzle(puzzle):
    """``puzzle``, or the puzzle it names, refused unless a permutation puzzle: patterns are
    pieces left out of its states."""
    from vecsearch.registry import puzzle_of

    puzzle = puzzle_of(puzzle)
    if not isinstance(getattr(puzzle, "definition", None), PermutationDefinition):
        raise InvalidPuzzleInput(f"{getattr(puzzle, 'name', puzzle)}: patterns are states of permutation puzzles"
                                 " (FILE.tws, pocket-..., pancake-...)")
    return puzzle


def phases(puzzle, start: str | Pattern, goal: str | Pattern, *, threads=None, max_memory=None, progress=False):
    """God's number between two phases: from each position matching one pattern to another.

    Searched in the coarsest puzzle that tells both patterns apart: one distance table from its
    solved state (the positions), and one from the goal states unless the goal is that solved
    state; states matching ``start`` that are no position are left out (``left_out``).

    Parameters
    ----------
    puzzle : PermutationPuzzle or str
        The puzzle, or its name.
    start : str or Pattern
        The first phase's pattern.
    goal : str or Pattern
        The second phase's pattern.
    threads : int, optional
        Threads (default: all cores).
    max_memory : int or str, optional
        Bytes the tables may use.
    progress : bool, default False
        Draw a bar of the tables' layers.

    Returns
    -------
    Distances
        ``counts[d]``: positions matching ``start`` whose nearest ``goal`` is ``d`` moves away;
        ``maximum``: God's number between the phases.

    See Also
    --------
    distances_between : The same between any sets of states.

    Examples
    --------
    >>> cube = vs.get_puzzle("pocket-htm")          # the 2x2x2, its DBL corner fixed: 3,674,160 positions
    >>> between = vs.phases(cube, "? ? ? ? 5 6 7", "1 2 3 4 5 6 7")    # from the D face solved to solved
    >>> between.maximum, sum(between.counts)
    (11, 648)
    """
    from vecsearch.engine import DistanceTable, distances_between, distances_in

    puzzle = permutation_puzzle(puzzle)
    start = start if isinstance(start, Pattern) else Pattern(puzzle, start)
    goal = goal if isinstance(goal, Pattern) else Pattern(puzzle, goal)
    both = start.meet(goal, f"{puzzle.name} [{start.text}] & [{goal.text}]")
    space = both.puzzle
    starts, goals = start.states(both), goal.states(both)
    # the positions: what the solved state reaches (the moves generate a group, so it reaches back)
    legal = DistanceTable(space, threads=threads, max_memory=max_memory, progress=progress)
    reachable = legal.distances_of(starts) >= 0
    starts, goals = starts[reachable], goals[legal.distances_of(goals) >= 0]
    if len(goals) == 1 and (goals == space.goal_states()).all():
        result = distances_in(legal, starts)
    else:
        result = distances_between(space, starts, goals, threads=threads, max_memory=max_memory, progress=progress)
    result.left_out = int((~reachable).sum())
    result.note = "positions matching the start pattern that the puzzle cannot reach from its solved state"
    return result
