"""The notebooks run as tests (nbmake, see ``addopts`` in pyproject.toml); they are marked
``slow`` and ``notebook`` so that quick edits can skip them with ``-m "not slow"``."""

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
            item.add_marker(pytest.mark.slow)
