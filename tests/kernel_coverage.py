"""Each kernel template's lines run by the searches of ``plain_python_searches.py`` as Python.

``python tests/kernel_coverage.py`` (CI's last step) runs those searches with
``NUMBA_DISABLE_JIT=1`` under coverage, with the kernel modules generated in a directory of their
own, and prints, for each template, its statements, how many ran in some family's module of it
(line N of a generated module is line N of its template) and the share.
"""

import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import coverage

from vecsearch.engine.runtime.codegen import generated_from

HERE = Path(__file__).parent


def template_coverage() -> dict[str, tuple[set, set]]:
    """template module -> (its statement lines, the lines run)."""
    with tempfile.TemporaryDirectory() as directory:
        data = Path(directory) / "coverage"
        kernels = Path(directory) / "kernels"
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "VECSEARCH_CACHE_DIR": str(kernels),
               "VECSEARCH_ANNOUNCE_COMPILE": "0"}
        subprocess.run([sys.executable, "-W", "ignore:overflow encountered:RuntimeWarning", "-m", "coverage", "run",
                        f"--data-file={data}", f"--include={kernels}/*", str(HERE / "plain_python_searches.py")],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        measured = coverage.Coverage(data_file=str(data))
        measured.load()
        found: dict[str, tuple[set, set]] = defaultdict(lambda: (set(), set()))
        for file in measured.get_data().measured_files():
            template = generated_from(file)
            if template is None:
                continue  # a family module: bindings, no template's lines
            _, statements, _, missing, _ = measured.analysis2(file)
            lines, ran = found[template]
            lines.update(statements)
            ran.update(set(statements) - set(missing))
    return dict(found)


def main() -> None:
    print(f"{'template':<42} {'statements':>10} {'run':>6} {'share':>6}")
    for template, (lines, ran) in sorted(template_coverage().items()):
        print(f"{template:<42} {len(lines):>10} {len(ran):>6} {len(ran) / len(lines):>6.0%}")


if __name__ == "__main__":
    main()
