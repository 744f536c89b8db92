"""Arrays built once per machine and kept on disk: pattern databases, exact and whole distance tables.

``cached_array(name, build)`` opens ``name.npy`` (with the facts of ``name.json``) if a process
saved it before, else builds it and saves it for the next: written to a temporary file and
renamed, so that processes building the same array at once never read half of one. A folder
that cannot be written keeps the array for the process only. They live in
``$VECSEARCH_CACHE_DIR`` (default ``~/.cache/vecsearch``): pattern databases in ``pdb``, or a
folder given.
"""

from __future__ import annotations

import json
import mmap
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vecsearch.cache_folder import cache_dir


def database_dir(directory=None) -> Path:
    """Where pattern databases are kept: ``directory``, else ``<vecsearch cache>/pdb``."""
    return Path(directory) if directory is not None else cache_dir() / "pdb"


def database_path(name: str, directory=None) -> Path:
    """The file of the database ``name`` (present or not)."""
    return database_dir(directory) / f"{name}.npy"


LOADS = ("map", "read", "lookups")  # how cached_array opens a saved array


def cached_array(name: str, build: Callable[[], tuple[np.ndarray, dict]], directory=None, *, load: str = "map"):
    """The array saved as ``name.npy`` in ``database_dir(directory)``, built by ``build()`` (which
    returns the array and a dict of facts kept beside it as ``name.json``) if absent.

    ``load`` says how a saved array is opened: ``"map"``, memory-mapped read-only (loading costs
    no time, pages are read as they are used); ``"read"``, read into memory (a kernel looking up
    many entries: lookups in a mapped file measured 3x slower, a 3x3x3's 173 MB databases);
    ``"lookups"``, mapped for a few scattered lookups (an exact distance table that a search
    descends): the file's read-ahead is turned off, so a lookup reads its page and not the
    megabytes around it, and the array is writeable (copy-on-write: the file is never written),
    of the type kernels compiled for arrays in memory take.

    A saved file that cannot be read (cut short, or not an array) is built again and replaced.

    Returns ``(array, facts, seconds, built)``.
    """
    if load not in LOADS:
        raise ValueError(f"load must be one of {', '.join(LOADS)}, not {load!r}")
    path = database_path(name, directory)
    folder = path.parent
    began = time.perf_counter()
    if path.exists():
        try:
            facts_path = path.with_suffix(".json")
            facts = json.loads(facts_path.read_text()) if facts_path.exists() else {}
            return _opened(path, load), facts, time.perf_counter() - began, False
        except (OSError, ValueError, EOFError):  # cut short or overwritten by hand: built again, and replaced
            pass
    array, facts = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for suffix, write in ((".json", lambda f: f.write(json.dumps(facts, indent=1).encode())),
                              (".npy", lambda f: np.save(f, array))):
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            with open(temporary, "wb") as handle:
                write(handle)
            temporary.replace(path.with_suffix(suffix))  # atomic: readers never see half a file
    except OSError:
        return array, facts, time.perf_counter() - began, True  # not writable: kept for this process only
    return _opened(path, load), facts, time.perf_counter() - began, True  # the built copy is let go


def _opened(path: Path, load: str) -> np.ndarray:
    """The array saved at ``path``, opened as ``cached_array``'s ``load`` says."""
    if load != "lookups":
        return np.load(path, mmap_mode="r" if load == "map" else None)
    with open(path, "rb") as handle:
        version = np.lib.format.read_magic(handle)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(handle)
        offset = handle.tell()
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
    if hasattr(mapped, "madvise"):
        mapped.madvise(mmap.MADV_RANDOM)
    count = int(np.prod(shape))
    return np.frombuffer(mapped, dtype, count, offset).reshape(shape, order="F" if fortran else "C")
