"""Writes this directory's definitions: twsearch's samples/symm files (commit 007a8cd) with only
some moves and rotations kept (every other Move block dropped, nothing else changed).

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
