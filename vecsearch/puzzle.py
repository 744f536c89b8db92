"""The puzzle contract: what a state space gives the engine.

Conventions (every built-in puzzle states its own instance of these at the top of its module):

- **State.** ``width`` 64-bit words (``width == 1``: a *narrow* puzzle). The engine holds states as
  int64 (the bit pattern is what matters; a narrow state may use all 64 bits), a layer of narrow
  states as a 1-D int64 array, of wide states as a 2-D ``(n, width)`` array. The first word of a
  valid state is never -1 (hash tables mark empty slots with it). In Python a narrow state is an
  ``int`` in the signed 64-bit range, a wide state a tuple of such ints.
- **Moves.** Numbered ``0 .. max_moves-1``; ``move_names[m]`` is what users see.
- **expand(state, tables, children, moves) -> count.** Writes the states one move after
  ``state`` to ``children[0:count]`` and the index of the move that produced each to
  ``moves[0:count]``; ``count <= max_moves``. Children need not be distinct.
- **predecessors(...)**, same signature: the states one move *before* ``state``. Reversible
  puzzles (every move undone by one move) need none: their predecessors are their children.
  Directed puzzles without it can only search forwards.
- **rank(state, tables) -> int** in ``[0, rank_size)``, optional: a perfect rank of the states of
  one *component* (below). With it the engine deduplicates with a bitset of ``rank_size`` bits
  per search side; without it, with a hash set.
- **component(state, tables) -> int**, optional: an invariant (a parity, a stone count) that no
  move changes. States in different components are never connected, so a search between them
  answers "unreachable" at once, and ``rank`` need only be perfect within one component.
- **unrank(rank, component, tables) -> state**, optional, inverts ``rank``. With it the engine
  can search in rank space with two bits per rank (``bfs(mode="twobit")``).
- **expand_rank(rank, component, tables, ranks) -> count**, optional, and **predecessors_rank**
  likewise: the ranks of the children (predecessors) of the state ``unrank(rank, component)``,
  for puzzles that step in rank space directly (move tables over coordinates). The two-bit
  search uses them instead of ``unrank`` followed by ``expand_ranked``.
- **near_rank(rank, component, tables, ranks) -> count**, optional, and
  **near_predecessors_rank**: the ranks of *some* of those children (predecessors), the ones
  found without unranking (table lookups, an offset), written first. A two-bit search's pull
  looks among them before it asks ``expand_rank`` for all, and most unreached states are settled
  there.
- **expand_ranked(state, tables, children, moves, ranks) -> count**, optional: ``expand`` that
  also writes each child's ``rank`` to ``ranks`` (same values as ``rank``), for puzzles whose
  children's ranks follow cheaply from the parent's. The engine uses it when deduplicating with
  a bitset; without it, it calls ``rank`` on every child.
- **tables**: a tuple of numpy arrays handed to every function (neighbour tables, factorials).
- **heuristic(state, tables) -> int**, optional: an *admissible* lower bound on the number of
  moves from ``state`` to the goal (never more than the true distance, 0 on a goal), for A* and
  IDA*. Its ``tables`` carry the goal-specific data: ``heuristic_tables(goals)`` when the puzzle
  gives that function (``goals``: the goal layer), else the puzzle's ``tables`` followed by the
  goal layer. Puzzles with several built-in heuristics (sliding: Manhattan distance, pattern
  databases) override ``heuristic_names`` and ``make_heuristic``.
- **inverse_moves**, optional: ``inverse_moves[m]`` is the move that undoes move ``m`` (-1: none).
  IDA* never plays a move right after its inverse, which removes most duplicate paths.

The functions are numba ``@njit`` functions (plain functions are compiled for you). Defined in an
importable module they are compiled once and cached on disk; defined in a notebook they compile
once per process (``warm_up()``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numba
import numpy as np

from vecsearch._numba import state_function
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.heuristics import Heuristic

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def signed64(value: int) -> int:
    """A 64-bit pattern given as an unsigned int, as the signed int64 the engine stores."""
    return value - (1 << 64) if value >= 1 << 63 else value


def unsigned64(value: int) -> int:
    """The unsigned view of a signed int64 state word (for decoding bit fields in Python)."""
    return value & ((1 << 64) - 1)


def move_capacity(max_moves: int) -> int:
    """``max_moves`` rounded up to a power of two (at least 4): the default move capacity of a
    family (``Puzzle.move_capacity``)."""
    return max(4, 1 << (max_moves - 1).bit_length())


@state_function
def no_rank(state, tables):
    """Placeholder rank for puzzles without one (never called by the engine)."""
    return 0


@state_function
def single_component(state, tables):
    """Component function of puzzles without an invariant."""
    return 0


class Puzzle:
    """A state space: rules as numba functions, plus text encoding for users.

    Built-in puzzles subclass this to parse and format their own notation; a user puzzle can be
    an instance made directly::

        puzzle = Puzzle("lights-out-3", expand=expand, max_moves=9, rank=rank, rank_size=512,
                        goal=0, start=511)
    """

    def __init__(
        self,
        name: str,
        *,
        expand,
        max_moves: int,
        tables: tuple = (),
        width: int = 1,
        predecessors=None,
        reversible: bool = True,
        rank=None,
        rank_size: int | None = None,
        component=None,
        unrank=None,
        expand_ranked=None,
        expand_rank=None,
        predecessors_rank=None,
        near_rank=None,
        near_predecessors_rank=None,
        move_names: Sequence[str] | None = None,
        goal=None,
        start=None,
        heuristic=None,
        heuristic_tables=None,
        inverse_moves: Sequence[int] | None = None,
    ):
        if (rank is None) != (rank_size is None):
            raise PuzzleDefinitionError(f"{name}: give both rank and rank_size, or neither")
        if width < 1 or max_moves < 1:
            raise PuzzleDefinitionError(f"{name}: width and max_moves must be >= 1")
        self.name = name
        self.width = int(width)
        self.max_moves = int(max_moves)
        self.tables = _contiguous(tables)
        self.reversible = bool(reversible)
        self.rank_size = None if rank_size is None else int(rank_size)
        self.move_names = tuple(move_names) if move_names else tuple(str(m) for m in range(max_moves))
        if len(self.move_names) != self.max_moves:
            raise PuzzleDefinitionError(f"{name}: {len(self.move_names)} move names for {max_moves} moves")
        self._functions = {
            "expand_state": _jitted(expand),
            "predecessors_state": _jitted(predecessors) if predecessors is not None else None,
            "rank_state": _jitted(rank) if rank is not None else None,
            "component_state": _jitted(component) if component is not None else None,
            "expand_ranked_state": _jitted(expand_ranked) if expand_ranked is not None else None,
            "predecessors_ranked_state": None,
            "unrank_state": _jitted(unrank) if unrank is not None else None,
            "expand_rank_state": _jitted(expand_rank) if expand_rank is not None else None,
            "predecessors_rank_state": _jitted(predecessors_rank) if predecessors_rank is not None else None,
            "near_rank_state": _jitted(near_rank) if near_rank is not None else None,
            "near_predecessors_rank_state": _jitted(near_predecessors_rank) if near_predecessors_rank is not None
            else None,
        }
        if (expand_rank is not None or predecessors_rank is not None) and unrank is None:
            raise PuzzleDefinitionError(f"{name}: expand_rank and predecessors_rank need unrank too")
        if near_rank is not None and expand_rank is None:
            raise PuzzleDefinitionError(f"{name}: near_rank needs expand_rank too")
        if near_predecessors_rank is not None and predecessors_rank is None:
            raise PuzzleDefinitionError(f"{name}: near_predecessors_rank needs predecessors_rank too")
        if expand_ranked is not None and rank is None:
            raise PuzzleDefinitionError(f"{name}: expand_ranked needs rank and rank_size too")
        self._heuristic = _jitted(heuristic) if heuristic is not None else None
        self._heuristic_tables = heuristic_tables
        self.inverse_moves = None if inverse_moves is None else tuple(int(m) for m in inverse_moves)
        if self.inverse_moves is not None and (
            len(self.inverse_moves) != self.max_moves or not all(-1 <= m < self.max_moves for m in self.inverse_moves)
        ):
            raise PuzzleDefinitionError(f"{name}: inverse_moves needs one move index (or -1) per move")
        if unrank is not None and rank is None:
            raise PuzzleDefinitionError(f"{name}: unrank needs rank and rank_size too")
        self.unrank = self._functions["unrank_state"]
        self._goal = goal
        self._start = start

    # --- what the engine asks -------------------------------------------------------------
    @property
    def has_rank(self) -> bool:
        """Whether the puzzle has a perfect rank (bitsets, two-bit search, distance tables need one)."""
        return self._functions["rank_state"] is not None

    @property
    def has_unrank(self) -> bool:
        """Whether states can be rebuilt from ranks (what the two-bit search needs)."""
        return self._functions["unrank_state"] is not None

    @property
    def steps_in_rank_space(self) -> bool:
        """Whether the puzzle computes its children's ranks from a rank (``expand_rank``)."""
        return self._functions["expand_rank_state"] is not None

    @property
    def prefers_two_bit(self) -> bool:
        """Whether a whole-space search takes two bits per rank before layers when both fit:
        by default when the puzzle steps in rank space (table lookups, no states built). A
        family whose ``expand_rank`` must unrank first, and whose layers are cheap from states,
        says False (the sliding puzzles)."""
        return self.steps_in_rank_space

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
        """Whether the puzzle names a goal of its own (``goal_states()`` without arguments)."""
        return self._goal is not None

    @property
    def functions(self) -> Mapping[str, object]:
        """The compiled per-state functions by role (``expand_state``, ``predecessors_state``,
        ``rank_state``, ``component_state``, ``expand_ranked_state``, ``unrank_state``,
        ``expand_rank_state``, ``predecessors_rank_state``, ``near_rank_state``,
        ``near_predecessors_rank_state``; None: not given), read-only. The
        engine binds them into its kernels (``vecsearch.engine.codegen.layer_kernels``)."""
        return MappingProxyType(self._functions)

    @property
    def move_capacity(self) -> int:
        """Room for children per state in the compiled kernels: at least ``max_moves``, and the
        same for every member of a family (it is compiled into the kernels)."""
        return move_capacity(self.max_moves)

    @property
    def expand_function(self):
        """The compiled per-state ``expand`` (what heuristic-search kernels call)."""
        return self._functions["expand_state"]

    @property
    def rank_function(self):
        """The compiled per-state ``rank`` (None without one)."""
        return self._functions["rank_state"]

    @property
    def heuristic_names(self) -> tuple[str, ...]:
        """Heuristics ``make_heuristic`` knows, the default first (empty: none, no A* / IDA*)."""
        return ("default",) if self._heuristic is not None else ()

    def make_heuristic(self, goals: np.ndarray, name: str, **options):
        """The ``Heuristic`` called ``name`` towards the goal layer ``goals``."""
        if options:
            raise TypeError(f"{self.name}: heuristic {name!r} takes no options, got {sorted(options)}")
        tables = _contiguous(self._heuristic_tables(goals)) if self._heuristic_tables else (*self.tables, goals)
        return Heuristic(self, name, self._heuristic, tables, goals, "given with the puzzle")

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
                return self._check_words([int(value)])
        elif isinstance(value, (tuple, list, np.ndarray)) and len(value) == self.width:
            return self._check_words([int(w) for w in value])
        raise InvalidPuzzleInput(f"{self.name}: cannot read a state from {value!r}")

    def states(self, value) -> np.ndarray:
        """A layer array from one state or many (text, ints, or an array of packed states)."""
        if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim == (1 if self.width == 1 else 2):
            array = np.ascontiguousarray(value, dtype=np.int64)
            if self.width > 1 and array.shape[1] != self.width:
                raise InvalidPuzzleInput(f"{self.name}: states need {self.width} words, array has {array.shape[1]}")
            return array
        if isinstance(value, (str, int, np.integer)) or (self.width > 1 and _is_word_tuple(value, self.width)):
            value = [value]
        rows = [self.state(v) for v in value]
        shape = (len(rows),) if self.width == 1 else (len(rows), self.width)
        return np.array(rows, dtype=np.int64).reshape(shape)

    def start_states(self) -> np.ndarray:
        """The default start (a layer); the goal when no start was given."""
        if self._start is None and self._goal is None:
            raise InvalidPuzzleInput(f"{self.name} has no start or goal of its own: give a start state")
        return self.states(self._start if self._start is not None else self._goal)

    def goal_states(self) -> np.ndarray:
        """The goal set (a layer)."""
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


def _contiguous(tables):
    """``tables`` with every array contiguous, of the same tuple type (a ``NamedTuple`` of
    arrays stays one, so rules read ``tables.neighbours`` rather than ``tables[2]``)."""
    if isinstance(tables, np.ndarray):
        raise PuzzleDefinitionError("tables is a tuple of arrays; wrap a single array as (array,)")
    arrays = [np.ascontiguousarray(t) for t in tables]
    return type(tables)(*arrays) if hasattr(tables, "_fields") else tuple(arrays)


def _is_word_tuple(value, width) -> bool:
    return isinstance(value, tuple) and len(value) == width and all(isinstance(v, (int, np.integer)) for v in value)


def _jitted(function):
    if isinstance(function, numba.core.registry.CPUDispatcher):
        return function
    if callable(function):
        return state_function(function)
    raise PuzzleDefinitionError(f"expected a function, got {function!r}")
