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


def burnside(puzzle, spec):
    """Classes per layer: the average over the group of the states of the layer each fixes."""
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
