"""Admissible heuristics of the sliding puzzles (state layout: ``board``).

- ``manhattan``: the sum over tiles of their row and column distances to their home cells.
- ``linear-conflict``: Manhattan plus 2 per tile that must leave its home row (or column) to let
  others in that line pass: in each line, the tiles at home in it minus the longest sequence of
  them already in home order.
- ``pdb``: additive pattern databases (built by ``patterns``, looked up by ``lookups``, whole
  or updated from a parent's lookups): the tiles are split into disjoint patterns; the bound is
  the Manhattan distance plus twice the sum of the patterns' stored excess. On the 4x4 (blank
  home in a corner) ``pdb78`` takes the 7-8 partition (two rows of the board and two rows less
  the blank; 288 MB, built once in 2-4 minutes) and ``pdb663`` the 6-6-3 one (32 MB, built in
  seconds); ``pdb`` is 7-8 when its databases are on disk, else 6-6-3. Elsewhere ``pdb`` cuts
  the tiles into near-equal patterns of at most 6. On a square board whose goal has the blank
  on the main diagonal, also the same lookup of the transposed state (mirrored about that diagonal, tiles
  renamed so the goal maps to itself), and the larger of the two.

Every heuristic is made for one goal state; its tables hold the goal's data. Pattern databases
are looked up on the board turned by the symmetry that brings the goal's patterns to a canonical
position, so goals that are mirror images of each other (vecsearch's goal and Korf's) share
their database files.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

import numpy as np

from vecsearch._numba import state_function
from vecsearch.engine import cached_array, database_path
from vecsearch.errors import InvalidPuzzleInput, VecsearchError
from vecsearch.puzzles.sliding.lookups import (
    CELLS,
    COLS,
    MIRRORED,
    NO_PATTERN,
    PATTERN_OF,
    ROWS,
    TURN,
    UNMIRROR_TILES,
    PatternDatabaseTables,
    additive_pdb,
    additive_pdb_update,
)
from vecsearch.puzzles.sliding.patterns import MAX_PATTERN, database_name, partial_weights, pattern_database

LAYOUTS_4X4 = {  # with the blank home at the bottom right
    "6-6-3": ("AABB", "AABB", "AABB", "CCC."),
    "7-8": ("BBBB", "BBBB", "AAAA", "AAA."),  # Felner, Korf and Hanan (JAIR 2004)
}
NAMED_LAYOUTS = {"pdb663": "6-6-3", "pdb78": "7-8"}  # heuristic names that choose a layout


class LineTables(NamedTuple):
    """The goal's data for ``manhattan`` and ``linear-conflict``: ``md[tile, cell]`` (0 for the
    blank), ``home[tile]`` and ``size`` ``[cells, rows, cols, mirrored]`` (indexed by
    ``CELLS`` .. ``MIRRORED``; mirrored is 0 here)."""

    md: np.ndarray
    home: np.ndarray
    size: np.ndarray


@state_function
def manhattan(state, tables):
    """(Cells are read by shifting one nibble at a time: a shift by ``4 * c`` lets LLVM vectorize
    the loop with gathers, measured 6x slower.)"""
    md = tables.md
    cells = tables.size[CELLS]
    h = np.int64(0)
    rest = state
    for c in range(cells):
        h += md[rest & 15, c]
        rest >>= 4
    return h


@state_function
def longest_increasing(sequence, n):
    """Length of the longest increasing subsequence of ``n`` nibbles."""
    ends = np.int64(0)
    longest = np.int64(0)
    for i in range(n):
        v = (sequence >> (4 * i)) & 15
        here = np.int64(1)
        for j in range(i):
            if (sequence >> (4 * j)) & 15 < v:
                here = max(here, ((ends >> (4 * j)) & 15) + 1)
        ends |= here << (4 * i)
        longest = max(longest, here)
    return longest


@state_function
def line_conflicts(state, home, first, step, count, along, across, cols):
    """Tiles of one line (cells ``first + i*step``) that must leave it: those at home in the line
    (``home // cols`` or ``home % cols`` equal to the line, chosen by ``across``) minus the
    longest run already in home order."""
    sequence = np.int64(0)
    n = 0
    for i in range(count):
        tile = (state >> (4 * (first + i * step))) & 15
        if tile != 0:
            h = home[tile]
            line = h // cols if across == 0 else h % cols
            if line == along:
                position = h % cols if across == 0 else h // cols
                sequence |= position << (4 * n)
                n += 1
    return n - longest_increasing(sequence, n)


@state_function
def manhattan_linear_conflicts(state, tables):
    home = tables.home
    rows = tables.size[ROWS]
    cols = tables.size[COLS]
    extra = np.int64(0)
    for r in range(rows):
        extra += line_conflicts(state, home, r * cols, 1, cols, r, 0, cols)
    for c in range(cols):
        extra += line_conflicts(state, home, c, cols, rows, c, 1, cols)
    return manhattan(state, tables) + 2 * extra


FUNCTIONS = {"manhattan": manhattan, "linear-conflict": manhattan_linear_conflicts}


def goal_tiles(puzzle, goals) -> list[int]:
    if len(goals) != 1:
        raise InvalidPuzzleInput(f"{puzzle.name}: its heuristics bound the distance to one goal state,"
                                 f" not {len(goals)}")
    return puzzle.tiles(goals[0])


def base_tables(puzzle, tiles) -> LineTables:
    """The ``LineTables`` of the goal ``tiles``."""
    cols = puzzle.cols
    home = np.zeros(16, dtype=np.int64)
    for cell, tile in enumerate(tiles):
        home[tile] = cell
    md = np.zeros((16, puzzle.cells), dtype=np.int64)
    for tile in range(1, puzzle.cells):
        for cell in range(puzzle.cells):
            md[tile, cell] = abs(cell // cols - home[tile] // cols) + abs(cell % cols - home[tile] % cols)
    return LineTables(md, home, np.array([puzzle.cells, puzzle.rows, cols, 0], dtype=np.int64))


def layout_partition(puzzle, tiles, layout: str) -> list[list[int]] | None:
    """The blocks of ``LAYOUTS_4X4[layout]`` around the blank's home, or None when the board
    is not the 4x4 or the blank's home is not a corner."""
    rows, cols = puzzle.rows, puzzle.cols
    blank = tiles.index(0)
    corners = {0: (True, True), cols - 1: (True, False), puzzle.cells - cols: (False, True),
               puzzle.cells - 1: (False, False)}
    if (rows, cols) != (4, 4) or blank not in corners:
        return None
    flip_rows, flip_cols = corners[blank]
    groups: dict[str, list[int]] = {}
    for cell, tile in enumerate(tiles):
        r, c = divmod(cell, cols)
        letter = LAYOUTS_4X4[layout][rows - 1 - r if flip_rows else r][cols - 1 - c if flip_cols else c]
        if tile:
            groups.setdefault(letter, []).append(tile)
    return [groups[letter] for letter in sorted(groups)]


def default_partition(puzzle, tiles, directory=None) -> list[list[int]]:
    """On the 4x4 with the blank's home in a corner: 7-8 if its databases are in ``directory``,
    else 6-6-3; otherwise the tiles in row-major order of their home cells, cut into near-equal
    patterns of <= 6."""
    big = layout_partition(puzzle, tiles, "7-8")
    if big is not None:
        _, turned, canonical = canonical_patterns(puzzle, tiles, big)
        names = [partition_name(puzzle, turned, canonical)], [name for name, _, _ in canonical]
        built = any(all(database_path(name, directory).exists() for name in group) for group in names)
        return big if built else layout_partition(puzzle, tiles, "6-6-3")
    ordered = [t for t in tiles if t]
    count = -(-len(ordered) // 6)
    cuts = [round(i * len(ordered) / count) for i in range(count + 1)]
    return [ordered[a:b] for a, b in pairwise(cuts)]


def mirror_maps(puzzle, tiles):
    """Cell and tile maps of the reflection about the main diagonal that fixes the goal, or None
    when there is none (a board that is not square, or a blank home off the diagonal)."""
    n = puzzle.rows
    blank = tiles.index(0)
    if puzzle.rows != puzzle.cols or blank // n != blank % n:
        return None
    sigma = np.array([(c % n) * n + c // n for c in range(puzzle.cells)], dtype=np.int64)
    phi = np.zeros(16, dtype=np.int64)
    home = {t: c for c, t in enumerate(tiles)}
    for tile in range(1, puzzle.cells):
        phi[tile] = tiles[sigma[home[tile]]]
    cells = np.zeros(16, dtype=np.int64)
    cells[:puzzle.cells] = sigma
    return np.stack([cells, phi])


def board_symmetries(rows: int, cols: int) -> list[np.ndarray]:
    """Cell maps of the board's symmetries (4, or 8 on a square board)."""
    maps = []
    for transpose in (False, True) if rows == cols else (False,):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                image = []
                for cell in range(rows * cols):
                    r, c = divmod(cell, cols)
                    r, c = (rows - 1 - r if flip_rows else r), (cols - 1 - c if flip_cols else c)
                    image.append(c * cols + r if transpose else r * cols + c)
                maps.append(np.array(image, dtype=np.int64))
    return maps


def canonical_symmetry(puzzle, tiles, partition) -> np.ndarray:
    """The board symmetry that puts the blank's home and the patterns' home cells first in order."""
    home = {t: c for c, t in enumerate(tiles)}

    def key(tau):
        return tau[home[0]], sorted(tuple(sorted(int(tau[home[t]]) for t in p)) for p in partition)

    return min(board_symmetries(puzzle.rows, puzzle.cols), key=key)


def canonical_patterns(puzzle, tiles, partition):
    """The goal ``tiles`` turned by ``canonical_symmetry``: the symmetry, the turned goal, and per
    pattern (its tiles in order of their turned home cells) its database's name and homes."""
    tau = canonical_symmetry(puzzle, tiles, partition)
    turned = [0] * puzzle.cells
    for cell, tile in enumerate(tiles):
        turned[tau[cell]] = tile
    home = {t: c for c, t in enumerate(turned)}
    patterns = []
    for pattern in partition:
        pattern = sorted(pattern, key=lambda t: home[t])
        homes = [home[t] for t in pattern]
        patterns.append((database_name(puzzle.rows, puzzle.cols, homes, home[0]), homes, pattern))
    return tau, turned, patterns


def partition_name(puzzle, turned, canonical) -> str:
    """The name of the file that holds the databases of a partition (``canonical_patterns``)."""
    homes = "+".join(".".join(map(str, homes)) for _, homes, _ in canonical)
    return f"{puzzle.name}-blank-{turned.index(0)}-partition-{homes}"


def check_partition(puzzle, partition) -> list[list[int]]:
    partition = [list(map(int, p)) for p in partition]
    flat = [t for p in partition for t in p]
    if sorted(flat) != sorted(set(flat)) or not set(flat) <= set(range(1, puzzle.cells)) or not flat:
        raise InvalidPuzzleInput(f"{puzzle.name}: a partition is disjoint lists of tiles 1..{puzzle.cells - 1},"
                                 f" got {partition}")
    if max(map(len, partition)) > MAX_PATTERN:
        raise InvalidPuzzleInput(f"{puzzle.name}: patterns of at most {MAX_PATTERN} tiles, got {partition}")
    return partition


def pdb_tables(puzzle, tiles, partition=None, reflect=True, directory=None, progress=False):
    """The tables of ``additive_pdb`` for the goal ``tiles``, and facts about its databases
    (built if absent, with a progress bar if ``progress``)."""
    partition = default_partition(puzzle, tiles, directory) if partition is None else check_partition(puzzle, partition)
    md, _, params = base_tables(puzzle, tiles)  # tiles in no pattern count their Manhattan distance only
    tau, turned, canonical = canonical_patterns(puzzle, tiles, partition)
    home = np.zeros(16, dtype=np.int64)
    for cell, tile in enumerate(turned):
        home[tile] = cell
    partition = [pattern for _, _, pattern in canonical]
    patterns = np.zeros((len(partition), MAX_PATTERN), dtype=np.int64)
    sizes = np.array([len(p) for p in partition], dtype=np.int64)
    weights = np.zeros((len(partition), MAX_PATTERN), dtype=np.int64)
    offsets = np.zeros(len(partition), dtype=np.int64)
    built, loads = [], []
    entries = 0
    for i, (name, homes, pattern) in enumerate(canonical):
        patterns[i, :len(pattern)] = pattern
        weights[i, :len(pattern)] = (partial_weights(puzzle.cells, len(pattern) + 1)[:-1]
                                     // (puzzle.cells - len(pattern)))
        size = (int(weights[i, 0]) * puzzle.cells + 1) // 2
        offsets[i] = entries
        entries += 2 * size  # each database starts on a byte boundary
        loads.append(lambda name=name, homes=homes, size=size: _pattern(puzzle, name, homes, int(home[0]), size,
                                                                        directory, progress))

    def combine():  # each pattern's database built or loaded, then all in one file
        parts = [load() for load in loads]
        built.append(any(part[2] for part in parts))
        facts = {name: part[1] for (name, _, _), part in zip(canonical, parts, strict=True)}
        return np.concatenate([part[0] for part in parts]), facts

    name = partition_name(puzzle, turned, canonical)
    packed, facts, seconds, _ = cached_array(name, combine, directory)
    if len(packed) != entries // 2:
        raise VecsearchError(f"pattern database {name} has {len(packed)} bytes, not the size of its patterns:"
                             " delete it")
    packed.flags.writeable = False  # as when memory-mapped: one type for the compiled kernels
    mirror = mirror_maps(puzzle, turned) if reflect else None
    params[MIRRORED] = mirror is not None
    maps = np.zeros((5, 16), dtype=np.int64)
    if mirror is not None:
        maps[:2] = mirror
        maps[UNMIRROR_TILES, mirror[1, 1:puzzle.cells]] = np.arange(1, puzzle.cells)
    maps[TURN, :puzzle.cells] = tau
    maps[PATTERN_OF] = NO_PATTERN
    for i, pattern in enumerate(partition):
        maps[PATTERN_OF, pattern] = i
    tables = PatternDatabaseTables(md, home, params, patterns, sizes, weights, offsets, packed, maps)
    sizes_text = "-".join(str(len(p)) for p in partition)
    details = {"partition": partition, "reflected": mirror is not None, "databases": facts, "built": any(built),
               "bytes": int(packed.nbytes)}
    description = f"additive pattern databases {sizes_text}" + (" + reflected lookup" if mirror is not None else "")
    return tables, description, seconds, details


def _pattern(puzzle, name, homes, blank_home, size, directory, progress):
    """One pattern's database (``size`` bytes), its facts, and whether it was built."""
    data, fact, _, built = pattern_database(puzzle.rows, puzzle.cols, homes, blank_home, directory=directory,
                                            progress=progress)
    if len(data) != size:
        raise VecsearchError(f"pattern database {name} has {len(data)} bytes, not the size of its pattern: delete it")
    return data, fact, built


def make_heuristic(puzzle, goals, name, *, partition=None, reflect=True, directory=None, progress=False):
    """The sliding heuristic ``name`` towards the single goal state in ``goals``."""
    from vecsearch.heuristics import Heuristic

    tiles = goal_tiles(puzzle, goals)
    if name in FUNCTIONS:
        if partition is not None or directory is not None:
            raise TypeError(f"heuristic {name!r} takes no partition or directory")
        return Heuristic(puzzle, name, FUNCTIONS[name], base_tables(puzzle, tiles), goals, name.replace("-", " "))
    if name in NAMED_LAYOUTS:
        if partition is not None:
            raise TypeError(f"heuristic {name!r} is a partition; give partition= to 'pdb' instead")
        partition = layout_partition(puzzle, tiles, NAMED_LAYOUTS[name])
        if partition is None:
            raise InvalidPuzzleInput(f"{puzzle.name}: heuristic {name!r} needs the 4x4 with the blank's home in"
                                     " a corner")
    tables, description, seconds, details = pdb_tables(puzzle, tiles, partition, reflect, directory, progress)
    return Heuristic(puzzle, name, additive_pdb, tables, goals, description, seconds, details, additive_pdb_update)
