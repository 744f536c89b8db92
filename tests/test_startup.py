"""Fixed costs: a lean ``import vecsearch``, the method picked by cost, compiles announced, warm-up."""

import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from command_line import run, run_process
from numba.core import event

import vecsearch as vs
from vecsearch.engine.batch import methods, strategies
from vecsearch.engine.batch import solve as solve_module
from vecsearch.engine.batch.instances import instances_from
from vecsearch.engine.runtime import jit


def python(code: str, **env):
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout


def with_variable(code: str, name: str, value: str | None) -> str:
    """What ``code`` prints (stripped) in a new process whose environment variable ``name`` is
    ``value`` (None: unset)."""
    environment = {k: v for k, v in os.environ.items() if k != name}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=environment if value is None else {**environment, name: value})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# --- import vecsearch ------------------------------------------------------------------------------
def test_import_loads_the_list_of_public_names_only():
    loaded = python("import sys, vecsearch\n"
                    "print(*sorted(m for m in sys.modules if m.split('.')[0] in ('vecsearch', 'numpy', 'numba')))")
    assert loaded.split() == ["vecsearch", "vecsearch.lazy"]


def test_the_command_line_gives_its_process_one_blas_thread_unless_told_otherwise():
    """Set before numpy loads: no command does linear algebra, and OpenBLAS's threads spin at
    every start-up."""
    code = ("import os, sys\n"
            "sys.argv = ['vecsearch', 'list']\n"
            "from vecsearch import cli\n"
            "cli.main = lambda: print(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules) or 0\n"
            "cli.command_line()\n")
    for told, expected in ((None, "1 False"), ("3", "3 False")):
        assert with_variable(code, "OPENBLAS_NUM_THREADS", told) == expected


def test_the_command_lines_numba_does_not_import_coverage_unless_asked_to_report_to_it():
    """numba imports coverage.py only to report compiled lines to it, under NUMBA_JIT_COVERAGE=1:
    a command's process skips it (50-70 ms of its start-up); the user's own imports still get it."""
    code = ("import os, sys\n"
            "from vecsearch._startup import prepare_process\n"
            "prepare_process()\n"
            "import numba\n"
            "from numba.misc import coverage_support\n"
            "print('coverage' in sys.modules, coverage_support.coverage_available)\n"
            "import coverage\n"
            "print(coverage.Coverage.__name__)\n")
    for told, expected in ((None, "False False\nCoverage"), ("1", "True True\nCoverage")):
        assert with_variable(code, "NUMBA_JIT_COVERAGE", told) == expected


def test_a_problem_loads_its_own_family_only_and_no_two_families_know_one_name():
    loaded = python("import sys, vecsearch as vs; vs.get_problem('gap'); vs.get_puzzle('cubes')\n"
                    "print(' '.join(sorted(m for m in sys.modules if m.startswith('vecsearch.puzzles.'))))")
    assert {m.split(".")[2] for m in loaded.split()} == {"gap", "cubes"}
    from vecsearch import registry

    modules = list(registry._modules())
    for kind in ("PUZZLES", "PROBLEMS"):
        names = [name for module in modules for name in getattr(module, kind)]
        assert len(names) == len(set(names)), kind
    for name in [*registry.problem_catalogue(), "pocket-htm", "pocket-full", "sliding-3x4", "pancake-7",
                 "topspin-8-4", "lrx-6"]:
        knowing = [m for m in modules if m.from_name(name) is not None or name in m.PROBLEMS]
        assert len(knowing) == 1 and vs.get_puzzle(name).name == (
            knowing[0].from_name(name) or knowing[0].PROBLEMS[name]().puzzle).name, name


def test_a_definition_file_loads_the_permutation_puzzles_only():
    definition = os.path.join(os.path.dirname(__file__), "data", "definitions", "twsearch-main-skewb.tws")
    loaded = python(f"import sys, vecsearch as vs\n"
                    f"vs.get_puzzle({definition + ':qtm'!r})\n"
                    "print(' '.join(sorted(m for m in sys.modules if m.startswith('vecsearch.puzzles.'))))")
    assert {m.split(".")[2] for m in loaded.split()} == {"permutation"}
    with pytest.raises(vs.UnknownPuzzle, match="is a definition file, not a problem"):
        vs.get_problem(definition)


def test_every_public_name_loads_on_first_use():
    assert set(vs.__all__) <= set(dir(vs))
    for name in vs.__all__:
        assert getattr(vs, name) is not None
    from vecsearch import solve_many
    from vecsearch.engine.batch.many import solve_many as original
    assert solve_many is original
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = vs.no_such_name


def test_kernels_loaded_from_the_cache_import_no_compiler_and_a_compile_after_them_works():
    solving = ("import sys, vecsearch as vs\n"
               "print(len(vs.solve(vs.get_puzzle('sliding-3x3'), '1 2 3 4 5 x 7 8 6')))\n")
    python(solving)  # the kernels compiled, or already in the cache
    loaded = python(solving + "print(*(m in sys.modules for m in ('numba.np.linalg', "
                              "'numba.core.inline_closurecall')))")
    assert loaded.split() == ["1", "False", "False"]  # numba's full refresh and its inliner: not imported
    compiled = python(solving + textwrap.dedent("""\
        import numpy as np
        from numba import njit
        from numba.core import inline_closurecall
        import vecsearch._numba_patches as options
        print(njit(lambda a: np.sort(a)[-1] + np.cumsum(a)[-1])(np.full(4, 2.0)))  # needs what the load left out
        print(isinstance(inline_closurecall.copy, options._ScopeSharingCopy))"""))
    assert compiled.split() == ["1", "10.0", "True"]


# --- a distance table only when it pays ------------------------------------------------------------
def test_a_table_pays_only_for_enough_instances():
    puzzle = vs.get_puzzle("sliding-3x3")
    one, two, many = (np.repeat(puzzle.goal_states(), n) for n in (1, 2, 10_000))
    assert methods.choose(puzzle, instances_from(puzzle, one)[0]) == "bidirectional"
    assert methods.choose(puzzle, instances_from(puzzle, two)[0]) == "pairs"
    assert methods.choose(puzzle, instances_from(puzzle, many)[0]) == "table"
    assert methods.table_pays(10 ** 6, 10 ** 6) and not methods.table_pays(10 ** 6, 1)


def test_one_line_builds_no_table_and_a_large_batch_does(monkeypatch):
    built = []
    original = solve_module.distance_table

    def counting(*args, **options):
        built.append(args)
        return original(*args, **options)

    monkeypatch.setattr(solve_module, "distance_table", counting)
    monkeypatch.setattr(strategies, "distance_table", counting)
    problem = vs.get_problem("eight")
    answers, errors = problem.solve_text("2 3 4 1 5 x 7 6 8\n")
    assert errors == [] and len(answers[0].output) == 19 and built == []
    found = vs.solve_many("sliding-3x3", ["2 3 4 1 5 x 7 6 8"] * 2000, problem.goal_state())
    assert found.method == "table" and len(built) == 1 and (found.lengths == 19).all()


# --- compiles announced -----------------------------------------------------------------------------
class FakeKernel:
    """Stands for a numba dispatcher in the ``numba:compile`` event."""

    def py_func(self):
        pass


@pytest.fixture
def announcing(monkeypatch):
    monkeypatch.setattr(jit, "announce", True)
    monkeypatch.setattr(jit, "subject", "fake-puzzle")
    monkeypatch.setattr(jit.compile_notice, "announced", False)


def fake_compile(until_announced: bool) -> None:
    """A compile that lasts until the notice is out (at most 10 s), or one that ends at once."""
    with event.trigger_event("numba:compile", data={"dispatcher": FakeKernel()}):
        waited = time.perf_counter()
        while until_announced and not jit.compile_notice.announced and time.perf_counter() - waited < 10:
            time.sleep(0.01)


def test_a_slow_compile_is_announced_once(announcing, capsys, monkeypatch):
    monkeypatch.setattr(jit, "ANNOUNCE_AFTER", 0.05)
    fake_compile(until_announced=True)
    fake_compile(until_announced=True)  # announced already: returns at once, says nothing more
    err = capsys.readouterr().err
    assert err == "vecsearch: compiling kernels for fake-puzzle (once; they are not cached: once per process)\n"


def test_a_quick_compile_or_a_quiet_library_says_nothing(announcing, capsys, monkeypatch):
    monkeypatch.setattr(jit, "ANNOUNCE_AFTER", 5.0)  # far longer than the quick compile, even on a busy machine
    fake_compile(until_announced=False)
    assert capsys.readouterr().err == "" and not jit.compile_notice.announced
    monkeypatch.setattr(jit, "announce", False)
    monkeypatch.setattr(jit, "ANNOUNCE_AFTER", 0.0)
    fake_compile(until_announced=False)
    time.sleep(0.2)  # a timer, had one been started, would have fired by now
    assert capsys.readouterr().err == "" and not jit.compile_notice.announced


def test_a_real_compile_is_announced_on_stderr():
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import numba
        from vecsearch.engine.runtime import jit
        jit.announce_compiles("demo")
        jit.ANNOUNCE_AFTER = 0.0
        numba.njit(lambda x: x + 1)(1)
        import time; time.sleep(0.2)
    """)], capture_output=True, text=True, timeout=600, env={**os.environ, "VECSEARCH_ANNOUNCE_COMPILE": "1"})
    assert done.stderr == "vecsearch: compiling kernels for demo (once; they are not cached: once per process)\n"


def test_two_threads_calling_a_kernel_being_compiled_count_its_compile_once():
    """numba says a thread takes its compiler lock before it has it: one that calls a kernel
    another thread compiles waits inside the event. The compile clock counts the seconds while
    any thread is inside, not each thread's."""
    import threading

    before = jit.compile_seconds()
    inside = threading.Event()

    def waiting():  # enters 0.1 s after the first, leaves 0.15 s after it: inside for 0.35 s
        inside.wait()
        time.sleep(0.1)
        with event.trigger_event("numba:compiler_lock"):
            time.sleep(0.35)

    second = threading.Thread(target=waiting)
    second.start()
    began = time.perf_counter()
    with event.trigger_event("numba:compiler_lock"):
        inside.set()
        time.sleep(0.3)
    second.join()
    wall = time.perf_counter() - began
    assert 0.45 <= jit.compile_seconds() - before <= min(wall + 0.01, 0.6)  # their union, not their sum (0.65)


# --- warm-up ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sliding-2x3", "lrx-6"])
def test_warm_up_compiles_what_solve_and_bfs_call(name):
    """In a new process: after ``warm_up`` nothing compiles or loads, whatever the call (a whole
    enumeration in each mode, a solve, a batch answered from a table)."""
    out = python(f"""
        import numpy as np
        import vecsearch as vs
        from vecsearch.engine.runtime import jit
        puzzle = vs.get_puzzle({name!r})
        vs.warm_up(puzzle, validate=False, batches=True)
        jit.compile_log = []
        start = puzzle.start_states()
        far = vs.bfs(puzzle, start).last_layer.states
        vs.bfs(puzzle, start, mode="twobit")
        vs.solve(puzzle, far[:1], start)
        vs.solve_many(puzzle, np.repeat(far[:1], 10_000, axis=0), start, method="table")
        print(jit.compile_log)
    """)
    assert out == "[]\n"


def test_warm_up_prints_seconds_per_kernel_and_a_total():
    code, out, err = run_process("warm-up", "sliding-3x3", "eight", "sliding-2x3")  # a new process: nothing loaded
    assert code == 0 and err == ""
    lines = out.splitlines()
    kernels = [line.split() for line in lines if not line.startswith("total") and "(all)" not in line]
    assert kernels and all(len(k) == 4 and k[0] == "sliding-3x3" and k[3] == "s" for k in kernels)
    assert sum(1 for line in lines if "(all)" in line) == 2  # eight is sliding-3x3: warmed once
    assert lines[-2].startswith("sliding-2x3") and "every kernel was ready" in lines[-2]  # one family
    assert lines[-1].startswith("total ") and f"{len(kernels)} kernels" in lines[-1] and "2 puzzles" in lines[-1]


@pytest.mark.parametrize("args,message", [
    (("warm-up", "sliding-2x3", "nosuch"), "unknown puzzle 'nosuch'"),
    (("warm-up",), "name the puzzles to warm up, or give --all"),
])
def test_warm_up_mistakes_exit_2(args, message):
    code, out, err = run(*args)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
