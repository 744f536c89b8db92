"""States as values: a puzzle whose state is a short vector of small integers, a permutation or a subset.

The user writes the rules over the vector, with no shifts or masks::

    expand(values, tables, children, moves) -> count    children[k]: the values after move moves[k]

Each row of ``children`` starts as a copy of ``values``: a move writes only the values it changes
(``children[k, i] -= amount``). vecsearch packs each vector into 64-bit words, ranks it and unpacks
it, in compiled adapters around the user's functions (``vecsearch/kernels/value_template.py``,
bound per family by code generation). The layouts (what a vector may hold):

- ``Vector(ranges)``: value ``i`` in ``0 .. ranges[i]-1``. Packed in bit fields (as few bits as
  the range needs; no field across two words; never the top bit of the first word, so a state's
  first word is never -1). Rank: mixed radix, value 0 varying fastest, when the product of the
  ranges is below 2^62 (else the engine deduplicates with a hash set).
- ``Permutation(n)``: the values ``0 .. n-1``, each once (n <= 16). Packed 4 bits each. Rank:
  the Lehmer code, ``0 .. n!-1``.
- ``Subset(n, k=None)``: 0 or 1 per element (n <= 62). Packed one bit each. Rank: the bits
  themselves (any number of ones, ``2**n`` ranks), or with ``k`` the colex rank among the subsets
  of exactly ``k`` elements.

Goals may be values (one vector, or a list of them) or a condition ``is_goal(values, tables)``;
``heuristic(values, htables)`` gets the goal vectors as the last of its tables. ``predecessors``
and ``component`` are written over values too. States read and print as the values, separated by
spaces (``"8 0 0"``); layers of packed states are numpy arrays, as everywhere in the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numba
import numpy as np

from vecsearch.contract import Guard, Rules
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.puzzle import Puzzle, python_function, signed64, unsigned64

VECTOR, PERMUTATION, SUBSET = 0, 1, 2  # layout codes (the value template's LAYOUT)
RANGE, WORD, SHIFT, MASK, WEIGHT = range(5)  # rows of the fields table
MAX_RANKS = 1 << 62
FIELD_ROOM = 64  # values a vector may hold in the compiled adapters (their stack scratch)


class Values:
    """A layout: how many values, the range of each, how they are packed and ranked."""

    kind = VECTOR

    def __init__(self, ranges: Sequence[int], bits: Sequence[int] | None = None):
        self.ranges = [int(r) for r in ranges]
        if not self.ranges or min(self.ranges) < 1:
            raise PuzzleDefinitionError(f"{self!r}: every value needs a range of at least 1")
        if len(self.ranges) > FIELD_ROOM:
            raise PuzzleDefinitionError(f"{self!r}: at most {FIELD_ROOM} values")
        self.bits = list(bits) if bits is not None else [max(1, (r - 1).bit_length()) for r in self.ranges]
        self.words, self.shifts, used = [], [], [0]
        for b in self.bits:
            room = 63 if len(used) == 1 else 64  # the first word never uses its top bit
            if used[-1] + b > room:
                used.append(0)
            self.words.append(len(used) - 1)
            self.shifts.append(used[-1])
            used[-1] += b
        self.width = len(used)
        weights = np.cumprod([1] + self.ranges[:-1], dtype=object).tolist()
        self.weights = [w if w < MAX_RANKS else 0 for w in weights]
        size = math.prod(self.ranges)
        self.rank_size = size if size < MAX_RANKS else None

    @property
    def size(self) -> int:
        """The number of values in a state."""
        return len(self.ranges)

    def fields(self) -> np.ndarray:
        """The fields table of the compiled adapters: rows ``RANGE``, ``WORD``, ``SHIFT``,
        ``MASK``, ``WEIGHT`` (mixed radix), a column per value."""
        return np.array([self.ranges, self.words, self.shifts, [(1 << b) - 1 for b in self.bits], self.weights],
                        np.int64)

    def ranking(self) -> np.ndarray:
        """The table the rank needs (factorials, binomials); none for a vector."""
        return np.zeros((1, 1), np.int64)

    @property
    def subset_size(self) -> int:
        """Ones in a state of a subset (-1: not a subset of fixed size)."""
        return -1

    # --- in Python: text, validation, the first states -------------------------------------
    def problem(self, values) -> str | None:
        """Why ``values`` is not a state of this layout (None: it is one)."""
        if len(values) != self.size:
            return f"expected {self.size} values, got {len(values)}"
        for i, (v, r) in enumerate(zip(values, self.ranges, strict=True)):
            if not 0 <= v < r:
                return f"value {v} at position {i} is outside its range 0..{r - 1}"
        return None

    def pack(self, values):
        """The packed state holding ``values`` (an int, or a row of words)."""
        words = [0] * self.width
        for v, w, s in zip(values, self.words, self.shifts, strict=True):
            words[w] |= int(v) << s
        words = [signed64(w) for w in words]
        return words[0] if self.width == 1 else tuple(words)

    def unpack(self, state) -> list[int]:
        """The values a packed ``state`` holds."""
        words = [int(state)] if self.width == 1 else [int(w) for w in state]
        return [(unsigned64(words[w]) >> s) & ((1 << b) - 1)
                for w, s, b in zip(self.words, self.shifts, self.bits, strict=True)]

    def describe(self) -> str:
        """What a state holds, for error messages."""
        return "values in " + ", ".join(f"0..{r - 1}" for r in self.ranges)

    def __repr__(self) -> str:
        return f"Vector({self.ranges})"


class Vector(Values):
    """A vector of values, value ``i`` from 0 to ``ranges[i] - 1``; ranked as a mixed-radix number.

    Parameters
    ----------
    ranges : sequence of int
        How many values each position can hold.
    bits : sequence of int, optional
        Bits each value takes in the packed state (default: as few as its range needs).

    Examples
    --------
    >>> jugs = vs.Vector([9, 6, 4])            # 0-8, 0-5 and 0-3 litres
    >>> jugs.rank_size, jugs.unpack(jugs.pack([8, 0, 0]))
    (216, [8, 0, 0])
    """


class Permutation(Values):
    """The values 0 to ``n - 1`` in some order (n <= 16); ranked by their Lehmer code.

    Parameters
    ----------
    n : int
        How many values.

    Examples
    --------
    >>> vs.Permutation(5).rank_size
    120
    """

    kind = PERMUTATION

    def __init__(self, n: int):
        if not 1 <= n <= 16:
            raise PuzzleDefinitionError(f"Permutation({n}): 1 to 16 values (a Vector holds larger arrangements)")
        super().__init__([n] * n, [4] * n)
        self.rank_size = math.factorial(n)

    def ranking(self) -> np.ndarray:
        """The factorials the rank of a permutation takes."""
        return np.array([[math.factorial(i) for i in range(self.size + 1)]], np.int64)

    def problem(self, values) -> str | None:
        """What is wrong with ``values`` (None: nothing)."""
        if len(values) == self.size and sorted(int(v) for v in values) != list(range(self.size)):
            return f"{' '.join(map(str, values))} is not a permutation of 0..{self.size - 1}"
        return super().problem(values)

    def describe(self) -> str:
        """What a state holds, for error messages."""
        return f"a permutation of 0..{self.size - 1}"

    def __repr__(self) -> str:
        return f"Permutation({self.size})"


class Subset(Values):
    """A subset of ``n`` elements as 0 or 1 per element (n <= 62): of any size, or of ``k``.

    Ranked by its bits, or with ``k`` by its colex rank among the subsets of ``k`` elements.

    Parameters
    ----------
    n : int
        How many elements.
    k : int, optional
        How many of them every state holds.

    Examples
    --------
    >>> vs.Subset(9).rank_size, vs.Subset(16, 8).rank_size
    (512, 12870)
    """

    kind = SUBSET

    def __init__(self, n: int, k: int | None = None):
        if not 1 <= n <= 62 or (k is not None and not 0 <= k <= n):
            raise PuzzleDefinitionError(f"Subset({n}, {k}): 1 to 62 elements, and 0 <= k <= n")
        self.k = k
        super().__init__([2] * n, [1] * n)
        self.rank_size = 1 << n if k is None else math.comb(n, k)

    @property
    def subset_size(self) -> int:
        """Ones in a state of a subset (-1: any number)."""
        return -1 if self.k is None else self.k

    def ranking(self) -> np.ndarray:
        """The binomial coefficients the rank of a subset takes."""
        return np.array([[math.comb(a, b) for b in range(self.size + 1)] for a in range(self.size + 1)], np.int64)

    def problem(self, values) -> str | None:
        """What is wrong with ``values`` (None: nothing)."""
        wrong = super().problem(values)
        if wrong is None and self.k is not None and sum(values) != self.k:
            return f"{' '.join(map(str, values))} holds {sum(values)} elements, not {self.k}"
        return wrong

    def describe(self) -> str:
        """What a state holds, for error messages."""
        return "0/1 per element" + ("" if self.k is None else f", {self.k} ones")

    def __repr__(self) -> str:
        return f"Subset({self.size}{'' if self.k is None else f', {self.k}'})"


class ValuePuzzle(Puzzle):
    """A puzzle whose states are values: written without shifts or masks.

    The rules are written over a state's values; vecsearch packs them into words, ranks them
    (mixed radix, Lehmer code, combinations) and unpacks them. Each row of the children (and
    predecessors) starts as a copy of the state's values: a move writes only what it changes.

    Parameters
    ----------
    name : str
        The puzzle's name.
    values : Vector, Permutation or Subset
        What a state holds.
    rules : Rules or function
        ``expand(values, tables, children, moves) -> count`` (and ``predecessors``,
        ``component`` if any) over value vectors: ``children[k]`` is a row of values.
    moves : Moves or int
        The moves' number, names and inverses; or their number.
    tables : tuple of numpy.ndarray, optional
        Arrays handed to every function.
    start : sequence of int, optional
        The default start, as values.
    goal : values, list of them, or function, optional
        The default goal: values, a list of them, or a condition
        ``is_goal(values, tables) -> bool``.
    heuristic : function, optional
        ``heuristic(values, htables) -> bound`` (``htables``: the tables, then the goal vectors).
    heuristic_tables : function, optional
        ``heuristic_tables(goals)``: the heuristic's tables.
    check : bool, default True
        Probe the functions on their first use in this process (`validate`).

    See Also
    --------
    Puzzle : The same over packed words (the fastest rules).

    Examples
    --------
    >>> import numpy as np
    >>> CAPACITY = np.array([8, 5, 3])
    >>> def pour(jugs, tables, after, moves):      # from jug i into jug j, until i is empty or j full
    ...     k = 0
    ...     for i in range(3):
    ...         for j in range(3):
    ...             amount = min(jugs[i], CAPACITY[j] - jugs[j])
    ...             if i != j and amount > 0:
    ...                 after[k, i] -= amount
    ...                 after[k, j] += amount
    ...                 moves[k] = 3 * i + j
    ...                 k += 1
    ...     return k
    >>> jugs = vs.ValuePuzzle("jugs", vs.Vector(CAPACITY + 1), vs.Rules(pour, reversible=False),
    ...                       vs.Moves(9, [f"{a}>{b}" for a in "ABC" for b in "ABC"]),
    ...                       start=[8, 0, 0], goal=[4, 4, 0])
    >>> str(vs.solve(jugs))
    'A>B B>C C>A B>C A>B B>C C>A'
    """

    def __init__(self, name: str, values: Values, rules, moves, *, tables: tuple = (), start=None, goal=None,
                 heuristic=None, heuristic_tables=None, check: bool = True):
        if not isinstance(values, Values):
            raise PuzzleDefinitionError(f"{name}: values must be a Vector, Permutation or Subset, got {values!r}")
        self.values = values
        rules = rules if isinstance(rules, Rules) else Rules(rules) if callable(rules) else rules
        if isinstance(rules, Rules) and rules.width != 1:
            raise PuzzleDefinitionError(f"{name}: the values set the width; give Rules without it")
        super().__init__(name, replace(rules, width=values.width) if isinstance(rules, Rules) else rules, moves,
                         tables=tables, start=start, goal=goal, heuristic=heuristic,
                         heuristic_tables=heuristic_tables, check=check)
        self.rank_size = values.rank_size
        self.trusted = False
        self._layout = (values.fields(), values.ranking())

    # --- what the engine asks ----------------------------------------------------------------
    @property
    def has_unrank(self) -> bool:
        """Whether the values are ranked (and so unranked): a rank size was given."""
        return self.rank_size is not None

    @property
    def guard(self) -> Guard:
        """The value adapters around the user's functions (``kernels/value_template.py``)."""
        derived: tuple[str, ...] = ("expand_ranked_state", "rank_state", "unrank_state") if self.rank_size is not None \
            else ()
        if self.rank_size is not None and self.functions["predecessors_state"] is not None:
            derived += ("predecessors_ranked_state",)
        return Guard("value_template", "puzzles of your own over values", derived,
                     (("LAYOUT", self.values.kind), ("MAX_FIELDS", FIELD_ROOM),
                      ("CHILD_CELLS", FIELD_ROOM * self.move_capacity)))

    def limits(self) -> np.ndarray:
        """The limits the guards check, with the subset size of the values last."""
        limits = super().limits()
        limits[-1] = self.values.subset_size
        return limits

    def layout_arrays(self) -> tuple:
        """How the values are packed and ranked: ``Values.fields`` and ``Values.ranking``."""
        return self._layout

    def state_types(self) -> tuple:
        """A state is seen as its values (a vector), children as a 2-D array of them."""
        return numba.types.Array(numba.types.int64, 1, "C"), numba.types.Array(numba.types.int64, 2, "C")

    def make_heuristic(self, goals: np.ndarray, name: str, **options):
        """The user's heuristic over values: its tables are the puzzle's, then the goal vectors
        (a 2-D array), or what ``heuristic_tables(goal vectors)`` returns."""
        heuristic = super().make_heuristic(goals, name, **options)
        vectors = np.array([self.values.unpack(g) for g in goals], np.int64).reshape(len(goals), self.values.size)
        tables = self._heuristic_tables(vectors) if self._heuristic_tables else (*self.tables, vectors)
        return replace(heuristic, tables=tuple(np.ascontiguousarray(t) for t in tables))

    # --- the roles as plain Python over packed states (what ``validate`` probes) --------------
    def probe_function(self, kernel_name: str):
        """The role ``kernel_name`` as plain Python over packed states (what ``validate`` probes)."""
        user = self.functions.get(kernel_name) if kernel_name in ("expand_state", "predecessors_state",
                                                                    "component_state", "is_goal_state") else None
        if kernel_name in ("expand_state", "predecessors_state") and user is not None:
            return self._probe_children(kernel_name.removesuffix("_state"), python_function(user))
        if user is not None:
            return lambda state, tables: python_function(user)(np.array(self.values.unpack(state)), tables)
        if kernel_name == "rank_state" and self.rank_size is not None:
            return lambda state, tables: self.rank_of(state)
        if kernel_name == "unrank_state" and self.rank_size is not None:
            return lambda rank, component, tables: self.unrank_of(rank)
        return None

    def _probe_children(self, role: str, user):
        n = self.values.size

        def children_of(state, tables, children, moves):
            room = len(moves)
            values = np.array(self.values.unpack(state))
            grid = np.tile(values, (room, 1))  # each row a copy of the state, as in the kernels
            try:
                count = user(values.copy(), tables, grid, moves)
            except IndexError as error:
                raise PuzzleDefinitionError(f"{self.name}: {role}({self.format_state(state)!r}) writes outside its"
                                            f" arrays ({error}); children has room for {room} vectors of {n} values"
                                            f" (children[k, 0..{n - 1}], k < {room})") from None
            if isinstance(count, (int, np.integer)) and not isinstance(count, (bool, np.bool_)):
                for k in range(min(int(count), room)):
                    wrong = self.values.problem(grid[k].tolist())
                    if wrong is not None:
                        raise PuzzleDefinitionError(f"{self.name}: {role}({self.format_state(state)!r}) gives child {k}"
                                                    f" [{' '.join(map(str, grid[k].tolist()))}]: {wrong}")
                    children[k] = self.values.pack(grid[k].tolist())
            return count

        return children_of

    # --- states in and out -------------------------------------------------------------------
    def rank_of(self, state) -> int:
        """The rank of a packed state (in Python)."""
        values = self.values.unpack(state)
        if self.values.kind == PERMUTATION:
            rest, rank = list(range(self.values.size)), 0
            for i, v in enumerate(values):
                rank += rest.index(v) * math.factorial(self.values.size - 1 - i)
                rest.remove(v)
            return rank
        if isinstance(self.values, Subset) and self.values.k is not None:
            return sum(math.comb(i, j + 1) for j, i in enumerate(i for i, v in enumerate(values) if v))
        return sum(v * w for v, w in zip(values, self.values.weights, strict=True))

    def unrank_of(self, rank: int):
        """The packed state of a rank (in Python)."""
        n = self.values.size
        if self.values.kind == PERMUTATION:
            rest, values = list(range(n)), []
            for i in range(n):
                digit, rank = divmod(rank, math.factorial(n - 1 - i))
                values.append(rest.pop(digit))
        elif isinstance(self.values, Subset) and self.values.k is not None:
            values, top = [0] * n, n - 1
            for j in range(self.values.k, 0, -1):
                while math.comb(top, j) > rank:
                    top -= 1
                rank -= math.comb(top, j)
                values[top] = 1
                top -= 1
        else:
            values = [(rank // w) % r for w, r in zip(self.values.weights, self.values.ranges, strict=True)]
        return self.values.pack(values)

    def parse_state(self, text: str):
        """The packed state of values written as numbers (commas and brackets allowed)."""
        tokens = text.replace(",", " ").replace("[", " ").replace("]", " ").split()
        values = []
        for position, token in enumerate(tokens):
            try:
                values.append(int(token))
            except ValueError:
                raise InvalidPuzzleInput(f"{self.name}: value {position + 1} ({token!r}) is not an integer;"
                                         f" a state is {self.values.size} values ({self.values.describe()})") from None
        return self.state(values)

    def format_state(self, state) -> str:
        """The values of ``state``, space-separated."""
        return " ".join(map(str, self.values.unpack(state)))

    def state(self, value):
        """One packed state from text or a sequence of values (an int: a packed state)."""
        if isinstance(value, str):
            return self.parse_state(value)
        if isinstance(value, (int, np.integer)) and self.width == 1:
            return super().state(value)
        if isinstance(value, (Sequence, np.ndarray)) and all(isinstance(v, (int, np.integer)) for v in value):
            values = [int(v) for v in value]
            wrong = self.values.problem(values)
            if wrong is not None:
                raise InvalidPuzzleInput(f"{self.name}: {wrong}; a state is {self.values.size} values"
                                         f" ({self.values.describe()})")
            return self.values.pack(values)
        raise InvalidPuzzleInput(f"{self.name}: cannot read a state from {value!r}: give its {self.values.size}"
                                 " values")

    def states(self, value) -> np.ndarray:
        """A layer array: from one state or many (text, vectors of values), or an array of packed
        states (as the engine holds them)."""
        if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim == (1 if self.width == 1 else 2):
            return super().states(value)
        if isinstance(value, (str, int, np.integer)) or (isinstance(value, (Sequence, np.ndarray)) and len(value) and
                                                         all(isinstance(v, (int, np.integer)) for v in value)):
            value = [value]
        rows = [self.state(v) for v in value]
        shape = (len(rows),) if self.width == 1 else (len(rows), self.width)
        return np.array(rows, dtype=np.int64).reshape(shape)

