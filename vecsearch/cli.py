"""The ``vecsearch`` command line: a thin layer over the public API.

Exit status: 0 success, 1 no solution (``solve --one``), 2 bad usage or bad input,
130 interrupted.
"""

from __future__ import annotations

import argparse
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
  vecsearch list                            the built-in puzzles and problems
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vecsearch", description="Exhaustive state-space search for combinatorial puzzles.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    solve = commands.add_parser("solve", help="answer a contest problem's input in its judge format",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    solve.add_argument("problem", metavar="PROBLEM", help="problem name (see `vecsearch list`)")
    source = solve.add_mutually_exclusive_group()
    source.add_argument("file", nargs="?", metavar="FILE", help="input file (default: standard input)")
    source.add_argument("--sample", action="store_true", help="use the problem statement's bundled sample input")
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

    listing = commands.add_parser("list", help="name the built-in puzzles and problems")
    listing.set_defaults(run=run_list)
    return parser


def _add_search_arguments(parser) -> None:
    """The instance options of the enumerating commands (``bfs``, ``profile``)."""
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle name (see `vecsearch list`)")
    parser.add_argument("--start", metavar="TEXT", help="start state in the puzzle's text format (default: its goal)")
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
    text = problem.sample() if args.sample else _read_input(args.file)
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
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


def run_bfs(args) -> int:
    from vecsearch.engine.enumeration import KEEP_FARTHEST
    from vecsearch.errors import SearchInterrupted

    try:
        puzzle, result = _enumerate(args, checkpoint=args.checkpoint, resume=args.resume,
                                    keep_farthest=max(KEEP_FARTHEST, args.antipodes or 0))
    except SearchInterrupted as stop:
        _print_profile(stop.result.profile, args.csv)
        again = f"; continue with --resume {stop.checkpoint}" if stop.checkpoint else ""
        print(f"vecsearch: interrupted after depth {stop.result.depth}{again}", file=sys.stderr)
        return 130
    _print_profile(result.profile, args.csv)
    if args.antipodes:
        _print_farthest(puzzle, result, args.antipodes)
    return 0


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


def _read_input(path: str | None) -> str:
    if path is None or path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a UTF-8 text file") from None


def main(argv=None) -> int:
    from vecsearch.errors import VecsearchError
    from vecsearch.optional import MissingDependency

    args = build_parser().parse_args(argv)
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
