"""Four-bit entries packed two per byte: pattern databases store a small number per state.

Entry ``i`` is the low nibble of byte ``i // 2`` when ``i`` is even, the high nibble when odd.
"""

import numpy as np

from vecsearch._numba import state_function


@state_function
def nibble(packed, index):
    """Entry ``index`` of a nibble-packed uint8 array."""
    return np.int64((packed[index >> 1] >> ((index & 1) << 2)) & 15)
