"""A plain-Python reference for enumeration modulo symmetry: symmetries as Python tuples (one
``(permutation, twist)`` per orbit, and a sign: -1 for a mirror) composed as written out here, a
breadth-first search over Python states, and Burnside's lemma per layer (classes = the average
over the group of the states each symmetry fixes)."""

import re

from vecsearch.puzzles.permutation import symmetry


def then(definition, a, b):
    """``a`` then ``b``: slot i gets what ``a`` put in slot ``b.p[i]``; a mirror (sign -1)
    turns orientations backwards before adding its own twist."""
    (oa, sa), (ob, sb) = a, b
    orbits = tuple((tuple(pa[q] for q in pb),
                    tuple((sb * ta[q] + t) % o.orientations for q, t in zip(pb, tb, strict=True)))
                   for o, (pa, ta), (pb, tb) in zip(definition.orbits, oa, ob, strict=True))
    return orbits, sa * sb


def inverse(definition, a):
    identity = (definition.identity(), 1)
    powers = [a]
    while powers[-1] != identity:
        powers.append(then(definition, powers[-1], a))
    return powers[-2] if len(powers) > 1 else identity


def element(definition, move, sign=1):
    changes = zip(definition.orbits, definition.identity(), strict=True)
    return tuple(move.changes.get(o.name, ident) for o, ident in changes), sign


def reference_group(definition, generators):
    group = {(definition.identity(), 1)}
    todo = list(group)
    while todo:
        a = todo.pop()
        for g in generators:
            b = then(definition, a, g)
            if b not in group:
                group.add(b)
                todo.append(b)
    return group


def generators(puzzle, spec):
    rotations, mirrors = symmetry.parse_spec(spec)
    definition = puzzle.definition
    out = [element(definition, r) for r in definition.rotations] if rotations else []
    for text in mirrors:
        found = symmetry.mirror(definition, text)
        m = (found.changes, found.sign)
        image = {}
        for cycle in re.findall(r"\(([^()]*)\)", text):
            names = cycle.split()
            image.update(zip(names, names[1:] + names[:1], strict=True))
        for move in definition.moves:  # the mirror's defining property, checked here
            target = inverse(definition, element(definition, definition._named(image.get(move.name, move.name))))
            assert then(definition, inverse(definition, m), then(definition, element(definition, move), m)) == target
        assert found.sign == -1
        out.append(m)
    return out


def reference_layers(puzzle):
    """The states of each depth from the solved state, by a plain breadth-first search (once per
    set of rules: ``_once``)."""
    return [list(layer) for layer in _once(puzzle, "layers", lambda: _search(puzzle))]


def _search(puzzle):
    definition = puzzle.definition
    seen = {definition.solved}
    layers = [[definition.solved]]
    while layers[-1]:
        layers.append([])
        for state in layers[-2]:
            for move in puzzle.move_list:
                child = definition.apply(state, move)
                if child not in seen:
                    seen.add(child)
                    layers[-1].append(child)
    return layers[:-1]


_COMPUTED: dict = {}


def _once(puzzle, what, compute):
    """``compute()`` once per process for the same rules: the tests load the same definitions
    again and again, and these plain searches are the slow part of their files."""
    d = puzzle.definition
    rules = (what, repr(d.orbits), repr(d.solved), tuple(repr(move.changes) for move in puzzle.move_list),
             repr(d.rotations))
    if rules not in _COMPUTED:
        _COMPUTED[rules] = compute()
    return _COMPUTED[rules]


def burnside(puzzle, spec):
    """Classes per layer: the average over the group of the states of the layer each fixes (once
    per set of rules and symmetries: ``_once``)."""
    counts, group = _once(puzzle, ("burnside", spec), lambda: _burnside(puzzle, spec))
    return list(counts), set(group)


def _burnside(puzzle, spec):
    definition = puzzle.definition
    group = reference_group(definition, generators(puzzle, spec))
    counts = []
    for layer in reference_layers(puzzle):
        fixed = 0
        for g in group:
            back = inverse(definition, g)
            for state in layer:
                s = (state, 1)
                fixed += then(definition, then(definition, back, s), g) == s
        assert fixed % len(group) == 0
        counts.append(fixed // len(group))
    return counts, group
