"""What the tests of a dask cluster share: waiting for a killed worker's nanny to start it again."""

import time

from vecsearch.engine.runtime.cluster import cluster_workers

RESTART_SECONDS = 180  # a killed worker's nanny starts it again within this, even on a machine busy with other tests


def wait_for_workers(client, count: int = 2) -> None:
    """Wait until the scheduler has ``count`` running workers (a killed one restarted by its
    nanny), asking the scheduler itself every tenth of a second; fail after ``RESTART_SECONDS``."""
    deadline = time.monotonic() + RESTART_SECONDS
    while sum(info.get("status") == "running" for info in cluster_workers(client).values()) < count:
        assert time.monotonic() < deadline, f"fewer than {count} workers running after {RESTART_SECONDS} s"
        time.sleep(0.1)
