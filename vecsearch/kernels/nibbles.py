"""Four-bit entries packed two per byte: pattern databases store a small number per state.

Entry ``i`` is the low nibble of byte ``i // 2`` when ``i`` is even, the high nibble when odd.
"""

import numpy as np

from vecsearch._numba import state_function


@state_function
def nibble(packed, index):
    """Entry ``index`` of a nibble-packed uint8 array."""
    return np.int64((packed[index >> 1] >> ((index & 1) << 2)) & 15)


def unpack_nibbles(packed: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` entries of a nibble-packed array, one per byte."""
    out = np.empty(2 * len(packed), dtype=np.uint8)
    out[0::2] = packed & 15
    out[1::2] = packed >> 4
    return out[:count]
