"""IDA*: iterative-deepening depth-first search under an admissible heuristic.

Each iteration is one depth-first search, in numba with an explicit stack, through the nodes
whose ``f = g + h`` stays within a bound; the next bound is the least f that exceeded it. The
first goal found is optimal. Memory is the stack only (depth x branching), so IDA* reaches
depths no breadth-first search can store (a random 15-puzzle: ~53 moves, 10^13 states). The
moves played follow the puzzle's sequence automaton (``engine.heuristic.sequences``): at least, a move
that undoes the previous one is never generated; permutation puzzles play canonical sequences.

``idastar`` solves one instance with one kernel call per bound (each a profile record, timed);
once an iteration is long (``split_from`` nodes), the next ones are split: the tree's nodes a few
moves deep are searched in parallel, and the first subtree to reach the goal stops the others.
The subtrees are taken in the order one depth-first search would enter them (at each level, the
children of least heuristic value first), so the threads look first where one thread would: in the
order the moves came, the 3x3x3's hardest golden scramble (14 moves) took 2.9 M nodes in its last
iteration on 2 threads, 1.8 M on one; in this order 274 k.
``idastar_many`` runs complete IDA* searches for many instances in parallel, one per task; an
instance whose iteration grows long is set aside and finished alone, its iterations split.

Both run worker kernels on the engine's threads (``engine.runtime.blocks``), each thread claiming
the next instance or subtree through a shared counter, rather than numba's ``prange``: the depth-first
loop, with the heuristic inlined, compiled 3.5x faster (pattern databases of the 3x3: 27 s to
7.8 s), and it is one function the kernels call (``bounded_dfs``), compiled without reference
counting, as fast per node as the ``prange`` loop was.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from vecsearch.engine.heuristic.evaluation import heuristic_values, resolve_heuristic, search_kernels
from vecsearch.engine.heuristic.sequences import sequence_table
from vecsearch.engine.results.profile import BoundRecord, Profile
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.results.solution import Solution
from vecsearch.engine.runtime import jit
from vecsearch.engine.runtime.blocks import map_blocks, thread_limit, workers
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import as_puzzle, endpoints
from vecsearch.engine.runtime.goals import default_goals
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.progress import progress_bar
from vecsearch.errors import InvalidPuzzleInput

NO_BOUND = 1 << 40  # as in engine/heuristic/heuristic_template.py
SET_ASIDE = -3  # ida_many's length of a search set aside (engine/heuristic/heuristic_template.py)
DEFAULT_MAX_BOUND = 255  # default cap of the f-bound (the path length) when none is given
BATCH = 1024  # instances per call of idastar_many's worker kernel on every thread
SPLIT_FROM = 1 << 17  # an iteration expanding this many nodes has its successors split across threads
SUBTREES_PER_THREAD = 32


def idastar(puzzle, start=None, goal=None, *, heuristic=None, max_depth=None, on_bound=None, threads=None,
            split_from=SPLIT_FROM, progress=False) -> SearchResult:
    """An optimal path from ``start`` to ``goal`` (defaults: the puzzle's own) by IDA*.

    ``heuristic``: a name the puzzle offers (``puzzle.heuristic_names``), a ``Heuristic``, or None
    for the puzzle's default. ``max_depth`` caps the path length looked for. ``on_bound`` is
    called with each iteration's ``BoundRecord``; ``progress=True`` draws a bar of the iterations.
    Iterations after one that expanded ``split_from`` nodes run on ``threads`` threads (default: all).
    """
    puzzle = as_puzzle(puzzle)
    starts, goals = endpoints(puzzle, start, goal, need_goal=True)
    if len(starts) != 1:
        raise InvalidPuzzleInput("IDA* searches from one start state; use solve_many for many")
    profile = Profile(visited="none (depth-first)")
    watch = jit.Stopwatch()
    if len(goals) == 0:  # the goal lies in another component
        return SearchResult(puzzle, profile, None, True, [])
    chosen = resolve_heuristic(puzzle, goals, heuristic)
    fixed = (kernel_tables(puzzle), chosen.tables, sequence_table(puzzle), goals)
    cap = DEFAULT_MAX_BOUND if max_depth is None else max_depth
    start_h = heuristic_values(chosen, starts[:1])
    _subtrees(puzzle, chosen, starts[:0], start_h[:0], fixed, 0, 0)  # compile
    solution, complete = None, False
    with progress_bar(progress, f"idastar {puzzle.name}", unit=" iterations") as bar:
        for record, moves, next_bound in _iterations(puzzle, chosen, starts, start_h, fixed, int(start_h[0]), cap, 0,
                                                      split_from, threads):
            profile.add(record)
            rate = record.expanded / max(record.seconds, 1e-9)
            bar.advance(1, f"f <= {record.bound}, {record.expanded:,} nodes, {rate:,.0f} nodes/s")
            if on_bound is not None:
                on_bound(record)
            if moves is not None:
                solution = solution_along(puzzle, starts, moves, profile)
            complete = moves is not None or next_bound == NO_BOUND  # NO_BOUND: the reachable tree was searched
    profile.compile_seconds = watch.compile_seconds
    return SearchResult(puzzle, profile, solution, complete, [], "idastar")


def _iterations(puzzle, chosen, starts, start_h, fixed, bound, cap, expanded, split_from, threads):
    """IDA*'s iterations from ``starts`` (one state, its heuristic value ``start_h``), from
    ``bound`` to ``cap`` (``expanded``: the nodes of the one before, which decide whether the
    first is split): yields each one's ``(record, moves, next_bound)`` until a path is found
    (``moves``: its moves, else None) or nothing lies beyond the bound."""
    while bound <= cap:
        record, moves, next_bound = _iteration(puzzle, chosen, starts, start_h, fixed, bound, expanded, split_from,
                                                threads)
        yield record, moves, next_bound
        if moves is not None or next_bound == NO_BOUND:
            return
        expanded, bound = record.expanded, int(next_bound)


def _iteration(puzzle, chosen, starts, start_h, fixed, bound, expanded, split_from, threads):
    """One iteration within ``bound`` (split across threads after one of ``split_from`` nodes):
    its ``BoundRecord``, the moves of the path found (None: none) and the next bound."""
    path = np.empty(bound + 1, np.int64)
    began = time.perf_counter()
    if expanded >= max(split_from, 1) and (threads or numba.get_num_threads()) > 1:
        with thread_limit(threads):
            length, next_bound, expanded, generated = _split_iteration(puzzle, chosen, starts, fixed, bound, path)
    else:
        lengths, paths, next_bounds, expanded_at, generated_at = _subtrees(puzzle, chosen, starts, start_h, fixed, 0,
                                                                           bound)
        length, next_bound, expanded, generated = lengths[0], next_bounds[0], expanded_at[0], generated_at[0]
        path[:] = paths[0]
    stack_bytes = (bound + 1) * puzzle.max_moves * (8 * puzzle.width + 16)
    record = BoundRecord("idastar", int(bound), int(expanded), int(generated), time.perf_counter() - began,
                         stack_bytes + chosen.nbytes)
    return record, (path[:length].tolist() if length >= 0 else None), next_bound


def _split_iteration(puzzle, chosen, start, fixed, bound, path):
    """An iteration on all threads: the nodes within ``bound`` a few moves deep (breadth-first,
    in Python, until there are enough) become parallel tasks. Same results; the moves found go to
    ``path``."""
    tables, _, sequences, goals = fixed
    want = SUBTREES_PER_THREAD * numba.get_num_threads()
    nodes = [(start, 0, [], ())]  # (state, the sequence automaton's state, moves, heuristic values on the way)
    next_bound, expanded, generated, depth = NO_BOUND, 0, 0, 0
    while nodes and len(nodes) < want and depth < bound:
        deeper = []
        for state, at, prefix, way in nodes:
            children, moves = layer_kernels(puzzle).neighbours(state, tables, False)
            keep = sequences[at, moves] >= 0
            children, moves = children[keep], moves[keep]
            values = heuristic_values(chosen, children)
            expanded += 1
            generated += len(moves)
            for j in range(len(moves)):
                f = depth + 1 + int(values[j])
                if f > bound:
                    next_bound = min(next_bound, f)
                elif values[j] == 0 and any(np.array_equal(children[j], g) for g in goals):
                    path[:depth + 1] = prefix + [int(moves[j])]
                    return depth + 1, bound, expanded, generated
                else:
                    deeper.append((children[j:j + 1], int(sequences[at, moves[j]]), prefix + [int(moves[j])],
                                   (*way, int(values[j]))))
        # in the order a depth-first search within the bound would reach them: at each level, the children of
        # the least heuristic value first
        nodes, depth = sorted(deeper, key=lambda node: node[3]), depth + 1
    if not nodes:
        return -1, next_bound, expanded, generated
    roots = np.concatenate([node[0] for node in nodes])
    automaton = np.array([node[1] for node in nodes], dtype=np.int64)
    lengths, paths, bounds, sub_expanded, sub_generated = _subtrees(puzzle, chosen, roots, heuristic_values(
        chosen, roots), fixed, depth, bound, automaton)
    expanded += int(sub_expanded.sum())
    generated += int(sub_generated.sum())
    found = np.flatnonzero(lengths >= 0)
    if len(found):
        i = int(found[0])
        moves = nodes[i][2] + paths[i, :lengths[i]].tolist()
        path[:len(moves)] = moves
        return len(moves), bound, expanded, generated
    return -1, min(next_bound, int(bounds.min())), expanded, generated


def _subtrees(puzzle, chosen, roots, roots_h, fixed, depth, bound, automaton=None):
    """One iteration within ``bound`` below each of ``roots`` (nodes ``depth`` moves deep, their
    heuristic values ``roots_h``, in the sequence automaton's states ``automaton``; default: a
    start's), on the threads the search may use (``ida_subtrees_worker``; one root: the calling
    thread alone). Returns ``(lengths, paths, next_bounds, expanded, generated)``, an entry per
    root (a root left when another reached the goal: -1, no next bound, no nodes)."""
    n = len(roots)
    outputs = np.zeros((4, n), np.int64)  # lengths, next bounds, expanded, generated
    outputs[0], outputs[1] = -1, NO_BOUND
    paths = np.zeros((n, max(bound, 0) + 1), np.int64)
    at = np.zeros(n, np.int64) if automaton is None else automaton
    _claiming(search_kernels(puzzle, chosen).ida_subtrees_worker, n, roots, roots_h, at,
              np.full(n, depth, np.int64), *fixed, bound, np.zeros(1, np.int64), paths, outputs)
    lengths, next_bounds, expanded, generated = outputs
    return lengths, paths, next_bounds, expanded, generated


def _claiming(kernel, tasks: int, *args) -> None:
    """``kernel(claims, *args)`` on as many threads as there are ``tasks`` (at most those the
    search may use), the calling thread one of them: a worker kernel whose calls claim the tasks
    one at a time through the shared counter ``claims``, so a thread that finishes early takes more."""
    claims = np.zeros(1, np.int64)
    if tasks <= 1:
        kernel(claims, *args)  # not asking numba for the thread count: it takes a process-wide lock
    else:
        map_blocks(lambda *_: kernel(claims, *args), min(tasks, workers()), 1)


def solution_along(puzzle, start: np.ndarray, moves: list[int], profile) -> Solution:
    """The ``Solution`` that plays ``moves`` from ``start`` (a one-state layer)."""
    states = [start]
    for move in moves:
        children, child_moves = layer_kernels(puzzle).neighbours(states[-1], kernel_tables(puzzle), False)
        states.append(children[np.flatnonzero(child_moves == move)[:1]])
    return Solution(puzzle, np.concatenate(states), moves, profile)


def idastar_many(puzzle, starts, goal=None, *, heuristic=None, max_depth=None, threads=None, split_from=SPLIT_FROM,
                 progress=False):
    """Optimal solutions for many starts towards one goal, IDA* on all cores (one start per task,
    handed out dynamically), sharing one heuristic (its pattern databases are loaded once).

    A start whose iteration expands ``split_from`` nodes without reaching the goal is set aside
    (the others go on), then finished alone, its next iterations split across the threads
    (``idastar``'s): a long search among short ones no longer runs on one core while the others
    idle (a batch of 3x3x3 scrambles: one of 14 moves is most of the work).

    Returns ``(lengths, moves, profile)``: ``lengths[i]`` is -1 when start ``i`` cannot reach the
    goal (or not within ``max_depth``), and ``moves[i, :lengths[i]]`` are its moves. The profile
    sums the nodes of every instance per f-bound; its seconds are the batch's wall time (less compiling).
    ``progress=True`` draws a bar of the instances solved (a batch of ``BATCH`` at a time).
    """
    puzzle = as_puzzle(puzzle)
    starts = puzzle.states(starts)
    goals = default_goals(puzzle, starts) if goal is None else puzzle.states(goal)
    kernels = layer_kernels(puzzle)
    goal_components = set(kernels.components(goals, kernel_tables(puzzle)).tolist())
    if len(goal_components) != 1:
        raise InvalidPuzzleInput(f"{puzzle.name}: the goal states lie in {len(goal_components)} components;"
                                 " solve towards one component at a time")
    component = goal_components.pop()
    cap = DEFAULT_MAX_BOUND if max_depth is None else max_depth
    chosen = resolve_heuristic(puzzle, goals, heuristic)
    kernel = search_kernels(puzzle, chosen).ida_many_worker
    fixed = (kernel_tables(puzzle), chosen.tables, sequence_table(puzzle), goals, cap)
    defer_from = max(1, split_from) if (threads or numba.get_num_threads()) > 1 else NO_BOUND
    lengths = np.full(len(starts), -1, dtype=np.int64)
    resume = np.zeros(len(starts), dtype=np.int64)
    solved = {}  # instance -> its moves
    expanded_by_bound = np.zeros(cap + 1, dtype=np.int64)
    generated_by_bound = np.zeros(cap + 1, dtype=np.int64)
    profile = Profile(visited="none (depth-first)")
    watch = jit.Stopwatch()
    empty = np.zeros((0, cap + 1), np.int64)
    _claiming(kernel, 0, starts[:0], np.zeros(0, np.bool_), *fixed, defer_from, np.zeros((0, cap), np.int64),
              lengths[:0], resume[:0], empty, empty)  # compile
    timed = jit.Stopwatch()  # the search's seconds: without compiling the kernels of a search set aside
    bar = progress_bar(progress, f"idastar {puzzle.name}", unit=" inst", total=len(starts))
    with thread_limit(threads), bar as advancing:
        for lo in range(0, len(starts), BATCH):
            part = starts[lo:lo + BATCH]
            skip = kernels.components(part, kernel_tables(puzzle)) != component
            expanded = np.zeros((len(part), cap + 1), np.int64)
            generated = np.zeros_like(expanded)
            moves = np.zeros((len(part), cap), np.int64)
            _claiming(kernel, len(part), part, skip, *fixed, defer_from, moves, lengths[lo:lo + BATCH],
                      resume[lo:lo + BATCH], expanded, generated)
            for i in np.flatnonzero(lengths[lo:lo + BATCH] >= 0):
                solved[lo + int(i)] = moves[i, :lengths[lo + i]].tolist()
            expanded_by_bound += expanded.sum(axis=0)
            generated_by_bound += generated.sum(axis=0)
            advancing.advance(int((lengths[lo:lo + BATCH] != SET_ASIDE).sum()))
        deferred = np.flatnonzero(lengths == SET_ASIDE)
        if len(deferred):
            _subtrees(puzzle, chosen, starts[:0], heuristic_values(chosen, starts[:0]), fixed[:4], 0, 0)  # compile
        for i in deferred:
            lengths[i] = -1
            start = starts[i:i + 1]
            for record, path, _ in _iterations(puzzle, chosen, start, heuristic_values(chosen, start), fixed[:4],
                                               int(resume[i]), cap, defer_from, split_from, threads):
                expanded_by_bound[record.bound] += record.expanded
                generated_by_bound[record.bound] += record.generated
                if path is not None:
                    lengths[i], solved[int(i)] = len(path), path
            advancing.advance(1)
    seconds = timed.search_seconds
    total = max(1, int(expanded_by_bound.sum()))
    for bound in np.flatnonzero(expanded_by_bound):
        share = seconds * expanded_by_bound[bound] / total  # apportioned: the batch is timed as a whole
        profile.add(BoundRecord("idastar", int(bound), int(expanded_by_bound[bound]), int(generated_by_bound[bound]),
                                share, chosen.nbytes))
    profile.compile_seconds = watch.compile_seconds
    lengths[lengths < 0] = -1
    moves = np.zeros((len(starts), max(0, int(lengths.max(initial=0)))), np.int64)
    for i, path in solved.items():
        moves[i, :len(path)] = path
    return lengths, moves, profile
