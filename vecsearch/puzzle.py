"""The puzzle contract: what a state space gives the engine.

Conventions (every built-in puzzle states its own instance of these at the top of its module):

- **State.** ``width`` 64-bit words (``width == 1``: a *narrow* puzzle). The engine holds states as
  int64 (the bit pattern is what matters; a narrow state may use all 64 bits), a layer of narrow
  states as a 1-D int64 array, of wide states as a 2-D ``(n, width)`` array. The first word of a
  valid state is never -1 (hash tables mark empty slots with it). In Python a narrow state is an
  ``int`` in the signed 64-bit range, a wide state a tuple of such ints.
- **Moves.** Numbered ``0 .. max_moves-1``; ``move_names[m]`` is what users see.
- **Children.** ``expand(state, tables, children, moves) -> count`` writes the states one move
  after ``state`` to ``children[0:count]`` and the index of the move that produced each to
  ``moves[0:count]``; ``count <= max_moves``. Children need not be distinct. ``predecessors``
  (same signature, ``count <= max_predecessors``) gives the states one move *before*; reversible
  puzzles need none (their predecessors are their children), directed puzzles without it only
  search forwards.
- **Rank.** ``rank(state, tables)`` in ``[0, rank_size)``: a perfect rank of the states of one
  *component* (``component(state, tables)``, an invariant no move changes, such as a parity:
  states in different components are never connected, and ``rank`` need only be perfect within
  one). With a rank the engine deduplicates with a bitset; without, with a hash set. ``unrank``
  inverts it (two bits per rank: ``bfs(mode="twobit")``); ``expand_rank`` and ``near_rank`` step
  in rank space directly, for puzzles whose moves are table lookups.
- **Goal.** States (a set), or a condition ``is_goal(state, tables) -> bool``.
- **Roles.** Every per-state function (those above, ``heuristic(state, htables)``: an
  admissible bound for A* and IDA*, ...), its signature, whether it is required and what the
  engine does without it is declared once in ``vecsearch.contract.ROLES`` (listed in ``Puzzle``'s
  docstring); ``Rules``, ``Moves`` (count, names, ``inverses[m]``: the move undoing ``m``, which IDA* never plays right
  after ``m``; a puzzle may instead give ``move_sequences``, an automaton of the sequences IDA*
  plays, ``engine.heuristic.sequences``: the permutation puzzles' canonical sequences) and
  ``Rank`` group them with the traits they go with. ``tables`` (a tuple of numpy arrays) is
  handed to every function; a heuristic's tables are ``heuristic_tables(goals)`` when the puzzle
  gives that function, else the tables followed by the goal layer.

The functions are numba ``@njit`` functions (plain functions are compiled for you). A built-in
family's are compiled into its kernels; a user's are compiled apart, with bounds checks, and
handed to kernels shared by every user's puzzle of the same types (``engine.runtime.guarded``): defined
in an importable module they are cached on disk, defined in a notebook they compile once per
process (a fraction of a second), and the kernels load from the cache either way.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

import numba
import numpy as np

from vecsearch._numba import state_function
from vecsearch.contract import RANK_MEMORY, ROLES, ROLES_BY_NAME, Guard, Moves, Rank, Rules, as_record, is_whole
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.fingerprint import puzzle_digest
from vecsearch.heuristics import Heuristic

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def signed64(value: int) -> int:
    """A 64-bit pattern given as an unsigned int, as the signed int64 the engine stores."""
    return value - (1 << 64) if value >= 1 << 63 else value


def unsigned64(value: int) -> int:
    """The unsigned view of a signed int64 state word (for decoding bit fields in Python)."""
    return value & ((1 << 64) - 1)


# A dense rank space of this many ranks or more is searched in two bits before layers, also where each child is
# built as a state (``Puzzle.prefers_two_bit``): layers of states outgrow the caches, and the two-bit search pulls
# the late layers. Whole searches: sliding-3x4 5.6 s against 6.6 s in layers, sliding-2x5 (1.8 M ranks) 0.055 s
# against 0.048 s; puzzlerchallenger (labels form, 2.9 M) 1.38 s against 1.73 s; a 3x3x3 coset space of six
# edges (labels form, 42.6 M) 8.6 s against 26.5 s
TWO_BIT_RANKS = 1 << 24


# The least move capacity of a puzzle of your own. Its kernels are compiled per shape (the state's width, the
# functions it gives, its kind of values) and per capacity; with a capacity of their own for 4, 8, 16 and 32 moves,
# puzzles of one shape compiled their kernels again for each. One capacity up to 64 moves: the test files of users'
# puzzles compile 17 families, not 22 (216 -> 200 CPU s from empty caches). Only scratch arrays grow with it
SHARED_CAPACITY = 64


def move_capacity(max_moves: int) -> int:
    """``max_moves`` rounded up to a power of two (at least 4): the default move capacity of a
    family (``Puzzle.move_capacity``)."""
    return max(4, 1 << (max_moves - 1).bit_length())


class Puzzle:
    """A state space: its rules as numba functions over packed states, plus text for users.

    The expert's way to define a puzzle (`ValuePuzzle` packs states for you): states are 64-bit
    words (``Rules(width=)`` of them), and the functions the records hold (`Rules`, `Rank`) run
    compiled in the engine's kernels. A family of built-in puzzles sets ``rules``, ``rank`` and
    ``moves`` as class attributes (what every member shares) and parses and formats its own
    notation.

    Parameters
    ----------
    name : str
        The puzzle's name.
    rules : Rules or function
        The functions over states (``expand``, ``predecessors``, ``component``), the width and
        direction of states; or the ``expand`` function alone.
    moves : Moves or int
        The moves' number, names and inverses; or their number.
    rank : Rank, optional
        A perfect rank and its size, ``unrank``, rank steps (bitsets, two-bit searches and
        distance tables need it; without it, visited states go in a hash set).
    tables : tuple of numpy.ndarray, optional
        Arrays handed to every function (a ``NamedTuple`` of them too).
    start : state, optional
        The default start.
    goal : state, sequence of states, or function, optional
        The default goal: a state, a set, or a condition ``is_goal(state, tables) -> bool``.
    heuristic : function, optional
        ``heuristic(state, htables) -> bound``: an admissible lower bound for A* and IDA*.
    heuristic_tables : function, optional
        ``heuristic_tables(goals)``: the heuristic's tables (default: the tables, then the goal
        layer).
    check : bool, default True
        Probe the functions on their first use in this process (`validate`); False skips it
        (the kernels check what they return all the same).

    See Also
    --------
    ValuePuzzle : States as values, packed and ranked by vecsearch.
    validate : Probe a puzzle's functions now.

    Examples
    --------
    >>> import numpy as np
    >>> masks = np.array([0b11, 0b111, 0b110], dtype=np.int64)   # three lights, each press toggles its neighbours
    >>> def press(state, tables, children, moves):
    ...     for m in range(3):
    ...         children[m] = state ^ tables[0][m]
    ...         moves[m] = m
    ...     return 3
    >>> lights = vs.Puzzle("lights-3", press, 3, rank=vs.Rank(lambda s, t: s, 8), tables=(masks,),
    ...                    start=0, goal=0b111)
    >>> len(vs.solve(lights)), vs.bfs(lights).total_states
    (1, 8)
    """

    rules: Rules | None = None  # a family's rules (class attribute), when its members share them
    moves: Moves | None = None
    rank: Rank | None = None

    def __init__(self, name: str, rules=None, moves=None, *, rank=None, tables: tuple = (), start=None, goal=None,
                 heuristic=None, heuristic_tables=None, check: bool = True):
        self.name = name
        self.rules = as_record(rules if rules is not None else type(self).rules, Rules, "expand", name, "rules")
        self.moves = as_record(moves if moves is not None else type(self).moves, Moves, "count", name, "moves")
        rank = rank if rank is not None else type(self).rank
        self.rank = None if rank is None else as_record(rank, Rank, None, name, "rank")
        if self.rank is not None and self.rank.size is None:
            raise PuzzleDefinitionError(f"{name}: the Rank needs its size (the number of ranks)")
        self.width = _count(self.rules.width, name, "the width (words a state)")
        self.max_moves = _count(self.moves.count, name, "the number of moves")
        self.max_predecessors = (self.max_moves if self.rules.max_predecessors is None else
                                 _count(self.rules.max_predecessors, name, "max_predecessors"))
        self.tables = _contiguous(tables)
        self.reversible = bool(self.rules.reversible)
        self.rank_size = None if self.rank is None else _count(self.rank.size, name, "the Rank's size")
        names = self.moves.names
        self.move_names = tuple(names) if names else tuple(str(m) for m in range(self.max_moves))
        if len(self.move_names) != self.max_moves:
            raise PuzzleDefinitionError(f"{name}: {len(self.move_names)} move names for {self.max_moves} moves")
        inverses = self.moves.inverses
        self.inverse_moves = None if inverses is None else tuple(int(m) for m in inverses)
        if self.inverse_moves is not None and (
            len(self.inverse_moves) != self.max_moves or not all(-1 <= m < self.max_moves for m in self.inverse_moves)
        ):
            raise PuzzleDefinitionError(f"{name}: the inverses need one move index (or -1) per move")
        given: dict[str | None, object] = {"rules": self.rules, "rank": self.rank}
        self._functions = {role.kernel_name: _jitted(getattr(given[role.record], role.name))
                           if given.get(role.record) is not None and getattr(given[role.record], role.name) is not None
                           else None for role in ROLES if role.record in given or role.record is None}
        self._functions.pop("heuristic_update_state")
        self._functions.pop("heuristic_children_state")
        self._functions["is_goal_state"] = _jitted(goal) if callable(goal) else None
        for role in ROLES:
            missing = [n for n in role.needs if self._functions.get(f"{n}_state") is None]
            if self._functions.get(role.kernel_name) is not None and missing:
                raise PuzzleDefinitionError(f"{name}: {role.name} needs {' and '.join(missing)} too")
        self._heuristic = _jitted(heuristic) if heuristic is not None else None
        self._heuristic_tables = heuristic_tables
        self._goal = None if callable(goal) else goal
        self._start = start
        self.checked = not check  # validated (or trusted): no probe on first use
        self.serial = secrets.randbits(62)  # names the puzzle in a BrokenRule (``BrokenRule.describing``)
        # Whether every function is vecsearch's own (built-in families): their kernels run them
        # unchecked, and no probe runs on first use. A user's functions are checked.
        self.trusted = all(f is None or (getattr(f, "py_func", f).__module__ or "").startswith("vecsearch.")
                           for f in [*self._functions.values(), self._heuristic])

    # --- what the engine asks -------------------------------------------------------------
    @property
    def has_rank(self) -> bool:
        """Whether the puzzle has a perfect rank (bitsets, two-bit search, distance tables need one)."""
        return self.rank_size is not None

    @property
    def has_unrank(self) -> bool:
        """Whether states can be rebuilt from ranks (what the two-bit search needs)."""
        return self._functions["unrank_state"] is not None

    @property
    def _steps_in_rank_space(self) -> bool:
        """Whether the puzzle computes its children's ranks from a rank (``expand_rank``)."""
        return self._functions["expand_rank_state"] is not None

    @property
    def prefers_two_bit(self) -> bool:
        """Whether a whole-space search takes two bits per rank before layers when both fit:
        by default when the puzzle steps in rank space (table lookups, no states built). A
        family whose ranks are dense (nearly every rank a state) says so too from
        ``TWO_BIT_RANKS`` ranks on (the permutation puzzles); one whose ``expand_rank`` must
        unrank first, and whose layers are cheap from states, only then (the sliding puzzles)."""
        return self._steps_in_rank_space

    @property
    def searchable_backward(self) -> bool:
        """Whether the engine can search backwards (the puzzle is reversible or has predecessors)."""
        return self.reversible or self._functions["predecessors_state"] is not None

    @property
    def has_default_start(self) -> bool:
        """Whether the puzzle names a start state of its own."""
        return self._start is not None

    @property
    def has_default_goal(self) -> bool:
        """Whether the puzzle names goal states of its own (``goal_states()`` without arguments)."""
        return self._goal is not None

    @property
    def has_goal_condition(self) -> bool:
        """Whether the goal is a condition (``Puzzle(goal=is_goal)``) rather than states."""
        return self._functions["is_goal_state"] is not None

    @property
    def functions(self) -> Mapping[str, object]:
        """The compiled per-state functions by the kernel name of their role (``expand_state``,
        ``rank_state``, ...: ``vecsearch.contract.ROLES``; None: not given), read-only. The
        engine binds them into its kernels (``vecsearch.engine.runtime.codegen.layer_kernels``)."""
        return MappingProxyType(self._functions)

    @property
    def guard(self) -> Guard | None:
        """How compiled kernels check this puzzle's functions: None for a trusted puzzle, else
        the guards of ``vecsearch/kernels/guard_template.py`` around each function given."""
        return None if self.trusted else Guard("guard_template", "puzzles of your own")

    def limits(self) -> np.ndarray:
        """What the guards check outputs against (``vecsearch.kernels.guards``): the puzzle's
        ``serial``, ``max_moves``, ``max_predecessors``, ``rank_size`` (0 without a rank), -1."""
        return np.array([self.serial, self.max_moves, self.max_predecessors, self.rank_size or 0, -1], np.int64)

    def layout_arrays(self) -> tuple:
        """Arrays the guards need beyond ``limits`` (a puzzle over values: how they are packed)."""
        return ()

    def state_types(self) -> tuple:
        """The numba types of one state and of an array of states, as the user's functions see
        them (``engine.runtime.guarded`` compiles them for these)."""
        vector = numba.types.Array(numba.types.int64, 1, "C")
        if self.width == 1:
            return numba.types.int64, vector
        return vector, numba.types.Array(numba.types.int64, 2, "C")

    def probe_function(self, kernel_name: str):
        """The function of a role (``expand_state``, ...) as plain Python over packed states, for
        ``validate`` (None: not given)."""
        function = self._functions.get(kernel_name)
        if function is None:
            return None
        if self.trusted and ROLES_BY_NAME[kernel_name.removesuffix("_state")].memory:  # vecsearch's own take memory
            return functools.partial(_with_memory, python_function(function))
        return python_function(function)

    @property
    def max_children(self) -> int:
        """Room for the children (or predecessors) of one state: ``max_moves``, or
        ``max_predecessors`` when that is larger."""
        return max(self.max_moves, self.max_predecessors if self._functions["predecessors_state"] else 0)

    @property
    def move_capacity(self) -> int:
        """Room for children per state in the compiled kernels: at least ``max_children``, and
        the same for every member of a family (it is compiled into the kernels). A puzzle of
        your own takes at least ``SHARED_CAPACITY``: its kernels serve every puzzle of the same
        shape, whatever its number of moves."""
        capacity = move_capacity(self.max_children)
        return capacity if self.trusted else max(SHARED_CAPACITY, capacity)

    @property
    def heuristic_names(self) -> tuple[str, ...]:
        """Heuristics ``make_heuristic`` knows, the default first (empty: none, no A* / IDA*)."""
        return ("default",) if self._heuristic is not None else ()

    @property
    def move_sequences(self) -> np.ndarray | None:
        """The automaton of the move sequences IDA* plays (``engine.heuristic.sequences``), or None: the
        moves that undo the previous one are left out (``inverse_moves``)."""
        return None

    def make_heuristic(self, goals: np.ndarray, name: str, **options):
        """The ``Heuristic`` called ``name`` towards the goal layer ``goals``."""
        if options:
            raise TypeError(f"{self.name}: heuristic {name!r} takes no options, got {sorted(options)}")
        tables = _contiguous(self._heuristic_tables(goals)) if self._heuristic_tables else (*self.tables, goals)
        return Heuristic(self, name, self._heuristic, tables, goals, "given with the puzzle")

    @property
    def identity(self) -> str:
        """A digest of what the puzzle computes: its functions (their code, and what it reads),
        tables, moves and sizes (``vecsearch.fingerprint``). A resumed batch's answers must come
        from a puzzle of the same identity."""
        if getattr(self, "_identity", None) is None:
            self._identity = puzzle_digest(self)
        return self._identity

    @property
    def kernel_label(self) -> str:
        """Names the generated kernel module; puzzles sharing functions may share it."""
        return self.name

    # --- states in and out ----------------------------------------------------------------
    def parse_state(self, text: str):
        """One state from its text form. The base class reads the packed words as integers."""
        tokens = text.split()
        if len(tokens) != self.width:
            raise InvalidPuzzleInput(f"expected {self.width} integer(s), got {len(tokens)} token(s) in {text!r}")
        words = []
        for token in tokens:
            try:
                words.append(int(token, 0))
            except ValueError:
                raise InvalidPuzzleInput(f"token {token!r} is not an integer") from None
        return self._check_words(words)

    def format_state(self, state) -> str:
        """Text that ``parse_state`` reads back to the same state."""
        words = [state] if self.width == 1 else list(state)
        return " ".join(str(int(w)) for w in words)

    def format_moves(self, moves: Sequence[int]) -> str:
        """A move sequence as users write it (space-separated move names by default)."""
        return " ".join(self.move_names[m] for m in moves)

    def move_labels(self, states, moves: Sequence[int]) -> list[str]:
        """What users call each move of a path, ``states[i]`` being the state move ``i`` is
        played in: ``move_names[m]`` by default. Puzzles whose moves are best named after the
        state (the square of an indistinguishable piece) override this and ``format_path``."""
        return [self.move_names[m] for m in moves]

    def format_path(self, states, moves: Sequence[int]) -> str:
        """A path's moves as users write them (``format_moves`` by default)."""
        return self.format_moves(moves)

    def draw(self, state):
        """How to picture ``state``: a ``vecsearch.svg.Board``, or None (shown as its text).
        Puzzles override this; it is all they supply for ``show`` and solution pictures."""
        return None

    def show(self, state):
        """``state`` as notebooks display it (an SVG picture, or its text)."""
        from vecsearch.svg import StateView

        return StateView(self, self.state(state) if isinstance(state, str) else state)

    def state(self, value):
        """One state from text, an int (narrow), or a sequence of words (wide)."""
        if isinstance(value, str):
            return self.parse_state(value)
        if self.width == 1:
            if isinstance(value, (int, np.integer)):
                return self._one_of_its_states(self._check_words([int(value)]))
        elif isinstance(value, (tuple, list, np.ndarray)) and len(value) == self.width:
            return self._one_of_its_states(self._check_words([int(w) for w in value]))
        raise InvalidPuzzleInput(f"{self.name}: cannot read a state from {value!r}")

    def _one_of_its_states(self, state):
        """``state`` (words a user packed) if it is one of the puzzle's states: its text reads
        back to it, ``format_state`` and ``parse_state`` being inverse on states (a puzzle with
        no text form of its own takes any words). Refused otherwise: a search from words that
        are no state would answer for something else. An array of packed states is taken as it
        is (``states``: the states the engine itself returns, in bulk)."""
        if type(self).format_state is Puzzle.format_state:
            return state
        try:
            text = self.format_state(state)
            back = self.parse_state(text)
        except Exception as error:  # noqa: BLE001 - words that are no state may break a format in any way
            raise InvalidPuzzleInput(f"{self.name}: {state} is not a packed state of this puzzle ({error})") from None
        if not np.array_equal(np.asarray(back, dtype=np.int64), np.asarray(state, dtype=np.int64)):
            raise InvalidPuzzleInput(f"{self.name}: {state} is not a packed state of this puzzle (its text"
                                     f" {text!r} packs as {back})")
        return state

    def is_state_words(self, value) -> bool:
        """Whether ``value`` is one wide state's words: a tuple, list or 1-D array of ``width``
        integers (never for a narrow puzzle, whose states are single ints)."""
        if self.width == 1 or not isinstance(value, (tuple, list, np.ndarray)) or len(value) != self.width:
            return False
        if isinstance(value, np.ndarray):
            return value.ndim == 1 and value.dtype.kind in "iu"
        return all(isinstance(v, (int, np.integer)) for v in value)

    def states(self, value) -> np.ndarray:
        """A layer array from one state or many (text, ints, or an array of packed states)."""
        if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim == (1 if self.width == 1 else 2):
            array = np.ascontiguousarray(value, dtype=np.int64)
            if self.width > 1 and array.shape[1] != self.width:
                raise InvalidPuzzleInput(f"{self.name}: states need {self.width} words, array has {array.shape[1]}")
            return array
        if isinstance(value, (str, int, np.integer)) or self.is_state_words(value) or not isinstance(value, Iterable):
            value = [value]  # one state (what is not a state says so: ``state``)
        rows = [self.state(v) for v in value]
        shape = (len(rows),) if self.width == 1 else (len(rows), self.width)
        return np.array(rows, dtype=np.int64).reshape(shape)

    def start_states(self) -> np.ndarray:
        """The default start (a layer); the goal when no start was given."""
        if self._start is None and self._goal is None:
            raise InvalidPuzzleInput(f"{self.name} has no start or goal of its own: give a start state")
        return self.states(self._start if self._start is not None else self._goal)

    def goal_states(self) -> np.ndarray:
        """The goal set (a layer). A goal given as a condition has none here: the engine turns
        it into states when a method needs them (``vecsearch.engine.runtime.goals``)."""
        if self.has_goal_condition:
            raise InvalidPuzzleInput(f"{self.name}'s goal is a condition, not states")
        if self._goal is None:
            raise InvalidPuzzleInput(f"{self.name} has no default goal: give one")
        return self.states(self._goal)

    def _check_words(self, words):
        for w in words:
            if not INT64_MIN <= w <= INT64_MAX:
                raise InvalidPuzzleInput(f"state word {w} does not fit in 64 signed bits")
        if words[0] == -1:
            raise InvalidPuzzleInput("a state's first word cannot be -1 (reserved)")
        return words[0] if self.width == 1 else tuple(words)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"




def _with_memory(function, *arguments):
    """``function`` (a rank-space role of vecsearch's) called as a user's is, with a fresh memory."""
    return function(*arguments, np.full(RANK_MEMORY, -1, np.int64))


def python_function(function):
    """``function`` as plain Python (bounds-checked, readable errors), or compiled when it uses
    numba intrinsics that have no Python implementation."""
    plain = getattr(function, "py_func", function)

    def run(*args):
        try:
            return plain(*args)
        except NotImplementedError as error:
            if "pure-python" not in str(error) or plain is function:
                raise
            return function(*args)

    return run


def _count(value, name: str, what: str) -> int:
    """``value`` (a width, a number of moves, a rank's size) as an int: a whole number, 1 or more."""
    if not is_whole(value, 1):
        raise PuzzleDefinitionError(f"{name}: {what} must be a whole number, 1 or more, not {value!r}")
    return int(value)


def _contiguous(tables):
    """``tables`` with every array contiguous, of the same tuple type (a ``NamedTuple`` of
    arrays stays one, so rules read ``tables.neighbours`` rather than ``tables[2]``)."""
    if isinstance(tables, np.ndarray):
        raise PuzzleDefinitionError("tables is a tuple of arrays; wrap a single array as (array,)")
    arrays = [np.ascontiguousarray(t) for t in tables]
    return type(tables)(*arrays) if hasattr(tables, "_fields") else tuple(arrays)


def _jitted(function):
    if isinstance(function, numba.core.registry.CPUDispatcher):
        return function
    if callable(function):
        return state_function(function)
    raise PuzzleDefinitionError(f"expected a function, got {function!r}")
