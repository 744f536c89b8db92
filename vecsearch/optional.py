"""Optional dependencies, imported lazily, with an error naming the extra that provides them.

The core needs only numpy and numba. Tables as DataFrames and plots (``pip install
'vecsearch[plot]'``: pandas, matplotlib) and progress bars (``'vecsearch[progress]'``: tqdm) are
imported when first used.
"""

from __future__ import annotations

import importlib

EXTRAS = {"pandas": "plot", "matplotlib": "plot", "matplotlib.pyplot": "plot", "tqdm.auto": "progress",
          "anywidget": "notebooks", "traitlets": "notebooks", "networkx": "graph"}


class MissingDependency(ImportError):
    """An optional dependency that is not installed; the message names the extra."""


def require(module: str, purpose: str):
    """``import module``, or an ``ImportError`` saying what needs it and which extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        extra = EXTRAS.get(module, module.split(".")[0])
        raise MissingDependency(f"{purpose} needs {module.split('.')[0]}, which is not installed:"
                          f" pip install 'vecsearch[{extra}]'") from error
