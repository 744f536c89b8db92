"""Kernels of the enumeration modulo symmetry (``vecsearch.engine.layered.classes``)."""

import numpy as np
from numba import prange

from vecsearch._numba import parallel_kernel
from vecsearch.kernels.intrinsics import atomic_or, prefetch

AHEAD = 8  # ranks whose bitset words are prefetched before they are claimed


@parallel_kernel
def claim_classes(canonical, bits, new):
    """``new[i]``: 1 when ``canonical[i]``'s bit in ``bits`` was clear and this ``i`` set it (one
    per class among these, the others 0)."""
    n = canonical.shape[0]
    for i in prange(n):
        if i + AHEAD < n:
            prefetch(bits, canonical[i + AHEAD] >> 6)
        bit = np.uint64(1) << np.uint64(canonical[i] & 63)
        new[i] = (atomic_or(bits, canonical[i] >> 6, bit) & bit) == 0
