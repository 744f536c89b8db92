"""The command line's arguments: commands, options, help texts and examples."""

from __future__ import annotations

import argparse
import re

EXAMPLES = """\
examples:
  vecsearch solve eight --sample            solve the bundled POJ 1077 sample
  vecsearch solve eight puzzles.txt         one shortest move string per line
  vecsearch solve sliding-4x4 --goal korf korf100.txt
                                            15-puzzles (0 = blank, goal blank first), IDA* + pattern databases
  vecsearch solve cubes --sample            Cubic Eight-Puzzle (POJ 3131); also: solitaire, chessboard, gap
  vecsearch solve 2x2x2.tws --start "R U R' F"   one instance of any puzzle: a shortest move string
  vecsearch solve examples/jugs.py --start "8 0 0" --goal "4 4 0"
                                            a puzzle of your own: path/to/file.py[:attribute] or module:attribute
  vecsearch bfs sliding-3x4 --csv           layer sizes of the whole 3x4 space, as CSV
  vecsearch bfs eight --start "1 2 3 4 x 5 6 7 8" --max-depth 10
  vecsearch bfs pocket-full --mode twobit --antipodes 3     2 bits per state; three farthest states
  vecsearch bfs pancake-12 --max-memory 2G --checkpoint ck  Ctrl-C, then --resume ck to continue
  vecsearch profile cubes --plot cubes.png --csv cubes.csv
                                            the layer profile as a table, a plot and a CSV file
  vecsearch bfs 2x2x2.tws --start "? ? ? ? 5 6 7 8"
  vecsearch bfs cube.tws --symmetry "rotations, mirror (L R)"   classes modulo rotations and a mirror
                                            from every state a pattern matches (? and identical pieces)
  vecsearch phases 2x2x2.tws --from "? ? ? ? 5 6 7 8"
                                            God's number between two phases: the D face done, then solved
  vecsearch batch eight many.txt -o out.jsonl
                                            many instances: streamed JSON lines, resumable (re-run to resume)
  vecsearch batch eight many.txt --format judge -o out.txt
  vecsearch batch sliding-3x4 pairs.jsonl   JSON lines {"id", "start", "goal"} in, JSON lines out
  vecsearch warm-up pancake-11 sliding-3x4  compile ahead of time (a machine, a container image, a worker)
  vecsearch warm-up --all                   every built-in puzzle family
  vecsearch warm-up sliding-4x4 --databases pdb78
  vecsearch warm-up sliding-3x4 --table     its distance table too, for batches on this machine
                                            build the 7-8 pattern databases once (then solve uses them)
  vecsearch explore sliding-3x4 -o page.html
                                            a page to look around the whole space (offline, shareable)
  vecsearch explore eight --start "8 6 7 2 5 4 3 x 1" --goal "1 2 3 4 5 6 7 8 x" -o path.html
                                            a bidirectional search: both frontiers and the solution
  vecsearch kernels eight                   where the family's generated kernel modules are (one per template)
  vecsearch list                            the built-in puzzles and problems
"""


class _Parser(argparse.ArgumentParser):
    """argparse taking a word that starts with a dash and a digit (``-5G``, ``-3,4``) as a value,
    not an unknown option, as Python 3.13's argparse does (3.11's took only ``-5`` and ``-0.5``):
    ``--max-memory -5G`` is then told what a memory size is, not that it lacks an argument."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"-\.?\d")


def build_parser() -> argparse.ArgumentParser:
    from vecsearch.engine.batch import methods

    parser = _Parser(
        prog="vecsearch", description="Exhaustive state-space search for combinatorial puzzles.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"vecsearch {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    solve = commands.add_parser("solve", help="answer a contest problem's input in its judge format, or one instance"
                                " of any puzzle (--start)",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    solve.add_argument("problem", metavar="PROBLEM", help="problem name (see `vecsearch list`); with --start, any"
                       " puzzle: a name, FILE.tws[:METRIC], module:attribute or path/to/file.py[:attribute]")
    source = solve.add_mutually_exclusive_group()
    source.add_argument("file", nargs="?", metavar="FILE", help="input file (default: standard input)")
    source.add_argument("--sample", action="store_true", help="use the problem statement's bundled sample input")
    source.add_argument("--text", metavar="INPUT", help="the input itself, in the judge format, e.g."
                        " --text \"2 3 4 1 5 x 7 6 8\"")
    source.add_argument("--start", metavar="STATE", help="one instance of the puzzle from this state (its text"
                        " format); prints a shortest move string, exit 1 when there is none")
    solve.add_argument("--goal", metavar="GOAL", help="with --start: the goal state (default: the puzzle's goal);"
                       " else the goal convention of problems with several (sliding-RxC: default = tiles 1..N-1 then"
                       " the blank; korf = the blank, then 1..N-1)")
    solve.add_argument("--method", default=None, choices=methods.names(one=True), metavar="M",
                       help=f"with --start: {', '.join(methods.names(one=True))} (default: bidirectional, or bfs"
                       " for a goal given as a condition)")
    solve.add_argument("--max-depth", type=_non_negative, metavar="D", help="with --start: longer answers count as"
                       " none")
    _add_moves_argument(solve, "with --start: ")
    solve.set_defaults(run="run_solve")

    bfs = commands.add_parser("bfs", help="enumerate the states reachable from a start and print the profile",
                              epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_search_arguments(bfs)
    bfs.add_argument("--csv", action="store_true", help="print the profile as CSV")
    bfs.add_argument("--checkpoint", metavar="DIR", help="save the search after every layer in DIR (a two-bit table"
                     " slow to write: after enough layers that saving takes at most a tenth of the time)")
    bfs.add_argument("--resume", metavar="DIR", help="continue the search saved in DIR (and keep saving there)")
    bfs.add_argument("--antipodes", type=_non_negative, metavar="N", help="print up to N of the farthest states")
    bfs.add_argument("--symmetry", metavar="SPEC", help="enumerate modulo symmetry (permutation puzzles): print"
                     " classes and positions per layer; SPEC is 'rotations' (the definition's whole-puzzle"
                     " rotations), 'mirror (L R)' (the mirror that turns L into R', R into L' and every other move"
                     " into its inverse), or both: 'rotations, mirror (L R)'; with a bitset, or over two-bit"
                     " tables with --mode twobit or partitioned (--segments, --workers, --scheduler, --spill,"
                     " --owner-local)")
    bfs.set_defaults(run="run_bfs")

    profile = commands.add_parser("profile", help="enumerate like bfs; print the profile, plot it, save it as CSV",
                                  epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_search_arguments(profile)
    profile.add_argument("--plot", metavar="FILE",
                         help="write the profile plot to FILE (.png, .svg, .pdf; needs matplotlib)")
    profile.add_argument("--csv", metavar="FILE", help="write the profile as CSV to FILE")
    profile.add_argument("--phases", action="store_true", help="also print where each layer's time went: scan,"
                         " unrank, expand, rank, claim and compact seconds (the CSV always has them)")
    profile.set_defaults(run="run_profile")
    phases = commands.add_parser("phases", help="from every state matching one pattern, how far to the nearest"
                                 " state matching another (God's number between two phases)",
                                 epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    phases.add_argument("puzzle", metavar="PUZZLE", help="a permutation puzzle: a built-in or a definition file"
                        " FILE.tws[:METRIC] (also .def, .kpuzzle.json)")
    phases.add_argument("--from", dest="start", required=True, metavar="PATTERN",
                        help="where the phase starts: the solved state with the pieces that do not matter written ?"
                        " (or made identical by a shared number), e.g. \"? ? ? ? 5 6 7 8\"")
    phases.add_argument("--to", dest="goal", metavar="PATTERN", help="where it ends (default: the solved state)")
    phases.add_argument("--max-memory", type=_memory_size, metavar="SIZE", help="memory the search may use")
    phases.add_argument("--threads", type=_positive, metavar="N", help="worker threads (default: all cores)")
    _add_moves_argument(phases)
    phases.set_defaults(run="run_phases")

    batch = commands.add_parser("batch", help="solve a file of many instances (streamed, resumable, parallel)",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    batch.add_argument("puzzle", metavar="PUZZLE", help="puzzle or problem name (see `vecsearch list`), a"
                       " definition file FILE.tws[:METRIC], or a puzzle of yours: module:attribute or"
                       " path/to/file.py[:attribute]")
    batch.add_argument("file", metavar="FILE", help="instances: JSON lines {\"id\", \"start\", \"goal\"} or the"
                       " problem's judge format (- for standard input)")
    batch.add_argument("-o", "--output", metavar="OUT", help="write here as chunks finish; re-running with the same"
                       " OUT resumes (default: standard output)")
    batch.add_argument("--format", choices=("jsonl", "judge"), default="jsonl",
                       help="jsonl: one record per instance (default); judge: the judge output, in input order")
    batch.add_argument("--input", choices=("auto", "jsonl", "judge"), default="auto",
                       help="input format (default: JSON lines if the file starts with '{', else the problem's"
                       " judge format, or a permutation puzzle's twsearch scramble file: Scramble, ScrambleState and"
                       " ScrambleAlg blocks)")
    batch.add_argument("--method", default="auto", choices=("auto", *methods.METHODS), metavar="M",
                       help=f"auto (default), or one of {', '.join(methods.METHODS)}")
    batch.add_argument("--max-depth", type=_non_negative, metavar="D", help="longer answers count as none")
    batch.add_argument("--chunk-size", type=_positive, metavar="N", help="instances per chunk (default: by method)")
    _add_moves_argument(batch)
    _add_cluster_arguments(batch.add_argument_group("solving on a dask.distributed cluster (pip install"
                                                    " 'vecsearch[dask]')"), "send the chunks", "")
    batch.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="tqdm progress bar on standard error (default: when it is a terminal)")
    batch.set_defaults(run="run_batch")

    warm = commands.add_parser("warm-up", help="compile (or load) the kernels that solve and bfs will call, ahead of"
                               " time; prints seconds per kernel",
                               epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    warm.add_argument("puzzles", nargs="*", metavar="PUZZLE", help="puzzle or problem names (see `vecsearch list`),"
                      " FILE.tws, module:attribute or path/to/file.py[:attribute]")
    warm.add_argument("--all", action="store_true", help="every built-in puzzle family (one member per set of kernels)")
    warm.add_argument("--databases", metavar="HEURISTIC", help="also build (once) the pattern databases of this"
                      " heuristic of the puzzles named, e.g. pdb78 for sliding-4x4 (2-4 minutes, 288 MB)")
    warm.add_argument("--table", action="store_true", help="also build (once) the distance table towards each named"
                      " puzzle's goal, which batches of it then map (sliding-3x4: 60 MB, 6 s)")
    warm.set_defaults(run="run_warm_up")

    explore = commands.add_parser("explore", help="write a standalone HTML page to look around a space: its layers,"
                                  " a sample of each as pictures, neighbours, a solution",
                                  epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    explore.add_argument("puzzle", metavar="PUZZLE", help="puzzle name (see `vecsearch list`), or a definition file"
                         " FILE.tws[:METRIC]")
    explore.add_argument("--start", metavar="TEXT", help="the state to look around (default: the puzzle's start)")
    explore.add_argument("--goal", metavar="TEXT", help="also search from the start to this state, both ways: the"
                         " page shows the two frontiers and the solution")
    explore.add_argument("--max-depth", type=_non_negative, metavar="D", help="only the states within D moves (with"
                         " --goal: the longest path looked for)")
    explore.add_argument("--per-layer", type=_positive, default=48, metavar="N", help="states of each layer in the"
                         " page, spread evenly over the layer (default: 48)")
    explore.add_argument("--max-memory", type=_memory_size, metavar="SIZE", help="memory the search may use, e.g."
                         " 2G (default: 80%% of the available memory)")
    explore.add_argument("--threads", type=_positive, metavar="N", help="worker threads (default: all cores)")
    _add_moves_argument(explore)
    explore.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    explore.set_defaults(run="run_explore")

    kernels = commands.add_parser("kernels", help="print where the kernel modules generated for a puzzle's family are:"
                                  " one per kernel template, line for line the template's (tracebacks, numba"
                                  " --annotate and coverage point at them)",
                                  epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    kernels.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle or problem names (see `vecsearch list`),"
                         " FILE.tws, module:attribute or path/to/file.py[:attribute]")
    kernels.set_defaults(run="run_kernels")

    listing = commands.add_parser("list", help="name the built-in puzzles and problems")
    listing.set_defaults(run="run_list")
    return parser


def _add_search_arguments(parser) -> None:
    """The instance options of the enumerating commands (``bfs``, ``profile``)."""
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle name (see `vecsearch list`), a definition file"
                        " FILE.tws in the half-turn metric (FILE.tws:qtm for quarter turns, FILE.tws:given for"
                        " the moves as written), or a puzzle of yours: module:attribute or"
                        " path/to/file.py[:attribute] (a Puzzle, or a function returning one)")
    parser.add_argument("--start", metavar="TEXT", help="start state in the puzzle's text format, or (permutation"
                        " puzzles) moves from the solved state, e.g. \"R U2 F'\", or a pattern (? for what does"
                        " not matter: every state it matches) (default: its goal)")
    _add_moves_argument(parser)
    parser.add_argument("--max-depth", type=_non_negative, metavar="D", help="stop after depth D")
    parser.add_argument("--threads", type=_positive, metavar="N", help="worker threads (default: all cores)")
    parser.add_argument("--mode", choices=("auto", "layers", "twobit"), default="auto",
                        help="layers: stored layers and a bitset or hash set; twobit: 2 bits per rank (distance"
                             " mod 3); auto (default): what fits, two-bit for large rank spaces")
    parser.add_argument("--max-memory", type=_memory_size, metavar="SIZE",
                        help="memory the search may use, e.g. 500M or 4G (default: 80%% of the available memory,"
                             " at most half the machine's); a search that cannot fit is refused before it starts")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: when stderr is a terminal; needs tqdm)")
    split = parser.add_argument_group("partitioned two-bit search (spaces bigger than one process: on disk or a"
                                      " dask.distributed cluster, pip install 'vecsearch[dask]')")
    _add_cluster_arguments(split, "run", " (they must see the run directory at the same path: give --spill on a"
                           " shared disk)")
    split.add_argument("--segments", type=_positive, metavar="S", help="cut the table into S segments (default: 4"
                       " per worker)")
    split.add_argument("--spill", metavar="DIR", help="keep the segment tables and routed children in memory-mapped"
                       " files in DIR: a table larger than --max-memory then fits on disk (--owner-local: the"
                       " workers' own directory, {worker} standing for each worker's name)")
    split.add_argument("--owner-local", action="store_true", help="keep each segment's tables only on the worker"
                       " that owns it (its own disk and memory) and route children between workers unfiltered:"
                       " no shared directory (--checkpoint keeps the client's state)")


def _add_moves_argument(parser, when: str = "") -> None:
    """``--moves``: a permutation puzzle turned by some of its moves alone (``PermutationPuzzle.with_moves``)."""
    parser.add_argument("--moves", metavar="MOVES", help=f"{when}search a permutation puzzle with these of its moves"
                        " alone, as twsearch's --moves: \"U,R\" (each with its powers, as the metric makes them),"
                        " \"U,R2\" (R's half turn alone)")


def _add_cluster_arguments(group, work: str, scheduler_note: str) -> None:
    """``--workers N`` (a local cluster the command starts) or ``--scheduler ADDRESS``, one of
    them, each saying it will ``work`` there (``vecsearch.cli`` makes the client)."""
    cluster = group.add_mutually_exclusive_group()
    cluster.add_argument("--workers", type=_positive, metavar="N", help=f"{work} on a local cluster of N worker"
                         " processes")
    cluster.add_argument("--scheduler", metavar="ADDRESS", help=f"{work} on this dask.distributed scheduler's"
                         f" workers{scheduler_note}")


def _whole_number(text: str, low: int) -> int:
    """``text`` as a whole number of at least ``low``, or the error argparse reports (not its
    "invalid _positive value" for a word)."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low:
        raise argparse.ArgumentTypeError(f"expected a number >= {low}, got {text}")
    return value


def _non_negative(text: str) -> int:
    return _whole_number(text, 0)


def _memory_size(text: str) -> int:
    from vecsearch.engine.runtime.planner import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _positive(text: str) -> int:
    return _whole_number(text, 1)


def _version() -> str:
    from vecsearch import __version__

    return __version__
