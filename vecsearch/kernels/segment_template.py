"""Kernels of the partitioned two-bit search: one segment's share of a layer.

An ordinary module bound per family by ``vecsearch.engine.codegen``, like ``rank_space_template``
(whose cells and neighbours it uses). ``old`` is the table at the frontier's depth, ``new`` the
next one; a segment expands or pulls the words ``[lo, hi)`` (see
``vecsearch.engine.segment_tasks``). Each kernel allocates its scratch and runs its ``loop``.
"""

import numpy as np
from vecsearch.kernels.intrinsics import popcount, prefetch
from vecsearch.kernels.rank_space_template import cell_value, cells_matching, rank_neighbours
from vecsearch.kernels.roles import MAX_MOVES, WIDTH, kernel, loop, new_states


@kernel
def frontier_children_range(old, new, lo, hi, pattern, last_mask, component, tables, backward, own_lo, own_hi,
                            out):
    """Expand the cells ``pattern`` selects in words ``[lo, hi)`` of ``old`` (``backward``: to
    predecessors), set the children ``old`` has not reached whose ranks lie in ``[own_lo,
    own_hi)`` in ``new``, and write the other unreached children's ranks to ``out`` (room for the
    puzzle's ``max_moves`` per selected cell). Returns ``(expanded, generated, written)``."""
    return frontier_children_loop(old, new, lo, hi, pattern, last_mask, component, tables, backward, own_lo, own_hi,
                                  out, new_states(MAX_MOVES, WIDTH), np.empty(MAX_MOVES, np.int64),
                                  np.empty(MAX_MOVES, np.int64))


@loop
def frontier_children_loop(old, new, lo, hi, pattern, last_mask, component, tables, backward, own_lo, own_hi, out,
                           kids, moves, ranks):
    expanded = 0
    generated = 0
    written = 0
    for word in range(lo, hi):
        cells = cells_matching(old, word, pattern, last_mask)
        while cells != 0:
            low = cells & -cells
            cells ^= low
            rank = (word << 5) | (popcount(low - 1) >> 1)
            c = rank_neighbours(rank, component, tables, backward, kids, moves, ranks, 0)
            for j in range(c):
                prefetch(old, ranks[j] >> 5)
            for j in range(c):
                r = ranks[j]
                if cell_value(old, r) != 3:
                    continue
                if own_lo <= r < own_hi:
                    new[r >> 5] &= ~(2 << ((r & 31) << 1))
                else:
                    out[written] = r
                    written += 1
            generated += c
            expanded += 1
    return expanded, generated, written


@kernel
def pull_segment_range(old, new, lo, hi, last_mask, component, tables, backward):
    """The pull form of ``frontier_children_range``: set in ``new`` every cell of words
    ``[lo, hi)`` that ``old`` has not reached and that has a neighbour one move before it (a
    predecessor; a child when ``backward``) in ``old``'s frontier (cell ``1``). Returns
    ``(looked, neighbours looked at, set)``."""
    return pull_segment_loop(old, new, lo, hi, last_mask, component, tables, backward, new_states(MAX_MOVES, WIDTH),
                             np.empty(MAX_MOVES, np.int64), np.empty(MAX_MOVES, np.int64))


@loop
def pull_segment_loop(old, new, lo, hi, last_mask, component, tables, backward, kids, moves, ranks):
    looked = 0
    generated = 0
    found = 0
    for word in range(lo, hi):
        cells = cells_matching(old, word, 0, last_mask)  # pattern 0 selects the unreached cells
        while cells != 0:
            low = cells & -cells
            cells ^= low
            rank = (word << 5) | (popcount(low - 1) >> 1)
            c = rank_neighbours(rank, component, tables, not backward, kids, moves, ranks, 0)
            for j in range(c):
                prefetch(old, ranks[j] >> 5)
            j = 0
            while j < c and cell_value(old, ranks[j]) != 1:
                j += 1
            generated += min(j + 1, c)
            if j < c:
                new[word] &= ~(2 << ((rank & 31) << 1))
                found += 1
            looked += 1
    return looked, generated, found
