import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# The CLI announces long compiles on standard error; tests that compare it exactly would see the
# line whenever a cache is cold. tests/test_startup.py turns it on where it is the subject.
os.environ["VECSEARCH_ANNOUNCE_COMPILE"] = "0"
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def reference_goldens():
    """Results of the plain-Python references too slow to recompute in every run
    (``tests/data/make_goldens.py`` regenerates them)."""
    return json.loads((DATA / "reference_goldens.json").read_text())


@pytest.fixture(scope="session")
def sliding_golden():
    return {k: v for k, v in json.loads((DATA / "sliding_layers.json").read_text()).items() if not k.startswith("_")}


@pytest.fixture(params=[1, 2], ids=["serial", "parallel"])
def threads(request):
    """Run a test with one worker thread and with two."""
    return request.param
