"""Kernels of the partitioned two-bit search: one segment's share of a layer.

An ordinary module bound per family by ``vecsearch.engine.runtime.codegen``, like ``rank_space_template``
(whose cells and neighbours it uses). ``old`` is the table at the frontier's depth, ``new`` the
next one; a segment expands or pulls the words ``[lo, hi)`` (see
``vecsearch.engine.twobit.segment_tasks``). Each kernel allocates its scratch and runs its ``loop``,
which takes the frontier in batches as ``twobit_range`` does (same helpers).
"""

import numpy as np

from vecsearch.engine.twobit.rank_space_template import (
    FIRST_LOOK,
    HAS_NEAR,
    batch_neighbours,
    batch_scratch,
    cell_value,
    pull_batch,
    pull_near,
    take_cells,
    unrank_batch,
)
from vecsearch.kernels.phases import PHASES
from vecsearch.kernels.roles import MAX_MOVES, kernel, loop

# the kernels the engine calls (code generation exports them from the family module)
__all__ = ("frontier_children_range", "pull_segment_range", "ask_parents_range")


@kernel
def frontier_children_range(old, new, lo, hi, pattern, last_mask, component, tables, backward, own_lo, own_hi,
                            out, look, filter_routed):
    """Expand the cells ``pattern`` selects in words ``[lo, hi)`` of ``old`` (``backward``: to
    predecessors), set the children whose ranks lie in ``[own_lo, own_hi)`` in ``new`` (where
    they are not reached: ``new`` is ``old`` with its frontier retired), and write the other
    children's ranks to ``out`` (room for the puzzle's ``max_moves`` per selected cell): only
    those ``old`` has not reached when ``filter_routed``, all of them otherwise (a table that
    holds only its own range). The children's words are prefetched from ``look`` (``old``, or
    ``new`` read-only). Returns ``(expanded, generated, written)``."""
    pending, counts, starts, states, kids, moves, ranks, memory = batch_scratch()
    return frontier_children_loop(old, new, lo, hi, pattern, last_mask, component, tables, backward, own_lo, own_hi,
                                  out, look, filter_routed, pending, counts, starts, states, kids, moves, ranks, memory)


@loop
def frontier_children_loop(old, new, lo, hi, pattern, last_mask, component, tables, backward, own_lo, own_hi, out,
                           look, filter_routed, pending, counts, starts, states, kids, moves, ranks, memory):
    expanded = 0
    generated = 0
    written = 0
    word = lo
    while word < hi:
        taken, word = take_cells(old, word, hi, pattern, last_mask, False, pending)
        unrank_batch(pending, taken, component, tables, states)
        c = batch_neighbours(look, pending, taken, states, component, tables, backward, kids, moves, ranks, counts,
                             starts, MAX_MOVES, memory)
        for j in range(c):
            r = ranks[j]
            if own_lo <= r < own_hi:
                new[r >> 5] &= ~(2 << ((r & 31) << 1))  # 3 (not reached) becomes 1; 1 and 0 stay
            elif not filter_routed or cell_value(old, r) == 3:
                out[written] = r
                written += 1
        generated += c
        expanded += taken
    return expanded, generated, written


@kernel
def pull_segment_range(old, new, lo, hi, last_mask, component, tables, backward):
    """The pull form of ``frontier_children_range``: set in ``new`` every cell of words
    ``[lo, hi)`` that ``old`` has not reached and that has a neighbour one move before it (a
    predecessor; a child when ``backward``) in ``old``'s frontier (cell ``1``). Returns
    ``(looked, neighbours looked at, set)``."""
    no_stash = np.empty(0, np.int64)  # a segment counts its cells afterwards; it keeps no ranks as it sets them
    spent = np.zeros(len(PHASES), np.int64)  # pull_near times its phases; a segment reports none
    pending, counts, starts, states, kids, moves, ranks, memory = batch_scratch()
    return pull_segment_loop(old, new, lo, hi, last_mask, component, tables, backward, no_stash, np.zeros(1, np.int64),
                             spent, pending, counts, starts, states, kids, moves, ranks, memory)


@loop
def pull_segment_loop(old, new, lo, hi, last_mask, component, tables, backward, no_stash, fill, spent, pending, counts,
                      starts, states, kids, moves, ranks, memory):
    direction = not backward
    looked = 0
    generated = 0
    found = 0
    word = lo
    while word < hi:
        taken, word = take_cells(old, word, hi, 0, last_mask, False, pending)  # pattern 0: the unreached
        looked += taken
        if HAS_NEAR:
            n, g, taken = pull_near(old, new, pending, counts, starts, taken, component, tables, direction, ranks, 1,
                                    1, no_stash, fill, spent, memory)
            found += n
            generated += g
        unrank_batch(pending, taken, component, tables, states)
        batch_neighbours(old, pending, taken, states, component, tables, direction, kids, moves, ranks, counts, starts,
                         FIRST_LOOK, memory)
        n, g, _ = pull_batch(old, new, pending, counts, starts, taken, ranks, 1, 1, no_stash, fill, kids, tables)
        found += n
        generated += g
    return looked, generated, found



@kernel
def ask_parents_range(old, new, lo, hi, last_mask, component, tables, backward, own_lo, own_hi, asked, askers):
    """The pull form of ``frontier_children_range`` for a table that holds only the ranks
    ``[own_lo, own_hi)``: for every cell of words ``[lo, hi)`` that ``old`` has not reached, look
    for a neighbour one move before it (a predecessor; a child when ``backward``) in ``old``'s
    frontier among those in the range, and set the cell in ``new`` if there is one; else write
    its neighbours outside the range to ``asked``, its own rank beside each in ``askers`` (their
    owners are asked whether they are in the frontier). ``old`` is never read outside the range.
    Returns ``(looked, neighbours generated, set, written)``."""
    pending, counts, starts, states, kids, moves, ranks, memory = batch_scratch()
    return ask_parents_loop(old, new, lo, hi, last_mask, component, tables, backward, own_lo, own_hi, asked, askers,
                            pending, counts, starts, states, kids, moves, ranks, memory)


@loop
def ask_parents_loop(old, new, lo, hi, last_mask, component, tables, backward, own_lo, own_hi, asked, askers, pending,
                     counts, starts, states, kids, moves, ranks, memory):
    direction = not backward
    looked = 0
    generated = 0
    found = 0
    written = 0
    word = lo
    while word < hi:
        taken, word = take_cells(old, word, hi, 0, last_mask, False, pending)  # pattern 0: the unreached
        looked += taken
        unrank_batch(pending, taken, component, tables, states)
        generated += batch_neighbours(old, pending, taken, states, component, tables, direction, kids, moves, ranks,
                                      counts, starts, MAX_MOVES, memory)  # a prefetch outside the range reads nothing
        for i in range(taken):
            r = pending[i]
            first = starts[i]
            last = first + counts[i]
            j = first
            while j < last and not (own_lo <= ranks[j] < own_hi and cell_value(old, ranks[j]) == 1):
                j += 1
            if j < last:
                new[r >> 5] &= ~(2 << ((r & 31) << 1))  # 3 (not reached) becomes 1
                found += 1
                continue
            for j in range(first, last):
                if ranks[j] < own_lo or ranks[j] >= own_hi:
                    asked[written] = ranks[j]
                    askers[written] = r
                    written += 1
    return looked, generated, found, written
