"""Kernels of the enumeration modulo symmetry (``vecsearch.engine.classes``): one pass over the
conjugates of a layer's new states marks their whole classes as visited."""

import numpy as np
from numba import prange

from vecsearch._numba import parallel_kernel
from vecsearch.kernels.intrinsics import atomic_or, prefetch

AHEAD = 4  # rows whose bitset words are prefetched before they are set


@parallel_kernel
def settle_classes(ranks, conjugates, bits, owners_bits, canonical, sizes, owner):
    """For each state ``ranks[i]`` with conjugates ``conjugates[i]`` (one per symmetry): set
    every conjugate's bit in ``bits``; ``canonical[i]``: the least conjugate; ``sizes[i]``: the
    class's size (the group's order over the symmetries that fix the state); ``owner[i]``: 1 for
    the one state of each class (among these) that claimed its canonical rank's bit in
    ``owners_bits``, 0 for the others."""
    symmetries = conjugates.shape[1]
    for i in prange(ranks.shape[0]):
        if i + AHEAD < ranks.shape[0]:
            for g in range(symmetries):
                prefetch(bits, conjugates[i + AHEAD, g] >> 6)
        least = conjugates[i, 0]
        fixed = 0
        for g in range(symmetries):
            r = conjugates[i, g]
            least = min(least, r)
            fixed += r == ranks[i]
            atomic_or(bits, r >> 6, np.uint64(1) << np.uint64(r & 63))
        canonical[i] = least
        sizes[i] = symmetries // fixed
        bit = np.uint64(1) << np.uint64(least & 63)
        owner[i] = (atomic_or(owners_bits, least >> 6, bit) & bit) == 0
