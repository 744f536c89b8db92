"""What vecsearch does with every puzzle definition file it is given: a table, one row per file.

    python benchmarks/definition_files.py TWSEARCH/samples/main TWSEARCH/samples/symm KSOLVE/puzzles \
        [--enumerate --max-ranks 300M] [--twsearch BIN]

For each ``.tws``, ``.def`` or ``.json`` file (directories are searched): whether it loads, or the
one-line reason it is refused; its orbits and moves; the notes its reader made (rotations left
out as search moves, ksolve's Ignore); the representation chosen, the state's width in words,
and the ranks of its space (the two-bit table's size; ``-`` without a rank). With
``--enumerate``, every file whose rank space has at most ``--max-ranks`` ranks is enumerated
from its solved state (the states, the depth and the seconds); with ``--twsearch BIN`` those
layer counts are compared with twsearch's ``--nosymmetry -g`` on the same file (``-F`` too for
files with ``Illegal`` lines: twsearch's two-bit ``-g`` does not check them; ksolve's files
with spaces in their Name get them replaced by ``_`` first: twsearch reads one token there),
and ksolve's Block files are skipped (twsearch has no Block). The last lines count each outcome.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import vecsearch as vs
from vecsearch.engine.runtime.planner import parse_size
from vecsearch.errors import DefinitionNote, VecsearchError
from vecsearch.puzzles.permutation import PermutationPuzzle, load_definition


def files(paths) -> list[Path]:
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in (".tws", ".def", ".json"))
        else:
            found.append(path)
    return found


def twsearch_counts(binary: str, path: Path, seconds: float) -> list[int] | str:
    """twsearch's layer counts (``--nosymmetry -g``; ``-F`` for files with Illegal lines: its
    two-bit ``-g`` does not check them), or why there are none."""
    text = path.read_bytes().decode("latin-1")
    arrays = ["-F"] if re.search(r"^Illegal\b", text, re.M) else []
    fixed = re.sub(r"^(Name[ \t]+)(.*)$", lambda m: m[1] + re.sub(r"\s+", "_", m[2].strip()), text, flags=re.M)
    with tempfile.NamedTemporaryFile("w", suffix=".tws", encoding="latin-1") as handle:
        handle.write(fixed)
        handle.flush()
        try:
            out = subprocess.run([binary, "--nosymmetry", *arrays, "-g", handle.name], capture_output=True, text=True,
                                 timeout=seconds).stdout
        except subprocess.TimeoutExpired:
            return f"twsearch over {seconds:.0f} s"
    counts = [int(c) for c in re.findall(r"^Dist \d+ cnt (\d+)", out, re.M)]
    while counts and counts[-1] == 0:
        counts.pop()
    return counts or "twsearch refused it: " + (out.strip().splitlines() or ["?"])[-1][:60]


def row(path: Path, args) -> dict:
    began = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DefinitionNote)
        try:
            puzzle = PermutationPuzzle(load_definition(path))
        except VecsearchError as error:
            return {"file": path, "outcome": "refused", "detail": str(error).split(": ", 1)[-1]}
    notes = "; ".join(str(w.message).split(": ", 1)[1][:70] for w in caught)
    d = puzzle.definition
    out = {"file": path, "outcome": "loads", "seconds": time.perf_counter() - began,
           "orbits": " ".join(f"{o.name}:{o.size}x{o.orientations}" for o in d.orbits)[:40],
           "moves": puzzle.max_moves, "representation": puzzle.representation, "width": puzzle.width,
           "ranks": puzzle.rank_size or "-", "notes": notes, "features": features(d)}
    if args.enumerate and puzzle.rank_size and puzzle.rank_size <= args.max_ranks:
        began = time.perf_counter()
        try:
            result = vs.bfs(puzzle, max_memory=args.max_memory)
        except VecsearchError as error:
            out["enumerated"] = f"refused: {error}"[:60]
            return out
        out["enumerated"] = f"{result.total_states:,} states, depth {result.depth}"
        out["enumerate seconds"] = time.perf_counter() - began
        if args.twsearch and not d.blocks:
            reference = twsearch_counts(args.twsearch, path, args.twsearch_seconds)
            out["twsearch"] = reference if isinstance(reference, str) else \
                "equal" if reference == result.layer_sizes else f"DIFFER {reference} vs {result.layer_sizes}"
    return out


def features(definition) -> str:
    found = []
    if any(max(c) > 1 for c in definition.counts):
        found.append("identical")
    if any(definition.wild):
        found.append("?")
    if definition.rotations:
        found.append(f"{len(definition.rotations)} rotations")
    if definition.illegal:
        found.append("Illegal")
    if definition.blocks:
        found.append("Block")
    if definition.aliases:
        found.append("MoveAlias")
    return ", ".join(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", help="definition files, or directories of them")
    parser.add_argument("--enumerate", action="store_true", help="enumerate the spaces of at most --max-ranks ranks")
    parser.add_argument("--max-ranks", type=parse_size, default=parse_size("300M"))
    parser.add_argument("--max-memory", default="4G", help="memory an enumeration may use (default 4G)")
    parser.add_argument("--twsearch", help="twsearch's binary: compare its -g counts with the enumerated ones")
    parser.add_argument("--twsearch-seconds", type=float, default=600.0)
    args = parser.parse_args()
    columns = ["file", "outcome", "features", "orbits", "moves", "representation", "width", "ranks", "notes",
               "enumerated", "enumerate seconds", "twsearch", "detail"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    outcomes: dict[str, int] = {}
    for path in files(args.paths):
        found = row(path, args)
        found["file"] = f"{path.parent.name}/{path.name}"
        outcomes[found["outcome"]] = outcomes.get(found["outcome"], 0) + 1
        if "enumerated" in found:
            outcomes["enumerated"] = outcomes.get("enumerated", 0) + 1
        if "twsearch" in found:
            key = "twsearch " + found["twsearch"].split()[0].lower()
            outcomes[key] = outcomes.get(key, 0) + 1
        cells = [_cell(found.get(c, "")) for c in columns]
        print("| " + " | ".join(cells) + " |", flush=True)
    print()
    print(", ".join(f"{outcome}: {count}" for outcome, count in outcomes.items()))
    return 0


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, int) and value > 10 ** 6:
        return f"{value:.3g}"
    return str(value).replace("|", "/")


if __name__ == "__main__":
    sys.exit(main())
