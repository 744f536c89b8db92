"""What a ``vecsearch`` command's process sets up before numpy and numba load (``cli.command_line``).

A judge problem's whole search takes less time than importing numpy and numba, so what those
imports do that no command uses is cut here, where the command owns its process (a library user's
process is theirs):

- **One BLAS thread** unless ``OPENBLAS_NUM_THREADS`` says otherwise: no command does linear
  algebra, and numpy's OpenBLAS starts a thread per core that spins at every start-up (a one-line
  ``solve eight``: 0.38 s of CPU instead of 0.48 on 2 cores; more threads on more cores), which
  batches of many processes pay many times over. Dask workers the command starts inherit it.
- **numba without coverage.py**: numba imports ``coverage`` whenever it is installed (as it is
  wherever tests run), 50-70 ms of a 0.45 s ``import numba``, to report the lines of compiled
  code to a running coverage, which it does only under ``NUMBA_JIT_COVERAGE=1``. Unless that is
  set, or coverage is already running, numba's ``coverage_support`` module is imported as if
  coverage were not installed; any other import of ``coverage`` gets it as usual.
"""

import importlib.abc
import importlib.machinery
import os
import sys

_NUMBA_COVERAGE = "numba.misc.coverage_support"


def prepare_process() -> None:
    """Set up the process as the module says; call it before numpy or numba is imported."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    jit_coverage = os.environ.get("NUMBA_JIT_COVERAGE", "0") not in ("", "0")
    if not jit_coverage and "coverage" not in sys.modules and _NUMBA_COVERAGE not in sys.modules:
        sys.meta_path.insert(0, _NumbaWithoutCoverage())


class _NumbaWithoutCoverage(importlib.abc.MetaPathFinder):
    """Finds numba's ``coverage_support`` once, and runs it while ``coverage`` cannot be imported."""

    def find_spec(self, name, path, target=None):
        if name != _NUMBA_COVERAGE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        execute = loader.exec_module

        def exec_module(module):
            hidden = "coverage" not in sys.modules
            if hidden:
                sys.modules["coverage"] = None  # type: ignore[assignment]  # import coverage: ImportError
            try:
                execute(module)
            finally:
                if hidden and sys.modules.get("coverage", False) is None:
                    del sys.modules["coverage"]

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec
