"""Reading lines of small tokens from raw bytes in one pass (batch inputs of millions of lines).

``token_lines`` splits a byte buffer into its non-blank lines and each line into tokens
(separated by spaces, tabs or ``\\r``). A token of decimal digits reads as its value; a token of
one other byte ``b`` reads as ``letters[b]`` (set by the caller; -1 where that byte means
nothing); anything else reads as -1. Callers validate the values in bulk with numpy and
re-read only the lines that fail with their own (Python) parser, for its precise message.
"""

from __future__ import annotations

import numpy as np

from vecsearch._numba import kernel

BAD_TOKEN = -1
_NEWLINE, _SPACE, _TAB, _RETURN, _ZERO, _NINE = 10, 32, 9, 13, 48, 57
_MAX_DIGITS = 9  # longer numbers read as BAD_TOKEN


@kernel
def _token_lines(data, letters, values, counts, lines):
    n = 0
    line = 1
    i = 0
    size = data.shape[0]
    width = values.shape[1]
    while i < size:
        tokens = 0
        while i < size and data[i] != _NEWLINE:
            c = data[i]
            if c == _SPACE or c == _TAB or c == _RETURN:
                i += 1
                continue
            start = i
            value = 0
            digits = True
            while i < size and data[i] != _NEWLINE and data[i] != _SPACE and data[i] != _TAB and data[i] != _RETURN:
                d = data[i]
                if _ZERO <= d <= _NINE:
                    value = value * 10 + (d - _ZERO)
                else:
                    digits = False
                i += 1
            length = i - start
            if not digits:
                value = letters[data[start]] if length == 1 else BAD_TOKEN
            elif length > _MAX_DIGITS:
                value = BAD_TOKEN
            if tokens < width:
                values[n, tokens] = value
            tokens += 1
        if tokens > 0:
            counts[n] = tokens
            lines[n] = line
            n += 1
        line += 1
        i += 1
    return n


def token_lines(data: bytes, width: int, letters: dict[str, int] | None = None):
    """The non-blank lines of ``data``: ``values`` (lines x ``width``; tokens past ``width`` are
    counted but not kept, missing ones read -1), ``counts`` (tokens per line) and ``lines``
    (1-based line numbers)."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    table = np.full(256, BAD_TOKEN, np.int64)
    for letter, value in (letters or {}).items():
        table[ord(letter)] = value
    most = int(np.count_nonzero(buffer == _NEWLINE)) + 1
    values = np.full((most, width), BAD_TOKEN, np.int64)
    counts = np.zeros(most, np.int64)
    lines = np.zeros(most, np.int64)
    n = _token_lines(buffer, table, values, counts, lines)
    return values[:n], counts[:n], lines[:n]
