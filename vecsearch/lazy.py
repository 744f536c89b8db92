"""Public names loaded on first use, listed in a package's stub (Scientific Python's SPEC 1).

A package's ``__init__.pyi`` imports each of its public names from the module that defines it:
IDEs and type checkers read those imports for the package, and ``attach_stub`` reads the same
ones at run time, so each public name is written once. The package then imports nothing until a
name is asked for (``vecsearch`` loads neither numpy nor numba, ``vecsearch.engine`` none of its
rooms).
"""

import ast
import importlib
import os
import sys


def attach_stub(package: str, init_file: str):
    """``(__getattr__, __dir__, __all__)`` for the package ``package`` whose ``__init__.py`` is
    ``init_file``: its public names are the imports (``from MODULE import NAME as PUBLIC``) of
    the ``__init__.pyi`` beside it; the first ``__getattr__`` of a name imports its module and
    keeps the name in the package."""
    with open(os.path.splitext(init_file)[0] + ".pyi", encoding="utf-8") as stub:
        body = ast.parse(stub.read()).body
    public = {alias.asname or alias.name: (str(node.module), alias.name)
              for node in body if isinstance(node, ast.ImportFrom) for alias in node.names}
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str):
        if name not in public:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = public[name]
        value = getattr(importlib.import_module(module), attribute)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(public))

    return __getattr__, __dir__, sorted(public)
