"""Kernel modules per puzzle family, from the templates (``TEMPLATES``: each beside the engine
module that calls its kernels, the guards of a user's functions in ``vecsearch/kernels``).

numba caches a kernel on disk only if the functions it calls are module-level globals and the
kernel itself lives in a real file. The templates are ordinary modules that import their roles
(``expand_state``, ``rank_state``, ``WIDTH``, ...) from ``vecsearch.kernels.roles``; for a family
we emit one module made of a header binding those roles to the family's functions, followed by
the templates' text with that import (and imports of one another) removed.

A *family* is what the header binds: the per-state functions, the state width, the move capacity
and whether predecessors differ from children. Puzzles that differ only in their tables (every
``pancake-N``, every ``sliding-RxC``) share one module and its compiled kernels; a new member
compiles nothing.

- Functions defined in an importable module (every built-in, and a user's ``.py`` file; plain
  Python functions or ``@numba.njit`` ones): the module is written to the kernel cache directory
  (only when its text changes, so numba's cache stays valid) and imported; its kernels load from
  disk in later processes.
- Functions defined in a notebook or ``__main__``: the same text is compiled in memory with
  uncached decorators; ``vecsearch.warm_up(puzzle)`` pays the compile once per process.

The header carries a hash of the templates and of every source file the kernels depend on, so an
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

import vecsearch._numba as nb_options
from vecsearch.contract import ROLES as CONTRACT_ROLES
from vecsearch.contract import no_rank, single_component
from vecsearch.engine.runtime.caches import KERNELS
from vecsearch.fingerprint import function_digest
from vecsearch.kernels import state_words
from vecsearch.kernels.roles import SHAPE_HELPERS

nb_options.faster_inlining()
PACKAGE_DIR = Path(__file__).resolve().parents[2]
KERNEL_DIR = PACKAGE_DIR / "kernels"
# Every template, beside the engine module that drives its kernels (the guards of a user's functions
# in ``kernels/``): a generated module defines what one template imports from another.
TEMPLATES = tuple(sorted(PACKAGE_DIR.rglob("*_template.py")))
LAYER_TEMPLATES = tuple(PACKAGE_DIR / "engine" / f"{name}.py" for name in (
    "runtime/layer_template", "runtime/hash_template", "tables/pair_template", "twobit/rank_space_template",
    "twobit/segment_template", "tables/distance_template"))
PLACEHOLDERS = {"no_rank": no_rank, "single_component": single_component}  # fallbacks of the contract
# The roles every layer-kernel module binds to a function (after fallbacks); the others may be None.
ROLES = ("expand_state", "predecessors_state", "rank_state", "component_state")
OPTIONAL_ROLES = tuple(role.kernel_name for role in CONTRACT_ROLES if role.kernel_name not in ROLES)


def cache_dir() -> Path:
    """Where generated kernel modules live: ``$VECSEARCH_CACHE_DIR``, else the user cache."""
    configured = os.environ.get("VECSEARCH_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "vecsearch"


def importable(function) -> tuple[str, str, bool] | None:
    """``(module, name, plain)`` if ``function`` (a dispatcher, or the plain function it
    compiles) is a global of an importable module; ``plain``: that global is the Python function."""
    py_func = getattr(function, "py_func", function)
    module_name = py_func.__module__
    module = sys.modules.get(module_name)
    if (module is None or module_name == "__main__" or getattr(module, "__file__", None) is None
            or getattr(module, "__spec__", None) is None or not module_name.replace(".", "_").isidentifier()):
        return None  # not importable by name in another process (a notebook, a script, runpy)
    found = getattr(module, py_func.__name__, None)
    if found is not function and found is not py_func and not _same_code(getattr(found, "py_func", found), py_func):
        return None
    return module_name, py_func.__name__, not hasattr(found, "py_func")


def _same_code(a, b) -> bool:
    """Whether functions ``a`` and ``b`` have the same code: a dispatcher sent to another process
    (a dask worker) arrives as a new function made from the original's code, which is the module
    global's all the same."""
    code_a, code_b = getattr(a, "__code__", None), getattr(b, "__code__", None)
    return (code_a is not None and code_b is not None and a.__qualname__ == b.__qualname__
            and code_a.co_code == code_b.co_code and code_a.co_consts == code_b.co_consts
            and code_a.co_names == code_b.co_names)


def _stamp(functions) -> str:
    """What a generated module's text records of its sources, so that numba's cache of it is
    dropped when they change: numba's version, vecsearch's kernel sources and the files of
    vecsearch's own functions, and for a user's functions their digests (``fingerprint``: their
    code and what it reads, not the rest of their file, whose comments may change freely). A
    vecsearch function counts with every module of its package: the rules a family binds call
    helpers beside them (``rules`` calls ``arrangement``), which numba's cache would not see change."""
    files = [*KERNEL_DIR.glob("*.py"), *TEMPLATES, PACKAGE_DIR / "_numba.py"]
    given = [f for f in functions.values() if f is not None]
    for function in given:
        if importable(function)[0].startswith("vecsearch."):
            files += Path(inspect.getsourcefile(getattr(function, "py_func", function))).parent.glob("*.py")
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(set(files)):
        digest.update(path.read_bytes())
    for function in given:
        if not importable(function)[0].startswith("vecsearch."):
            digest.update(function_digest(function).encode())
    return digest.hexdigest()[:16]


def _shape_bindings(width: int) -> dict[str, str]:
    family = "narrow" if width == 1 else "wide"
    return {name: f"{family}_{name}" for name in SHAPE_HELPERS}


def _constants(width: int, capacity: int, has_predecessors: bool, guard, family: str) -> dict:
    return {"WIDTH": width, "MAX_MOVES": capacity, "HAS_PREDECESSORS": bool(has_predecessors), "FAMILY": family,
            **dict(guard.constants if guard is not None else ())}


def _header(functions: dict, constants: dict, guarded: bool) -> str:
    # A hot loop counts no references (``_numba.loop``): vecsearch's own rules never allocate, and
    # a user's are compiled apart (``engine.runtime.guarded``), where they may; but the states a user's
    # unrank returns for a wide puzzle are arrays it allocates, which only a counting loop frees.
    # A guard raises, which a prange loop cannot pass on: a guarded family's parallel kernels run
    # serially.
    loop = "state_function as loop" if guarded and constants["WIDTH"] > 1 and functions.get("unrank_state") \
        else "loop"
    decorators = f"kernel, {loop}, {'kernel as ' if guarded else ''}parallel_kernel, state_function"
    lines = [f"from vecsearch._numba import {decorators}", "from vecsearch.kernels.state_words import ("]
    lines += [f"    {helper} as {name}," for name, helper in _shape_bindings(constants["WIDTH"]).items()]
    lines.append(")")
    for role, function in functions.items():
        if function is None:
            lines.append(f"{role} = None")
            continue
        if guarded:
            continue  # its guard follows (``guard_body``)
        module_name, name, plain = importable(function)
        if plain:
            lines += [f"from {module_name} import {name} as _{role}", f"{role} = state_function(_{role})"]
        else:
            lines.append(f"from {module_name} import {name} as {role}")
    lines += [f"{name} = {value!r}" for name, value in constants.items()]
    return "\n".join(lines) + "\n"


def guard_body(template: str, roles, fallbacks: dict[str, str]) -> str:
    """The guards of ``template`` (``guard_template``, ``value_template``) for the ``roles``
    (their helpers too), then each role of ``fallbacks`` bound to the one it falls back to
    (``vecsearch.contract``)."""
    text = template_body(KERNEL_DIR / f"{template}.py")
    lines = text.splitlines(keepends=True)
    for node in reversed(ast.parse(text).body):
        if isinstance(node, ast.FunctionDef) and node.name.endswith("_state") and node.name not in roles:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            del lines[start - 1:node.end_lineno]
    placeholders = sorted({target for target in fallbacks.values() if target in PLACEHOLDERS})
    tail = [f"from vecsearch.contract import {', '.join(placeholders)}\n"] if placeholders else []
    tail += [f"{role} = {target}\n" for role, target in fallbacks.items()]
    return "".join(lines) + "\n\n" + "".join(tail)


def template_body(path: Path) -> str:
    """A template's text without its imports of the roles and of the other templates (the
    generated module defines both)."""
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    local = {"vecsearch.kernels.roles", *(template_module(p) for p in TEMPLATES)}
    for node in reversed(ast.parse(text).body):
        if isinstance(node, ast.ImportFrom) and node.module in local:
            del lines[node.lineno - 1:node.end_lineno]
    return "".join(lines)


def template_module(path: Path) -> str:
    """The dotted name of the template module at ``path``."""
    return ".".join(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)


def layer_kernels(puzzle) -> types.ModuleType:
    """The layer kernels of ``puzzle``'s family (built, or loaded from numba's cache, on first
    use; kept in ``caches.KERNELS``)."""
    return KERNELS.get(("layers", puzzle), lambda: _bind_layer_kernels(puzzle))


def _bind_layer_kernels(puzzle) -> types.ModuleType:
    functions = dict(puzzle.functions)
    has_predecessors = functions["predecessors_state"] is not None
    return build_kernels(functions, puzzle.width, puzzle.move_capacity, puzzle.kernel_label,
                         has_predecessors=has_predecessors, guard=puzzle.guard)


def fallbacks(functions: dict, has_predecessors: bool, defined=()) -> dict[str, str]:
    """The roles not given and what stands in for each (``vecsearch.contract.Role.fallback``): a
    puzzle without predecessors of its own (reversible: its predecessors are its children;
    directed: bound only so that the kernels type-check, the engine never searches backwards)
    takes its expansions for them; no rank or component, placeholders never called."""
    chosen = {}
    for role in CONTRACT_ROLES:
        if role.fallback is None or functions.get(role.kernel_name, False) is not None or role.kernel_name in defined:
            continue
        if role.fallback in PLACEHOLDERS or not has_predecessors:
            chosen[role.kernel_name] = role.fallback if role.fallback in PLACEHOLDERS else f"{role.fallback}_state"
    return chosen


def build_kernels(functions: dict, width: int, capacity: int, label: str, *, has_predecessors: bool = False,
                  guard=None, templates=LAYER_TEMPLATES, roles=ROLES,
                  optional_roles=OPTIONAL_ROLES) -> types.ModuleType:
    """The kernel module of a family given its per-state functions by role (None: not given), its
    width, move capacity and whether its predecessors differ from its children: the layer kernels
    by default, or other templates' (e.g. ``heuristic_template.py``, which adds
    ``heuristic_state``). ``guard`` (``Puzzle.guard``; None for a trusted puzzle): the functions
    are a user's, each behind the guard of its role (``kernels/guard_template.py``, or the value
    adapters of ``kernels/value_template.py``); the module then holds none of them (the kernels
    take them in their tables: ``engine.runtime.guarded``), so it serves every user's puzzle of the same
    shape (``Guard.family`` names it) and is cached like a built-in family's."""
    guarded = guard is not None
    defined = () if guard is None else tuple(r for r in guard.defines if r in set(roles) | set(optional_roles))
    stand_ins = fallbacks(functions, has_predecessors, defined)
    given = {role: f for role, f in functions.items() if f is not None}
    missing = set(roles) - set(given) - set(stand_ins) - set(defined)
    if missing or set(functions) - set(roles) - set(optional_roles):
        raise ValueError(f"kernel roles missing: {sorted(missing)}")
    if guarded:
        label = guard.family
    constants = _constants(width, capacity, has_predecessors, guard, label)
    body = "\n\n".join(template_body(path) for path in templates)
    if guarded:
        body = guard_body(guard.template, {*given, *defined}, stand_ins) + "\n\n" + body
    else:
        functions = {**functions, **{role: PLACEHOLDERS.get(target) or functions[target]
                                     for role, target in stand_ins.items()}}
    if tuple(templates) != LAYER_TEMPLATES:
        label = "_".join([label, *(path.stem for path in templates)])
    if guarded or all(importable(f) for f in functions.values() if f is not None):
        try:
            return _cached_module(functions, constants, label, body, guarded)
        except OSError:
            pass  # the cache directory is not writable: compile in memory instead
    return _in_memory_module(functions, constants, label, body, guarded)


def _cached_module(functions, constants, label, body, guarded) -> types.ModuleType:
    header = _header(functions, constants, guarded)
    stamp = _stamp({} if guarded else functions)
    text = (f"# Generated by vecsearch.engine.runtime.codegen for {label!r}; do not edit.\n# sources: {stamp}\n"
            + header + body)
    slug = re.sub(r"\W", "_", label)
    # the stamp in the name too: two versions of vecsearch sharing a cache directory keep apart
    # (numba unpickles a cache index before it compares stamps, and fails on a type it lacks)
    identity = hashlib.sha256((header + stamp).encode()).hexdigest()[:8]
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


def _in_memory_module(functions, constants, label, body, guarded) -> types.ModuleType:
    module = types.ModuleType("vecsearch_kernels_user_" + re.sub(r"\W", "_", label))
    namespace = module.__dict__
    namespace.update(
        kernel=nb_options.user_kernel,
        loop=nb_options.state_function,  # a user's rules may allocate: see _header
        parallel_kernel=nb_options.user_kernel if guarded else nb_options.user_parallel_kernel,
        state_function=nb_options.state_function,
        **constants,
    )
    namespace.update({role: None for role in functions} if guarded else functions)
    shapes = _shape_bindings(constants["WIDTH"])
    namespace.update({name: getattr(state_words, helper) for name, helper in shapes.items()})
    exec(compile(body, f"<vecsearch kernels for {label}>", "exec"), namespace)
    sys.modules[module.__name__] = module  # the compile notice finds its FAMILY there
    return module
