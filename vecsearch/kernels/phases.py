"""The phases of a layer whose time the profile splits out, as kernels count them.

A kernel that takes a ``clock`` (an int64 array, one entry per phase) adds the processor cycles
each phase of its batches took (``intrinsics.cycles``, read a few times per batch of states, not
per state) with one atomic add per phase and call; ``vecsearch.engine.runtime.phase_clock`` turns the counts
into seconds of the layer. The phases:

- ``scan``: passes over a two-bit table (finding the frontier's or the unreached cells, retiring
  a frontier);
- ``unrank``: turning ranks into states;
- ``expand``: generating children (and their ranks, for puzzles that rank a child from its
  parent's rank or digits, or step in rank space: then ``rank`` and ``unrank`` are in here);
- ``rank``: ranking children one by one;
- ``claim``: prefetching and setting visited bits, hash inserts, two-bit claims and lookups;
- ``compact``: gathering the new states of every block into the next layer.
"""

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import atomic_add

PHASES = ("scan", "unrank", "expand", "rank", "claim", "compact")
SCAN, UNRANK, EXPAND, RANK, CLAIM, COMPACT = range(len(PHASES))


def new_clock() -> np.ndarray:
    return np.zeros(len(PHASES), np.int64)


@state_function
def add_cycles(clock, spent):
    """Add a call's ``spent`` cycles per phase to the shared ``clock``."""
    for phase in range(spent.shape[0]):
        if spent[phase] != 0:
            atomic_add(clock, phase, spent[phase])
