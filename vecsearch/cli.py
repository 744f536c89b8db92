"""The ``vecsearch`` command line: a thin layer over the public API.

Exit status: 0 success, 2 bad usage or bad input (also a batch with malformed instances, whose
other instances are answered), 130 interrupted. Unsolvable instances are answers, not errors.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import sys
from pathlib import Path

EXAMPLES = """\
examples:
  vecsearch solve eight --sample            solve the bundled POJ 1077 sample
  vecsearch solve eight puzzles.txt         one shortest move string per line
  vecsearch solve sliding-4x4 --goal korf korf100.txt
                                            15-puzzles (0 = blank, goal blank first), IDA* + pattern databases
  vecsearch solve cubes --sample            Cubic Eight-Puzzle (POJ 3131); also: solitaire, chessboard, gap
  vecsearch bfs sliding-3x4 --csv           layer sizes of the whole 3x4 space, as CSV
  vecsearch bfs eight --start "1 2 3 4 x 5 6 7 8" --max-depth 10
  vecsearch bfs pocket-full --mode twobit --antipodes 3     2 bits per state; three farthest states
  vecsearch bfs pancake-12 --max-memory 2G --checkpoint ck  Ctrl-C, then --resume ck to continue
  vecsearch profile cubes --plot cubes.png --csv cubes.csv
                                            the layer profile as a table, a plot and a CSV file
  vecsearch batch eight many.txt -o out.jsonl
                                            many instances: streamed JSON lines, resumable (re-run to resume)
  vecsearch batch eight many.txt --format judge -o out.txt
  vecsearch batch sliding-3x4 pairs.jsonl   JSON lines {"id", "start", "goal"} in, JSON lines out
  vecsearch warm-up pancake-11 sliding-3x4  compile ahead of time (a machine, a container image, a worker)
  vecsearch warm-up --all                   every built-in puzzle family
  vecsearch list                            the built-in puzzles and problems
"""


def build_parser() -> argparse.ArgumentParser:
    from vecsearch.engine import methods

    parser = argparse.ArgumentParser(
        prog="vecsearch", description="Exhaustive state-space search for combinatorial puzzles.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"vecsearch {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    solve = commands.add_parser("solve", help="answer a contest problem's input in its judge format",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    solve.add_argument("problem", metavar="PROBLEM", help="problem name (see `vecsearch list`)")
    source = solve.add_mutually_exclusive_group()
    source.add_argument("file", nargs="?", metavar="FILE", help="input file (default: standard input)")
    source.add_argument("--sample", action="store_true", help="use the problem statement's bundled sample input")
    source.add_argument("--text", metavar="INPUT", help="the input itself, in the judge format, e.g."
                        " --text \"2 3 4 1 5 x 7 6 8\"")
    solve.add_argument("--goal", metavar="NAME", help="goal convention, for problems with several (sliding-RxC:"
                       " default = tiles 1..N-1 then the blank; korf = the blank, then 1..N-1)")
    solve.set_defaults(run=run_solve)

    bfs = commands.add_parser("bfs", help="enumerate the states reachable from a start and print the profile",
                              epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_search_arguments(bfs)
    bfs.add_argument("--csv", action="store_true", help="print the profile as CSV")
    bfs.add_argument("--checkpoint", metavar="DIR", help="save the search after every layer in DIR")
    bfs.add_argument("--resume", metavar="DIR", help="continue the search saved in DIR (and keep saving there)")
    bfs.add_argument("--antipodes", type=_non_negative, metavar="N", help="print up to N of the farthest states")
    bfs.set_defaults(run=run_bfs)

    profile = commands.add_parser("profile", help="enumerate like bfs; print the profile, plot it, save it as CSV",
                                  epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_search_arguments(profile)
    profile.add_argument("--plot", metavar="FILE", help="write the profile plot to FILE (.png, .svg, .pdf; needs matplotlib)")
    profile.add_argument("--csv", metavar="FILE", help="write the profile as CSV to FILE")
    profile.set_defaults(run=run_profile)
    batch = commands.add_parser("batch", help="solve a file of many instances (streamed, resumable, parallel)",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    batch.add_argument("puzzle", metavar="PUZZLE", help="puzzle or problem name (see `vecsearch list`)")
    batch.add_argument("file", metavar="FILE", help="instances: JSON lines {\"id\", \"start\", \"goal\"} or the"
                       " problem's judge format (- for standard input)")
    batch.add_argument("-o", "--output", metavar="OUT", help="write here as chunks finish; re-running with the same"
                       " OUT resumes (default: standard output)")
    batch.add_argument("--format", choices=("jsonl", "judge"), default="jsonl",
                       help="jsonl: one record per instance (default); judge: the judge output, in input order")
    batch.add_argument("--input", choices=("auto", "jsonl", "judge"), default="auto",
                       help="input format (default: JSON lines if the file starts with '{')")
    batch.add_argument("--method", default="auto", choices=("auto", *methods.METHODS), metavar="M",
                       help=f"auto (default), or one of {', '.join(methods.METHODS)}")
    batch.add_argument("--max-depth", type=_non_negative, metavar="D", help="longer answers count as none")
    batch.add_argument("--chunk-size", type=_positive, metavar="N", help="instances per chunk (default: by method)")
    batch.add_argument("--scheduler", metavar="ADDRESS", help="send chunks to this dask.distributed scheduler"
                       " (pip install 'vecsearch[dask]')")
    batch.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="tqdm progress bar on standard error (default: when it is a terminal)")
    batch.set_defaults(run=run_batch)

    warm = commands.add_parser("warm-up", help="compile (or load) the kernels that solve and bfs will call, ahead of"
                               " time; prints seconds per kernel",
                               epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    warm.add_argument("puzzles", nargs="*", metavar="PUZZLE", help="puzzle or problem names (see `vecsearch list`)")
    warm.add_argument("--all", action="store_true", help="every built-in puzzle family (one member per set of kernels)")
    warm.set_defaults(run=run_warm_up)

    listing = commands.add_parser("list", help="name the built-in puzzles and problems")
    listing.set_defaults(run=run_list)
    return parser


def _add_search_arguments(parser) -> None:
    """The instance options of the enumerating commands (``bfs``, ``profile``)."""
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle name (see `vecsearch list`), or a definition file"
                        " FILE.tws in the half-turn metric (FILE.tws:qtm for quarter turns, FILE.tws:given for"
                        " the moves as written)")
    parser.add_argument("--start", metavar="TEXT", help="start state in the puzzle's text format, or (permutation"
                        " puzzles) moves from the solved state, e.g. \"R U2 F'\" (default: its goal)")
    parser.add_argument("--max-depth", type=_non_negative, metavar="D", help="stop after depth D")
    parser.add_argument("--threads", type=_positive, metavar="N", help="worker threads (default: all cores)")
    parser.add_argument("--mode", choices=("auto", "layers", "twobit"), default="auto",
                        help="layers: stored layers and a bitset or hash set; twobit: 2 bits per rank (distance"
                             " mod 3); auto (default): what fits, two-bit for large rank spaces")
    parser.add_argument("--max-memory", type=_memory_size, metavar="SIZE",
                        help="memory the search may use, e.g. 500M or 4G (default: 80%% of the available memory);"
                             " a search that cannot fit is refused before it starts")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: when stderr is a terminal; needs tqdm)")


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text}")
    return value


def _memory_size(text: str) -> int:
    from vecsearch.engine.planner import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {text}")
    return value


def run_solve(args) -> int:
    from vecsearch.registry import get_problem

    problem = get_problem(args.problem)
    if args.goal is not None:
        problem = problem.with_goal(args.goal)
    if args.sample:
        text = problem.sample()
    elif args.text is not None:
        text = args.text
    else:
        _refuse_typed_instance(args.file, f"vecsearch solve {args.problem}")
        text = _read_input(args.file)
    answers, error = problem.solve_text(text)
    out = sys.stdout
    for answer in answers:
        out.write(answer.output + "\n")
        if answer.note:
            print(f"vecsearch: {problem.name}: {answer.note}", file=sys.stderr)
    out.flush()
    if error is not None:
        print(f"vecsearch: {problem.name}: {error}", file=sys.stderr)
        return 2
    return 0


def _refuse_typed_instance(path: str | None, command: str) -> None:
    """An instance typed where a file name goes: say where instances go instead."""
    if path is not None and path != "-" and any(c.isspace() for c in path) and not os.path.exists(path):
        typed = shlex.quote(path)
        raise InputError(f"no file {typed}: FILE names a file of instances; give one instance as"
                         f" `{command} --text {typed}`, or on standard input: `echo {typed} | {command}`")


def _enumerate(args, **options):
    """The puzzle and the ``bfs`` the options of ``_add_search_arguments`` (and ``options``) ask for."""
    from vecsearch.engine.search import bfs
    from vecsearch.registry import get_puzzle

    puzzle = get_puzzle(args.puzzle)
    start = puzzle.state(args.start) if args.start is not None else None
    return puzzle, bfs(puzzle, start, max_depth=args.max_depth, threads=args.threads, mode=args.mode,
                       max_memory=args.max_memory, progress=_progress(args), **options)


def _progress(args) -> bool:
    """The ``--progress`` choice; by default on when stderr is a terminal and tqdm is installed."""
    if args.progress is not None:
        return args.progress
    if not sys.stderr.isatty():
        return False
    return importlib.util.find_spec("tqdm") is not None


def run_bfs(args) -> int:
    from vecsearch.engine.enumeration import KEEP_FARTHEST
    from vecsearch.errors import MemoryLimitError, SearchInterrupted

    try:
        puzzle, result = _enumerate(args, checkpoint=args.checkpoint, resume=args.resume,
                                    keep_farthest=max(KEEP_FARTHEST, args.antipodes or 0))
    except MemoryLimitError as stop:
        if stop.result is None:
            raise
        _print_profile(stop.result.profile, args.csv)  # the layers it found are answers too
        raise
    except SearchInterrupted as stop:
        _print_profile(stop.result.profile, args.csv)
        again = f"; continue with --resume {stop.checkpoint}" if stop.checkpoint else ""
        print(f"vecsearch: interrupted after depth {stop.result.depth}{again}", file=sys.stderr)
        return 130
    _print_profile(result.profile, args.csv)
    if args.antipodes:
        _print_farthest(puzzle, result, args.antipodes)
    return 0


def run_batch(args) -> int:
    from vecsearch.batch_io import looks_like_jsonl, read_jsonl, report_errors, run_jsonl, run_judge
    from vecsearch.errors import InvalidPuzzleInput, UnknownPuzzle
    from vecsearch.registry import get_problem, get_puzzle

    data = _read_input(args.file, binary=True)
    jsonl = args.input == "jsonl" or (args.input == "auto" and looks_like_jsonl(data))
    try:
        problem = get_problem(args.puzzle)
    except UnknownPuzzle:
        problem = None
    if args.format == "judge" and (problem is None or jsonl):
        raise InvalidPuzzleInput("--format judge needs a problem's judge-format input (see `vecsearch list`)")
    if jsonl:
        puzzle = problem.puzzle if problem is not None else get_puzzle(args.puzzle)
        instances, errors = read_jsonl(puzzle, data)
        max_depth = args.max_depth
    else:
        if problem is None:
            raise InvalidPuzzleInput(f"{args.puzzle} has no judge format: give JSON lines {{\"id\", \"start\", \"goal\"}}")
        puzzle = problem.puzzle
        instances, errors = problem.batch_instances(data)
        max_depth = args.max_depth if args.max_depth is not None else problem.max_depth
    report_errors(args.puzzle, errors)
    client = _dask_client(args.scheduler)
    options = dict(method=args.method, max_depth=max_depth, chunk_size=args.chunk_size, client=client,
                   progress=args.progress, stream=sys.stdout.buffer, report=_note)
    try:
        if args.format == "judge":
            run_judge(problem, instances, args.output, **options)
        else:
            run_jsonl(puzzle, instances, errors, args.output, **options)
    finally:
        if client is not None:
            client.close()
    return 2 if errors else 0


def _note(text: str) -> None:
    print(f"vecsearch: {text}", file=sys.stderr, flush=True)


def _dask_client(address):
    if address is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs dask.distributed: pip install 'vecsearch[dask]'") from None
    return Client(address)


def _print_profile(profile, csv: bool) -> None:
    print(profile.to_csv() if csv else profile, end="" if csv else "\n", flush=True)


def _print_farthest(puzzle, result, count: int) -> None:
    states = result.last_layer.states if result.last_layer is not None else []
    where = "the farthest" if result.complete else "where the search stopped"
    print(f"states at depth {result.depth} ({where}; {result.layer_sizes[-1]:,} in all), {min(count, len(states))}"
          f" shown:")
    for state in states[:count]:
        print(puzzle.format_state(state))


def run_profile(args) -> int:
    if args.plot is not None:  # before the search: a missing matplotlib should not waste it
        from vecsearch.optional import require

        require("matplotlib", "vecsearch profile --plot")
    _, result = _enumerate(args)
    print(result.profile)
    if args.csv is not None:
        _write(args.csv, lambda path: Path(path).write_text(result.profile.to_csv()))
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        figure = result.profile.plot(label=result.puzzle.name)
        _write(args.plot, figure.savefig)
    return 0


def _write(path: str, save) -> None:
    try:
        save(path)
    except (OSError, ValueError) as error:
        raise InputError(f"cannot write {path}: {getattr(error, 'strerror', None) or error}") from None


def run_warm_up(args) -> int:
    from vecsearch.engine import jit
    from vecsearch.engine.warmup import kernel_set, warm_up
    from vecsearch.registry import WARM_UP_EXAMPLES, get_puzzle

    if not args.puzzles and not args.all:
        raise InputError("name the puzzles to warm up, or give --all")
    named = [get_puzzle(name) for name in args.puzzles]  # every name checked before compiling anything
    puzzles = list({id(p): p for p in named}.values())
    if args.all:
        known = {kernel_set(p) for p in puzzles}
        for name in WARM_UP_EXAMPLES:
            puzzle = get_puzzle(name)
            if kernel_set(puzzle) not in known:  # else an earlier member warms its family's kernels
                known.add(kernel_set(puzzle))
                puzzles.append(puzzle)
    total, kernels = 0.0, 0
    for puzzle in puzzles:
        jit.compile_log = []
        try:
            seconds = warm_up(puzzle, validate=False, batches=True)  # built-ins are tested; validating keeps nothing
            log = jit.compile_log
        finally:
            jit.compile_log = None
        for name, spent in log:
            print(f"{puzzle.name:<16} {name:<24} {spent:8.2f} s", flush=True)
        ready = "" if log else " (every kernel was ready: loaded earlier in this run)"
        print(f"{puzzle.name:<16} {'(all)':<24} {seconds:8.2f} s{ready}", flush=True)
        total += seconds
        kernels += len(log)
    print(f"total {total:.2f} s: {kernels} kernels compiled or loaded for {len(puzzles)} puzzles")
    return 0


def run_list(args) -> int:
    from vecsearch.registry import problem_catalogue, puzzle_catalogue

    print("puzzles (vecsearch bfs PUZZLE):")
    for name, text in puzzle_catalogue().items():
        print(f"  {name:<16} {text}")
    print("problems (vecsearch solve PROBLEM):")
    for name, text in problem_catalogue().items():
        print(f"  {name:<16} {text}")
    return 0


class InputError(Exception):
    """An input file that cannot be read, or an output file that cannot be written."""


def _read_input(path: str | None, binary: bool = False) -> str | bytes:
    """The file at ``path`` (standard input for None or ``-``)."""
    if path is None or path == "-":
        return sys.stdin.buffer.read() if binary else sys.stdin.read()
    try:
        if binary:
            with open(path, "rb") as handle:
                return handle.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a UTF-8 text file") from None


def _version() -> str:
    from vecsearch import __version__

    return __version__


def main(argv=None) -> int:
    from vecsearch.errors import VecsearchError
    from vecsearch.optional import MissingDependency

    args = build_parser().parse_args(argv)
    subject = getattr(args, "problem", None) or getattr(args, "puzzle", None)
    if subject is not None:  # a command that searches: say so when it compiles for long
        from vecsearch.engine import jit

        jit.announce_compiles(subject)
    try:
        return args.run(args)
    except (VecsearchError, InputError, MissingDependency) as error:
        print(f"vecsearch: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("vecsearch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
