"""Batch text in one pass: lines of small tokens read from raw bytes, answer lines written.

``token_lines`` splits a byte buffer into its non-blank lines and each line into tokens
(separated by spaces, tabs or ``\\r``). A token of decimal digits reads as its value; a token of
one other byte ``b`` reads as ``letters[b]`` (set by the caller; -1 where that byte means
nothing); anything else reads as -1. Callers validate the values in bulk with numpy and
re-read only the lines that fail with their own (Python) parser, for its precise message.

``move_lines`` and ``record_lines`` write a million answers (move letters, JSON records) into
one byte buffer without a Python loop.
"""

from __future__ import annotations

import numpy as np

from vecsearch._numba import kernel, state_function

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


# --- writing: answer lines straight into a byte buffer ------------------------------------------

@state_function
def _put(out, at, text):
    for j in range(text.shape[0]):
        out[at + j] = text[j]
    return at + text.shape[0]


@state_function
def _put_number(out, at, value):
    """Decimal digits of ``value`` >= 0."""
    digits = 1
    power = 10
    while power <= value and digits < 19:
        digits += 1
        power *= 10
    for j in range(digits - 1, -1, -1):
        out[at + j] = _ZERO + value % 10
        value //= 10
    return at + digits


@state_function
def _put_moves(out, at, moves, row, length, letters):
    for k in range(length):
        out[at + k] = letters[moves[row, k]]
    return at + length


@kernel
def _move_lines(lengths, moves, letters, none_text, out):
    at = 0
    for i in range(lengths.shape[0]):
        if lengths[i] >= 0:
            at = _put_moves(out, at, moves, i, lengths[i], letters)
        else:
            at = _put(out, at, none_text)
        out[at] = _NEWLINE
        at += 1
    return at


@kernel
def _record_lines(ids, lengths, moves, digests, letters, texts, none_text, out):
    at = 0
    for i in range(lengths.shape[0]):
        at = _put(out, at, texts[0])
        at = _put_number(out, at, ids[i])
        at = _put(out, at, texts[1])
        if lengths[i] >= 0:
            at = _put_number(out, at, lengths[i])
            at = _put(out, at, texts[2])
            at = _put_moves(out, at, moves, i, lengths[i], letters)
            at = _put(out, at, texts[3])
        else:
            at = _put(out, at, none_text)
        at = _put(out, at, texts[4])
        at = _put_number(out, at, digests[i])
        at = _put(out, at, texts[5])
    return at


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), np.uint8)


def move_lines(lengths, moves, move_letters: str, none_text: str) -> bytes:
    """One line per answer: its moves as letters (``move_letters[m]`` for move ``m``), or
    ``none_text`` where ``lengths`` is -1."""
    lengths = np.ascontiguousarray(lengths, np.int64)
    moves = np.ascontiguousarray(moves, np.int64)
    out = np.empty(len(lengths) * (max(moves.shape[1], len(none_text)) + 1), np.uint8)
    return out[:_move_lines(lengths, moves, _bytes(move_letters), _bytes(none_text), out)].tobytes()


def record_lines(ids, lengths, moves, digests, move_letters: str, none_text: str, tail: str) -> bytes:
    """JSON lines ``{"id": ID, "length": L, "moves": "LETTERS", "digest": DIGEST`` + ``tail``
    (ids and digests >= 0), or ``{"id": ID, "length": NONE_TEXT, "digest": ...`` where
    ``lengths`` is -1."""
    texts = tuple(_bytes(t) for t in ('{"id": ', ', "length": ', ', "moves": "', '"', ', "digest": ', tail))
    lengths = np.ascontiguousarray(lengths, np.int64)
    moves = np.ascontiguousarray(moves, np.int64)
    row = sum(len(t) for t in texts) + 40 + max(moves.shape[1], len(none_text))
    out = np.empty(len(lengths) * row, np.uint8)
    size = _record_lines(np.ascontiguousarray(ids, np.int64), lengths, moves, np.ascontiguousarray(digests, np.int64),
                         _bytes(move_letters), texts, _bytes(none_text), out)
    return out[:size].tobytes()
