"""Distance tables (``distance``), many pairs in one kernel call (``pairs``), distances between sets
(``between``); their kernels beside them."""
