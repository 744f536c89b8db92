"""Exceptions a user can meet, each with a message that names what was wrong."""

from __future__ import annotations


class VecsearchError(Exception):
    """Base class of every error vecsearch raises on purpose."""


class InvalidPuzzleInput(VecsearchError, ValueError):
    """Text that does not describe a valid state or case of a puzzle.

    ``source`` (a file), ``line`` (1-based) and ``case`` (1-based) locate the problem in a
    multi-line input when known; ``str()`` gives one line naming the location, the offending
    token and what was expected.
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
    """A puzzle name that is not in the registry."""


class PuzzleDefinitionError(VecsearchError, TypeError):
    """A puzzle whose functions break the contract of ``vecsearch.puzzle``."""


class NoSolution(VecsearchError):
    """No path from the start to the goal (within the depth limit, if one was given).

    ``result`` is the finished search, with its profile.
    """

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class MemoryLimitError(VecsearchError, MemoryError):
    """A search that would not fit in the memory it is allowed to use.

    Raised before anything large is allocated, or between layers; ``result`` is then the search
    so far (None when it never started).
    """

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a ``KeyboardInterrupt`` from a callback) stopped a search between kernel calls.

    ``result`` is the search up to its last complete layer (profile included); ``checkpoint`` is
    the directory it can be resumed from, if it was checkpointing.
    """

    def __init__(self, result, checkpoint=None):
        super().__init__("search interrupted")
        self.result = result
        self.checkpoint = checkpoint
