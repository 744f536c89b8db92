"""Build a puzzle's kernels from the templates ``vecsearch/kernels/layer_template.py`` (layer
expansion, paths, tables) and ``pair_template.py`` (many pair searches in one call).

numba caches a kernel on disk only if the functions it calls are module-level globals and the
kernel itself lives in a real file. So for each puzzle we emit a small module: a header binding
the puzzle's per-state functions to the templates' fixed names, then the templates' text.

- Puzzle functions defined in an importable module (every built-in, and a user's ``.py`` file):
  the module is written to the kernel cache directory (only when its text changes, so numba's
  cache stays valid) and imported; its kernels load from disk in later processes.
- Functions defined in a notebook or ``__main__``: the same text is compiled in memory with
  uncached decorators; ``Puzzle.warm_up()`` pays the compile once per process.

The header carries a hash of the template and of every source file the kernels depend on, so an
edited puzzle or kernel rewrites the module and invalidates numba's cache.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import os
import re
import sys
import types
from pathlib import Path

import numba

import vecsearch
import vecsearch._numba as nb_options
from vecsearch.kernels import state_words

KERNEL_DIR = Path(vecsearch.__file__).parent / "kernels"
LAYER_TEMPLATES = tuple(KERNEL_DIR / f"{name}.py" for name in ("layer_template", "pair_template", "rank_space_template"))
ROLES = ("expand_state", "predecessors_state", "rank_state", "component_state")
OPTIONAL_ROLES = ("expand_ranked_state", "predecessors_ranked_state", "unrank_state", "expand_rank_state",
                  "predecessors_rank_state")  # None: the template's default, or absent


def cache_dir() -> Path:
    """Where generated kernel modules live: ``$VECSEARCH_CACHE_DIR``, else the user cache."""
    configured = os.environ.get("VECSEARCH_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "vecsearch"


def _importable_name(function) -> str | None:
    """``module:name`` if ``function`` is reachable as a global of an importable module."""
    py_func = getattr(function, "py_func", function)
    module_name = py_func.__module__
    module = sys.modules.get(module_name)
    if module is None or module_name == "__main__" or getattr(module, "__file__", None) is None:
        return None
    if getattr(module, py_func.__name__, None) is not function:
        return None
    return f"{module_name}:{py_func.__name__}"


_SHAPE_HELPERS = ("empty_at", "hash_at", "equal_at", "copy_at", "new_states", "first_word", "state_hash",
                  "states_equal")


def _shape_bindings(width: int) -> dict[str, str]:
    family = "narrow" if width == 1 else "wide"
    return {name: f"{family}_{name}" for name in _SHAPE_HELPERS}


def _source_hash(paths) -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(set(paths)):
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


def _dependency_files(functions) -> list[str]:
    package_dir = Path(vecsearch.__file__).parent
    files = [str(p) for p in (package_dir / "kernels").glob("*.py")]
    files.append(str(package_dir / "_numba.py"))
    files += [inspect.getsourcefile(getattr(f, "py_func", f)) for f in functions.values() if f is not None]
    return files


def _header(functions: dict, width: int, max_moves: int) -> str:
    lines = [
        "from vecsearch._numba import kernel, parallel_kernel, state_function",
        "from vecsearch.kernels.state_words import (",
    ]
    lines += [f"    {helper} as {name}," for name, helper in _shape_bindings(width).items()]
    lines.append(")")
    for role, function in functions.items():
        if function is None:
            lines.append(f"{role} = None")
            continue
        module_name, name = _importable_name(function).split(":")
        lines.append(f"from {module_name} import {name} as {role}")
    lines += [f"WIDTH = {width}", f"MAX_MOVES = {max_moves}", ""]
    return "\n".join(lines)


def serial_twins(template: str) -> str:
    """A ``NAME_serial`` copy, compiled without ``parallel``, of every ``@parallel_kernel``.

    Small frontiers use the twins: a parallel launch costs microseconds on an idle machine but
    can wait a scheduler slice (~10 ms) for a busy core. They are separate functions because
    numba's cache key cannot tell two compilations of one function apart.
    """
    lines = template.splitlines()
    twins = []
    for node in ast.parse(template).body:
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id == "parallel_kernel" for d in node.decorator_list
        ):
            source = "\n".join(lines[node.lineno - 1:node.end_lineno])
            twins.append("@kernel\n" + source.replace(f"def {node.name}(", f"def {node.name}_serial(", 1))
    return "\n\n\n" + "\n\n\n".join(twins) + "\n"


def move_capacity(max_moves: int) -> int:
    """``MAX_MOVES`` of the kernels: ``max_moves`` rounded up to a power of two (at least 4), so
    that puzzles of one family with similar move counts share one compiled module."""
    return max(4, 1 << (max_moves - 1).bit_length())


def build_kernels(functions: dict, width: int, max_moves: int, label: str, *, templates=LAYER_TEMPLATES,
                  roles=ROLES, optional_roles=OPTIONAL_ROLES) -> types.ModuleType:
    """The kernel module for a puzzle given its per-state functions by role: the layer kernels by
    default, or other templates' (e.g. ``heuristic_template.py``, which adds ``heuristic_state``)."""
    missing = set(roles) - {role for role, f in functions.items() if f is not None}
    if missing or set(functions) - set(roles) - set(optional_roles):
        raise ValueError(f"kernel roles missing: {sorted(missing)}")
    max_moves = move_capacity(max_moves)
    template = "\n\n".join(path.read_text() for path in templates)
    template += serial_twins(template)
    if tuple(templates) != LAYER_TEMPLATES:
        label = "_".join([label, *(path.stem for path in templates)])
    if all(_importable_name(f) for f in functions.values() if f is not None):
        try:
            return _cached_module(functions, width, max_moves, label, template)
        except OSError:
            pass  # the cache directory is not writable: compile in memory instead
    return _in_memory_module(functions, width, max_moves, label, template)


def _cached_module(functions, width, max_moves, label, template) -> types.ModuleType:
    stamp = _source_hash(_dependency_files(functions))
    text = (
        f"# Generated by vecsearch.engine.codegen for {label!r}; do not edit.\n"
        f"# sources: {stamp}\n" + _header(functions, width, max_moves) + template
    )
    slug = re.sub(r"\W", "_", label)
    identity = hashlib.sha256(_header(functions, width, max_moves).encode()).hexdigest()[:8]
    module_name = f"vecsearch_kernels_{slug}_{identity}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{module_name}.py"
    if not path.exists() or path.read_text() != text:
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(text)
        temporary.replace(path)  # atomic: concurrent processes never see half a file
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # numba's cache re-imports the module by name
    spec.loader.exec_module(module)
    return module


def _in_memory_module(functions, width, max_moves, label, template) -> types.ModuleType:
    module = types.ModuleType("vecsearch_kernels_user_" + re.sub(r"\W", "_", label))
    namespace = module.__dict__
    namespace.update(
        kernel=nb_options.user_kernel,
        parallel_kernel=nb_options.user_parallel_kernel,
        state_function=nb_options.state_function,
        WIDTH=width,
        MAX_MOVES=max_moves,
        **functions,
    )
    namespace.update(
        {name: getattr(state_words, helper) for name, helper in _shape_bindings(width).items()}
    )
    exec(compile(template, f"<vecsearch kernels for {label}>", "exec"), namespace)
    return module
