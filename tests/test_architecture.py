"""The package's shape: an acyclic import graph, no private names across modules, an engine in
rooms that import downwards, kernel templates beside the modules that drive them, cohesive modules.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` of the
package, at module level and inside functions (a function-level import is still a dependency,
only a later one), but for those under ``if TYPE_CHECKING:`` (annotations only, never run). See
ARCHITECTURE.md for the layers these tests keep.
"""

from __future__ import annotations

import ast
import functools
import warnings
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "vecsearch"
SOFT_LIMIT = 400  # lines of code (docstrings, comments and blank lines aside) past which a module says why
# Modules past the soft limit, and why they stay whole (a module is split by concern, never by size).
LONG_MODULES: dict[str, str] = {}


@functools.cache
def parsed(source: str) -> ast.Module:
    """``ast.parse(source)``, once per source text: every test reads the whole package (not mutated)."""
    return ast.parse(source)


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict) -> list[tuple[str, str | None, int]]:
    """``(module imported, name taken from it or None, line)`` for each import of the package."""
    found = []
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = parsed(path.read_text())
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and ast.unparse(block.test)
                   in ("TYPE_CHECKING", "typing.TYPE_CHECKING") for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue  # an import for annotations only: never run
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == "vecsearch"]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            if source.split(".")[0] != "vecsearch":
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.append((submodule, None, node.lineno) if submodule in known
                             else (source, alias.name, node.lineno))
    return found


def graph() -> tuple[dict[str, set[str]], list[str]]:
    known = modules()
    edges, private = {name: set() for name in known}, []
    for name, path in known.items():
        for target, taken, line in imports(name, path, known):
            if target not in known or target == name:
                continue
            edges[name].add(target)
            if taken is not None and taken.startswith("_") and not taken.startswith("__"):
                private.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {taken} from {target}")
    return edges, private


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_checks_see_a_cycle_and_a_private_import(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from vecsearch.engine.layered.search import _hidden\n")
    assert imports("vecsearch.m", module, {}) == [("vecsearch.engine.layered.search", "_hidden", 2)]


def test_the_checks_see_rooms_kernels_and_annotation_imports(tmp_path):
    assert (room("vecsearch.engine.layered.search"), room("vecsearch.engine"), room("vecsearch.puzzle")) \
        == ("layered", None, None)
    template = tmp_path / "t_template.py"
    template.write_text("@kernel\ndef a(x):\n    pass\n\n@kernel(cache=True)\ndef b(x):\n    pass\n\n"
                        "@loop\ndef c(x):\n    pass\n")
    assert kernels_of(template) == {"a", "b"}
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from vecsearch.puzzle import Puzzle\n"
                      "from vecsearch.errors import NoSolution\n")
    assert imports("vecsearch.m", module, {}) == [("vecsearch.errors", "NoSolution", 4)]


def test_the_import_graph_has_no_cycle():
    edges, _ = graph()
    assert len(edges) > 60 and sum(map(len, edges.values())) > 150  # the graph was read, not found empty
    assert cycles(edges) == []


def test_no_module_imports_another_modules_private_names():
    assert graph()[1] == []


def test_the_puzzle_contract_and_the_kernels_do_not_import_the_engine():
    edges, _ = graph()
    lower = [m for m in edges if m in ("vecsearch.puzzle", "vecsearch.heuristics", "vecsearch.errors")
             or m.startswith("vecsearch.kernels")]
    assert [(m, sorted(edges[m])) for m in lower if any(t.startswith("vecsearch.engine") for t in edges[m])] == []


def test_the_engine_does_not_import_puzzles_files_or_the_command_line():
    edges, _ = graph()
    above = ("vecsearch.puzzles", "vecsearch.batch_io", "vecsearch.cli", "vecsearch.judge")
    reach = {m: sorted(t for t in targets if t.startswith(above)) for m, targets in edges.items()
             if m.startswith("vecsearch.engine")}
    assert {m: t for m, t in reach.items() if t} == {}


def code_lines(source: str) -> int:
    """Lines holding code: docstrings, comments and blank lines do not count (documenting a module
    never pushes it over the limit)."""
    import ast
    import io
    import tokenize

    documented = set()
    for node in ast.walk(parsed(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
            documented.update(range(body[0].lineno, body[0].end_lineno + 1))
    code = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                              tokenize.ENDMARKER):
            code.update(line for line in range(token.start[0], token.end[0] + 1) if line not in documented)
    return len(code)


def test_modules_past_the_soft_limit_say_why():
    """A long module is a prompt to look for a second concern in it, not a failure: each one over
    the limit has its reason in ``LONG_MODULES`` (listed, so that the list is never stale)."""
    sizes = {name: code_lines(path.read_text()) for name, path in modules().items()}
    unexplained = {name: size for name, size in sizes.items() if size > SOFT_LIMIT and name not in LONG_MODULES}
    if unexplained:
        warnings.warn(f"modules over {SOFT_LIMIT} lines of code without a reason in LONG_MODULES: {unexplained}",
                      stacklevel=1)
    assert [name for name in LONG_MODULES if sizes.get(name, 0) <= SOFT_LIMIT] == []


def room(module: str) -> str | None:
    """The engine's room (``runtime``, ``layered``, ...) of ``module``; None outside the engine."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["vecsearch", "engine"] and len(parts) > 2 else None


def is_template(module: str) -> bool:
    return module.endswith("_template")


def test_every_engine_module_is_in_a_room():
    loose = [m for m in modules() if m.startswith("vecsearch.engine.") and m.count(".") == 2
             and modules()[m].name != "__init__.py"]
    assert loose == []


def test_the_rooms_of_the_engine_import_downwards_only():
    """The rooms form a hierarchy (runtime at the bottom, batch at the top): no two rooms import
    each other, directly or through a third. The templates' imports of one another do not count:
    code generation joins them into one module per family."""
    edges, _ = graph()
    rooms = {}
    for source, targets in edges.items():
        for target in targets:
            if room(source) and room(target) and room(source) != room(target) \
                    and not (is_template(source) and is_template(target)):
                rooms.setdefault(room(source), set()).add(room(target))
    assert len(rooms) >= 5
    assert cycles({r: rooms.get(r, set()) for r in set(rooms) | set().union(*rooms.values())}) == []
    assert "runtime" not in rooms  # the machinery every room uses imports none of them


def test_puzzles_use_only_the_engines_public_api():
    import vecsearch.engine as engine

    known = modules()
    reach = []
    for name, path in known.items():
        if not name.startswith("vecsearch.puzzles"):
            continue
        for target, taken, line in imports(name, path, known):
            if target.startswith("vecsearch.engine") and (target != "vecsearch.engine" or taken not in engine.__all__):
                reach.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {taken or target}")
    assert reach == []


def test_every_public_name_of_the_engine_loads():
    import vecsearch.engine as engine

    assert [name for name in engine.__all__ if getattr(engine, name, None) is None] == []


def kernels_of(path: Path) -> set[str]:
    """The kernels a template defines (functions decorated ``kernel``)."""
    def named(decorator):
        return getattr(decorator, "id", None) or getattr(getattr(decorator, "func", None), "id", None)
    return {node.name for node in parsed(path.read_text()).body if isinstance(node, ast.FunctionDef)
            and any(named(d) == "kernel" for d in node.decorator_list)}


def test_kernel_templates_sit_beside_the_modules_that_drive_them():
    """A template's kernels are called (``kernels.name(...)``) from its own room more than from any
    other; ``kernels/`` holds the blocks the templates share and the guards around a user's
    functions, no kernel of its own."""
    calls: dict[str, dict[str, int]] = {}
    for name, path in modules().items():
        if is_template(name):
            continue
        for node in ast.walk(parsed(path.read_text())):
            if isinstance(node, ast.Attribute):
                place = room(name) or name.rsplit(".", 1)[0]
                calls.setdefault(node.attr, {}).setdefault(place, 0)
                calls[node.attr][place] += 1
    misplaced = {}
    for name, path in modules().items():
        if not is_template(name):
            continue
        kernels = kernels_of(path)
        if name.startswith("vecsearch.kernels."):
            assert kernels == set(), f"{name} defines kernels: move it beside the engine module that calls them"
            continue
        assert room(name) and kernels, name
        callers: dict[str, int] = {}
        for kernel in kernels:
            for place, count in calls.get(kernel, {}).items():
                callers[place] = callers.get(place, 0) + count
        if not callers or max(callers.values()) > callers.get(room(name), 0):
            misplaced[name] = callers
    assert misplaced == {}


def test_templates_import_only_shared_kernels_and_templates():
    """A template is bound by code generation, never by the engine's machinery."""
    edges, _ = graph()
    wrong = {m: sorted(t for t in targets if t.startswith("vecsearch.engine") and not is_template(t))
             for m, targets in edges.items() if is_template(m)}
    assert {m: t for m, t in wrong.items() if t} == {}
