"""Layered searches: ``bfs`` and ``bidirectional`` (``search``), sides growing layers (``sides``), the
enumeration of a whole space, planned and checkpointed (``enumeration``); their kernels beside them."""
