"""Where vecsearch keeps what it makes once per machine: ``$VECSEARCH_CACHE_DIR``, else
``$XDG_CACHE_HOME/vecsearch`` (default ``~/.cache/vecsearch``).

In it: the generated kernel modules and numba's cache of them, numba's runtime functions
(``numba-runtime-*.pickle``), pattern databases (``pdb/``), whole distance tables (``tables/``)
and the marks of user puzzles already probed (``probed/``). Removing it costs only the time to
make them again.
"""

import os
from pathlib import Path


def cache_dir() -> Path:
    """The folder (not made here: its users make it when they first write to it)."""
    configured = os.environ.get("VECSEARCH_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "vecsearch"
