"""What the engine asks a ``dask.distributed`` cluster's scheduler, besides running its tasks."""


def cluster_workers(client) -> dict[str, dict]:
    """``{address: info}`` of the workers of ``client``'s cluster, asked of the scheduler now.

    Not ``client.scheduler_info()["workers"]``: that refreshes the client's cached identity and
    then returns it, and the client's periodic refresh, which leaves the workers out, may replace
    it in between. The workers then look gone now and then: a partitioned search found none in
    about 1 run in 6 of the cluster tests, and stopped with a division by zero."""
    return client.sync(client.scheduler.identity, n_workers=-1)["workers"]
