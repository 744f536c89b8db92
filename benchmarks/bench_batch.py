"""Batch solving (issue 4): whole `vecsearch batch` processes on generated files, start-up
included, best of N (the machine is shared and noisy), with where the time goes.

- 1,000,000 random Eight instances (half unsolvable), optimal move strings: judge output and
  JSON lines. The breakdown (reading + checking, distance table, descent, writing) is measured
  in-process after the timed runs.
- 10,000 random Cubic Eight-Puzzle datasets (random x y and pattern): instances/s locally and on
  a 2-worker dask LocalCluster (cluster start-up reported apart).
- 100,000 random chessboard pairs (same number of black stones) with their swap lists.
- 300 random 3x4 boards (on request: its reference takes a minute): the whole two-bit table of
  distances mod 3, built by the first process and saved, then mapped by the next.
"""

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cubes_answers
import eight_answers
import judge_answers
import measure
import numpy as np
from run import Benchmark

EIGHT = 1_000_000
CUBES = 10_000
CHESS = 100_000
BOARDS_3X4 = 300


def _eight_file(path: Path, count: int, seed: int = 1077) -> None:

    rng = np.random.default_rng(seed)
    perm = np.argsort(rng.random((count, 9)), axis=1)
    rows = np.full((count, 18), ord(" "), np.uint8)
    rows[:, 0::2] = np.frombuffer(b"x12345678", np.uint8)[perm]
    rows[:, 17] = ord("\n")
    path.write_bytes(rows.tobytes())


def _cubes_datasets(count: int, seed: int = 3131) -> list[tuple[int, int, str]]:
    """Random datasets: (x, y, pattern of 9 letters)."""
    rng = random.Random(seed)
    datasets = []
    for _ in range(count):
        cells = [rng.choice("WBR") for _ in range(9)]
        cells[rng.randrange(9)] = "E"
        datasets.append((rng.randint(1, 3), rng.randint(1, 3), "".join(cells)))
    return datasets


def _cubes_text(datasets) -> str:
    return "".join(f"{x} {y}\n" + "\n".join(" ".join(p[r * 3:r * 3 + 3]) for r in range(3)) + "\n"
                   for x, y, p in datasets) + "0 0\n"


def _chess_text(count: int, seed: int = 1999) -> str:
    rng = random.Random(seed)
    blocks = []
    for _ in range(count):
        black = rng.randint(1, 15)
        for _ in range(2):
            fields = ["1"] * black + ["0"] * (16 - black)
            rng.shuffle(fields)
            blocks.append("\n".join("".join(fields[r * 4:r * 4 + 4]) for r in range(4)))
    return "\n\n".join(blocks) + "\n"


def _best_cli(args, repeat=3):
    """Best wall time of ``vecsearch batch ARGS`` over ``repeat`` runs (after one warm run), and
    the standard output of the warm run."""
    times = []
    command = [sys.executable, "-m", "vecsearch", "batch", *args]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return min(times), out


def _eight_breakdown(path: Path) -> str:
    import vecsearch as vs
    from vecsearch.batch_io import jsonl_records
    from vecsearch.engine.batch.many import iter_many
    from vecsearch.engine.batch.solve import distance_table

    problem = vs.get_problem("eight")
    data = path.read_bytes()
    started = time.perf_counter()
    instances, _ = problem.batch_instances(data)
    parsed = time.perf_counter()
    distance_table(problem.puzzle, instances.goals)
    tabled = time.perf_counter()
    began = time.perf_counter()
    digests = instances.digests()
    descent, judge, records = 0.0, 0.0, time.perf_counter() - began
    for chunk in iter_many(problem.puzzle, instances):
        descent += chunk.seconds
        began = time.perf_counter()
        problem.batch_output(chunk.lengths, chunk.moves)
        judge += time.perf_counter() - began
        began = time.perf_counter()
        jsonl_records(problem.puzzle, chunk, digests[chunk.where])
        records += time.perf_counter() - began
    return (f"in-process: read+check {parsed - started:.2f} s, table {tabled - parsed:.2f} s,"
            f" descent {descent:.2f} s, judge text {judge:.2f} s / JSON lines {records:.2f} s")


def _import_seconds() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import vecsearch.batch_io, vecsearch.cli"], check=True)
    return time.perf_counter() - started


def _eight_answers(out: str, fmt: str) -> list:
    if fmt == "judge":
        return [None if line == "unsolvable" else line for line in out.splitlines()]
    records = sorted(map(json.loads, out.splitlines()), key=lambda record: record["id"])
    return [record.get("moves") for record in records]


def eight(fmt):
    def run():
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "eight.txt"
            _eight_file(source, EIGHT)
            seconds, out = _best_cli(["eight", str(source), "--format", fmt])
            eight_answers.check(source.read_text().splitlines(), _eight_answers(out, fmt))
            detail = _eight_breakdown(source)
        return seconds, (f"{EIGHT / seconds:,.0f} inst/s; every answer's length checked against a plain-Python BFS;"
                         f" python+imports {_import_seconds():.2f} s; {detail}")
    return run


def _passes(datasets, **options):
    """Seconds of a first pass over the datasets in this process (the tables rooted at the
    starts built on the way) and of a second (tables held); every answer of both checked."""
    import vecsearch as vs
    from vecsearch.engine.batch.many import iter_many

    problem = vs.get_problem("cubes")
    instances, _ = problem.batch_instances(_cubes_text(datasets).encode())
    times = []
    for _ in range(2):
        lengths = np.full(len(datasets), -2)
        moves = [None] * len(datasets)
        began = time.perf_counter()
        chunks = list(iter_many(problem.puzzle, instances, max_depth=30, **options))
        times.append(time.perf_counter() - began)
        for chunk in chunks:
            for i, where in enumerate(np.arange(len(datasets))[chunk.where]):
                lengths[where] = chunk.lengths[i]
                moves[where] = problem.puzzle.format_moves(chunk.moves[i, :max(0, chunk.lengths[i])].tolist())
        cubes_answers.check(datasets, lengths.tolist(), moves)
    return times


def _cubes_records(out: str, count: int) -> tuple[list, list]:
    records = sorted(map(json.loads, out.splitlines()), key=lambda record: record["id"])
    assert [record["id"] for record in records] == list(range(1, count + 1)), "missing or repeated answers"
    return ([-1 if record["length"] is None else record["length"] for record in records],
            [record.get("moves") for record in records])


CUBES_CHECK = ("every answer checked: its length against the C++ cubic8.cpp's enumerations from the nine starts,"
               " its rolls replayed in plain Python")


def cubes_local():
    datasets = _cubes_datasets(CUBES)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "cubes.txt"
        source.write_text(_cubes_text(datasets))
        seconds, out = _best_cli(["cubes", str(source)], repeat=2)
    cubes_answers.check(datasets, *_cubes_records(out, CUBES))
    first, second = _passes(datasets, chunk_size=1000)
    return seconds, (f"{CUBES / seconds:,.0f} inst/s whole process (JSON lines); in this process {CUBES / first:,.0f}"
                     f" inst/s building the tables ({first:.2f} s), {CUBES / second:,.0f} inst/s with them built;"
                     f" {CUBES_CHECK}")


def cubes_dask():
    import distributed

    datasets = _cubes_datasets(CUBES)
    local_first, local_second = _passes(datasets, chunk_size=1000)
    started = time.perf_counter()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        up = time.perf_counter() - started
        first, second = _passes(datasets, client=client, chunk_size=1000)
    return first, (f"in-process client: {CUBES / first:,.0f} inst/s on 2 workers x 1 thread building their tables,"
                   f" {CUBES / second:,.0f} inst/s with them built (cluster start-up {up:.1f} s apart); the same"
                   f" in-process run without dask, same run: {local_first:.2f} s ({CUBES / local_second:,.0f} inst/s"
                   f" with the tables built); {CUBES_CHECK}")


def chess():
    text = _chess_text(CHESS)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "chess.txt"
        source.write_text(text)
        seconds, out = _best_cli(["chessboard", str(source)], repeat=2)
    records = sorted(map(json.loads, out.splitlines()), key=lambda record: record["id"])
    judge_answers.check_chessboard(text, [-1 if r["length"] is None else r["length"] for r in records],
                                   [r["moves"].split("\n") if r.get("moves") else [] for r in records])
    return seconds, (f"{CHESS / seconds:,.0f} inst/s (whole process, JSON lines with swap lists); every answer"
                     " checked: its length against the C++ chessboard.cpp, its swaps replayed in plain Python")


def _boards_3x4(count: int, seed: int = 90166) -> list[str]:
    """Random boards of the goal's half of the 3x4 space: those whose cells differ from the goal
    by as many transpositions, mod 2, as the blank is moves away from its corner (counted from
    the cells' cycles, against the identity: the goal itself is a 12-cycle, 11 of them)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        cells = list(range(12))
        rng.shuffle(cells)
        seen, transpositions = set(), 0
        for i in range(12):
            length = 0
            while i not in seen:
                seen.add(i)
                i, length = cells[i], length + 1
            transpositions += max(0, length - 1)
        blank_moves = abs(cells.index(0) // 4 - 2) + abs(cells.index(0) % 4 - 3)  # the blank's home: cell 11
        if (transpositions + 11 + blank_moves) % 2 == 0:
            boards.append(" ".join("x" if v == 0 else str(v) for v in cells))
    return boards


def saved_table_3x4():
    from vecsearch.cache_folder import cache_dir

    binary = measure.reference("sliding3x4")
    if binary is None:
        raise RuntimeError("g++ is needed to build the C++ reference")
    boards = _boards_3x4(BOARDS_3X4)
    began = time.perf_counter()
    reference = subprocess.run([str(binary), "distances"], input="\n".join(boards) + "\n", capture_output=True,
                               text=True, check=True).stdout.split()
    cpp_seconds = time.perf_counter() - began
    for saved in (cache_dir() / "tables").glob("sliding-3x4-mod3-*"):
        saved.unlink()  # the first run builds the table
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "boards.jsonl"
        source.write_text("".join(json.dumps({"id": i, "start": board}) + "\n" for i, board in enumerate(boards)))
        command = [sys.executable, "-m", "vecsearch", "batch", "sliding-3x4", str(source)]
        built, _, first = measure.run_process(command)
        assert list((cache_dir() / "tables").glob("sliding-3x4-mod3-*.npy")), "the table was not saved"
        seconds, out = _best_cli(["sliding-3x4", str(source)])
    for output in (first, out):
        records = sorted(map(json.loads, output.splitlines()), key=lambda record: record["id"])
        assert [r["length"] for r in records] == [int(d) for d in reference], "lengths differ from the C++ BFS's"
        for board, record in zip(boards, records, strict=True):
            state = eight_answers.parse(board)
            for step in record["moves"]:
                state = eight_answers.moved(state, step, 3, 4)
            assert state == tuple(range(1, 12)) + (0,), f"{record['moves']!r} does not solve {board!r}"
    return seconds, (f"whole process, best of 3, the table mapped; the first process built and saved it: {built:.2f} s;"
                     f" every length = the C++ sliding3x4.cpp's BFS distance ({cpp_seconds:.0f} s), every move string"
                     " replayed in plain Python")


BENCHMARKS = [
    Benchmark("batch eight 1M judge output (s)", 5.0, "s", eight("judge")),
    Benchmark("batch eight 1M JSON lines (s)", 5.0, "s", eight("jsonl")),
    Benchmark("batch cubes 10k local, whole process (s)", 60.0, "s", cubes_local),
    Benchmark("batch cubes 10k dask 2 workers, in-process (s)", 60.0, "s", cubes_dask),
    Benchmark("batch chessboard 100k pairs (s)", 60.0, "s", chess),
    Benchmark("batch sliding-3x4 300 boards, saved table (s)", 1.5, "s", saved_table_3x4, on_request=True),
]
