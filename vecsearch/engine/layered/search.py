"""Breadth-first and bidirectional search over layers.

Each side of a search (forward from the starts, backward from the goals over predecessors) grows
one layer at a time against its own visited set. A new layer that contains a state the other
side holds is a meeting; because the two sides never met before this layer, every meeting state
lies in the other side's last layer and gives a shortest path, rebuilt from the stored layers
(``vecsearch.engine.results.paths``). A forward search towards a goal set is the same thing with a
backward side that never grows.
"""

from __future__ import annotations

from pathlib import Path

from vecsearch.engine.layered.sides import UNLIMITED, Side, choose_visited
from vecsearch.engine.results import paths
from vecsearch.engine.results.profile import Profile
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.results.solution import Solution
from vecsearch.engine.runtime import jit, planner
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.checkpoint import writable_directory
from vecsearch.engine.runtime.endpoints import as_puzzle, depth_limit, endpoints, whole_number
from vecsearch.engine.runtime.goals import least_goal
from vecsearch.engine.runtime.progress import layer_progress
from vecsearch.errors import MemoryLimitError, VecsearchError

STRATEGIES = ("smaller", "alternate", "forward")


def bfs(puzzle, start=None, goal=None, *, max_depth=None, keep_layers=None, backward=False,
        visited="auto", threads=None, on_layer=None, path=True, mode="auto", max_memory=None, checkpoint=None,
        resume=None, keep_farthest=None, progress=False, client=None, segments=None, spill=None,
        owner_local=False, symmetry=None) -> SearchResult:
    """Breadth-first search: enumerate what a start reaches, or find a shortest path to a goal.

    Without ``goal``, every state reachable from ``start`` within ``max_depth`` moves (all of
    them by default) is enumerated, layer by layer; with one, the search stops at the first layer
    that reaches it and returns a shortest path.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name (``"sliding-3x4"``, ``"eight"``, a ``.tws`` file).
    start : state, text or sequence of them, optional
        Where to start (one state or many, or a pattern); default: the puzzle's start.
    goal : state, text or sequence of them, optional
        Stop at the first layer reaching it (a state or a set) and rebuild a shortest path.
    max_depth : int, optional
        Stop after this many layers.
    keep_layers : bool, optional
        Keep every layer in ``result.layers`` (default: only when a path may be needed).
    backward : bool, default False
        Search over predecessors: distances *to* the starts.
    visited : {"auto", "bitset", "hash"}, default "auto"
        How visited states are remembered: a bitset over the puzzle's rank, or a hash set.
    threads : int, optional
        Threads the kernels use (default: all cores).
    on_layer : callable, optional
        Called with each `LayerRecord` as it is made.
    path : bool, default True
        With a goal: rebuild the path (False: ``result.length`` only).
    mode : {"auto", "layers", "twobit"}, default "auto"
        ``"layers"`` stores each layer's states; ``"twobit"`` keeps 2 bits per rank (distance
        mod 3; needs rank and unrank); ``"auto"`` takes what the memory planner prefers under
        ``max_memory``.
    max_memory : int or str, optional
        Bytes the search may use, or text like ``"2G"`` (default: most of the available memory).
    checkpoint : path, optional
        A directory where the search is saved after every layer.
    resume : path, optional
        A checkpoint directory to continue from.
    keep_farthest : int, optional
        Two-bit mode: how many states of the last layer to keep in ``result.layers`` (modulo
        symmetry: how many representatives of each layer, the least).
    progress : bool, default False
        Draw a tqdm progress bar (``pip install 'vecsearch[progress]'``).
    client : dask.distributed.Client, optional
        Run the partitioned two-bit search on the cluster's workers.
    segments : int, optional
        Partition the two-bit table into this many segments (on this process's threads without
        ``client``).
    spill : path, optional
        Keep the partitioned search's tables in memory-mapped files in this directory (else in
        ``checkpoint``, else a temporary directory); with ``owner_local``, as each worker sees it
        (``{worker}`` in it stands for the worker's name).
    owner_local : bool, default False
        On a cluster: each segment's tables live only on the worker that owns it, and children
        are routed between workers unfiltered (``checkpoint`` then holds the client's state).
    symmetry : str or symmetry, optional
        Enumerate modulo symmetry (``engine.layered.classes``): ``"rotations"`` (the definition's
        whole-puzzle rotations), ``"rotations, mirror (L R)"`` (and a mirror, as the cycles of
        moves it makes), or what ``puzzle.symmetry(...)`` returns. Returns a `ClassEnumeration`
        (classes and positions per layer, canonical representatives; ``method``: through a
        quotient by the rotations when they allow it, else by least conjugates). With
        ``mode="twobit"``, or partitioned (``segments``, ``client``, ``spill``): over two-bit
        tables marking the classes' least conjugates, keeping the least ``keep_farthest``
        representatives of each layer (owner-local tables too); in one process, ``checkpoint``
        and ``resume`` make it a two-bit one. With a goal or backwards, it is refused.

    Returns
    -------
    SearchResult
        The profile of every layer, the layers kept, and with a goal the shortest path
        (a `ClassEnumeration` with ``symmetry``).

    Raises
    ------
    NoSolution
        No path reaches the goal (within ``max_depth``).
    MemoryLimitError
        The search would not fit in ``max_memory``.
    SearchInterrupted
        Ctrl-C stopped it between kernel calls (with the search so far, and the checkpoint).

    See Also
    --------
    bidirectional : Meet in the middle: far fewer states for one path.
    DistanceTable : Distances of every state to a goal, for many instances.

    Examples
    --------
    >>> result = vs.bfs("sliding-2x3")
    >>> result.layer_sizes[:6], sum(result.layer_sizes), result.depth
    ([1, 2, 3, 5, 6, 7], 360, 21)
    >>> vs.bfs("eight", "2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x").length
    19
    """
    # whole-space searches load their machinery on first use: a solve never needs it
    from vecsearch.engine.layered.enumeration import KEEP_FARTHEST, enumerate_space
    from vecsearch.engine.twobit.segments import is_partitioned, partitioned_bfs

    puzzle = as_puzzle(puzzle)
    depth_limit(max_depth)
    whole_number(keep_farthest, "keep_farthest", 0)
    partitioned = (client is not None or segments is not None or spill is not None or owner_local
                   or is_partitioned(resume))
    if symmetry is not None:
        from vecsearch.engine.layered.classes import enumerate_classes

        if goal is not None or backward:
            raise ValueError("enumeration modulo symmetry runs forwards, without a goal")
        if checkpoint is not None or resume is not None:
            if is_partitioned(resume):
                raise VecsearchError(f"{resume} holds a partitioned search: an enumeration modulo symmetry resumes"
                                     " only its own checkpoints (of a two-bit search in one process)")
            if partitioned or mode == "layers":
                raise ValueError("an enumeration modulo symmetry saves checkpoints in two-bit mode, in one process:"
                                 " mode='twobit' (a partitioned one is not resumed)")
            mode = "twobit"
        _writable_directories(checkpoint, spill, owner_local)
        partition = dict(segments=segments, client=client, owner_local=owner_local,
                         directory=None if owner_local else spill,
                         owners_directory=str(spill) if owner_local and spill is not None else None) \
            if partitioned else None
        with layer_progress(progress, on_layer, f"bfs {puzzle.name}") as on_layer:
            # a ClassEnumeration: per layer classes and positions (the docstring's Returns says so)
            return enumerate_classes(puzzle, symmetry, start, max_depth=max_depth, threads=threads,  # type: ignore[return-value]
                                     on_layer=on_layer, mode=mode, max_memory=max_memory, partition=partition,
                                     keep=KEEP_FARTHEST if keep_farthest is None else keep_farthest,
                                     checkpoint=checkpoint, resume=resume)
    if goal is not None:
        if backward:
            raise ValueError("backward search towards a goal: swap start and goal instead")
        if mode == "twobit" or checkpoint is not None or resume is not None or partitioned:
            raise ValueError("a search towards a goal runs in layers, on one machine, without checkpoints")
        return bidirectional(puzzle, start, goal, max_depth=max_depth, max_backward=0, visited=visited,
                             threads=threads, on_layer=on_layer, strategy="forward", path=path, progress=progress,
                             max_memory=max_memory)
    if partitioned:
        if mode == "layers" or visited != "auto" or keep_layers:
            raise ValueError("a partitioned search is a two-bit search: it keeps no layers")
        if (spill is not None and checkpoint is not None and not owner_local
                and Path(spill).resolve() != Path(checkpoint).resolve()):
            raise ValueError("a partitioned search's files are its checkpoint: give spill or checkpoint, not both")
        _writable_directories(checkpoint, spill, owner_local)
        with layer_progress(progress, on_layer, f"bfs {puzzle.name}") as on_layer:
            return partitioned_bfs(puzzle, start, max_depth=max_depth, backward=backward, segments=segments,
                                   client=client, threads=threads,
                                   directory=checkpoint if owner_local else spill or checkpoint, resume=resume,
                                   keep_farthest=KEEP_FARTHEST if keep_farthest is None else keep_farthest,
                                   max_memory=max_memory, on_layer=on_layer, owner_local=owner_local,
                                   owners_directory=str(spill) if owner_local and spill is not None else None)
    _writable_directories(checkpoint, spill, owner_local)
    with layer_progress(progress, on_layer, f"bfs {puzzle.name}") as on_layer:
        return enumerate_space(
            puzzle, start, max_depth=max_depth, keep_layers=keep_layers, backward=backward, visited=visited,
            threads=threads, on_layer=on_layer, mode=mode, max_memory=max_memory, checkpoint=checkpoint,
            resume=resume, keep_farthest=KEEP_FARTHEST if keep_farthest is None else keep_farthest,
        )


def _writable_directories(checkpoint, spill, owner_local: bool) -> None:
    """Make and check the directories a search will write, before it starts (an owner-local
    spill directory is each worker's own, on its machine)."""
    if checkpoint is not None:
        writable_directory(checkpoint, "checkpoints")
    if spill is not None and not owner_local:
        writable_directory(spill, "the search's tables")


def bidirectional(puzzle, start=None, goal=None, *, max_depth=None, max_forward=None, max_backward=None,
                  strategy="smaller", visited="auto", threads=None, on_layer=None, path=True,
                  progress=False, max_memory=None) -> SearchResult:
    """Shortest path from ``start`` to ``goal`` by search from both ends.

    Grows a forward side from the starts and a backward side from the goals until a new layer
    meets the other side. Before each layer its bytes are projected from the side's growth so
    far: a layer that would take both sides past ``max_memory`` is not grown.

    Parameters
    ----------
    puzzle : Puzzle or str
        The puzzle, or its name.
    start : state, text or sequence of them, optional
        One state or a set (default: the puzzle's start).
    goal : state, text or sequence of them, optional
        One state or a set (default: the puzzle's goal).
    max_depth : int, optional
        The longest path looked for (the two sides' depths together).
    max_forward, max_backward : int, optional
        Caps on each side's depth.
    strategy : {"smaller", "alternate", "forward"}, default "smaller"
        Which side grows next: the smaller frontier, each in turn, or only the forward side (a
        plain breadth-first search towards the goal set).
    visited : {"auto", "bitset", "hash"}, default "auto"
        How each side remembers its states.
    threads : int, optional
        Threads the kernels use (default: all cores).
    on_layer : callable, optional
        Called with each `LayerRecord` as it is made.
    path : bool, default True
        Rebuild the path (False: the distance only, ``result.length``).
    progress : bool, default False
        Draw a tqdm progress bar.
    max_memory : int or str, optional
        Bytes both sides may use (default: most of the available memory).

    Returns
    -------
    SearchResult
        ``solution`` (None when no path was found within the caps), ``length``, ``complete``,
        and both sides' layers (``layers`` from the starts, ``backward_layers`` from the goals).

    Raises
    ------
    MemoryLimitError
        The next layer would not fit; ``error.result`` is the search so far.

    See Also
    --------
    solve : The same search, returning the `Solution` (or raising `NoSolution`).

    Examples
    --------
    >>> result = vs.bidirectional("sliding-3x3", "8 6 7 2 5 4 3 x 1")
    >>> result.length, len(result.layers) + len(result.backward_layers) - 2
    (31, 31)
    >>> vs.bidirectional("sliding-3x3", "8 6 7 2 5 4 3 x 1", max_depth=30).solution is None
    True
    """
    puzzle = as_puzzle(puzzle)
    depth_limit(max_depth)
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if strategy == "forward":
        max_backward = 0
    if goal is None and puzzle.has_goal_condition and max_backward == 0:
        return _to_condition(puzzle, start, max_depth=max_depth if max_forward is None else
                             min(max_forward, max_depth or max_forward), visited=visited, threads=threads,
                             on_layer=on_layer, path=path, progress=progress, max_memory=max_memory)
    if not puzzle.searchable_backward and max_backward != 0:
        if max_backward is not None:
            raise VecsearchError(f"{puzzle.name} is directed and has no predecessor function:"
                                 " it cannot search backwards")
        max_backward = 0
    starts, goals = endpoints(puzzle, start, goal, need_goal=True)
    profile = Profile(visited=choose_visited(puzzle, visited, sides=2))
    watch = jit.Stopwatch()
    if len(goals) == 0:  # every goal is in another component: unreachable, no search needed
        return SearchResult(puzzle, profile, None, True, [])
    budget = planner.MemoryBudget(planner.default_limit() if max_memory is None else planner.parse_size(max_memory),
                                  puzzle)
    with thread_limit(threads), layer_progress(progress, on_layer, f"bidirectional {puzzle.name}") as on_layer:
        forward = Side(puzzle, "forward", starts, profile, kind=profile.visited, limit=max_forward, on_layer=on_layer,
                       budget=budget)
        back = Side(puzzle, "backward", goals, profile, kind=profile.visited, backward=True, limit=max_backward,
                    on_layer=on_layer, budget=budget)
        meet = back.visited.least_member(forward.frontier)
        complete = meet is not None
        turn = 0
        while meet is None:
            side, room = _next_side(forward, back, max_depth, strategy, turn)
            if side is None:
                break
            turn += 1
            other = back if side is forward else forward
            sizes = profile.layer_sizes(side.name)
            if len(sizes) >= 2 and sizes[-2]:
                try:
                    budget.check_next_layer(side.depth, sizes,
                                            lambda n, side=side, other=other: side.projected_bytes(n) + other.nbytes,
                                            side.name)
                except MemoryLimitError as stop:
                    stop.result = SearchResult(puzzle, profile, None, False, forward.layers,
                                               backward_layers=back.layers)
                    raise
            if side.step(other.visited, room):
                meet = other.visited.least_member(side.frontier)
                complete = True
            elif side.exhausted:
                complete = True
                break
        solution = None
        length = None if meet is None else forward.depth + back.depth
        if meet is not None and path:
            halves = (paths.forward_half(puzzle, forward.layers, meet), paths.backward_half(puzzle, back.layers, meet))
            states, moves = paths.join(puzzle, *halves)
            solution = Solution(puzzle, states, moves, profile)
    profile.compile_seconds = watch.compile_seconds
    forward.visited.release(forward.layers)
    back.visited.release(back.layers)
    return SearchResult(puzzle, profile, solution, complete, forward.layers, length=length,
                        backward_layers=back.layers)


def _to_condition(puzzle, start, *, max_depth, visited, threads, on_layer, path, progress, max_memory):
    """A forward search until a layer holds a state the goal condition accepts (the least such
    is the goal reached), or the space within ``max_depth`` is exhausted."""
    starts, _ = endpoints(puzzle, start, None, need_goal=False)
    profile = Profile(visited=choose_visited(puzzle, visited, sides=1))
    watch = jit.Stopwatch()
    budget = planner.MemoryBudget(planner.default_limit() if max_memory is None else planner.parse_size(max_memory),
                                  puzzle)
    with thread_limit(threads), layer_progress(progress, on_layer, f"bfs {puzzle.name}") as on_layer:
        side = Side(puzzle, "forward", starts, profile, kind=profile.visited, limit=max_depth, on_layer=on_layer,
                    budget=budget)
        meet = least_goal(puzzle, side.frontier)
        while meet is None and not side.exhausted and (max_depth is None or side.depth < max_depth):
            sizes = profile.layer_sizes(side.name)
            if len(sizes) >= 2 and sizes[-2]:
                try:
                    budget.check_next_layer(side.depth, sizes, side.projected_bytes, side.name)
                except MemoryLimitError as stop:
                    stop.result = SearchResult(puzzle, profile, None, False, side.layers)
                    raise
            side.step(None)
            meet = least_goal(puzzle, side.frontier)
        solution = None
        if meet is not None and path:
            states, moves = paths.join(puzzle, paths.forward_half(puzzle, side.layers, meet), [meet])
            solution = Solution(puzzle, states, moves, profile)
    profile.compile_seconds = watch.compile_seconds
    side.visited.release(side.layers)
    return SearchResult(puzzle, profile, solution, meet is not None or side.exhausted, side.layers,
                        length=None if meet is None else side.depth)


def _next_side(forward, back, max_depth, strategy, turn):
    """The side to grow and how many layers it may grow before the choice is made again (all
    it is allowed when the other side cannot grow any more)."""
    def room(side, other):
        if side.exhausted:
            return 0
        left = UNLIMITED if side.limit is None else side.limit - side.depth
        return min(left, UNLIMITED if max_depth is None else max_depth - side.depth - other.depth)

    rooms = {forward: room(forward, back), back: room(back, forward)}
    options = [s for s in (forward, back) if rooms[s] > 0]
    if len(options) < 2:
        return (options[0], rooms[options[0]]) if options else (None, 0)
    if strategy == "alternate":
        return options[turn % 2], 1
    return (forward if len(forward.frontier) <= len(back.frontier) else back), 1
