"""Run the benchmarks and print one table: ``python benchmarks/run.py [NAME_FILTER ...]``.

Every ``benchmarks/bench_*.py`` module lists ``BENCHMARKS``: ``Benchmark(name, target, run)``
where ``run()`` returns ``(measured, detail)``; ``measured`` is compared with the target (smaller
is better) and printed with its unit. Each benchmark runs in a fresh Python process, so peak
memory (max RSS of that process) and start-up costs are its own. Kernels are warmed up inside
``run()`` when the figure is meant to exclude compilation. The machine should be otherwise idle.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
# Whole processes are timed as a user's installation runs them: Python writes its bytecode by
# default. A shell that turns that off would charge every vecsearch process the compiling of the
# package's own source, while numpy and numba load the bytecode pip wrote when it installed them.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@dataclass
class Benchmark:
    name: str
    target: float  # pass when measured <= target
    unit: str
    run: Callable[[], tuple]  # (measured, detail) or (measured, detail, peak MiB of the process it measured)
    peak_mib: float | None = None  # also require the measured process's peak RSS to stay under this
    on_request: bool = False  # long: run only when a filter names it and no benchmark run by default


def modules():
    for path in sorted(HERE.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
        yield module


def all_benchmarks() -> dict[str, Benchmark]:
    return {b.name: b for module in modules() for b in module.BENCHMARKS}


def named(benchmark: Benchmark, filters: list[str], benchmarks) -> bool:
    """Whether ``filters`` choose ``benchmark``: all but the on-request ones when there are none; an
    on-request one only by a filter that matches no other kind (``enumeration:`` leaves it out)."""
    if not benchmark.on_request:
        return not filters or any(f in benchmark.name for f in filters)
    return any(f in benchmark.name and not any(f in b.name for b in benchmarks if not b.on_request)
               for f in filters)


def run_one(name: str) -> None:
    """Child process: run one benchmark, print its result as JSON."""
    benchmark = all_benchmarks()[name]
    measured, detail, *measured_peak = benchmark.run()
    peak = measured_peak[0] if measured_peak else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"measured": measured, "detail": detail, "peak_mib": peak}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("filters", nargs="*", help="run benchmarks whose name contains any of these")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        run_one(args.one)
        return 0
    benchmarks = all_benchmarks().values()
    chosen = [b for b in benchmarks if named(b, args.filters, benchmarks)]
    skipped = [b.name for b in benchmarks if b.on_request and b not in chosen]
    print(f"{'benchmark':<46} {'target':>12} {'measured':>12} {'peak MiB':>9}  {'':4}  detail")
    print("(peak MiB: the maximum RSS of the process measured (the benchmark's own, or the vecsearch process it"
          " ran); a target on it is checked too)")
    if skipped:
        print(f"(run only when named: {'; '.join(skipped)})")
    failed = 0
    for benchmark in chosen:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--one", benchmark.name], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{benchmark.name:<46} {'':>12} {'ERROR':>12}  {done.stderr.strip().splitlines()[-1:]}")
            failed += 1
            continue
        result = json.loads(done.stdout.strip().splitlines()[-1])
        ok = result["measured"] <= benchmark.target and (benchmark.peak_mib is None
                                                        or result["peak_mib"] <= benchmark.peak_mib)
        failed += not ok
        print(f"{benchmark.name:<46} {benchmark.target:>9.3g} {benchmark.unit:<2}"
              f" {result['measured']:>9.3g} {benchmark.unit:<2} {result['peak_mib']:>9.0f}  {'ok' if ok else 'SLOW':4}"
              f"  {result['detail']}"
              f" ({time.perf_counter() - started:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
