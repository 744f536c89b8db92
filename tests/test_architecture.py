"""The package's shape: an acyclic import graph, no private names across modules, small modules.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` of the
package, at module level and inside functions (a function-level import is still a dependency,
only a later one). See ARCHITECTURE.md for the layers these tests keep.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "vecsearch"
MAX_LINES = 400  # lines of code (docstrings, comments and blank lines aside)


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
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == "vecsearch"]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            if source.split(".")[0] != "vecsearch":
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.append((submodule, None, node.lineno) if submodule in known else (source, alias.name, node.lineno))
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
    module.write_text("def f():\n    from vecsearch.engine.search import _hidden\n")
    assert imports("vecsearch.m", module, {}) == [("vecsearch.engine.search", "_hidden", 2)]


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
    for node in ast.walk(ast.parse(source)):
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


@pytest.mark.parametrize("name", sorted(modules()))
def test_modules_stay_small(name):
    lines = code_lines(modules()[name].read_text())
    assert lines <= MAX_LINES, f"{name} has {lines} lines of code; split it by what its parts do"
