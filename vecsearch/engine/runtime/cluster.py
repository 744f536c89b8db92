"""What the engine asks a ``dask.distributed`` cluster's scheduler besides running its tasks, and
how it survives a worker lost under them."""

import contextlib
import threading
from concurrent.futures import Future

TRIES = 4  # work is made again after a lost worker, at most this many times in all
WORKER_WAIT = 120.0  # seconds a lost worker has to come back (its nanny restarts it) before a search gives up on it


@contextlib.contextmanager
def local_cluster(workers: int):
    """A client of a ``LocalCluster`` of ``workers`` single-threaded worker processes (the command
    line's ``--workers``), closed after.

    A ``LocalCluster`` closes the nanny of a lost worker that has not registered again within
    dask's ``distributed.deploy.lost-worker-timeout``, 15 s by default: on a busy machine a
    killed worker took longer to restart, and the search went on with a worker fewer (or, with
    owner-local tables, stopped, its owner gone). Here the cluster waits ``WORKER_WAIT``, as
    long as a search waits for an owner."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"distributed.deploy.lost-worker-timeout": f"{WORKER_WAIT}s"}), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        yield client


class Broadcast:
    """A value sent to every worker of ``client`` once (``scatter(broadcast=True)``), for tasks to
    take as an argument, and sent again when the cluster has lost every copy (the workers holding
    it died): tasks that take a lost copy are cancelled for lost dependencies, however often they
    are made again."""

    def __init__(self, client, value):
        self.client = client
        self.value = value
        self._future = self._send()

    def _send(self):
        # a worker being restarted has as long as a search waits for it
        return self.client.scatter(self.value, broadcast=True, hash=False, timeout=WORKER_WAIT)

    @property
    def future(self):
        """The value's future on the cluster, sent again first if every copy was lost."""
        if self._future.status != "finished":
            self._future = self._send()
        return self._future


def cluster_workers(client) -> dict[str, dict]:
    """``{address: info}`` of the workers of ``client``'s cluster, asked of the scheduler now.

    Not ``client.scheduler_info()["workers"]``: that refreshes the client's cached identity and
    then returns it, and the client's periodic refresh, which leaves the workers out, may replace
    it in between. The workers then look gone now and then: a partitioned search found none in
    about 1 run in 6 of the cluster tests, and stopped with a division by zero."""
    return client.sync(client.scheduler.identity, n_workers=-1)["workers"]


def in_background(call, *args) -> Future:
    """``call(*args)`` on a daemon thread of its own (one left waiting keeps no process from
    exiting); its result or exception in the future returned."""
    outcome: Future = Future()

    def run() -> None:
        try:
            outcome.set_result(call(*args))
        except BaseException as error:  # handed to the caller, whatever it is
            outcome.set_exception(error)

    threading.Thread(target=run, name="vecsearch-background", daemon=True).start()
    return outcome


class WorkerLost(Exception):
    """A worker the work needs (an owner of segment tables) left the cluster while its tasks were
    pending."""


def worker_lost_errors() -> tuple[type[BaseException], ...]:
    """The exceptions by which dask says a worker died under the work: a killed worker, a
    cancelled or lost future, a closed connection (an ``OSError``)."""
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    return WorkerLost, KilledWorker, FutureCancelledError, CommClosedError, OSError


def again_if_a_worker_is_lost(make, tries: int = TRIES):
    """``make()``, made again (up to ``tries`` times in all) when a worker dies under it
    (``worker_lost_errors``), for work whose rerun has the same effect (a layer's tasks only read
    the previous table and write their own segment's next one)."""
    lost = worker_lost_errors()
    for attempt in range(tries):
        try:
            return make()
        except lost:
            if attempt == tries - 1:
                raise
