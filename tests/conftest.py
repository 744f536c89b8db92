import gc
import json
import os
import sys
from pathlib import Path

import pytest
from clusters import RESTART_SECONDS, wait_for_workers

from vecsearch._numba_patches import COMPILE_GC_THRESHOLDS

sys.path.insert(0, str(Path(__file__).parent))
# The CLI announces long compiles on standard error; tests that compare it exactly would see the
# line whenever a cache is cold. tests/test_startup.py turns it on where it is the subject.
os.environ["VECSEARCH_ANNOUNCE_COMPILE"] = "0"
DATA = Path(__file__).parent / "data"
# The plain-Python references and the compiler make millions of objects: with Python's default thresholds
# (700, 10, 10) the collector walked them over and over (the whole suite, empty caches: 596 -> 543 CPU seconds);
# the tests take those numba's compiles take
gc.set_threshold(*COMPILE_GC_THRESHOLDS)
MAX_WORKERS = 4  # -n auto (pyproject.toml): beyond a few, workers mostly compile the same kernels twice


# The longest test files, first: each worker starts on its share of the tests in collection order and
# takes tests from the others' when it runs out (--dist worksteal), so a long test started last
# would keep one worker busy while the others stand idle.
LONGEST_FIRST = ("test_docs.py", "test_heuristic.py", "test_pruning.py", "test_guards.py", "test_cli.py")


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core, at most ``MAX_WORKERS``."""
    return min(MAX_WORKERS, os.cpu_count() or 1)


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file keeps its order


@pytest.fixture(scope="session")
def reference_goldens():
    """Results of the plain-Python references too slow to recompute in every run
    (``tests/data/make_goldens.py`` regenerates them)."""
    return json.loads((DATA / "reference_goldens.json").read_text())


@pytest.fixture(scope="session")
def sliding_golden():
    return {k: v for k, v in json.loads((DATA / "sliding_layers.json").read_text()).items() if not k.startswith("_")}


@pytest.fixture(scope="session")
def local_cluster(tmp_path_factory):
    """A dask LocalCluster of two single-threaded worker processes, shared by the tests that need
    one (each start costs its processes' imports and kernel loads). Each worker has a directory of
    its own under a local scratch directory (not a shared /tmp/dask-scratch-space, nor a network
    one); work stealing is off, so that a chunk runs where it was sent (a test counts where tables
    are built). A test that kills a worker waits for the nanny to restart it; the cluster waits as
    long before it gives up on the worker and closes its nanny (dask's default, 15 s, passed
    twice in full runs on a busy machine while the worker restarted)."""
    import dask
    import distributed

    scratch = str(tmp_path_factory.mktemp("dask"))
    with dask.config.set({"temporary-directory": scratch, "distributed.scheduler.work-stealing": False,
                          "distributed.deploy.lost-worker-timeout": f"{RESTART_SECONDS}s"}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                     local_directory=scratch) as cluster:
        yield cluster


@pytest.fixture
def cluster_client(local_cluster):
    """A client of the shared cluster, its two workers up."""
    import distributed

    with distributed.Client(local_cluster) as client:
        wait_for_workers(client)
        yield client


@pytest.fixture(params=[1, 2], ids=["serial", "parallel"])
def threads(request):
    """Run a test with one worker thread and with two."""
    return request.param
