"""Whole-space breadth-first enumeration: ``bfs`` without a goal.

Runs the layered search (``sides.Side``) or the two-bit search (``twobit.TwoBitSearch``) in
the mode the memory planner picks, writes a checkpoint after every layer when asked (and after
the start states), continues from one, and stops cleanly on Ctrl-C: ``SearchInterrupted``
carries the search up to its last complete layer. A checkpoint records the puzzle, the mode and
the profile so far; resuming with another puzzle, mode or start is refused.

A two-bit table too large to write in a moment (the 7x2's is 10.9 GB: tens of seconds per
write) is written less often (``checkpoint.Pacing``), so that writing costs at most about a tenth
of the search; the last complete layer is written still when the search ends, stops at its depth
limit, or is interrupted between layers (a Ctrl-C in the middle of a layer leaves the two-bit table
half-updated: the checkpoint then keeps the layer written before, and resuming repeats the layers
since).
"""

from __future__ import annotations

import numpy as np

from vecsearch.engine.layered.sides import UNLIMITED, Side
from vecsearch.engine.results.profile import LayerRecord, Profile
from vecsearch.engine.results.result import SearchResult
from vecsearch.engine.runtime import checkpoint as checkpoints
from vecsearch.engine.runtime import jit, planner
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.codegen import layer_kernels
from vecsearch.engine.runtime.endpoints import endpoints
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.layers import Layer
from vecsearch.engine.twobit.classes import CELLS as CLASS_CELLS
from vecsearch.engine.twobit.search import TwoBitSearch
from vecsearch.errors import MemoryLimitError, SearchInterrupted, VecsearchError

CELLS = "frontier"  # what a checkpoint's two-bit cells mean (``twobit``): refused when another meaning
KEEP_FARTHEST = 1 << 16  # farthest states a two-bit search keeps (a layered one keeps its whole last layer)


def enumerate_space(puzzle, start=None, *, max_depth=None, keep_layers=None, backward=False, visited="auto",
                    threads=None, on_layer=None, mode="auto", max_memory=None, checkpoint=None, resume=None,
                    keep_farthest=KEEP_FARTHEST, layer_sink=None) -> SearchResult:
    if backward and not puzzle.searchable_backward:
        raise VecsearchError(f"{puzzle.name} is directed and has no predecessor function: it can only search forwards")
    saved = None
    if resume is not None:
        saved = _load(resume, puzzle, start, mode)
        meta = saved[0]
        checkpoints.not_past(resume, len(meta["records"]) - 1, max_depth)
        mode, backward, keep_layers = meta["mode"], meta["backward"], meta["keep_layers"]
        visited = meta["visited"] if mode == "layers" else "auto"
        starts = saved[1]["starts"]
    else:
        starts, _ = endpoints(puzzle, start, None, need_goal=False)
    plan = planner.plan(puzzle, mode=mode, visited=visited, max_memory=max_memory, max_depth=max_depth,
                        keep=keep_farthest, need_layers=bool(keep_layers) or layer_sink is not None)
    profile = Profile(visited=plan.visited)
    if saved is not None:
        profile.records = [LayerRecord(**record) for record in saved[0]["records"]]
    directory = checkpoint if checkpoint is not None else resume
    header = {"puzzle": puzzle.name, "width": puzzle.width, "rank_size": puzzle.rank_size, "mode": plan.mode,
              "visited": plan.visited, "backward": bool(backward), "keep_layers": bool(keep_layers)}
    runner = None
    early = []  # the start layer, recorded while the runner is being made
    pacing = checkpoints.Pacing()
    written = [-1]  # the depth of the newest checkpoint written, or begun (a Ctrl-C during a write ends it)

    def after_layer(record):
        if plan.mode == "twobit":
            profile.add(record)
        if runner is None:
            early.append(record)
        else:
            finish_layer(record)

    def save():
        written[0] = runner.depth
        meta, arrays = runner.snapshot()
        checkpoints.save(directory, dict(header, records=profile.to_records(), **meta), dict(arrays, starts=starts))

    def save_settled():
        """Write the last complete layer unless it is written already (or the runner is mid-layer)."""
        if directory is not None and runner is not None and runner.paced and runner.settled \
                and written[0] != runner.depth:
            pacing.write(save)

    def finish_layer(record):
        if directory is not None and (not runner.paced or pacing.due()):
            pacing.write(save)
        if on_layer is not None:
            on_layer(record)

    watch = jit.Stopwatch()
    name = "backward" if backward else "forward"
    try:
        with thread_limit(threads):
            if plan.mode == "twobit":
                runner = _TwoBit(puzzle, starts, backward, keep_farthest, name, after_layer, saved)
            else:
                runner = _Layered(puzzle, starts, backward, plan, keep_layers, max_depth, profile, name, after_layer,
                                  layer_sink, saved, one_layer_per_step=directory is not None)
            if saved is not None:
                written[0] = runner.depth
            for record in early:
                finish_layer(record)
            while not runner.exhausted and (max_depth is None or runner.depth < max_depth):
                runner.step()
            save_settled()
    except KeyboardInterrupt:
        save_settled()
        profile.compile_seconds = watch.compile_seconds
        partial = runner.result(profile) if runner is not None else SearchResult(puzzle, profile)
        raise SearchInterrupted(partial, directory) from None
    except MemoryLimitError as error:
        profile.compile_seconds = watch.compile_seconds
        error.result = runner.result(profile) if runner is not None else None
        raise
    profile.compile_seconds = watch.compile_seconds
    return runner.result(profile)


class _Layered:
    """The layered search: one ``_Side`` with a bitset or a hash set, under a memory budget."""

    paced = False  # a checkpoint after every layer: a layer stopped half-way is not resumable from memory

    def __init__(self, puzzle, starts, backward, plan, keep_layers, max_depth, profile, name, after_layer, sink,
                 saved, one_layer_per_step):
        budget = planner.MemoryBudget(plan.limit, puzzle)
        self.budget = budget
        self.max_depth = max_depth
        # Small layers may grow several to a kernel call, but a checkpoint must see each one alone
        self.one_layer_per_step = one_layer_per_step
        self.side = Side(puzzle, name, starts, profile, kind=plan.visited, backward=backward,
                         keep_layers=bool(keep_layers), limit=max_depth, on_layer=after_layer, sink=sink, budget=budget,
                         restored=saved)
        self.side.consume_frontier = True  # only the last layer is kept: a layer need not outlive the next

    @property
    def depth(self) -> int:
        return self.side.depth

    @property
    def exhausted(self) -> bool:
        return self.side.exhausted

    def step(self) -> None:
        side = self.side
        sizes = [r.states for r in side.profile.records if r.side == side.name]
        if len(sizes) >= 2 and sizes[-2]:
            self.budget.check_next_layer(side.depth, sizes, side.projected_bytes)
        if self.one_layer_per_step:
            self.side.step(None)
        else:
            self.side.step(None, UNLIMITED if self.max_depth is None else self.max_depth - self.side.depth)

    def snapshot(self):
        return self.side.snapshot()

    def result(self, profile) -> SearchResult:
        side = self.side
        side.visited.release([])
        layers = [] if side.frontier_lost else side.layers  # a layer stopped half-way is not given as the last
        return SearchResult(side.puzzle, profile, None, side.exhausted, layers, side.name)


class _TwoBit:
    """The two-bit search of the starts' component."""

    paced = True  # checkpoints paced (``checkpoint.Pacing``): its table may take long to write

    def __init__(self, puzzle, starts, backward, keep, name, after_layer, saved):
        component = layer_kernels(puzzle).components(starts[:1], kernel_tables(puzzle))[0]
        self.puzzle = puzzle
        self.search = TwoBitSearch(puzzle, component, backward, keep, name)
        self.after_layer = after_layer
        if saved is not None:
            if saved[0].get("cells") != CELLS:
                raise VecsearchError("this checkpoint's two-bit table was written by an earlier vecsearch, whose"
                                     " cells meant other things: start the search again")
            self.search.restore(saved[1])
        else:
            after_layer(self.search.seed(starts))

    @property
    def depth(self) -> int:
        return self.search.depth

    @property
    def exhausted(self) -> bool:
        return self.search.exhausted

    @property
    def settled(self) -> bool:
        """Whether the table holds complete layers only (not stopped in the middle of one)."""
        return self.search.settled

    def step(self) -> None:
        self.after_layer(self.search.step())

    def snapshot(self):
        return {"depth": self.search.depth, "component": self.search.component, "cells": CELLS}, self.search.arrays()

    def result(self, profile) -> SearchResult:
        farthest = Layer.of(self.search.newest_states(), self.puzzle.width)
        return SearchResult(self.puzzle, profile, None, self.search.exhausted, [farthest], self.search.side)


def _load(directory, puzzle, start, mode):
    meta, arrays = checkpoints.load(directory, deferred=("table",))  # a two-bit table: read into place
    if meta.get("cells") == CLASS_CELLS:
        raise VecsearchError(f"the checkpoint in {directory} enumerates classes modulo {meta['order']} symmetries:"
                             " resume it with the same symmetry")
    expected = (puzzle.name, puzzle.width, puzzle.rank_size)
    found = (meta.get("puzzle"), meta.get("width"), meta.get("rank_size"))
    if found != expected:
        raise VecsearchError(f"the checkpoint in {directory} is for puzzle {found[0]!r}, not {puzzle.name!r}")
    if mode not in ("auto", meta["mode"]):
        raise VecsearchError(f"the checkpoint in {directory} continues a {meta['mode']} search, not {mode}")
    if start is not None:
        starts, _ = endpoints(puzzle, start, None, need_goal=False)
        if not np.array_equal(np.unique(starts, axis=0), np.unique(arrays["starts"], axis=0)):
            raise VecsearchError(f"the checkpoint in {directory} continues a search from other start states")
    return meta, arrays
