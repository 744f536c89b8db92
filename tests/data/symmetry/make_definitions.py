"""Writes this directory's definitions: twsearch's samples/symm files (commit 007a8cd) with only
some moves and rotations kept (every other Move block dropped, nothing else changed), and
pyramorphix-turns.tws: samples/symm/pyramorphix.tws with its four rotations by a third of a turn
also written as moves (each Move block copied, its name prefixed with ``t``), so that the group
its moves generate holds every rotation.

    python make_definitions.py /path/to/twsearch/samples/symm
"""

import re
import sys
from pathlib import Path

KEEP = {"2x2x2-UR": ("2x2x2", {"U", "R", "DLv"}), "2x2x2-UD": ("2x2x2", {"U", "D", "Dv", "FLv", "BLv"}),
        "pyraminx-LR": ("pyraminx", {"L", "R", "FDv"})}

for name, (sample, moves) in KEEP.items():
    text = (Path(sys.argv[1]) / f"{sample}.tws").read_text()
    blocks = re.split(r"(?m)^(?=Move )", text)
    kept = [b for b in blocks if not b.startswith("Move ") or b.split()[1] in moves]
    Path(f"{name}.tws").write_text("".join(kept))

text = (Path(sys.argv[1]) / "pyramorphix.tws").read_text()
blocks = re.split(r"(?m)^(?=Move )", text)
turns = [b for b in blocks if b.startswith("Move ") and b.split()[1] in {"Fv", "Dv", "Lv", "Rv"}]
turned = [re.sub(r"^Move (\w+)", r"Move t\1", b) for b in turns]
Path("pyramorphix-turns.tws").write_text(text.rstrip("\n") + "\n\n" + "".join(turned))
