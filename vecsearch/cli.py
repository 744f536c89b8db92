"""The ``vecsearch`` command line: a thin layer over the public API.

Exit status: 0 success, 2 bad usage or bad input (also a batch with malformed instances, whose
other instances are answered), 130 interrupted. Unsolvable instances are answers, not errors.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NoReturn

from vecsearch._startup import prepare_process
from vecsearch.cli_arguments import build_parser
from vecsearch.cli_input import InputError, input_name, read_input, refuse_typed_instance


def run_solve(args) -> int:
    from vecsearch.registry import get_problem, is_definition_file

    if args.start is not None:
        return _solve_instance(args)
    if is_definition_file(args.problem):
        raise InputError(f"{args.problem} is a puzzle, not a problem with a judge format: solve one instance with"
                         f" `vecsearch solve {args.problem} --start STATE`, a file of them with `vecsearch batch"
                         f" {args.problem} FILE` (JSON lines, or twsearch's scramble file)")
    problem = get_problem(args.problem)
    if args.goal is not None:
        problem = problem.with_goal(args.goal)
    if args.sample:
        text, source = problem.sample(), f"{problem.name}'s sample"
    elif args.text is not None:
        text, source = args.text, "--text"
    else:
        refuse_typed_instance(args.file, f"vecsearch solve {args.problem}")
        text, source = read_input(args.file), input_name(args.file)
    answers, errors = problem.solve_text(text)
    out = sys.stdout
    for answer in answers:
        out.write(answer.output + "\n")
        if answer.note:  # a malformed case's error, located in the input; else a remark on the answer
            where = source if answer.output == problem.marker and errors else problem.name
            print(f"vecsearch: {where}: {answer.note}", file=sys.stderr)
    out.flush()
    return 2 if errors else 0


def _solve_instance(args) -> int:
    """``vecsearch solve PUZZLE --start STATE [--goal STATE]``: one shortest move string."""
    from vecsearch.engine.batch.solve import solve
    from vecsearch.errors import NoSolution
    from vecsearch.registry import get_puzzle

    puzzle = _turned_by(get_puzzle(args.problem), args.moves)
    start = puzzle.state(args.start)
    goal = None if args.goal is None else puzzle.states(args.goal)
    try:
        solution = solve(puzzle, start, goal, method=args.method, max_depth=args.max_depth)
    except NoSolution as none:
        print(f"vecsearch: {puzzle.name}: {str(none).removeprefix(f'{puzzle.name}: ')}", file=sys.stderr)
        return 1
    print(solution, flush=True)
    return 0


def _turned_by(puzzle, moves: str | None):
    """``puzzle`` turned by ``moves`` alone (``--moves``; ``PermutationPuzzle.with_moves``), or as
    it is for None."""
    if moves is None:
        return puzzle
    with_moves = getattr(puzzle, "with_moves", None)
    if with_moves is None:
        raise InputError(f"--moves keeps some of a permutation puzzle's moves (FILE.tws, pocket-..., pancake-...):"
                         f" {puzzle.name} is not one")
    return with_moves(moves)


def _enumerate(args, **options):
    """The puzzle and the ``bfs`` the options of ``_add_search_arguments`` (and ``options``) ask for."""
    from vecsearch.engine.layered.search import bfs
    from vecsearch.engine.runtime import planner
    from vecsearch.engine.runtime.planner import format_size
    from vecsearch.engine.twobit.segments import is_partitioned
    from vecsearch.registry import get_puzzle

    puzzle = _turned_by(get_puzzle(args.puzzle), args.moves)
    start = puzzle.states(args.start) if args.start is not None else None
    if start is not None and len(start) != 1:
        _note(f"note: --start is a pattern: the search starts from the {len(start):,} states it matches")
    with _cluster(args) as client:
        if args.spill is not None and not args.owner_local and not is_partitioned(options.get("resume")):
            need = 2 * planner.two_bit_bytes(puzzle.rank_size) if puzzle.has_rank else 0
            _note(f"{puzzle.name}: spilling to {args.spill}: two tables of {format_size(need // 2)} on disk, plus"
                  " 8 bytes per child routed between segments, freed after each layer")
        return puzzle, bfs(puzzle, start, max_depth=args.max_depth, threads=args.threads, mode=args.mode,
                           max_memory=args.max_memory, progress=_progress(args), client=client,
                           segments=args.segments, spill=args.spill, owner_local=args.owner_local, **options)


@contextlib.contextmanager
def _cluster(args):
    """The dask client ``--workers`` or ``--scheduler`` asks for (None for neither), closed after."""
    if args.workers is None and args.scheduler is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--workers and --scheduler need dask.distributed: pip install 'vecsearch[dask]'") from None
    if args.scheduler is not None:
        with Client(args.scheduler) as client:
            yield client
        return
    from vecsearch.engine.runtime.cluster import local_cluster

    with local_cluster(args.workers) as client:
        yield client


def _run_classes(args) -> int:
    """``bfs --symmetry``: classes and positions per layer (with a bitset, or over two-bit tables:
    ``--mode twobit``, or partitioned)."""
    from vecsearch.errors import SearchInterrupted

    if args.antipodes:
        raise InputError("--symmetry prints classes, not the farthest states: not with --antipodes")
    partitioned = [option for option, value in (("--segments", args.segments), ("--workers", args.workers),
                                                ("--scheduler", args.scheduler), ("--spill", args.spill),
                                                ("--owner-local", args.owner_local), ("--mode layers",
                                                                                      args.mode == "layers"))
                   if value]
    if (args.checkpoint or args.resume) and partitioned:
        raise InputError(f"--symmetry saves checkpoints in two-bit mode, in one process: not with"
                         f" {', '.join(partitioned)}")
    try:
        _, result = _enumerate(args, symmetry=args.symmetry, checkpoint=args.checkpoint, resume=args.resume)
    except SearchInterrupted as stop:
        print(stop.result)
        return _interrupted(stop)
    if args.csv:
        print("depth,classes,positions,seconds")
        for r in result.records:
            print(f"{r.depth},{r.classes},{r.positions},{r.seconds:.6f}")
    else:
        print(result)
    return 0


def _interrupted(stop) -> int:
    """Say where an interrupted ``bfs`` stopped and how to continue it; the exit status."""
    again = f"; continue with --resume {stop.checkpoint}" if stop.checkpoint else \
        "; run it with --checkpoint DIR to be able to continue after an interruption"
    print(f"vecsearch: interrupted after depth {stop.result.depth}{again}", file=sys.stderr)
    return 130


def _progress(args) -> bool:
    """The ``--progress`` choice; by default on when stderr is a terminal and tqdm is installed."""
    if args.progress is not None:
        return args.progress
    if not sys.stderr.isatty():
        return False
    return importlib.util.find_spec("tqdm") is not None


def run_bfs(args) -> int:
    from vecsearch.engine.layered.enumeration import KEEP_FARTHEST
    from vecsearch.errors import MemoryLimitError, SearchInterrupted

    if args.symmetry is not None:
        return _run_classes(args)
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
        return _interrupted(stop)
    _print_profile(result.profile, args.csv)
    if args.antipodes:
        _print_farthest(puzzle, result, args.antipodes)
    return 0


def run_batch(args) -> int:
    from vecsearch.batch_io import looks_like_jsonl, read_jsonl, read_scrambles, report_errors, run_jsonl, run_judge
    from vecsearch.errors import InvalidPuzzleInput, UnknownPuzzle
    from vecsearch.registry import get_problem, get_puzzle

    data = read_input(args.file, binary=True)
    jsonl = args.input == "jsonl" or (args.input == "auto" and looks_like_jsonl(data))
    try:
        problem = get_problem(args.puzzle)
    except UnknownPuzzle:
        problem = None
    if args.format == "judge" and (problem is None or jsonl):
        raise InvalidPuzzleInput("--format judge needs a problem's judge-format input (see `vecsearch list`)")
    if args.moves is not None and problem is not None:
        raise InputError(f"--moves turns a permutation puzzle by some of its moves; {args.puzzle} is a problem")
    if problem is None or jsonl:
        puzzle = problem.puzzle if problem is not None else _turned_by(get_puzzle(args.puzzle), args.moves)
        max_depth = args.max_depth
    if jsonl:
        instances, errors = read_jsonl(puzzle, data)
    elif problem is None:  # a permutation puzzle's instances may be a twsearch scramble file
        instances, errors = read_scrambles(puzzle, data, input_name(args.file))
    else:
        puzzle = problem.puzzle
        instances, errors = problem.batch_instances(data)
        max_depth = args.max_depth if args.max_depth is not None else problem.max_depth
    report_errors(input_name(args.file), errors)
    with _cluster(args) as client:
        options = dict(method=args.method, max_depth=max_depth, chunk_size=args.chunk_size, client=client,
                       progress=args.progress, stream=sys.stdout.buffer, report=_note)
        if args.format == "judge":
            run_judge(problem, instances, args.output, errors=errors, **options)
        else:
            run_jsonl(puzzle, instances, errors, args.output, **options)
    return 2 if errors else 0


def _note(text: str) -> None:
    print(f"vecsearch: {text}", file=sys.stderr, flush=True)


def _print_profile(profile, csv: bool) -> None:
    print(profile.to_csv() if csv else profile, end="" if csv else "\n", flush=True)


def _print_farthest(puzzle, result, count: int) -> None:
    """The least ``count`` states of the last layer (the same on every run: a layer's order
    depends on the threads that made it)."""
    import numpy as np

    states = result.last_layer.states if result.last_layer is not None else np.empty(0, np.int64)
    order = np.lexsort(states.T[::-1]) if states.ndim > 1 else np.argsort(states, kind="stable")
    where = "the farthest" if result.complete else "where the search stopped"
    print(f"states at depth {result.depth} ({where}; {result.layer_sizes[-1]:,} in all), {min(count, len(states))}"
          f" shown:")
    for state in states[order[:count]]:
        print(puzzle.format_state(state))


def run_profile(args) -> int:
    if args.plot is not None:  # before the search: a missing matplotlib or a wrong file should not waste it
        from vecsearch.optional import require

        require("matplotlib", "vecsearch profile --plot")
        from matplotlib.figure import Figure

        formats = Figure().canvas.get_supported_filetypes()
        if Path(args.plot).suffix.lstrip(".").lower() not in formats:
            raise InputError(f"cannot plot to {args.plot}: name a file of one of the types"
                             f" {', '.join(sorted(formats))}")
        _writable_file(args.plot)
    if args.csv is not None:
        _writable_file(args.csv)
    _, result = _enumerate(args)
    print(result.profile)
    if args.phases:
        print()
        print(result.profile.phase_table())
    if args.csv is not None:
        _write(args.csv, lambda path: Path(path).write_text(result.profile.to_csv()))
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        figure = result.profile.plot(label=result.puzzle.name)
        _write(args.plot, figure.savefig)
    return 0


def run_phases(args) -> int:
    from vecsearch.puzzles.permutation import phases
    from vecsearch.puzzles.permutation.patterns import permutation_puzzle

    puzzle = _turned_by(permutation_puzzle(args.puzzle), args.moves)
    goal = args.goal if args.goal is not None else puzzle.format_state(puzzle.goal_states()[0])
    result = phases(puzzle, args.start, goal, threads=args.threads, max_memory=args.max_memory)
    print(result)
    for state in result.farthest[:3]:
        print(f"  e.g. {result.puzzle.format_state(state)}")
    return 0


def _writable_file(path: str) -> None:
    """Refuse, before a search, a file it could not write after it: a folder, a missing folder,
    or one that takes no files."""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"cannot write {path}: it is a directory")
    folder = target.resolve().parent
    if not folder.is_dir():
        raise InputError(f"cannot write {path}: no directory {folder}")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None


def _write(path: str, save) -> None:
    try:
        save(path)
    except (OSError, ValueError) as error:
        raise InputError(f"cannot write {path}: {getattr(error, 'strerror', None) or error}") from None


def run_warm_up(args) -> int:
    from vecsearch.engine.batch import methods
    from vecsearch.engine.batch.solve import distance_table
    from vecsearch.engine.batch.warmup import kernel_set, warm_up
    from vecsearch.engine.runtime import jit
    from vecsearch.registry import WARM_UP_EXAMPLES, get_puzzle

    if not args.puzzles and not args.all:
        raise InputError("name the puzzles to warm up, or give --all")
    for option, given in (("--databases", args.databases), ("--table", args.table)):
        if given and not args.puzzles:
            raise InputError(f"{option} builds for the puzzles named (--all names none): name them")
    named = [get_puzzle(name) for name in args.puzzles]  # every name checked before compiling anything
    puzzles = list({id(p): p for p in named}.values())
    for puzzle in named if args.databases else ():
        if not args.databases.startswith("pdb") or args.databases not in puzzle.heuristic_names:
            offered = [name for name in puzzle.heuristic_names if name.startswith("pdb")] or ["none"]
            raise InputError(f"{puzzle.name} has no pattern databases {args.databases!r}; it has: {', '.join(offered)}")
    for puzzle in named if args.table else ():
        try:
            methods.check("table", puzzle)  # a rank and predecessors
        except methods.MethodError as error:
            raise InputError(f"--table: {error}") from None
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
    for puzzle in named if args.databases else ():
        from vecsearch.engine.heuristic.evaluation import resolve_heuristic

        made = resolve_heuristic(puzzle, puzzle.goal_states(), args.databases, progress=None)
        print(f"{puzzle.name:<16} {made.description}: {made.nbytes / 2**20:.0f} MiB,"
              f" {'built' if made.details.get('built') else 'loaded'} in {made.build_seconds:.2f} s", flush=True)
    for puzzle in named if args.table else ():
        began = time.perf_counter()
        table = distance_table(puzzle, storage=methods.table_storage(puzzle))
        where = "kept in memory only: nothing could be saved" if table.file is None else table.file
        print(f"{puzzle.name:<16} distance table ({table.storage}): {table.nbytes / 2**20:.0f} MiB,"
              f" {'loaded' if table.loaded else 'built'} in {time.perf_counter() - began:.2f} s ({where})", flush=True)
    return 0


def run_explore(args) -> int:
    from vecsearch.explorer import explore
    from vecsearch.registry import get_puzzle

    puzzle = _turned_by(get_puzzle(args.puzzle), args.moves)
    start = puzzle.state(args.start) if args.start is not None else None
    goal = puzzle.state(args.goal) if args.goal is not None else None
    _writable_file(args.output)  # say so before the search, not after
    explorer = explore(puzzle, start, goal, max_depth=args.max_depth, max_memory=args.max_memory, threads=args.threads)
    _write(args.output, lambda path: explorer.save(path, per_layer=args.per_layer))
    _note(f"wrote {args.output}: {explorer!r}")
    if goal is not None and explorer.solution is None:
        _note("no path from the start to the goal" + (f" within {args.max_depth} moves" if args.max_depth is not None
                                                        else ""))
    return 0


def run_kernels(args) -> int:
    from vecsearch.engine.runtime.codegen import layer_kernels, module_files
    from vecsearch.registry import get_puzzle

    for puzzle in [get_puzzle(name) for name in args.puzzles]:  # every name checked before writing anything
        kernels = layer_kernels(puzzle)
        print(f"{puzzle.name}: the kernels of family {kernels.FAMILY!r} ({kernels.__name__})")
        for template, file in module_files(kernels):
            print(f"  {template:<40} {file}")
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


def _parse(parser, argv):
    """The arguments, with ``solve``'s optional FILE also taken after options (``solve
    sliding-4x4 --goal korf korf100.txt``), which argparse alone does not do."""
    args, extra = parser.parse_known_args(argv)
    if len(extra) == 1 and not extra[0].startswith("-") and getattr(args, "file", "") is None:
        given = "--sample" if args.sample else "--text" if args.text is not None else \
            "--start" if args.start is not None else None
        if given:
            parser.error(f"argument FILE: not allowed with {given}")
        args.file = extra[0]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.run == "run_solve" and args.start is None and \
            (args.method is not None or args.max_depth is not None or args.moves is not None):
        parser.error("--method, --max-depth and --moves go with --start (one instance); a problem's input is"
                     " answered as its judge asks")
    return args


def _print_notes() -> None:
    """Show ``DefinitionNote`` warnings (what a definition's reader left out) as one line each."""
    import warnings

    from vecsearch.errors import DefinitionNote

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, DefinitionNote):
            print(f"vecsearch: note: {message}", file=sys.stderr, flush=True)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


def main(argv=None) -> int:
    from vecsearch.errors import VecsearchError
    from vecsearch.optional import MissingDependency

    args = _parse(build_parser(), argv)
    _print_notes()
    run = COMMANDS[args.run]
    try:
        return run(args)
    except (VecsearchError, InputError, MissingDependency) as error:
        print(f"vecsearch: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("vecsearch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def command_line() -> NoReturn:
    """The ``vecsearch`` command (and ``python -m vecsearch``): :func:`main`, then a quick exit.

    An interpreter that loaded numba's kernels takes 0.1-0.2 s to tear itself down (its modules'
    and LLVM's finalisers), as long as many a judge problem's whole search. When ``main`` returns,
    everything the command wrote is closed; the exit does what the interpreter's own exit does
    before tearing down (the threads' exit hooks, the threads joined, the exit handlers), flushes
    the standard streams, and ends the process with ``main``'s status. An exception ends the
    process the usual way.

    Before numpy and numba load (``import vecsearch`` loads neither), the process is set up for a
    command (``vecsearch._startup``: one BLAS thread, numba without coverage.py).
    """
    prepare_process()
    status = main()
    threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter's exit runs first: threads joined
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to tell
            stream.flush()
    os._exit(status)


COMMANDS = {command.__name__: command for command in (run_solve, run_bfs, run_profile, run_phases, run_batch,
                                                      run_warm_up, run_explore, run_kernels, run_list)}


if __name__ == "__main__":
    command_line()
