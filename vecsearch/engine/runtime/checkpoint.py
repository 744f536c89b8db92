"""Checkpoints: what a breadth-first search needs to continue, written after every layer.

A checkpoint directory holds ``checkpoint.json`` (what was searched, how far it got, the profile
so far, and which array files belong to it) and numpy ``.npy`` files. Writing is atomic: the
arrays go to new files first, then ``checkpoint.json`` is replaced by one rename (the commit),
then the previous generation's files are removed. A stop at any moment leaves either the old
checkpoint or the new one, never a mix.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from vecsearch.errors import VecsearchError

SLOW_WRITE = 1.0  # seconds: a checkpoint written faster than this is written after every layer
WRITE_SHARE = 0.1  # a slower one waits until the search has run this many times longer than the write


class Pacing:
    """When to write the next checkpoint: after every layer while a write takes less than
    ``SLOW_WRITE`` seconds; else once the search has run ``1 / WRITE_SHARE`` times as long as the
    last write took since it was written."""

    def __init__(self):
        self.write_seconds = 0.0
        self.written_at = None

    def due(self) -> bool:
        if self.written_at is None or self.write_seconds < SLOW_WRITE:
            return True
        return time.perf_counter() - self.written_at >= self.write_seconds / WRITE_SHARE

    def write(self, save) -> None:
        began = time.perf_counter()
        save()
        self.written_at = time.perf_counter()
        self.write_seconds = self.written_at - began


FORMAT = "vecsearch-checkpoint-3"  # 2: the ranks of the sliding and one-orbit permutation puzzles changed; 3:
# those of the sliding puzzles of two rows (read column by column)
MANIFEST = "checkpoint.json"


def writable_directory(directory, what: str) -> None:
    """Make ``directory`` (and its parents) unless it exists, and make sure files can be created
    in it: a search that is to write ``what`` there is refused before its first layer, not after
    it (a ``VecsearchError`` naming the directory and the reason)."""
    if Path(directory).exists() and not Path(directory).is_dir():
        raise VecsearchError(f"cannot write {what} to {directory}: it is a file, not a directory")
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise VecsearchError(f"cannot write {what} to {directory}: {error.strerror or error}") from None


def not_past(directory, depth: int, max_depth) -> None:
    """Refuse to resume a search saved at ``depth`` under a ``max_depth`` below it: its answer
    would be for more than was asked (a ``VecsearchError``)."""
    if max_depth is not None and depth > max_depth:
        raise VecsearchError(f"the search in {directory} reached depth {depth}, past max_depth {max_depth}: resume it"
                             f" with a max_depth of {depth} or more, or none")


def save(directory, meta: dict, arrays: dict[str, np.ndarray]) -> None:
    """Write ``meta`` (JSON-able) and ``arrays`` as the directory's new checkpoint (a
    ``VecsearchError`` if the disk refuses: full, or gone)."""
    try:
        _save(Path(directory), meta, arrays)
    except OSError as error:
        raise VecsearchError(f"cannot write the checkpoint to {directory}: {error.strerror or error} (the one written"
                             " before it, if any, is whole)") from None


def _save(directory: Path, meta: dict, arrays: dict[str, np.ndarray]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    previous = _manifest(directory)
    generation = previous.get("generation", 0) + 1
    files = {}
    for name, array in arrays.items():
        files[name] = f"{name}-{generation:05d}.npy"
        _write(directory / files[name], lambda handle, a=array: np.save(handle, a, allow_pickle=False))
    manifest = dict(meta, format=FORMAT, generation=generation, arrays=files)
    _write(directory / MANIFEST, lambda handle: handle.write(json.dumps(manifest, indent=1).encode()))
    for name in set(previous.get("arrays", {}).values()) - set(files.values()):
        (directory / name).unlink(missing_ok=True)


class Stored:
    """An array of a checkpoint left in its file (``load(..., deferred=...)``) until
    ``read_into`` reads it into the array that will hold it: a table as large as the memory (the
    7x2's two-bit table, 10.9 GB) is never held twice."""

    CHUNK = 1 << 28  # bytes per read

    def __init__(self, path: Path):
        self.path = path
        with open(path, "rb") as handle:
            version = np.lib.format.read_magic(handle)
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read_header is None:
                raise ValueError(f"{path.name}: .npy format {version} is not one vecsearch writes")
            self.shape, fortran, self.dtype = read_header(handle)
            if fortran:
                raise ValueError(f"{path.name}: not a C-ordered array")
            self.offset = handle.tell()

    def read_into(self, out: np.ndarray) -> None:
        """Fill ``out`` (C-contiguous, of this shape and dtype) from the file."""
        if out.shape != tuple(self.shape) or out.dtype != self.dtype or not out.flags.c_contiguous:
            raise ValueError(f"{self.path.name} holds {self.shape} {self.dtype}, not {out.shape} {out.dtype}")
        target = memoryview(out.reshape(-1).view(np.uint8))
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self.offset)
                done = 0
                while done < len(target):
                    read = handle.readinto(target[done:done + self.CHUNK])
                    if not read:
                        raise ValueError(f"{self.path.name} ends before its array does")
                    done += read
        except (OSError, ValueError) as error:
            raise VecsearchError(f"checkpoint {self.path.parent} is damaged: {error}") from None


def load(directory, deferred=()) -> tuple[dict, dict[str, np.ndarray]]:
    """The checkpoint's metadata and arrays; those named in ``deferred`` as ``Stored`` (read
    later, into place)."""
    path = Path(directory) / MANIFEST
    try:
        meta = json.loads(path.read_text())
    except FileNotFoundError:
        raise VecsearchError(f"no checkpoint in {directory} (no {MANIFEST})") from None
    except (OSError, ValueError) as error:
        raise VecsearchError(f"cannot read the checkpoint {path}: {error}") from None
    found = meta.get("format")
    if found != FORMAT:
        earlier = isinstance(found, str) and found.startswith("vecsearch-checkpoint-")
        raise VecsearchError(f"{path}: written by an earlier vecsearch ({found}), whose ranks may differ: start the"
                             " search again" if earlier else f"{path} is not a vecsearch checkpoint of format {FORMAT}")
    try:
        arrays = {name: Stored(Path(directory) / file) if name in deferred else
                  np.load(Path(directory) / file, allow_pickle=False) for name, file in meta["arrays"].items()}
    except (OSError, ValueError) as error:
        raise VecsearchError(f"checkpoint {directory} is damaged: {error}") from None
    return meta, arrays


def _manifest(directory: Path) -> dict:
    try:
        meta = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return meta if meta.get("format") == FORMAT else {}


def _write(path: Path, write) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
