"""Exceptions a user can meet, each with a message that names what was wrong."""

from __future__ import annotations


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
                source: str | None = None) -> "InvalidPuzzleInput":
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
        The search up to its last complete layer (profile included).
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
