"""Many instances: the methods (``methods``), ``solve``, ``solve_many``, chunks on dask, ``warm_up``."""
