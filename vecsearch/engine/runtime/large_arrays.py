"""Tables indexed by rank, large enough that where they live in memory matters.

A search reads such a table (a two-bit table, a visited bitset, a distance table) at random
ranks. With the usual 4 KiB pages, a table of gigabytes spans millions of pages, so almost every
random read also misses the processor's address cache (TLB) and walks the page tables. Linux backs
memory with 2 MiB pages on request (transparent huge pages, ``madvise`` mode): 512 times fewer
pages. Measured on the 7x2 sliding puzzle's 10.9 GB two-bit table (first 47 layers, 1.19 G
states, 2-core machine): claiming children 21.6 s -> 12.9 s, the search 110.7 s -> 96.4 s.

``table_array`` asks for huge pages when the table is at least ``HUGE_FROM`` bytes and the system
offers them (Linux with ``MADV_HUGEPAGE``); otherwise it is an ordinary numpy array. Either way the
caller gets a writable one-dimensional array it owns: the memory is returned when the array goes.
"""

from __future__ import annotations

import mmap

import numpy as np

HUGE_PAGE = 1 << 21  # bytes of a huge page on x86-64 and arm64
HUGE_FROM = 1 << 25  # smaller tables fit in few pages (and mostly in the caches): not worth a mapping


def table_array(length: int, dtype, fill=0) -> np.ndarray:
    """A new array of ``length`` elements of ``dtype``, every one ``fill``.

    Parameters
    ----------
    length : int
        Elements.
    dtype : numpy dtype
        Their type.
    fill : scalar
        Their value (0, the default, costs nothing until a page is written).

    Returns
    -------
    numpy.ndarray
        Backed by huge pages when it is at least ``HUGE_FROM`` bytes and the system offers them.
    """
    dtype = np.dtype(dtype)
    nbytes = length * dtype.itemsize
    if nbytes < HUGE_FROM or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.full(length, fill, dtype)
    # one huge page more than needed, so the array can start on a huge-page boundary
    region = mmap.mmap(-1, nbytes + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        region.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # a kernel built without huge pages: ordinary pages, as np.full's
        pass
    start = np.frombuffer(region, np.uint8, count=1).ctypes.data
    array = np.frombuffer(region, dtype, count=length, offset=-start % HUGE_PAGE)
    if fill:
        array.fill(fill)
    return array
