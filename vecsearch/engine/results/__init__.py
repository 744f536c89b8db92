"""What searches return: per-layer profiles, ``SearchResult``, ``Solution`` and the paths rebuilt from
stored layers, ``ManySolutions``, ``ClassEnumeration`` (enumeration modulo symmetry)."""
