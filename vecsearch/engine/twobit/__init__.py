"""Two bits per rank: a whole space (``search``), and the partitioned search over segments on threads or
dask (``segments``, ``segment_tasks``, ``owned_tables``); their kernels beside them."""
