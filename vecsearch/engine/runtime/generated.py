"""Importing the modules code generation writes: from the kernel cache directory, or from memory.

A family's kernels are several modules that import one another by name (``codegen``). None of
them is on ``sys.path``, so ``GENERATED`` (a finder on ``sys.meta_path``) knows each by name once
it is ``add``-ed: a module written to a file loads from that file (so numba caches its kernels
beside it, and a traceback or ``numba --annotate`` reads the file), a module kept in memory (a
notebook's functions, an unwritable cache directory) loads from its text, which is registered
with ``linecache`` under the module's pseudo file name, so that tracebacks and numba's messages
show its lines all the same.

``write`` puts a text in a file only when it differs from the file's (numba's cache of a file
holds while the file keeps its modification time), atomically: concurrent processes never see
half a file.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import sys
import threading
from pathlib import Path


class GeneratedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the modules added to it by name; loads those kept in memory (``exec_module``)."""

    def __init__(self):
        self._sources: dict[str, tuple[Path | None, str, dict]] = {}  # name -> (file, text, preset globals)
        self._lock = threading.Lock()

    def add(self, name: str, text: str, path: Path | None = None, preset: dict | None = None) -> None:
        """Make module ``name`` importable: from ``path`` (a file holding ``text``), or from
        ``text`` itself when ``path`` is None. ``preset``: globals set before the module runs
        (the functions a module in memory binds, which no import statement can name)."""
        with self._lock:
            self._sources[name] = (path, text, dict(preset or {}))
        if path is None:
            lines = text.splitlines(keepends=True)
            linecache.cache[pseudo_file(name)] = (len(text), None, lines, pseudo_file(name))  # kept by checkcache

    def file(self, name: str) -> str:
        """Where module ``name``'s text is read from: its file, or its pseudo file name."""
        path = self._sources[name][0]
        return str(path) if path is not None else pseudo_file(name)

    def find_spec(self, fullname, path=None, target=None):
        source = self._sources.get(fullname)
        if source is None:
            return None
        path, _, preset = source
        if path is not None:
            spec = importlib.util.spec_from_file_location(fullname, path, loader=_PresetFileLoader(fullname, str(path),
                                                                                                preset))
        else:
            spec = importlib.machinery.ModuleSpec(fullname, self, origin=pseudo_file(fullname))
            spec.has_location = True  # ``__file__``: the pseudo file name, which linecache holds
        return spec

    def create_module(self, spec):
        return None  # the default module

    def exec_module(self, module) -> None:
        _, text, preset = self._sources[module.__name__]
        module.__dict__.update(preset)
        exec(compile(text, pseudo_file(module.__name__), "exec"), module.__dict__)

    def get_source(self, fullname: str) -> str:
        return self._sources[fullname][1]


class _PresetFileLoader(importlib.machinery.SourceFileLoader):
    """A module's file, run after its ``preset`` globals are set."""

    def __init__(self, fullname, path, preset):
        super().__init__(fullname, path)
        self.preset = preset

    def exec_module(self, module) -> None:
        module.__dict__.update(self.preset)
        super().exec_module(module)


def pseudo_file(name: str) -> str:
    """The file name under which module ``name``, kept in memory, is compiled (and found in
    ``linecache``)."""
    return f"<{name}>"


def write(path: Path, text: str) -> None:
    """``path`` holds ``text`` (rewritten only if it held something else)."""
    if path.exists() and path.read_text() == text:
        return
    temporary = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.write_text(text)
    temporary.replace(path)  # atomic: concurrent processes never see half a file


GENERATED = GeneratedModules()
sys.meta_path.append(GENERATED)
