"""Pattern databases: exact distances in an abstraction of a puzzle, enumerated breadth-first.

An ``Abstraction`` is a smaller puzzle (a projection of the real one: only some tiles or pieces
are told apart) whose distance to its goal never exceeds the real distance. Its moves may cost
0 (``free_moves``): for additive sliding-tile databases, moves of tiles outside the pattern
are free (or, better, folded into the abstract state: see ``puzzles/sliding/patterns``).
``enumerate_distances`` runs a 0-1 breadth-first search over the abstraction's rank space with
the engine's bitset and parallel expansion: each layer (distance ``d``) is grown by the paid
moves of the previous layer, then closed under free moves, if any. Database entries are groups
of consecutive ranks (``entry = rank // group``: e.g. the same pattern with the blank anywhere)
holding the least distance of the group.

Databases are built once and kept on disk as numpy files (``runtime.saved_arrays.cached_array``), in
``$VECSEARCH_CACHE_DIR/pdb`` (default ``~/.cache/vecsearch/pdb``) or a directory given.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vecsearch.engine.results.profile import LayerRecord, Profile
from vecsearch.engine.runtime import jit, planner
from vecsearch.engine.runtime.blocks import thread_limit
from vecsearch.engine.runtime.codegen import build_kernels
from vecsearch.engine.runtime.guarded import kernel_tables
from vecsearch.engine.runtime.large_arrays import table_array
from vecsearch.engine.runtime.layers import Layer, LayerBuilder, empty_states
from vecsearch.engine.runtime.visited import ROUND, expand_blocks
from vecsearch.errors import VecsearchError

UNREACHED = 255


@dataclass(frozen=True)
class Abstraction:
    """An abstract space to enumerate from its goal layer ``goals``.

    ``puzzle`` needs a rank (``rank_size`` bits are allocated) and reversible moves (distances
    from the goal are distances to it); ``free_moves`` are the move indices that cost 0;
    ``group`` consecutive ranks form one database entry.
    """

    puzzle: object
    goals: np.ndarray
    free_moves: tuple[int, ...] = ()
    group: int = 1


def enumerate_distances(abstraction: Abstraction, *, threads=None, on_layer=None,
                        max_memory=None) -> tuple[np.ndarray, Profile]:
    """``entries[i]``: the least distance to the goal over the abstract states of entry ``i``
    (``UNREACHED`` = 255 if none is connected to it), and the profile of the enumeration.

    The memory planner is asked first (``planner.plan_database``: the bitset and the entries
    must fit under ``max_memory``, default most of the available memory); the layers are checked
    against the same limit as they grow."""
    puzzle = abstraction.puzzle
    if not puzzle.has_rank or not puzzle.reversible:
        raise VecsearchError(f"{puzzle.name}: an abstraction needs a rank and reversible moves")
    if puzzle.rank_size % abstraction.group:
        raise VecsearchError(f"{puzzle.name}: rank_size {puzzle.rank_size} is not a multiple of group"
                             f" {abstraction.group}")
    budget = planner.plan_database(puzzle, abstraction.group, max_memory)
    roles = ("expand_state", "rank_state")
    kernels = build_kernels({role: puzzle.functions[role] for role in roles}, puzzle.width, puzzle.move_capacity,
                            puzzle.kernel_label, templates=("pdb_template",), roles=roles, optional_roles=())
    costs = np.ones(puzzle.max_moves, dtype=np.int64)
    costs[list(abstraction.free_moves)] = 0
    bits = table_array((puzzle.rank_size + 63) // 64, np.uint64)
    entries = table_array(puzzle.rank_size // abstraction.group, np.uint8, UNREACHED)
    profile = Profile(visited="bitset")
    watch = jit.Stopwatch()
    step = _Expander(kernels, puzzle, bits, costs, entries, abstraction.group, budget)
    with thread_limit(threads):
        layer_watch = jit.Stopwatch()
        goals = puzzle.states(abstraction.goals).copy()
        layer = Layer.of(goals[:kernels.claim_goals(goals, kernel_tables(puzzle), bits, entries, abstraction.group)],
                         puzzle.width)
        depth, frontier, generated = 0, len(goals), 0
        while len(layer):
            if abstraction.free_moves:
                layer, closing = step.close(layer, depth)
                generated += closing
            seconds = layer_watch.search_seconds
            duplicates = generated - len(layer) if depth else 0
            memory = bits.nbytes + entries.nbytes + layer.nbytes
            record = LayerRecord("abstract", depth, len(layer), frontier, generated, duplicates, seconds, memory, "0-1")
            profile.add(record)
            if on_layer is not None:
                on_layer(record)
            if depth + 1 >= UNREACHED:
                raise VecsearchError(f"{puzzle.name}: abstract distances beyond {UNREACHED - 1}")
            layer_watch = jit.Stopwatch()
            frontier = len(layer)
            depth += 1
            layer, generated = step.expand(layer, 1, depth)
    profile.compile_seconds = watch.compile_seconds
    return entries, profile


class _Expander:
    def __init__(self, kernels, puzzle, bits, costs, entries, group, budget):
        self.kernels, self.puzzle = kernels, puzzle
        self.fixed = (bits, costs)
        self.entries, self.group = entries, group
        self.budget = budget
        self.held = bits.nbytes + entries.nbytes + planner.SCRATCH_BYTES
        self.scratch = empty_states(puzzle.width)

    def expand(self, layer: Layer, want: int, depth: int) -> tuple[Layer, int]:
        """New states one move of cost ``want`` after ``layer``, and the children generated. The
        new layer grows in chunks, each checked against the budget first."""
        stride = self.puzzle.max_moves
        needed = min(len(layer), ROUND) * stride
        if len(self.scratch) < needed:
            self.scratch = empty_states(self.puzzle.width, needed)
        held = self.held + layer.nbytes
        builder = LayerBuilder(self.puzzle.width, len(layer) * stride,
                               lambda grown: self.budget.check(held + grown, f"layer {depth}"))
        generated = 0
        fixed = (kernel_tables(self.puzzle), *self.fixed, want, self.entries, self.group, depth)
        for chunk in layer.chunks:
            for lo in range(0, len(chunk), ROUND):
                for out, (g, new) in expand_blocks(self.kernels.expand_cost_range, chunk[lo:lo + ROUND], fixed,
                                                   self.scratch, stride):
                    builder.append(self.scratch[out:out + new])
                    generated += g
        return builder.finish(), generated

    def close(self, layer: Layer, depth: int) -> tuple[Layer, int]:
        """``layer`` and every state reached from it by free moves; children generated."""
        chunks, newest, generated = list(layer.chunks), layer, 0
        while len(newest):
            newest, g = self.expand(newest, 0, depth)
            chunks += newest.chunks
            generated += g
        return Layer(chunks, self.puzzle.width), generated
