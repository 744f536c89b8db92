"""Exceptions a user can meet, each with a message that names what was wrong."""

from __future__ import annotations

import weakref


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
    describing = weakref.WeakValueDictionary()  # user puzzles by ``Puzzle.serial`` (``engine.guarded``)

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
