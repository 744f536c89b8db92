"""Exceptions a user can meet, each with a message that names what was wrong."""

from __future__ import annotations

import weakref
from typing import Any


class VecsearchError(Exception):
    """Base class of every error vecsearch raises on purpose.

    Its message names what was wrong (the file, line and token of bad input; the function, state
    and rule of a broken puzzle); the command line prints it as one line and exits with 2.

    Examples
    --------
    >>> issubclass(vs.NoSolution, vs.VecsearchError), issubclass(vs.InvalidPuzzleInput, ValueError)
    (True, True)
    """


class InvalidPuzzleInput(VecsearchError, ValueError):
    """Text that does not describe a valid state or case of a puzzle.

    ``str()`` gives one line naming the location, the offending token and what was expected.

    Parameters
    ----------
    message : str
        What is wrong: the token and what was expected.
    line : int, optional
        The 1-based line of a multi-line input.
    case : int, optional
        The 1-based case of a judge input.
    source : str, optional
        The file.

    Examples
    --------
    >>> vs.get_puzzle("eight").parse_state("1 2 3")
    Traceback (most recent call last):
    ...
    vecsearch.errors.InvalidPuzzleInput: expected 9 tokens for sliding-3x3, got 3
    """

    def __init__(self, message: str, *, line: int | None = None, case: int | None = None,
                 source: str | None = None):
        self.message = message
        self.line = line
        self.case = case
        self.source = source
        super().__init__(str(self))

    def located(self, *, line: int | None = None, case: int | None = None,
                source: str | None = None) -> InvalidPuzzleInput:
        """The same error with its position in a larger input filled in."""
        return InvalidPuzzleInput(
            self.message,
            line=self.line if self.line is not None else line,
            case=self.case if self.case is not None else case,
            source=self.source if self.source is not None else source,
        )

    def __str__(self) -> str:
        where = [self.source] if self.source is not None else []
        if self.case is not None:
            where.append(f"case {self.case}")
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class DefinitionNote(UserWarning):
    """What a puzzle definition's reader read but did not take as part of the puzzle (rotation
    moves, ksolve's Ignore block), said once when the definition is read. The command line
    prints it as a ``vecsearch: note:`` line."""


class UnknownPuzzle(VecsearchError, ValueError):
    """A puzzle name that is not in the registry (the message lists the known ones).

    Examples
    --------
    >>> vs.get_puzzle("eigth")
    Traceback (most recent call last):
    ...
    vecsearch.errors.UnknownPuzzle: unknown puzzle 'eigth'; known puzzles: sliding-RxC, ...
    """


class PuzzleDefinitionError(VecsearchError, TypeError):
    """A puzzle whose functions break the contract of ``vecsearch.puzzle``.

    The message names the function, the state and the rule broken; `validate` raises it, and so
    does a search that meets the broken rule.

    Examples
    --------
    >>> issubclass(vs.PuzzleDefinitionError, vs.VecsearchError)
    True
    """


class BrokenRule(PuzzleDefinitionError):
    """A user's function broke the contract in compiled code (``vecsearch.kernels.guard_template``
    checks what each returns): raised from inside a kernel with what the message needs.

    ``rule`` is one of ``RULES``; ``state`` the state (an int, or a tuple of words: shown as the
    puzzle's text, ``format_state``, when ``describing`` knows the puzzle by its name), or for the
    roles over ranks the ``(rank, component)`` it was called with; ``value`` what broke the rule,
    ``index`` where among the outputs, ``limit`` the room or range it must stay in, ``position``
    the value's (a puzzle over values).
    """

    RULES = ("raised", "count", "move", "reserved", "rank", "bound", "value", "permutation", "subset")
    # user puzzles by ``Puzzle.serial`` (``engine.runtime.guarded``)
    describing: weakref.WeakValueDictionary[int | str, Any] = weakref.WeakValueDictionary()

    def __init__(self, puzzle: int | str, role: str, rule: int, state, value: int = 0, index: int = 0, limit: int = 0,
                 position: int = -1):
        known = self.describing.get(puzzle)
        if known is not None:
            puzzle = known.name
            if not role.endswith("_rank"):
                try:
                    state = known.format_state(state)
                except Exception:  # a broken state may not format: keep its words
                    pass
        self.puzzle, self.role, self.rule, self.state = puzzle, role, self.RULES[rule], state
        self.value, self.index, self.limit, self.position = value, index, limit, position
        super().__init__(self._message())

    def __reduce__(self):
        return (type(self), (self.puzzle, self.role, self.RULES.index(self.rule), self.state, self.value, self.index,
                             self.limit, self.position))

    def _message(self) -> str:
        rank_role = self.role.endswith("_rank")
        called = f"{self.role}{self.state!r}" if rank_role else f"{self.role}({self.state!r})"
        what = "ranks" if rank_role else "predecessors" if self.role.startswith("predecessors") else "children"
        room = "max_predecessors" if self.role.startswith("predecessors") else "max_moves"
        text = {
            "raised": f"failed in compiled code: an index out of range (an array read or written outside its"
                      f" bounds; the {what} array has room for {self.limit}), or an exception it raised",
            "count": f"returned {self.value} {what}; expected 0..{room}={self.limit}",
            "move": f"gave entry {self.index} the move {self.value}; expected 0..{self.limit - 1}",
            "reserved": f"gave entry {self.index} a first word of -1, which is reserved (an empty slot)",
            "rank": f"gave the rank {self.value}" + (f" (entry {self.index})" if rank_role or self.role != "rank"
                                                    else "") + f"; expected 0..rank_size-1 = {self.limit - 1}",
            "bound": f"is {self.value}; a heuristic is an int >= 0",
            "value": f"gave child {self.index} the value {self.value} at position {self.position}, outside its range"
                     f" 0..{self.limit - 1}",
            "permutation": f"gave child {self.index} values that are not a permutation of 0..{self.limit - 1}",
            "subset": f"gave child {self.index} a subset that does not hold {self.limit} elements",
        }[self.rule]
        return f"{self.puzzle}: {called} {text}"


class NoSolution(VecsearchError):
    """No path from the start to the goal (within the depth limit, if one was given).

    Parameters
    ----------
    message : str
        Why: the goal is unreachable, or not within the depth limit.
    result : SearchResult, optional
        The finished search, with its profile.

    Examples
    --------
    >>> try:
    ...     vs.solve("eight", "1 2 3 4 5 6 8 7 x")
    ... except vs.NoSolution as error:
    ...     print(error)
    sliding-3x3: the goal is not reachable
    """

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class MemoryLimitError(VecsearchError, MemoryError):
    """A search that would not fit in the memory it is allowed to use.

    Raised before anything large is allocated, or between layers; the message gives each way's
    estimate and what would fit.

    Parameters
    ----------
    message : str
        The estimates and the limit.
    result : SearchResult, optional
        The search so far (None when it never started).

    Examples
    --------
    >>> try:
    ...     vs.bfs("sliding-3x4", max_memory="1M")
    ... except vs.MemoryLimitError as error:
    ...     print(str(error)[:59])
    sliding-3x4: the search needs more memory than its limit of
    """

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a ``KeyboardInterrupt`` from a callback) stopped a search between kernel calls.

    Parameters
    ----------
    result : SearchResult
        The search up to its last complete layer (profile included; a `ClassEnumeration` for an
        enumeration modulo symmetry).
    checkpoint : path, optional
        The directory it can be resumed from (``bfs(..., resume=)``), if it was checkpointing.

    Examples
    --------
    >>> def stop(record):
    ...     if record.depth == 5:
    ...         raise KeyboardInterrupt
    >>> try:
    ...     vs.bfs("sliding-3x3", on_layer=stop)
    ... except vs.SearchInterrupted as interrupted:
    ...     print(interrupted.result.layer_sizes)
    [1, 2, 4, 8, 16, 20]
    """

    def __init__(self, result, checkpoint=None):
        super().__init__("search interrupted")
        self.result = result
        self.checkpoint = checkpoint
