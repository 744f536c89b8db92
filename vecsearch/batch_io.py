"""Batch files: instances in, answers out, streamed and resumable (``vecsearch batch``).

Input: JSON lines ``{"id": ..., "start": ..., "goal": ...}`` (``goal`` optional; a state or a
list of states, in any form ``Puzzle.states`` reads), a problem's judge format (ids are case
numbers) or a permutation puzzle's twsearch scramble file (ids are the scrambles' names).
Output: JSON lines, one record per instance as its chunk finishes (``{"id", "length", "moves",
"seconds"}``, ``"length": null`` with ``"unreachable": true`` or
``"beyond": max_depth``, or ``{"id", "error"}`` for a malformed instance), or the judge's output
in input order.

Resuming: re-running with the same output file skips what it already holds, and says how much
that is. A JSON-lines file is cut back to its last complete line; every record carries the
``digest`` of its instance (start, goal and the puzzle's identity: its functions, tables and
metric, ``Instances.digests``), so ids already answered are skipped only when they still ask the
same thing of the same puzzle: an output written for other instances, or by another puzzle or
metric, is refused (nothing is written to it), never silently kept. A judge-format file keeps a
sidecar ``OUT.done`` (cases answered, bytes written and the digest of the whole input, updated
after each chunk) and is cut back to that point. Ids must be unique in an input: duplicates are refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sys

import numpy as np

from vecsearch.engine.batch.instances import Instances, instances_from, refuse_duplicate_ids
from vecsearch.engine.batch.many import iter_many
from vecsearch.errors import InvalidPuzzleInput, VecsearchError
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
            record = json.loads(line, parse_constant=_not_json, parse_float=_finite)
        except json.JSONDecodeError as error:
            errors.append((f"line {number}", f"line {number}: not JSON ({error.msg} at column {error.colno})"))
            continue
        except ValueError as error:
            errors.append((f"line {number}", f"line {number}: {error}"))
            continue
        if not isinstance(record, dict) or "start" not in record:
            key = record.get("id", f"line {number}") if isinstance(record, dict) else f"line {number}"
            errors.append((key, f"line {number}: expected an object with \"start\" (and \"id\", \"goal\")"))
            continue
        items.append((record.get("id", number), record["start"], record.get("goal")))
    instances, bad = instances_from(puzzle, items, goal)
    return instances, errors + bad


def read_scrambles(puzzle, data: bytes, source: str) -> tuple[Instances, list]:
    """Instances of a twsearch scramble file (``PermutationPuzzle.scrambles``) from ``source``,
    and ``(id, message)`` for each start that is no state of the puzzle (a block is one position,
    never a pattern: a piece written twice is an error); a puzzle without that format is
    refused, and so is a malformed file, with its line."""
    scrambles = getattr(puzzle, "scrambles", None)
    if scrambles is None:
        raise InvalidPuzzleInput(f"{puzzle.name} has no judge format: give JSON lines {{\"id\", \"start\", \"goal\"}}")
    try:
        named = scrambles(data)
    except InvalidPuzzleInput as error:
        raise error.located(source=source) from None
    items, errors = [], []
    for name, start in named:
        try:
            items.append((name, puzzle.parse_state(start)))
        except InvalidPuzzleInput as error:
            errors.append((name, str(error)))
    instances, bad = instances_from(puzzle, items)
    return instances, errors + bad


def _not_json(name: str):
    """Python's extensions to JSON (``NaN``, ``Infinity``), which no other reader takes, refused."""
    raise ValueError(f"{name} is not JSON (a number must be finite)")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused if it does not fit a float (``1e400``):
    it would come back as ``Infinity``, which is not JSON."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number")
    return value


# --- resuming -----------------------------------------------------------------------------


def _key(identifier) -> str:
    return json.dumps(identifier)


def writable(out: str | None) -> None:
    """Refuse (a ``VecsearchError`` naming it) an output file that cannot be appended to: a
    folder, a missing folder, no permission; before any work, and before a resume reads it."""
    if out is None:
        return
    try:
        with open(out, "ab"):
            pass
    except OSError as error:
        raise VecsearchError(f"cannot write {out}: {error.strerror or error}") from None


def answered_records(path: str) -> dict[str, int | None]:
    """``{id key: digest}`` of the records a JSON-lines output holds (None: an error record, or
    a record without a digest); cuts off a truncated last line."""
    if not os.path.exists(path):
        return {}
    with open(path, "rb+") as handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            handle.truncate(end)
    done = {}
    for line in data[:end].splitlines():
        try:
            record = json.loads(line)
            done[_key(record["id"])] = record.get("digest")
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
            continue
    return done


def _check_resume(out: str, done: dict, keys: list[str], digests: np.ndarray, error_keys: set[str]) -> None:
    """Refuse to resume ``out`` when it answers other instances than these under their ids."""
    current = dict(zip(keys, digests.tolist(), strict=True))
    changed = [k for k, d in done.items()
               if (k in current and d != current[k]) or (k in error_keys and d is not None)
               or (k not in current and k not in error_keys)]
    if changed:
        raise InvalidPuzzleInput(
            f"{out} holds answers to other instances than this input's, or from another puzzle or metric"
            f" ({len(changed):,} id(s) differ or are missing, first id {changed[0]}): give another output file, or"
            " remove it to start afresh")


def _judge_progress(path: str, digests: np.ndarray) -> tuple[int, int]:
    """(cases answered, bytes) a judge-format output holds, cut back to that point (a file
    without its marker starts over); answers to other cases than the input's first ones are
    refused."""
    if not os.path.exists(path):
        return 0, 0
    try:
        with open(path + ".done") as handle:
            record = json.load(handle)
        cases, size, written_for = int(record["cases"]), int(record["bytes"]), record["input"]
    except (OSError, ValueError, KeyError, TypeError):
        cases, size, written_for = 0, 0, None
    if cases and (cases > len(digests) or written_for != _prefix_digest(digests[:cases]).hexdigest()):
        raise InvalidPuzzleInput(f"{path} holds the answers to another input's {cases:,} cases, or another puzzle's or"
                                 " metric's: give another output file, or remove it (and its .done marker) to start"
                                 " afresh")
    with open(path, "rb+") as handle:
        handle.truncate(size)
    return cases, size


def _mark(path: str, cases: int, size: int, input_digest: str) -> None:
    temporary = path + ".done.tmp"
    with open(temporary, "w") as handle:
        json.dump({"cases": cases, "bytes": size, "input": input_digest}, handle)
    os.replace(temporary, path + ".done")


def _prefix_digest(digests: np.ndarray):
    """A running digest of the instances answered so far (``update`` it with the next ones)."""
    running = hashlib.blake2b(digest_size=8)
    running.update(np.ascontiguousarray(digests).tobytes())
    return running


# --- writing ------------------------------------------------------------------------------


def jsonl_records(puzzle, chunk, digests: np.ndarray, max_depth=None) -> bytes:
    """The JSON lines of a finished chunk (``digests``: its instances' digests)."""
    n = len(chunk.lengths)
    seconds = chunk.seconds / max(1, n)
    names = puzzle.move_names
    ids = chunk.ids
    if isinstance(ids, np.ndarray) and ids.dtype.kind in "iu" and (ids >= 0).all() and all(len(m) == 1 for m in names):
        none = 'null, "unreachable": true' if max_depth is None else f'null, "beyond": {int(max_depth)}'
        return record_lines(ids, chunk.lengths, chunk.moves, digests, "".join(names), none,
                            f', "seconds": {seconds:.9f}}}\n')
    lines = []
    for i, identifier in enumerate(ids.tolist() if isinstance(ids, np.ndarray) else ids):
        length = int(chunk.lengths[i])
        record = {"id": identifier}
        if length >= 0:
            record.update(length=length, moves=puzzle.format_moves(chunk.moves[i, :length].tolist()))
        else:
            record.update({"length": None, "unreachable" if max_depth is None else "beyond":
                           True if max_depth is None else max_depth})
        record.update(digest=int(digests[i]), seconds=round(seconds, 9))
        lines.append(json.dumps(record))
    return ("\n".join(lines) + "\n").encode()


def run_jsonl(puzzle, instances, errors, out, *, stream=None, report=None, **solve_options) -> int:
    """Answer ``instances`` into the JSON-lines file ``out`` (or ``stream``), resuming (see the
    module docstring); error records for ``errors`` not yet written. ``report(text)`` is told
    how much a resume found done; ``solve_options`` go to ``iter_many``. Returns the number of
    instances answered now."""
    ids = instances.ids.tolist() if isinstance(instances.ids, np.ndarray) else list(instances.ids)
    refuse_duplicate_ids(ids + [i for i, _ in errors])
    digests = instances.digests(puzzle.identity)
    writable(out)
    done = answered_records(out) if out is not None else {}
    if done:
        keys = [_key(i) for i in ids]
        _check_resume(out, done, keys, digests, {_key(i) for i, _ in errors})
        if report is not None:
            report(f"resuming {out}: {len(done):,} of {len(ids) + len(errors):,} instances already answered")
        keep = np.flatnonzero([k not in done for k in keys])
        instances, digests = instances.select(keep), digests[keep]
        errors = [(i, m) for i, m in errors if _key(i) not in done]
    answered = 0
    with _answers_to(out, stream) as handle:
        if errors:
            handle.write("".join(json.dumps({"id": i, "error": m}) + "\n" for i, m in errors).encode())
            handle.flush()
        for chunk in iter_many(puzzle, instances, **solve_options):
            handle.write(jsonl_records(puzzle, chunk, digests[chunk.where], solve_options.get("max_depth")))
            handle.flush()
            answered += len(chunk.lengths)
    return answered


@contextlib.contextmanager
def _answers_to(out: str | None, stream):
    """The handle answers are appended to: ``out`` (``writable(out)`` first), opened to append and
    closed after, or ``stream``. A file the disk stops taking is a ``VecsearchError`` naming it;
    the answers written before stay, for a rerun to resume after them."""
    handle = open(out, "ab") if out is not None else stream
    try:
        yield handle
    except OSError as error:
        if out is None:
            raise  # the stream's own (a closed pipe: the command line's to handle)
        raise VecsearchError(f"cannot write {out}: {error.strerror or error}; the answers before are kept: run the"
                             " same command again to resume") from None
    finally:
        if out is not None:
            handle.close()


def run_judge(problem, instances, out, *, errors=(), stream=None, report=None, max_depth=None,
              **solve_options) -> int:
    """Answer in the judge's output format, in input order, into ``out`` (resuming) or
    ``stream``; a malformed case of ``errors`` (``(case number, message)``) gets its own line,
    ``problem.marker``, where its answer would be. ``max_depth``: longer answers count as none
    (default: the problem's limit). Returns the number of instances answered now."""
    numbers = np.asarray(instances.ids, np.int64)
    bad = sorted((int(case), message) for case, message in errors)
    # Every case in input order: instance i as (number, i), a malformed one as (number, -1).
    order = sorted([(int(n), i) for i, n in enumerate(numbers)] + [(case, -1) for case, _ in bad])
    instance_digests = instances.digests(problem.puzzle.identity)
    marker_digests = {case: _bytes_digest(f"{case}:{message}") for case, message in bad}
    digests = np.array([instance_digests[i] if i >= 0 else marker_digests[n] for n, i in order], np.int64)
    done = size = 0
    writable(out)
    if out is not None:
        done, size = _judge_progress(out, digests)
        if done and report is not None:
            report(f"resuming {out}: {done:,} of {len(order):,} cases already answered")
    left = order[done:]
    instances = instances.select(np.array([i for _, i in left if i >= 0], np.int64))
    markers = [n for n, i in left if i < 0]  # cases still to mark, in order
    written_so_far = _prefix_digest(digests[:done])
    answered = 0
    limit = problem.max_depth if max_depth is None else max_depth
    marker = (problem.marker + "\n").encode()

    def write(pieces: list[bytes]) -> None:
        nonlocal done, size
        data = b"".join(pieces)
        handle.write(data)
        handle.flush()
        written_so_far.update(np.ascontiguousarray(digests[done:done + len(pieces)]).tobytes())
        done += len(pieces)
        if out is not None:
            size += len(data)
            _mark(out, done, size, written_so_far.hexdigest())

    with _answers_to(out, stream) as handle:
        for chunk in iter_many(problem.puzzle, instances, max_depth=limit, ordered=True, **solve_options):
            pieces = []
            for number, answer in zip(np.asarray(chunk.ids).tolist(), _answer_lines(problem, chunk), strict=True):
                while markers and markers[0] < number:
                    pieces.append(marker)
                    markers.pop(0)
                pieces.append(answer)
            write(pieces)
            answered += len(chunk.lengths)
        if markers:
            write([marker] * len(markers))
    return answered


def _answer_lines(problem, chunk) -> list[bytes]:
    """The judge output of each instance of a finished chunk."""
    text = problem.batch_output(chunk.lengths, chunk.moves)
    if isinstance(text, bytes):  # one line per instance
        return [line + b"\n" for line in text.split(b"\n")[:-1]]
    return [(t + "\n").encode() for t in text]


def _bytes_digest(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "little")


def report_errors(name: str, errors) -> None:
    """One line per malformed instance on standard error, located once."""
    for identifier, message in errors:
        print(f"vecsearch: {name}: {error_line(identifier, message)}", file=sys.stderr)


def error_line(identifier, message: str) -> str:
    """``message`` after the instance's id, unless it starts with that very location (``line 8``
    for a line without an id, ``case 2`` for a judge-format case numbered 2)."""
    if message.startswith((f"{identifier}:", f"case {identifier},", f"case {identifier}:")):
        return message
    return f"instance {json.dumps(identifier)}: {message}"
