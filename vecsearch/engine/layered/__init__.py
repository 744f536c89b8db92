"""Layered searches: ``bfs`` and ``bidirectional`` (``search``), sides growing layers (``sides``), the
enumeration of a whole space, planned and checkpointed (``enumeration``), and modulo symmetry
(``classes``: by least conjugates, or ``fibres``: through a quotient by the rotations); their kernels
beside them."""
