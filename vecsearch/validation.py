"""Probe a puzzle's functions once, with errors that say precisely what breaks the contract.

``validate(puzzle)`` walks a few layers from the puzzle's start and goal states (at most
``limit`` states), calling each role it gives as plain Python on every state and holding what
it returns to the check ``vecsearch.contract`` declares for the role (``CHECKS``): ``expand`` and
``predecessors`` an int count within their room, states of ``width`` words (the first never -1),
moves in ``0 .. max_moves-1``; ``rank`` an int in ``[0, rank_size)``, no two states of a
component on one rank; ``component`` the same along a move; ``unrank`` the inverse of ``rank``;
``expand_rank`` the children's ranks and ``near_rank`` some of them; ``is_goal`` a bool;
``heuristic`` an int >= 0, 0 on the goal.
``predecessors`` (or, for a reversible puzzle, ``expand``) must lead back. Then the compiled
kernels must give the same children. The first violation raises ``PuzzleDefinitionError``
naming the function, the state and what was expected (an exception a function raises, too).

The engine probes a user's puzzle this way on its first use in a process (``probe_once``),
unless it was validated already or made with ``check=False``; a puzzle that passed leaves a mark
in the kernel cache directory (``probed/``, named by its identity, start and goal), and later
processes take the mark for the probe.
"""

from __future__ import annotations

import contextlib
import hashlib
import warnings
from pathlib import Path

import numpy as np

from vecsearch.cache_folder import cache_dir
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError
from vecsearch.registry import puzzle_of


def validate(puzzle, states=None, *, limit: int = 64) -> int:
    """Probe a puzzle's functions and name the first rule one breaks.

    The functions run as plain Python on states near ``states``, then compiled; a puzzle that
    passes is not probed again on its first use in this process.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    states : state or sequence of states, optional
        Where to probe (default: the puzzle's start and goal).
    limit : int, default 64
        The most states probed.

    Returns
    -------
    int
        How many states were probed.

    Raises
    ------
    PuzzleDefinitionError
        A function breaks the contract; the message names it, the state and the rule.

    Examples
    --------
    >>> def broken(state, tables, children, moves):
    ...     children[0] = state + 1
    ...     moves[0] = 0
    ...     return 1
    >>> vs.validate(vs.Puzzle("counter", broken, 1, rank=vs.Rank(lambda s, t: s, 4), start=0, goal=3))
    Traceback (most recent call last):
    ...
    vecsearch.errors.PuzzleDefinitionError: counter: ...
    """
    puzzle = puzzle_of(puzzle)
    samples = _defaults(puzzle) if states is None else _given(puzzle, states)
    probed = _walk(puzzle, list(samples), limit)
    _check_compiled(puzzle, samples)
    puzzle.checked = True
    return probed


def probe_once(puzzle, starts=None) -> None:
    """``validate(puzzle)`` the first time a user's puzzle is searched in this process (from its
    own start and goal, else from ``starts``), unless a mark says it passed before; nothing for
    built-in puzzles, for those validated, or made with ``check=False``."""
    if puzzle.checked or puzzle.trusted:
        return
    if not (puzzle.has_default_start or puzzle.has_default_goal) and starts is None:
        return
    samples = None if puzzle.has_default_start or puzzle.has_default_goal else starts[:1]
    mark = _mark(puzzle, samples)
    if mark.exists():
        puzzle.checked = True
        return
    validate(puzzle, samples)
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    except OSError:
        pass  # no mark: the next process probes again


def _mark(puzzle, samples) -> Path:
    """Where the mark of a probe passed lies: named by the puzzle's identity and the states
    probed from."""
    where = puzzle.start_states() if samples is None else samples
    goals = puzzle.goal_states() if samples is None and puzzle.has_default_goal else where[:0]
    digest = hashlib.blake2b(puzzle.identity.encode() + where.tobytes() + goals.tobytes(), digest_size=16)
    return cache_dir() / "probed" / digest.hexdigest()


def _walk(puzzle, samples: list, limit: int) -> int:
    seen = {_key(s) for s in samples}
    ranked: dict = {}
    probed = 0
    while samples and probed < limit:
        state = samples.pop(0)
        probed += 1
        children = _call_children(puzzle, "expand", state)
        _check_ranks(puzzle, state, children, ranked)
        _check_rank_steps(puzzle, state, children)
        _check_goal(puzzle, state)
        back = "predecessors" if puzzle.probe_function("predecessors_state") else "expand" if puzzle.reversible \
            else None
        if back is not None:
            _check_parents(puzzle, state, children, back)
        for child, _ in children:
            if _key(child) not in seen:
                seen.add(_key(child))
                samples.append(child)
    return probed


def _check_parents(puzzle, state, children, back: str) -> None:
    """Each child's parents (``back``: its predecessors, or the children of a reversible puzzle)
    include ``state``."""
    for child, move in children:
        parents = _call_children(puzzle, back, child)
        if not any(_key(p) == _key(state) for p, _ in parents):
            why = "" if back == "predecessors" else " (the puzzle is declared reversible: give Rules(...," \
                                                     " reversible=False))"
            raise PuzzleDefinitionError(f"{puzzle.name}: {back}({_show(puzzle, child)}) does not include"
                                        f" {_show(puzzle, state)}, although move {puzzle.move_names[move]!r}"
                                        f" leads there{why}")


def _given(puzzle, states) -> list:
    layer = puzzle.states(states)
    return [row.copy() if puzzle.width > 1 else row for row in layer]


def _defaults(puzzle) -> list:
    if not puzzle.has_default_start and not puzzle.has_default_goal:
        raise PuzzleDefinitionError(f"{puzzle.name} has no start or goal of its own to probe from: give states,"
                                    " as in validate(puzzle, STATE)")
    states = []
    sources = [("start", puzzle.start_states)] + ([("goal", puzzle.goal_states)] if puzzle.has_default_goal else [])
    for what, get in sources:
        try:
            layer = get()
        except InvalidPuzzleInput as error:
            raise PuzzleDefinitionError(f"{puzzle.name}: the {what} state is not a state of"
                                        f" {puzzle.width} word(s): {error}") from None
        states += [row.copy() if puzzle.width > 1 else row for row in layer]
    return states


class _OutOfRoom(IndexError):
    """An index past the room of an output array (``children`` or ``moves``)."""


class _Outputs(np.ndarray):
    """An output array that says which one an index out of range was in."""

    what: str  # "children" or "moves"

    def __setitem__(self, index, value):
        try:
            super().__setitem__(index, value)
        except IndexError as error:
            raise _OutOfRoom(f"{self.what}[{index}]: {error}") from None

    def __repr__(self) -> str:
        return repr(np.asarray(self))


def _outputs(shape, what: str) -> np.ndarray:
    array = np.zeros(shape, np.int64).view(_Outputs)
    array.what = what
    return array


def _call_children(puzzle, role: str, state):
    """``role`` (``expand`` or ``predecessors``) run as Python on ``state``, checked as the
    contract's ``children``: its (child, move) pairs."""
    function = puzzle.probe_function(f"{role}_state")
    room = puzzle.max_predecessors if role == "predecessors" else puzzle.max_moves
    children = _outputs((room,) if puzzle.width == 1 else (room, puzzle.width), "children")
    moves = _outputs(room, "moves")
    where = f"{puzzle.name}: {role}({_show(puzzle, state)})"
    capacity = "max_predecessors" if role == "predecessors" else "max_moves"
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            count = function(state, puzzle.tables, children, moves)
    except _OutOfRoom as error:
        layout = "narrow (width=1): write children[k]" if puzzle.width == 1 else \
            f"{puzzle.width} words wide: write children[k, 0..{puzzle.width - 1}]"
        raise PuzzleDefinitionError(f"{where} writes outside the children array ({error}); the puzzle is"
                                    f" {layout} for k < {capacity}={room}") from None
    except IndexError as error:
        raise PuzzleDefinitionError(f"{where} failed: IndexError: {error} (the puzzle has {len(puzzle.tables)}"
                                    " table(s))") from None
    except PuzzleDefinitionError:
        raise  # what a ValuePuzzle's adapter found, named already
    except (OverflowError, ValueError, TypeError) as error:
        raise PuzzleDefinitionError(f"{where} failed writing its children: {type(error).__name__}: {error};"
                                    f" each state is {puzzle.width} signed 64-bit word(s)") from None
    except Exception as error:  # the user's function raised
        raise PuzzleDefinitionError(f"{where} raised {type(error).__name__}: {error}") from error
    if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)):
        raise PuzzleDefinitionError(f"{where} returned {_plain(count)!r} ({type(count).__name__}); expected an int,"
                                    f" the number of {'predecessors' if role == 'predecessors' else 'children'}"
                                    " written")
    if not 0 <= count <= room:
        returned = "predecessors" if role == "predecessors" else "children"
        raise PuzzleDefinitionError(f"{where} returned {count} {returned};"
                                    f" expected 0..{capacity}={room}")
    out = []
    for k in range(int(count)):
        child = np.asarray(children[k]).copy() if puzzle.width > 1 else int(children[k])
        first = child[0] if isinstance(child, np.ndarray) else child
        if first == -1:
            raise PuzzleDefinitionError(f"{where}: child {k} has first word -1, which is reserved (empty slot)")
        if not 0 <= moves[k] < puzzle.max_moves:
            raise PuzzleDefinitionError(f"{where}: child {k} has move {moves[k]}; expected 0..{puzzle.max_moves - 1}")
        out.append((child, int(moves[k])))
    return out


def _check_ranks(puzzle, state, children, ranked: dict):
    """``rank`` in range, one state per rank (``ranked``: the states ranked so far, by component
    and rank), ``unrank`` its inverse, ``component`` kept by every move."""
    rank, component, unrank = (puzzle.probe_function(f"{role}_state") for role in ("rank", "component", "unrank"))
    for child, move in [(state, None)] + children:
        if rank is not None:
            with _raised(puzzle, "rank", child):
                r = rank(child, puzzle.tables)
            if isinstance(r, (bool, np.bool_)) or not isinstance(r, (int, np.integer)) \
                    or not 0 <= r < puzzle.rank_size:
                raise PuzzleDefinitionError(f"{puzzle.name}: rank({_show(puzzle, child)}) is {_plain(r)!r};"
                                            f" expected an int in 0..rank_size-1 = {puzzle.rank_size - 1}")
            with _raised(puzzle, "component", child):
                c = component(child, puzzle.tables) if component is not None else 0
            other = ranked.setdefault((int(c), int(r)), _key(child))
            if other != _key(child):
                raise PuzzleDefinitionError(f"{puzzle.name}: rank({_show(puzzle, child)}) and"
                                            f" rank({_show(puzzle, other)}) are both {_plain(r)}; a rank numbers each"
                                            " state of a component apart")
            if unrank is not None:
                with _raised(puzzle, "unrank", r):
                    back = unrank(r, c, puzzle.tables)
                if _key(back) != _key(child):
                    raise PuzzleDefinitionError(f"{puzzle.name}: unrank(rank({_show(puzzle, child)}) = {r}) is"
                                                f" {_show(puzzle, back)}, not the state ranked")
        if component is not None and move is not None:
            with _raised(puzzle, "component", child):
                before, after = component(state, puzzle.tables), component(child, puzzle.tables)
            if before != after:
                raise PuzzleDefinitionError(
                    f"{puzzle.name}: move {puzzle.move_names[move]!r} changes the component from {before} to"
                    f" {after} ({_show(puzzle, state)} -> {_show(puzzle, child)}); a component is an invariant")


def _check_rank_steps(puzzle, state, children):
    """``expand_rank`` gives the ranks of the children (in any order), ``near_rank`` some of them."""
    if puzzle.probe_function("expand_rank_state") is None:
        return
    rank, component = puzzle.probe_function("rank_state"), puzzle.probe_function("component_state")
    r = rank(state, puzzle.tables)
    c = component(state, puzzle.tables) if component is not None else 0
    expected = sorted(int(rank(child, puzzle.tables)) for child, _ in children)
    out = np.empty(puzzle.move_capacity, np.int64)
    for role in ("expand_rank", "near_rank"):
        function = puzzle.probe_function(f"{role}_state")
        if function is None:
            continue
        with _raised(puzzle, role, state):
            count = function(r, c, puzzle.tables, out)
        given = sorted(out[:count].tolist())
        wrong = given != expected if role == "expand_rank" else any(given.count(x) > expected.count(x) for x in given)
        if wrong:
            raise PuzzleDefinitionError(f"{puzzle.name}: {role}({r}, {c}) gives the ranks {given}; the children of"
                                        f" {_show(puzzle, state)} have the ranks {expected}"
                                        f"{'' if role == 'expand_rank' else ' (near_rank gives some of them)'}")


def _check_goal(puzzle, state):
    """``is_goal`` gives a bool (the contract's ``condition``)."""
    is_goal = puzzle.probe_function("is_goal_state")
    if is_goal is None:
        return
    with _raised(puzzle, "is_goal", state):
        answer = is_goal(state, puzzle.tables)
    if not isinstance(answer, (bool, np.bool_)):
        raise PuzzleDefinitionError(f"{puzzle.name}: is_goal({_show(puzzle, state)}) returned {_plain(answer)!r}"
                                    f" ({type(answer).__name__}); expected a bool")


def _check_compiled(puzzle, states):
    """The compiled kernels give the children the Python functions give."""
    from vecsearch.engine.runtime import jit

    for state in states:
        layer = puzzle.states(np.array([state]))
        try:
            children, moves = jit.named_failures(layer_kernels(puzzle).neighbours, layer, kernel_tables(puzzle), False)
        except PuzzleDefinitionError as error:
            message = str(error) if str(error).startswith(f"{puzzle.name}:") else f"{puzzle.name}: {error}"
            raise PuzzleDefinitionError(message) from error.__cause__
        compiled = sorted((_key(c), int(m)) for c, m in zip(children, moves, strict=True))
        expected = sorted((_key(c), m) for c, m in _call_children(puzzle, "expand", state))
        if compiled != expected:
            raise PuzzleDefinitionError(f"{puzzle.name}: compiled, expand({_show(puzzle, state)}) gives other children"
                                        " than as plain Python (does it rely on Python-only behaviour?)")


@contextlib.contextmanager
def _raised(puzzle, role: str, argument):
    """An exception the user's function of ``role`` raises on ``argument`` (a state, or a rank)
    as a ``PuzzleDefinitionError`` naming both (the original its cause)."""
    try:
        yield
    except PuzzleDefinitionError:
        raise
    except Exception as error:
        shown = _show(puzzle, argument) if role != "unrank" else str(_plain(argument))
        raise PuzzleDefinitionError(f"{puzzle.name}: {role}({shown}) raised {type(error).__name__}: {error}") \
            from error


def _plain(value):
    """Numpy scalars as Python numbers, so messages read ``308``, not ``np.int64(308)``."""
    return value.item() if isinstance(value, np.generic) else value


def _key(state):
    return tuple(int(w) for w in state) if np.ndim(state) else int(state)


def _show(puzzle, state) -> str:
    try:
        return repr(puzzle.format_state(state if np.ndim(state) == 0 else tuple(int(w) for w in state)))
    except Exception:  # a broken state may not format; show its words
        return repr(_key(state))
