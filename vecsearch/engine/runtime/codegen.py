"""Kernel modules per puzzle family, from the kernel templates, keeping the templates' lines.

numba caches a kernel on disk only if the functions it calls are module-level globals and the
kernel itself lives in a real file. The templates (``TEMPLATES``, by module name) are ordinary
modules that import their roles (``expand_state``, ``rank_state``, ``WIDTH``, ...) from
``vecsearch.kernels.roles``, and one another's kernels. For a family we emit:

- the family module: the roles bound to the family's functions (or to the guards of a user's
  puzzle), its constants and decorators, then the exports of each of its templates (each
  template's ``__all__``): what the engine calls, ``layer_kernels(puzzle).neighbours``. A
  template's module runs on the first use of one of its exports, so that a process pays only for
  the templates it calls;
- one module per template, its text as written but for the statements importing the roles or
  another template, which import the same names, on the same lines, from the family's modules.

So line N of a generated template module is line N of its template: a traceback (with
``NUMBA_DISABLE_JIT=1`` every kernel runs as Python), numba's messages and ``numba --annotate``
point at the template's own lines. ``vecsearch kernels PUZZLE`` prints where a family's modules are.

A *family* is what the family module binds: the per-state functions, the state width, the move
capacity and whether predecessors differ from children. Puzzles that differ only in their tables
(every ``pancake-N``, every ``sliding-RxC``) share its modules and their compiled kernels; a new
member compiles nothing.

- Functions defined in an importable module (every built-in, and a user's ``.py`` file; plain
  Python functions or ``@numba.njit`` ones), and the guards of a user's puzzle (which hold none of
  its functions, wherever they are defined: a notebook's too): the modules are written to the
  kernel cache directory (only when their text changes, so numba's cache stays valid) and
  imported (``engine.runtime.generated``); their kernels load from disk in later processes.
- Trusted functions no other process can import (defined in a notebook or ``__main__``), or a
  cache directory that cannot be written: the same modules are kept in memory with uncached
  decorators, their text registered with ``linecache``; ``vecsearch.warm_up(puzzle)`` pays the
  compile once per process.

The family module carries a hash of the templates and of every source file the kernels depend
on, and the modules' names carry it too, so an edited puzzle or kernel writes new modules and
numba compiles them afresh.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import inspect
import itertools
import re
import sys
import types
from pathlib import Path

import numba

from vecsearch.cache_folder import cache_dir
from vecsearch.contract import ROLES as CONTRACT_ROLES
from vecsearch.contract import no_rank, single_component
from vecsearch.engine.runtime.caches import KERNELS
from vecsearch.engine.runtime.generated import GENERATED, write
from vecsearch.fingerprint import function_digest
from vecsearch.kernels.roles import SHAPE_HELPERS

PACKAGE_DIR = Path(__file__).resolve().parents[2]
ROLES_MODULE = "vecsearch.kernels.roles"  # what the templates import their roles from
# Every kernel template, by module name (each beside the engine module that drives its kernels; the
# guards of a user's functions in ``kernels/``): code generation finds them here only, by their last name.
TEMPLATES = ("vecsearch.engine.runtime.layer_template", "vecsearch.engine.runtime.hash_template",
             "vecsearch.engine.tables.pair_template", "vecsearch.engine.twobit.rank_space_template",
             "vecsearch.engine.twobit.segment_template", "vecsearch.engine.tables.distance_template",
             "vecsearch.engine.heuristic.heuristic_template", "vecsearch.engine.heuristic.pdb_template",
             "vecsearch.kernels.guard_template", "vecsearch.kernels.value_template")
LAYER_TEMPLATES = ("layer_template", "hash_template", "pair_template", "rank_space_template", "segment_template",
                   "distance_template")
PLACEHOLDERS = {"no_rank": no_rank, "single_component": single_component}  # fallbacks of the contract
# The roles every layer-kernel module binds to a function (after fallbacks); the others may be None.
ROLES = ("expand_state", "predecessors_state", "rank_state", "component_state")
OPTIONAL_ROLES = tuple(role.kernel_name for role in CONTRACT_ROLES if role.kernel_name not in ROLES)
_in_memory_families = itertools.count(1)  # numbers the families kept in memory in this process


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
    """What a family's modules record of their sources, so that numba's cache of them is
    dropped when they change: numba's version, vecsearch's kernel sources (every template, the
    modules beside them) and the files of vecsearch's own functions, and for a user's functions
    their digests (``fingerprint``: their code and what it reads, not the rest of their file,
    whose comments may change freely). A vecsearch function counts with every module of its
    package: the rules a family binds call helpers beside them (``rules`` calls ``arrangement``),
    which numba's cache would not see change."""
    files = [PACKAGE_DIR / "_numba.py", *(PACKAGE_DIR / "kernels").glob("*.py"), *map(template_path, TEMPLATES)]
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


def template_module(name: str) -> str:
    """The module name of kernel template ``name`` (its last name, ``"layer_template"``, or the
    whole one), from ``TEMPLATES``."""
    for module in TEMPLATES:
        if name in (module, module.rsplit(".", 1)[1]):
            return module
    raise ValueError(f"no kernel template {name!r}; the templates are {', '.join(TEMPLATES)}")


def generated_from(file: str) -> str | None:
    """The template a generated module (its file, or pseudo file name) was made from; None for a
    family module or any other file."""
    stem = Path(file.strip("<>")).stem
    found = [m for m in TEMPLATES if stem.startswith("vecsearch_kernels_") and stem.endswith(f"_{m.rsplit('.', 1)[1]}")]
    return found[0] if found else None


FROM_IMPORT = re.compile(r"from ([\w.]+) import\b")  # a top-level "from X import" statement
IMPORTED = re.compile(r"[\w.]+")


def template_path(module: str) -> Path:
    """The file of template ``module`` (a module of vecsearch: found without importing it)."""
    return PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")


def template_text(module: str) -> str:
    """The text of template ``module`` (found by its name, not imported)."""
    return _template(module)[0]


@functools.cache
def _template(module: str) -> tuple[str, tuple[tuple[int, str], ...], tuple[str, ...]]:
    """Template ``module`` read once per process: its text, the statements importing the roles
    or another template (their line and the module they import; the family's own modules stand
    in for both) and its exports (``__all__``). Read line by line, not parsed: a one-line solve
    pays for this in every process (parsing the templates took 50 ms of its start-up)."""
    text = template_path(module).read_text()
    local, exported = [], None
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if line.startswith("import ") and any(name in (ROLES_MODULE, *TEMPLATES) for name in IMPORTED.findall(line)):
            raise ValueError(f"{module}, line {number}: a template imports the roles and other templates"
                             f" with 'from ... import'")
        found = FROM_IMPORT.match(line)
        if found and found[1] in (ROLES_MODULE, *TEMPLATES):
            local.append((number, found[1]))
        if line.startswith("__all__ = ("):
            statement = "\n".join(lines[number - 1:])
            exported = tuple(ast.literal_eval(statement[len("__all__ = "):statement.index(")") + 1]))
    if exported is None:
        raise ValueError(f"kernel template {module} declares no __all__ = (...)")
    return text, tuple(local), exported


def family_templates(names) -> tuple[str, ...]:
    """The template modules a family made of templates ``names`` needs: those and every template
    they import, each after the ones it imports."""
    order: list[str] = []

    def visit(module: str) -> None:
        if module not in order:
            for _, imported in _template(module)[1]:
                if imported != ROLES_MODULE:
                    visit(imported)
            order.append(module)

    for name in names:
        visit(template_module(name))
    return tuple(order)


def exports(module: str) -> tuple[str, ...]:
    """What template ``module`` exports (its ``__all__``): the kernels the engine calls, or the
    roles a guard template stands for."""
    return _template(module)[2]


def generated_text(module: str, names: dict[str, str]) -> str:
    """Template ``module``'s text for a family: each statement importing the roles or another
    template imports the same names, on the same lines, from the family's module (``names``:
    the roles' or a template's module name -> the family's module standing in for it)."""
    text, local, _ = _template(module)
    lines = text.splitlines(keepends=True)
    for line, imported in local:
        old, new = f"from {imported} import", f"from {names[imported]} import"
        if not lines[line - 1].startswith(old):
            raise ValueError(f"{module}, line {line}: expected a statement beginning {old!r}")
        lines[line - 1] = new + lines[line - 1][len(old):]
    return "".join(lines)


def _shape_bindings(width: int) -> dict[str, str]:
    family = "narrow" if width == 1 else "wide"
    return {name: f"{family}_{name}" for name in SHAPE_HELPERS}


def _constants(width: int, capacity: int, has_predecessors: bool, guard, family: str) -> dict:
    return {"WIDTH": width, "MAX_MOVES": capacity, "HAS_PREDECESSORS": bool(has_predecessors), "FAMILY": family,
            **dict(guard.constants if guard is not None else ())}


def _decorators(constants: dict, functions: dict, guarded: bool, in_memory: bool) -> str:
    # A hot loop counts no references (``_numba.loop``): vecsearch's own rules never allocate (but
    # for an exact table's heuristic: ``allocating``), and a user's are compiled apart
    # (``engine.runtime.guarded``), where they may; but the states a user's unrank returns for a
    # wide puzzle are arrays it allocates, which only a counting loop frees.
    # Kept in memory, nothing is cached, and a user's rules may allocate.
    if in_memory:
        return "user_kernel as kernel, state_function as loop, state_function"
    counting = constants.get("ALLOCATING") or (guarded and constants["WIDTH"] > 1 and functions.get("unrank_state"))
    loop = "state_function as loop" if counting else "inner_loop as loop"  # only the family's kernels call them
    return f"kernel, {loop}, state_function"


def _bindings(functions: dict, constants: dict, guarded: bool, in_memory: bool, defined=()) -> list[str]:
    """The family module's lines binding the decorators, the shape helpers, the roles (a trusted
    family's functions; a guarded family's come from its guard template) and the constants."""
    lines = [f"from vecsearch._numba import {_decorators(constants, functions, guarded, in_memory)}",
             "from vecsearch.kernels.state_words import ("]
    lines += [f"    {helper} as {name}," for name, helper in _shape_bindings(constants["WIDTH"]).items()]
    lines.append(")")
    for role, function in functions.items():
        if function is None and role not in defined:
            lines.append(f"{role} = None")
        elif guarded or function is None:
            continue  # bound from the guard template
        elif in_memory:
            lines.append(f"# {role}: {getattr(function, '__qualname__', function)!s} (not importable: bound by"
                         f" vecsearch.engine.runtime.codegen)")
        else:
            module_name, name, plain = importable(function)
            if plain:
                lines += [f"from {module_name} import {name} as _{role}", f"{role} = state_function(_{role})"]
            else:
                lines.append(f"from {module_name} import {name} as {role}")
    lines += [f"{name} = {value!r}" for name, value in constants.items()]
    return lines


def _imports_of(module: str, names) -> list[str]:
    return [f"from {module} import (", *(f"    {name}," for name in names), ")"]


def _family_text(label: str, stamp: str, bindings: list[str], names: dict[str, str], guard_module: str | None,
                 guarded_roles, stand_ins: dict[str, str]) -> str:
    """The family module: its bindings, the roles a guard template gives (and what stands in
    for the others), then where every other template's exports are, imported on first use."""
    lines = [f"# Generated by vecsearch.engine.runtime.codegen for {label!r}; do not edit.", f"# sources: {stamp}",
             f'"""The kernels of {label!r}: the roles and constants its template modules import from here, then'
             ' their kernels."""', *bindings]
    templates = {template: name for template, name in names.items() if template != ROLES_MODULE}
    lines += ["MODULES = {  # template -> the family's module of it",
              *(f"    {template!r}: {name!r}," for template, name in templates.items()), "}"]
    if guard_module is not None:
        lines += _imports_of(names[guard_module], sorted(guarded_roles))
        placeholders = sorted({target for target in stand_ins.values() if target in PLACEHOLDERS})
        if placeholders:
            lines.append(f"from vecsearch.contract import {', '.join(placeholders)}")
        lines += [f"{role} = {target}" for role, target in stand_ins.items()]
    lines += ["EXPORTS = {  # kernel -> the family's module defining it, imported on first use (``__getattr__``)",
              *(f"    {kernel!r}: {name!r}," for template, name in templates.items() if template != guard_module
                for kernel in exports(template)), "}", "", "",
              "def __getattr__(name):",
              '    """A template\'s kernel, its module imported on first use: a process runs only the templates it',
              '    calls (a one-line solve: one of six), and numba makes dispatchers for their kernels only."""',
              "    if name not in EXPORTS:",
              '        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")',
              "    import importlib",
              "    kernel = globals()[name] = getattr(importlib.import_module(EXPORTS[name]), name)",
              "    return kernel"]
    return "\n".join(lines) + "\n"


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
                  guard=None, allocating: bool = False, templates=LAYER_TEMPLATES, roles=ROLES,
                  optional_roles=OPTIONAL_ROLES) -> types.ModuleType:
    """The family module of a family given its per-state functions by role (None: not given),
    its width, move capacity and whether its predecessors differ from its children, made of the
    layer templates by default, or of other templates (by name: ``("heuristic_template",)``,
    which adds ``heuristic_state``). ``guard`` (``Puzzle.guard``; None for a trusted puzzle): the
    functions are a user's, each behind the guard of its role (``guard_template``, or the value
    adapters of ``value_template``); the modules then hold none of them (the kernels take them in
    their tables: ``engine.runtime.guarded``), so they serve every user's puzzle of the same shape
    (``Guard.family`` names it) and are cached like a built-in family's. ``allocating``: a trusted
    family's functions allocate arrays, so its loops are inlined into kernels that count references."""
    guarded = guard is not None
    defined = () if guard is None else tuple(r for r in guard.defines if r in set(roles) | set(optional_roles))
    stand_ins = fallbacks(functions, has_predecessors, defined)
    given = {role: f for role, f in functions.items() if f is not None}
    missing = set(roles) - set(given) - set(stand_ins) - set(defined)
    if missing or set(functions) - set(roles) - set(optional_roles):
        raise ValueError(f"kernel roles missing: {sorted(missing)}")
    if tuple(templates) != LAYER_TEMPLATES:
        label = "_".join([guard.family if guarded else label, *templates])
    elif guarded:
        label = guard.family
    constants = _constants(width, capacity, has_predecessors, guard, label)
    if allocating:
        constants["ALLOCATING"] = True
    modules = family_templates(tuple(templates) + ((guard.template,) if guarded else ()))
    if not guarded:
        functions = {**functions, **{role: PLACEHOLDERS.get(target) or functions[target]
                                     for role, target in stand_ins.items()}}
        stand_ins = {}
    family = _Family(label, functions, constants, modules, template_module(guard.template) if guarded else None,
                     {*given, *defined}, stand_ins)
    if guarded or all(importable(f) for f in functions.values() if f is not None):
        try:
            return family.load(cache_dir())
        except OSError:
            pass  # the cache directory is not writable: keep the modules in memory instead
    return family.load(None)


class _Family:
    """The texts of a family's modules, and loading them (from files in the cache directory,
    or from memory)."""

    def __init__(self, label, functions, constants, modules, guard_module, guarded_roles, stand_ins):
        self.label, self.functions, self.constants, self.modules = label, functions, constants, modules
        self.guard_module, self.guarded_roles, self.stand_ins = guard_module, guarded_roles, stand_ins
        if guard_module is not None and set(guarded_roles) - set(exports(guard_module)):
            raise ValueError(f"{guard_module} guards no {sorted(set(guarded_roles) - set(exports(guard_module)))}")
        seen = [name for module in modules if module != guard_module for name in exports(module)]
        if len(seen) != len(set(seen)):
            raise ValueError(f"kernel templates export a name twice: {sorted({n for n in seen if seen.count(n) > 1})}")

    def load(self, directory: Path | None) -> types.ModuleType:
        """The family module, its modules written to ``directory`` (None: kept in memory) and
        imported."""
        guarded, in_memory = self.guard_module is not None, directory is None
        bindings = _bindings(self.functions, self.constants, guarded, in_memory, self.guarded_roles if guarded else ())
        stamp = "kept in memory" if in_memory else _stamp({} if guarded else self.functions)
        slug = re.sub(r"\W", "_", self.label)
        if in_memory:
            base = f"vecsearch_kernels_user_{slug}_{next(_in_memory_families)}"
        else:
            # the stamp in the name too: two versions of vecsearch sharing a cache directory keep apart
            # (numba unpickles a cache index before it compares stamps, and fails on a type it lacks)
            identity = hashlib.sha256("\n".join([*bindings, stamp, *self.modules]).encode()).hexdigest()[:8]
            base = f"vecsearch_kernels_{slug}_{identity}"
            if base in sys.modules:
                return sys.modules[base]
            directory.mkdir(parents=True, exist_ok=True)
        names = {ROLES_MODULE: base, **{module: f"{base}_{module.rsplit('.', 1)[1]}" for module in self.modules}}
        texts = {name: generated_text(module, names)
                 + f"# Generated by vecsearch.engine.runtime.codegen from {module} for {self.label!r}; do not edit.\n"
                 for module, name in names.items() if module != ROLES_MODULE}
        texts[base] = _family_text(self.label, stamp, bindings, names, self.guard_module, self.guarded_roles,
                                   self.stand_ins)
        preset = {"FAMILY": self.label}  # what the compile notice names (``jit.notice``), in every module
        for name, text in texts.items():
            path = None if in_memory else directory / f"{name}.py"
            if path is not None:
                write(path, text)
            bound = in_memory and name == base and not guarded  # a trusted family's functions
            roles = {r: f for r, f in self.functions.items() if f is not None} if bound else {}
            GENERATED.add(name, text, path, {**preset, **roles})
        return importlib.import_module(base)


def module_files(kernels: types.ModuleType) -> list[tuple[str, str]]:
    """``(what, file)`` for each module of a family (``layer_kernels(puzzle)``): the family
    module (as ``ROLES_MODULE``: its templates import their roles from it), then each template's
    (by the template's module name). A module kept in memory has a pseudo file name."""
    return [(ROLES_MODULE, GENERATED.file(kernels.__name__)),
            *((template, GENERATED.file(name)) for template, name in kernels.MODULES.items())]
