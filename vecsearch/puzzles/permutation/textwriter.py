"""The text form of a permutation puzzle (``textformat`` reads it back)."""

from __future__ import annotations

from vecsearch.errors import PuzzleDefinitionError
from vecsearch.puzzles.permutation.definition import PermutationDefinition


def format_definition(definition: PermutationDefinition) -> str:
    """The text form of ``definition`` (``parse_definition`` reads it back)."""
    out = [f"Name {definition.name}", ""]
    out += [f"Set {o.name} {o.size} {o.orientations}" for o in definition.orbits]
    if definition.solved != definition.identity():
        out += ["", "Solved"]
        for j, (orbit, (pieces, twists)) in enumerate(zip(definition.orbits, definition.solved, strict=True)):
            out += [orbit.name, _line(definition.label_name(j, p) for p in pieces),
                    _line("?" if p in definition.wild[j] else t for p, t in zip(pieces, twists, strict=True))]
        out.append("End")
    for move in definition.moves + definition.rotations:
        out += ["", f"Move {move.name}"]
        for orbit in definition.orbits:
            marked = move.marked.get(orbit.name, ())
            if orbit.name in move.changes or marked:
                permutation, twist = move.changes.get(orbit.name, (tuple(range(orbit.size)), (0,) * orbit.size))
                leaving = [0] * orbit.size  # indexed by the slot a piece leaves, marks included
                for i, p in enumerate(permutation):
                    leaving[p] = twist[i] + (i in marked)
                out += [orbit.name, _line(p + 1 for p in permutation)]
                if any(leaving):
                    out.append(_line(leaving))
        out.append("End")
    named = {m.name: m for m in definition.move_set("htm")} | definition.named_moves()
    for alias in definition.aliases:
        same = [name for name, m in named.items() if m.changes == alias.changes and name != alias.name]
        if not same:
            raise PuzzleDefinitionError(f"{definition.name}: alias {alias.name} names no move; it cannot be written")
        out.append(f"MoveAlias {alias.name} {same[0]}")
    for orbit_name, slots in definition.illegal.items():
        j = definition.orbit_index(orbit_name)
        out += [f"Illegal {orbit_name} {slot + 1} {_line(definition.label_name(j, v) for v in sorted(labels))}"
                for slot, labels in sorted(slots.items())]
    for block in definition.blocks:
        out.append("Block")
        for orbit_name, labels in block.items():
            j = definition.orbit_index(orbit_name)
            out += [orbit_name, _line(definition.label_name(j, v) for v in sorted(labels))]
        out.append("End")
    return "\n".join(out) + "\n"


def _line(values) -> str:
    return " ".join(str(v) for v in values)


__all__ = ["format_definition"]
