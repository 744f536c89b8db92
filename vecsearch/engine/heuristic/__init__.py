"""Heuristic search: heuristics by name (``evaluation``), IDA*, A*, pattern databases, move-sequence
automata; their kernels beside them."""
