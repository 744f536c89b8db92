"""The projections of a permutation puzzle that its pattern databases enumerate (``pruning``).

A projection is a ``patterns.Coarsening``; its coset space is a permutation puzzle of the orbits
it tells anything about (``coset_definition``; the others carry no information and are left out,
with the moves that change nothing else).

**Defaults** (``default_patterns``): the whole puzzle when its rank fits a quarter of the budget
(the database is then exact); else the orbits that some move changes, whole, grouped into
projections that fit half the budget (the other orbits identical, orientations ignored), the groups
after the first grown by further orbits while they fit (overlapping projections), and
each orbit too large for that cut into windows of its labels kept apart (the rest identical,
orientations counted if that fits, else ignored), as many as cover the labels, within what
the budget has left; or, through symmetries (``symmetric_lookups``), one window and images
of it that cover the labels, one database read several times.
"""

from __future__ import annotations

from vecsearch.errors import InvalidPuzzleInput
from vecsearch.puzzles.permutation.definition import Move, PermutationDefinition
from vecsearch.puzzles.permutation.layout import Layout
from vecsearch.puzzles.permutation.patterns import Coarsening

DEFAULT_TABLE_BYTES = 1 << 30  # the default budget of a heuristic's databases (a byte per rank)
MAX_LABELS = 63  # kinds of piece per orbit of a coset space (a bit mask of them marks ignored orientations)


def kept_orbits(coarsening: Coarsening) -> list[int]:
    """The orbits a projection tells anything about: some pieces apart, or some orientation
    counted (the others are left out of its coset space)."""
    return [j for j, (classes, ignored) in enumerate(zip(coarsening.classes, coarsening.ignored, strict=True))
            if len(set(classes)) > 1 or set(classes) - ignored]


def touched_moves(coarsening: Coarsening) -> frozenset[int]:
    """The moves (indices into the fine puzzle's move list) that move or twist a slot of an orbit
    the projection keeps: the others leave every state's projection as it is."""
    d = coarsening.fine.definition
    kept = {d.orbits[j].name for j in kept_orbits(coarsening)}
    return frozenset(i for i, move in enumerate(coarsening.fine.move_list)
                     if any(orbit in kept and (p != tuple(range(len(p))) or any(t))
                            for orbit, (p, t) in move.changes.items()))


def additive_groups(coarsenings: list[Coarsening]) -> list[list[int]]:
    """The indices of ``coarsenings`` in groups whose distances add up to an admissible bound:
    no move changes the projections of two members (the moves of any solution then split
    among them, each member's at least its distance). Each joins the first group it fits, in
    the order given; a member of no other group's is a group alone (its distance is a bound)."""
    groups: list[list[int]] = []
    touching: list[set[int]] = []
    for i, coarsening in enumerate(coarsenings):
        moves = touched_moves(coarsening)
        for group, touched in zip(groups, touching, strict=True):
            if not touched & moves:
                group.append(i)
                touched |= moves
                break
        else:
            groups.append([i])
            touching.append(set(moves))
    return groups


def coset_definition(coarsening: Coarsening) -> PermutationDefinition:
    """The coset space of ``coarsening`` as a definition of its ``kept_orbits`` alone."""
    full = coarsening.definition
    keep = kept_orbits(coarsening)
    if not keep:
        raise InvalidPuzzleInput(f"{coarsening.name}: the projection tells no pieces apart")
    names = {full.orbits[j].name for j in keep}
    moves = [Move(m.name, {o: c for o, c in m.changes.items() if o in names}) for m in full.moves]
    moves = [m for m in moves if any(p != tuple(range(len(p))) or any(t) for p, t in m.changes.values())]
    solved = {full.orbits[j].name: ([full.label_names[j][v] - 1 for v in pieces],
                                    [None if v in full.wild[j] else t for v, t in zip(pieces, twists, strict=True)])
              for j, (pieces, twists) in enumerate(full.solved) if j in keep}
    return PermutationDefinition(coarsening.name, [full.orbits[j] for j in keep], moves, solved)


def coarse_state(coarsening: Coarsening, state) -> tuple:
    """The coset space's Python state of a fine Python state."""
    projected = coarsening.project(state)
    return tuple(projected[j] for j in kept_orbits(coarsening))


def coarse_puzzle(coarsening: Coarsening):
    """The coset space of ``coarsening`` in the labels form (ranked)."""
    fine = coarsening.fine
    space = type(fine)(coset_definition(coarsening), fine.metric, name=coarsening.name,
                              representation="labels")
    if not space.has_rank or max(len(names) for names in space.definition.label_names) > MAX_LABELS:
        raise InvalidPuzzleInput(f"{coarsening.name}: a pattern database needs a coset space with a rank (orbits of"
                                 f" at most 64 slots) and at most {MAX_LABELS} kinds of piece per orbit; make more"
                                 " pieces identical")
    return space


def database_size(coarsening: Coarsening) -> int:
    """Entries (ranks) of ``coarsening``'s database."""
    definition = coset_definition(coarsening)
    return Layout(definition, definition.move_set(coarsening.fine.metric)).rank_size


def projection(puzzle, kept: dict) -> Coarsening:
    """The projection telling apart, in each orbit ``j`` of ``kept``, the labels ``kept[j][0]``
    (the rest of the orbit one class, its orientations counted if ``kept[j][1]``); every other
    orbit is one class without orientations."""
    d = puzzle.definition
    classes, ignored, parts = [], [], []
    for j, names in enumerate(d.label_names):
        if j not in kept:
            classes.append([0] * len(names))
            ignored.append({0})
            continue
        labels_kept, twists = sorted(kept[j][0]), kept[j][1]
        rest = len(labels_kept)
        classes.append([labels_kept.index(v) if v in labels_kept else rest for v in range(len(names))])
        wild = {labels_kept.index(v) for v in labels_kept if v in d.wild[j]}
        if rest < len(names) and (not twists or all(v in d.wild[j] for v in range(len(names)) if v not in labels_kept)):
            wild.add(rest)
        ignored.append(wild)
        part = d.orbits[j].name
        if rest < len(names):
            part += f" {{{','.join(str(d.label_names[j][v]) for v in labels_kept)}}}" + ("" if twists else " ?")
        parts.append(part)
    return Coarsening(puzzle, classes, ignored, f"{puzzle.name} {' + '.join(parts)}")


def moved_orbits(puzzle) -> list[int]:
    """The orbits that some move of ``puzzle`` changes."""
    return [j for j, o in enumerate(puzzle.definition.orbits)
            if any(o.name in m.changes and m.changes[o.name] != ((*range(o.size),), (0,) * o.size)
                   for m in puzzle.move_list)]


def is_exact(coarsening: Coarsening) -> bool:
    """Whether ``coarsening`` tells apart every piece and orientation its puzzle does in the
    orbits the moves change: its coset space is then the puzzle itself, and its database the
    puzzle's own distance table (IDA* over it descends straight to the goal)."""
    d = coarsening.fine.definition
    return all(len(set(coarsening.classes[j])) == len(d.label_names[j])
               and all(v in d.wild[j] for v, c in enumerate(coarsening.classes[j]) if c in coarsening.ignored[j])
               for j in moved_orbits(coarsening.fine))


def default_patterns(puzzle, budget: int = DEFAULT_TABLE_BYTES, symmetries=None) -> list[Coarsening]:
    """The default projections of ``puzzle`` within ``budget`` entries (see the module): whole
    orbits grouped while a group's database fits half the budget (the largest orbit first, each
    into the first group it fits; then the later groups grown by other orbits while all of them
    fit half the budget), then the orbits too large for that cut into windows of their
    labels, each given an equal share of what the groups left. With ``symmetries`` (``(group,
    elements)`` of ``symmetric_lookups.usable_symmetries``) an orbit that images of its first
    window cover is read through that window's database alone."""
    whole = Coarsening.identity(puzzle)
    if database_size(whole) <= budget // 4:  # a quarter: the whole space is slow to enumerate for its gain
        return [whole]
    d = puzzle.definition
    moved = moved_orbits(puzzle)
    every = {j: (range(len(d.label_names[j])), True) for j in moved}
    size = {j: database_size(projection(puzzle, {j: every[j]})) for j in moved}
    cap = budget // 2
    groups, rest = [], []
    for j in sorted(moved, key=size.get, reverse=True):
        if size[j] > cap:
            rest.append(j)
            continue
        for group in groups:
            grown = projection(puzzle, {i: every[i] for i in group + [j]})
            if database_size(grown) <= cap:
                group.append(j)
                break
        else:
            groups.append([j])
    _overlap(puzzle, groups, [j for j in sorted(moved, key=size.get, reverse=True) if size[j] <= cap], every, cap)
    chosen = [projection(puzzle, {i: every[i] for i in group}) for group in groups]
    left = budget - sum(map(database_size, chosen))
    for n, j in enumerate(sorted(rest, key=size.get)):
        windows, stored = _orbit_windows(puzzle, j, left // (len(rest) - n), symmetries)
        chosen += windows
        left -= stored
    if not chosen:
        raise InvalidPuzzleInput(f"{puzzle.name}: no projection fits {budget:,} entries; give patterns or a larger"
                                 " budget")
    return chosen


def _overlap(puzzle, groups: list[list[int]], orbits: list[int], every: dict, cap: int) -> None:
    """Grow each group but the first by the other ``orbits`` (the largest first) that keep the
    groups' databases within ``cap`` entries together. The projections then overlap: a group
    of small orbits alone bounds little (the pyraminx's 4 centre pieces: 324 entries, beside its
    tips and edges: 11 million; with the edges too: 3.7 million, and 130x fewer nodes)."""
    sizes = [database_size(projection(puzzle, {i: every[i] for i in group})) for group in groups]
    for g, group in enumerate(groups[1:], 1):
        for j in orbits:
            if j in group:
                continue
            grown = database_size(projection(puzzle, {i: every[i] for i in group + [j]}))
            if sum(sizes) - sizes[g] + grown <= cap:
                group.append(j)
                sizes[g] = grown


def _orbit_windows(puzzle, j: int, cap: int, symmetries=None) -> tuple[list[Coarsening], int]:
    """``(windows, entries)``: the windows of orbit ``j``'s labels (as many as cover them) whose
    databases fit ``cap`` entries together, and those entries: the largest windows that fit,
    orientations of the rest counted if that fits; with ``symmetries``, the first window and
    images of it that cover the orbit (one database) where they do. (Windows no larger than
    without symmetry: the 3x3x3's 7 edges, 511 M entries, would fit the default budget once, but
    read through 3 mirrors they cut the nodes of 10 scrambles of 13-14 moves by 12% and took 1.7x
    the time, 167 ms a solve against 99 ms for 6 edges: their 300 MB miss the caches; and they
    take 115 s to build.)"""
    names = list(range(len(puzzle.definition.label_names[j])))
    for k in range(len(names), 0, -1):
        starts = sorted({min(s, len(names) - k) for s in range(0, len(names), k)})
        for twists in (True, False):
            first = projection(puzzle, {j: (names[:k], twists)})
            size = database_size(first)
            if size * len(starts) > cap:
                continue
            covering = _covering_images(first, j, k, symmetries) if symmetries else None
            if covering is not None:
                return covering, size
            return [projection(puzzle, {j: (names[s:s + k], twists)}) for s in starts], size * len(starts)
    return [], 0


def _covering_images(window: Coarsening, j: int, k: int, symmetries) -> list[Coarsening] | None:
    """``window`` (keeping its orbit ``j``'s labels of classes below ``k``) and, chosen greedily
    (the most labels not yet kept first), images of it under ``symmetries`` until every label of
    the orbit is kept by one of them; None if they never are."""
    from vecsearch.puzzles.permutation.symmetric_lookups import image

    group, elements = symmetries
    images = [(seen, {v for v, c in enumerate(seen.classes[j]) if c < k})
              for seen in (image(window, group, e) for e in elements if e) if seen is not None]
    chosen, kept = [window], {v for v, c in enumerate(window.classes[j]) if c < k}
    while len(kept) < len(window.classes[j]):
        best, labels = max(images, key=lambda found: len(found[1] - kept), default=(None, set()))
        if not labels - kept:
            return None
        chosen.append(best)
        kept |= labels
    return chosen
