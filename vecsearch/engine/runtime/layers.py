"""Layers: the states first reached at one depth, kept as a few contiguous chunks.

A new layer's size is unknown until it is built, and over-allocating for the worst case
(frontier x max_moves) would cost several times the layer itself. So a layer is a list of chunk
arrays, filled one bounded buffer at a time; memory held is the states plus at most one
partly filled buffer.
"""

from __future__ import annotations

import numpy as np

CHUNK_BYTES = 32 << 20  # the buffer a layer grows by


def empty_states(width: int, n: int = 0) -> np.ndarray:
    """An uninitialised layer array of ``n`` states."""
    return np.empty((n,) if width == 1 else (n, width), dtype=np.int64)


class Layer:
    """States first reached at one depth (in no particular order)."""

    __slots__ = ("chunks", "width", "_size", "nbytes")

    def __init__(self, chunks, width: int):
        self.width = width
        self.chunks = [c for c in chunks if len(c)]
        self._size = sum(len(c) for c in self.chunks)
        self.nbytes = sum(c.nbytes for c in self.chunks)

    @classmethod
    def of(cls, states: np.ndarray, width: int) -> Layer:
        return cls([states], width)

    def __len__(self) -> int:
        return self._size

    @property
    def states(self) -> np.ndarray:
        """All states as one array (a copy when there are several chunks)."""
        if len(self.chunks) == 1:
            return self.chunks[0]
        if not self.chunks:
            return empty_states(self.width)
        return np.concatenate(self.chunks)

    def pop_chunk(self) -> np.ndarray:
        """Drop the first chunk from the layer and return it."""
        chunk = self.chunks.pop(0)
        self._size -= len(chunk)
        self.nbytes -= chunk.nbytes
        return chunk

    def put_back(self, chunks) -> None:
        """Return popped chunks to the front of the layer."""
        self.chunks[:0] = chunks
        self._size += sum(len(c) for c in chunks)
        self.nbytes += sum(c.nbytes for c in chunks)

    def __repr__(self) -> str:
        return f"<Layer of {len(self):,} states>"


class LayerBuilder:
    """Collects the new states of a layer in bounded buffers: copied in by ``append``, or written
    by kernels into the buffer ``room`` hands out, at slots they take from its fill count.
    ``guard``, if given, is told the bytes the layer will hold before each buffer is allocated
    (and may raise ``MemoryLimitError``)."""

    def __init__(self, width: int, expected: int, guard=None):
        self.width = width
        self._capacity = max(1, min(expected, CHUNK_BYTES // (8 * width)))
        self._chunks: list[np.ndarray] = []
        self._buffer = None
        self._fill = np.zeros(1, np.int64)  # slots of the buffer taken
        self._guard = guard

    def room(self, needed: int) -> tuple[np.ndarray, np.ndarray]:
        """The buffer new states go to, with at least ``needed`` free slots, and its fill count
        (a one-element array that kernels advance atomically as they write)."""
        if self._buffer is not None and len(self._buffer) - self._fill[0] < needed:
            self._chunks.append(self._buffer[:self._fill[0]])  # a view: the slack (< needed) stays with it
            self._buffer = None
        if self._buffer is None:
            capacity = max(self._capacity, needed)
            if self._guard is not None:
                self._guard(sum(c.nbytes for c in self._chunks) + 8 * self.width * capacity)
            self._buffer = empty_states(self.width, capacity)
            self._fill[0] = 0
        return self._buffer, self._fill

    def append(self, states: np.ndarray) -> None:
        while len(states):
            buffer, fill = self.room(1)
            take = min(len(states), len(buffer) - fill[0])
            buffer[fill[0]:fill[0] + take] = states[:take]
            fill[0] += take
            states = states[take:]

    @property
    def count(self) -> int:
        """States collected so far."""
        return sum(len(c) for c in self._chunks) + (int(self._fill[0]) if self._buffer is not None else 0)

    def finish(self) -> Layer:
        if self._buffer is not None and self._fill[0]:
            self._chunks.append(self._buffer[:self._fill[0]].copy())
        self._buffer = None
        return Layer(self._chunks, self.width)
