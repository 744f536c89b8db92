"""Probe a puzzle's functions once, with errors that say precisely what breaks the contract.

``validate(puzzle)`` walks a few layers from the puzzle's start and goal states (at most
``limit`` states), calling each per-state function as plain Python on every state: ``expand``
must return an int count within ``max_moves``, write states of ``width`` words (the first never
-1), and name moves in ``0 .. max_moves-1``; ``rank`` must fall in ``[0, rank_size)``;
``component`` must not change along a move; ``unrank`` must invert ``rank``; ``expand_rank``
must give the children's ranks and ``near_rank`` some of them; ``predecessors`` (or, for a
reversible puzzle, ``expand``) must lead back. Then the compiled kernels must give the same children. The first violation
raises ``PuzzleDefinitionError`` naming the function, the state and what was expected.
"""

from __future__ import annotations

import warnings

import numpy as np

from vecsearch.engine.codegen import layer_kernels
from vecsearch.errors import InvalidPuzzleInput, PuzzleDefinitionError


def validate(puzzle, states=None, *, limit: int = 64) -> int:
    """Check ``puzzle`` on up to ``limit`` states near ``states`` (one state or many; by default
    the puzzle's start and goal); returns how many."""
    functions = puzzle.functions
    samples = _defaults(puzzle) if states is None else _given(puzzle, states)
    seen = {_key(s) for s in samples}
    probed = 0
    while samples and probed < limit:
        state = samples.pop(0)
        probed += 1
        children = _call_expand(puzzle, "expand", functions["expand_state"], state)
        _check_ranks(puzzle, state, children)
        _check_rank_steps(puzzle, state, children)
        back = functions["predecessors_state"] or (functions["expand_state"] if puzzle.reversible else None)
        for child, move in children if back is not None else ():
            role = "predecessors" if functions["predecessors_state"] is not None else "expand"
            parents = _call_expand(puzzle, role, back, child)
            if not any(_key(p) == _key(state) for p, _ in parents):
                why = "" if role == "predecessors" else " (the puzzle is declared reversible: give reversible=False)"
                raise PuzzleDefinitionError(f"{puzzle.name}: {role}({_show(puzzle, child)}) does not include"
                                            f" {_show(puzzle, state)}, although move {puzzle.move_names[move]!r}"
                                            f" leads there{why}")
        for child, _ in children:
            if _key(child) not in seen:
                seen.add(_key(child))
                samples.append(child)
    _check_compiled(puzzle, _defaults(puzzle) if states is None else _given(puzzle, states))
    return probed


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


def _call_expand(puzzle, role, function, state):
    """``function`` (expand or predecessors) run as Python on ``state``: its (child, move) pairs."""
    shape = (puzzle.max_moves,) if puzzle.width == 1 else (puzzle.max_moves, puzzle.width)
    children = np.zeros(shape, np.int64)
    moves = np.zeros(puzzle.max_moves, np.int64)
    where = f"{puzzle.name}: {role}({_show(puzzle, state)})"
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            count = _python(function)(state, puzzle.tables, children, moves)
    except IndexError as error:
        layout = "narrow (width=1): write children[k]" if puzzle.width == 1 else \
            f"{puzzle.width} words wide: write children[k, 0..{puzzle.width - 1}]"
        raise PuzzleDefinitionError(f"{where} writes outside the children array ({error}); the puzzle is"
                                    f" {layout} for k < max_moves={puzzle.max_moves}") from None
    except (OverflowError, ValueError, TypeError) as error:
        raise PuzzleDefinitionError(f"{where} failed writing its children: {type(error).__name__}: {error};"
                                    f" each state is {puzzle.width} signed 64-bit word(s)") from None
    if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)):
        raise PuzzleDefinitionError(f"{where} returned {_plain(count)!r} ({type(count).__name__}); expected an int,"
                                    " the number of children written")
    if not 0 <= count <= puzzle.max_moves:
        raise PuzzleDefinitionError(f"{where} returned {count} children; expected 0..max_moves={puzzle.max_moves}")
    out = []
    for k in range(int(count)):
        child = children[k].copy() if puzzle.width > 1 else children[k]
        first = child[0] if puzzle.width > 1 else child
        if first == -1:
            raise PuzzleDefinitionError(f"{where}: child {k} has first word -1, which is reserved (empty slot)")
        if not 0 <= moves[k] < puzzle.max_moves:
            raise PuzzleDefinitionError(f"{where}: child {k} has move {moves[k]}; expected 0..{puzzle.max_moves - 1}")
        out.append((child, int(moves[k])))
    return out


def _check_ranks(puzzle, state, children):
    functions = puzzle.functions
    rank, component = functions["rank_state"], functions["component_state"]
    for child, move in [(state, None)] + children:
        if rank is not None:
            r = _python(rank)(child, puzzle.tables)
            if isinstance(r, (bool, np.bool_)) or not isinstance(r, (int, np.integer)) \
                    or not 0 <= r < puzzle.rank_size:
                raise PuzzleDefinitionError(f"{puzzle.name}: rank({_show(puzzle, child)}) is {_plain(r)!r};"
                                            f" expected an int in 0..rank_size-1 = {puzzle.rank_size - 1}")
            if puzzle.unrank is not None:
                c = _python(component)(child, puzzle.tables) if component is not None else 0
                back = _python(puzzle.unrank)(r, c, puzzle.tables)
                if _key(back) != _key(child):
                    raise PuzzleDefinitionError(f"{puzzle.name}: unrank(rank({_show(puzzle, child)}) = {r}) is"
                                                f" {_show(puzzle, back)}, not the state ranked")
        if component is not None and move is not None:
            before, after = _python(component)(state, puzzle.tables), _python(component)(child, puzzle.tables)
            if before != after:
                raise PuzzleDefinitionError(
                    f"{puzzle.name}: move {puzzle.move_names[move]!r} changes the component from {before} to"
                    f" {after} ({_show(puzzle, state)} -> {_show(puzzle, child)}); a component is an invariant")


def _check_rank_steps(puzzle, state, children):
    """``expand_rank`` gives the ranks of the children (in any order), ``near_rank`` some of them."""
    functions = puzzle.functions
    if functions["expand_rank_state"] is None:
        return
    rank, component = _python(functions["rank_state"]), functions["component_state"]
    r = rank(state, puzzle.tables)
    c = _python(component)(state, puzzle.tables) if component is not None else 0
    expected = sorted(int(rank(child, puzzle.tables)) for child, _ in children)
    out = np.empty(puzzle.move_capacity, np.int64)
    for role in ("expand_rank", "near_rank"):
        function = functions[f"{role}_state"]
        if function is None:
            continue
        count = _python(function)(r, c, puzzle.tables, out)
        given = sorted(out[:count].tolist())
        wrong = given != expected if role == "expand_rank" else any(given.count(x) > expected.count(x) for x in given)
        if wrong:
            raise PuzzleDefinitionError(f"{puzzle.name}: {role}({r}, {c}) gives the ranks {given}; the children of"
                                        f" {_show(puzzle, state)} have the ranks {expected}"
                                        f"{'' if role == 'expand_rank' else ' (near_rank gives some of them)'}")


def _check_compiled(puzzle, states):
    """The compiled kernels give the children the Python functions give."""
    from vecsearch.engine import jit

    expand = puzzle.functions["expand_state"]
    for state in states:
        layer = puzzle.states(np.array([state]))
        try:
            children, moves = jit.call(layer_kernels(puzzle).neighbours, layer, puzzle.tables, False)
        except PuzzleDefinitionError as error:
            raise PuzzleDefinitionError(f"{puzzle.name}: {error}") from error.__cause__
        compiled = sorted((_key(c), int(m)) for c, m in zip(children, moves))
        expected = sorted((_key(c), m) for c, m in _call_expand(puzzle, "expand", expand, state))
        if compiled != expected:
            raise PuzzleDefinitionError(f"{puzzle.name}: compiled, expand({_show(puzzle, state)}) gives other children"
                                        " than as plain Python (does it rely on Python-only behaviour?)")


def _python(function):
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


def _plain(value):
    """numpy scalars as Python numbers, so messages read ``308``, not ``np.int64(308)``."""
    return value.item() if isinstance(value, np.generic) else value


def _key(state):
    return tuple(int(w) for w in state) if np.ndim(state) else int(state)


def _show(puzzle, state) -> str:
    try:
        return repr(puzzle.format_state(state if np.ndim(state) == 0 else tuple(int(w) for w in state)))
    except Exception:  # a broken state may not format; show its words
        return repr(_key(state))
