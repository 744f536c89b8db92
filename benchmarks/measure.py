"""Measuring helpers shared by the benchmarks: reference programs built and run in the same
run as vecsearch, whole processes timed with their peak memory, medians beside best runs.

- ``reference(name)``: ``benchmarks/reference/NAME.cpp`` built once (``g++ -O2 -march=native``)
  into ``$BUILD_DIR`` (default ``/tmp/vecsearch-reference``) under a name that carries a hash of
  its source (so checkouts of different versions never run each other's build), or None
  without g++.
- ``processes(commands, repeat)``: each command run ``repeat`` times, the commands alternating
  (so a change in the machine's load falls on all of them), as ``Runs`` of wall seconds and peak
  RSS; ``check`` sees each command's first output.
- ``in_process(run, repeat)``: seconds returned by ``run()`` (a search's own time).
- ``self_timed(binary, *args)``: a reference program's own timing line (``time X s``), for
  comparing in-process figures with in-process figures.
"""

from __future__ import annotations

import hashlib
import os
import re
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
BUILD_DIR = Path(os.environ.get("BUILD_DIR", "/tmp/vecsearch-reference"))


@dataclass
class Runs:
    seconds: list[float]
    peak_mib: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def peak(self) -> float:
        return max(self.peak_mib) if self.peak_mib else 0.0

    def __str__(self) -> str:
        peak = f", peak {self.peak:.0f} MiB" if self.peak_mib else ""
        return f"median {_short(self.median)} (best {_short(self.best)}, {len(self.seconds)} runs{peak})"


def _short(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 0.1 else f"{seconds:.2f} s"


def reference(name: str) -> Path | None:
    """The built reference program ``name`` (built when its source has not been), or None."""
    source = HERE / "reference" / f"{name}.cpp"
    binary = BUILD_DIR / f"{name}-{hashlib.sha1(source.read_bytes()).hexdigest()[:12]}"
    if binary.exists():
        return binary
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    building = binary.with_suffix(f".{os.getpid()}")
    try:
        subprocess.run(["g++", "-O2", "-march=native", "-std=c++17", "-o", str(building), str(source)], check=True,
                       capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    building.replace(binary)
    return binary


def run_process(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MiB) and standard output of one run of ``command``."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    with process.stdout:
        out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}")
    return seconds, usage.ru_maxrss / 1024, out


def processes(commands: dict[str, list[str]], repeat: int, check=None) -> dict[str, Runs]:
    """Alternating whole-process runs; ``check(name, output)`` sees each command's first output."""
    runs = {name: Runs([], []) for name in commands}
    for number in range(repeat):
        for name, command in commands.items():
            seconds, peak, out = run_process(command)
            if number == 0 and check is not None:
                check(name, out)
            runs[name].seconds.append(seconds)
            runs[name].peak_mib.append(peak)
    return runs


def in_process(run, repeat: int) -> Runs:
    return Runs([run() for _ in range(repeat)], [])


def self_timed(binary: Path, *args: str, repeat: int = 5) -> Runs:
    """A reference program's own timings (its ``time X s`` line), after checking its ``OK``."""
    seconds = []
    for _ in range(repeat):
        _, _, out = run_process([str(binary), *args])
        assert "\nOK" in out, f"{binary.name}: layer counts do not match"
        seconds.append(float(re.search(r"time ([0-9.]+) s", out).group(1)))
    return Runs(seconds, [])
