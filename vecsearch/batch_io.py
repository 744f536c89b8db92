"""Batch files: instances in, answers out, streamed and resumable (``vecsearch batch``).

Input: JSON lines ``{"id": ..., "start": ..., "goal": ...}`` (``goal`` optional; a state or a
list of states, in any form ``Puzzle.states`` reads) or a problem's judge format (ids are case
numbers). Output: JSON lines, one record per instance as its chunk finishes
(``{"id", "length", "moves", "seconds"}``, ``"length": null`` with ``"unreachable": true`` or
``"beyond": max_depth``, or ``{"id", "error"}`` for a malformed instance), or the judge's output
in input order.

Resuming: re-running with the same output file skips what it already holds. A JSON-lines file is
cut back to its last complete line and the ids it holds are skipped; a judge-format file keeps a
sidecar ``OUT.done`` (cases answered and bytes written, updated after each chunk) and is cut back
to that point.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

from vecsearch.engine.batch import Instances, instances_from, iter_batch
from vecsearch.kernels.text import record_lines

# --- reading ------------------------------------------------------------------------------


def looks_like_jsonl(data: bytes) -> bool:
    stripped = data.lstrip()
    return stripped[:1] == b"{"


def read_jsonl(puzzle, data: bytes, goal=None) -> tuple[Instances, list]:
    """Instances of a JSON-lines input, and ``(id, message)`` for each malformed line."""
    items, errors = [], []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            errors.append((f"line {number}", f"line {number}: not JSON ({error.msg} at column {error.colno})"))
            continue
        if not isinstance(record, dict) or "start" not in record:
            key = record.get("id", f"line {number}") if isinstance(record, dict) else f"line {number}"
            errors.append((key, f"line {number}: expected an object with \"start\" (and \"id\", \"goal\")"))
            continue
        items.append((record.get("id", number), record["start"], record.get("goal")))
    instances, bad = instances_from(puzzle, items, goal)
    return instances, errors + bad


# --- resuming -----------------------------------------------------------------------------


def _key(identifier) -> str:
    return json.dumps(identifier)


def answered_ids(path: str) -> set[str]:
    """Keys of the ids a JSON-lines output already holds; cuts off a truncated last line."""
    if not os.path.exists(path):
        return set()
    with open(path, "rb+") as handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            handle.truncate(end)
    done = set()
    for line in data[:end].splitlines():
        try:
            done.add(_key(json.loads(line)["id"]))
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
    return done


def _judge_progress(path: str) -> tuple[int, int]:
    """(cases answered, bytes) a judge-format output holds, cut back to that point (a file
    without its marker starts over)."""
    if not os.path.exists(path):
        return 0, 0
    try:
        with open(path + ".done") as handle:
            record = json.load(handle)
        cases, size = int(record["cases"]), int(record["bytes"])
    except (OSError, ValueError, KeyError, TypeError):
        cases = size = 0
    with open(path, "rb+") as handle:
        handle.truncate(size)
    return cases, size


def _mark(path: str, cases: int, size: int) -> None:
    temporary = path + ".done.tmp"
    with open(temporary, "w") as handle:
        json.dump({"cases": cases, "bytes": size}, handle)
    os.replace(temporary, path + ".done")


# --- writing ------------------------------------------------------------------------------


def jsonl_records(puzzle, chunk, max_depth=None) -> bytes:
    """The JSON lines of a finished chunk."""
    n = len(chunk.lengths)
    seconds = chunk.seconds / max(1, n)
    names = puzzle.move_names
    ids = chunk.ids
    if isinstance(ids, np.ndarray) and ids.dtype.kind in "iu" and (ids >= 0).all() and all(len(m) == 1 for m in names):
        return _jsonl_vectorised(chunk, names, seconds, max_depth)
    lines = []
    for i, identifier in enumerate(ids.tolist() if isinstance(ids, np.ndarray) else ids):
        length = int(chunk.lengths[i])
        record = {"id": identifier}
        if length >= 0:
            record.update(length=length, moves=puzzle.format_moves(chunk.moves[i, :length].tolist()))
        else:
            record.update({"length": None, "unreachable" if max_depth is None else "beyond":
                           True if max_depth is None else max_depth})
        record["seconds"] = round(seconds, 9)
        lines.append(json.dumps(record))
    return ("\n".join(lines) + "\n").encode()


def _jsonl_vectorised(chunk, names, seconds, max_depth) -> bytes:
    """``jsonl_records`` for integer ids and one-letter moves, written by a kernel."""
    none = 'null, "unreachable": true' if max_depth is None else f'null, "beyond": {int(max_depth)}'
    return record_lines(chunk.ids, chunk.lengths, chunk.moves, "".join(names), none, f', "seconds": {seconds:.9f}}}\n')


def run_jsonl(puzzle, instances, errors, out, *, method="auto", max_depth=None, chunk_size=None, client=None,
              progress=None, options=None, stream=None) -> int:
    """Answer ``instances`` into the JSON-lines file ``out`` (or ``stream``), resuming; error
    records for ``errors`` not yet written. Returns the number of instances answered now."""
    done = answered_ids(out) if out is not None else set()
    if done:
        ids = instances.ids.tolist() if isinstance(instances.ids, np.ndarray) else instances.ids
        keep = np.array([_key(i) not in done for i in ids], bool)
        instances = instances.select(np.flatnonzero(keep))
        errors = [(i, m) for i, m in errors if _key(i) not in done]
    handle = open(out, "ab") if out is not None else stream
    answered = 0
    try:
        if errors:
            handle.write("".join(json.dumps({"id": i, "error": m}) + "\n" for i, m in errors).encode())
            handle.flush()
        for chunk in iter_batch(puzzle, instances, method=method, max_depth=max_depth, chunk_size=chunk_size,
                                client=client, progress=progress, options=options):
            handle.write(jsonl_records(puzzle, chunk, max_depth))
            handle.flush()
            answered += len(chunk.lengths)
    finally:
        if out is not None:
            handle.close()
    return answered


def run_judge(problem, instances, out, *, method="auto", chunk_size=None, client=None, progress=None,
              options=None, stream=None) -> int:
    """Answer in the judge's output format, in input order, into ``out`` (resuming) or ``stream``."""
    cases = size = 0
    if out is not None:
        cases, size = _judge_progress(out)
        instances = instances.take(cases, len(instances))
    handle = open(out, "ab") if out is not None else stream
    answered = 0
    try:
        for chunk in iter_batch(problem.puzzle, instances, method=method, max_depth=problem.max_depth,
                                chunk_size=chunk_size, client=client, progress=progress, options=options,
                                ordered=True):
            text = problem.batch_output(chunk.lengths, chunk.moves)
            data = text if isinstance(text, bytes) else "".join(t + "\n" for t in text).encode()
            handle.write(data)
            handle.flush()
            answered += len(chunk.lengths)
            if out is not None:
                size += len(data)
                _mark(out, cases + answered, size)
    finally:
        if out is not None:
            handle.close()
    return answered


def report_errors(name: str, errors) -> None:
    for identifier, message in errors:
        print(f"vecsearch: {name}: instance {identifier}: {message}", file=sys.stderr)
