"""The smaller things a user meets: messages that point at the right token, compiles that say what
they compile, kernels not recompiled for an edited comment, a hint on Ctrl-C, results displayed
briefly in a notebook, a profile plot drawn once."""

import json
import os
import signal
import subprocess
import sys
import types
from pathlib import Path

import pytest

import vecsearch as vs
from vecsearch.engine.runtime import jit

HANG = 1800


def test_a_wrong_move_among_moves_is_named_by_its_own_token(tmp_path):
    path = tmp_path / "turns.tws"
    path.write_text("Set S 4 1\nMove A\nS\n2 3 4 1\nEnd\n")
    puzzle = vs.get_puzzle(str(path))
    with pytest.raises(vs.InvalidPuzzleInput, match=r"token 2 is 'E'; expected a move name \(A A2 A'\)"):
        puzzle.state("A E")


def test_the_compile_notice_names_the_family_and_is_on_in_python(monkeypatch):
    kernels = types.ModuleType("vecsearch_kernels_example_12345678")
    kernels.FAMILY = "puzzles of your own"
    exec("def kernel():\n    pass\n", kernels.__dict__)
    monkeypatch.setitem(sys.modules, kernels.__name__, kernels)
    monkeypatch.setattr(jit, "subject", None)
    fake = types.SimpleNamespace(py_func=kernels.kernel, _cache=None)
    assert jit.notice(fake) == "vecsearch: compiling kernels for puzzles of your own (once; they are not cached:" \
                               " once per process)"
    env = {k: v for k, v in os.environ.items() if k != "VECSEARCH_ANNOUNCE_COMPILE"}
    done = subprocess.run([sys.executable, "-c", "from vecsearch.engine.runtime import jit; print(jit.announce)"],
                          env=env, capture_output=True, text=True, timeout=HANG)
    assert done.stdout == "True\n"  # a script or a notebook hears of a long compile too


PUZZLE = '''
import vecsearch as vs

STEP = {step}


def expand(state, tables, children, moves):
    children[0] = (state + STEP) % 1000  # {comment}
    children[1] = (state + 1000 - STEP) % 1000
    moves[0], moves[1] = 0, 1
    return 2


puzzle = vs.Puzzle("cycle", expand, 2, rank=vs.Rank(lambda s, t: s, 1000), start=0)
'''
RUN = ("import json, cycle, vecsearch as vs; from vecsearch.engine.runtime import codegen; r = vs.bfs(cycle.puzzle);"
       " files = [f for _, f in codegen.module_files(codegen.layer_kernels(cycle.puzzle))];"
       " print(json.dumps([r.depth, r.total_states, files]))")


@pytest.mark.slow  # three processes, one compiling
def test_an_edited_comment_compiles_no_kernel_and_an_edited_rule_takes_effect(tmp_path):
    """Each run a new process, on the suite's kernel cache (the family's modules, written by
    whichever process made them first; numba caches cycle.py's functions beside it)."""
    files = set()

    def run(step, comment):
        (tmp_path / "cycle.py").write_text(PUZZLE.format(step=step, comment=comment))
        # No bytecode of cycle.py: Python trusts a .pyc while its source keeps its size and its mtime in whole
        # seconds, and two of these edits (STEP 7, then 5) may fall within one second
        done = subprocess.run([sys.executable, "-B", "-c", RUN], env=dict(os.environ, PYTHONPATH=str(tmp_path)),
                              capture_output=True, text=True, timeout=HANG)
        assert done.returncode == 0, done.stderr
        *answer, family = json.loads(done.stdout)
        files.update(family)
        return answer

    def kernel_files():
        return {path: os.stat(path).st_mtime_ns for path in files}

    assert run(1, "one way") == [500, 1000]
    written = kernel_files()
    assert run(1, "the other way") == [500, 1000]
    assert kernel_files() == written and len(files) == len(written)  # the kernels hold no code of the puzzle's
    assert run(7, "the other way") == [500, 1000]  # a new rule, its own answer (7 generates the cycle too)
    assert run(5, "the other way") == [100, 200]  # steps of 5: a cycle of 200


def test_ctrl_c_of_a_search_without_a_checkpoint_says_how_to_keep_one():
    held = [sys.executable, str(Path(__file__).parent / "held.py"), "layers", "3"]
    process = subprocess.Popen(held + ["bfs", "sliding-3x3", "--mode", "layers", "--threads", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in process.stderr:
            if line.startswith("held.py: held"):
                break
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=HANG)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, err
    assert "run it with --checkpoint DIR to be able to continue after an interruption" in err


def test_results_show_briefly_in_a_notebook():
    result = vs.bfs("sliding-2x3")
    assert repr(result).startswith("<SearchResult sliding-2x3: every state; 360 states over depths 0..21")
    html = result._repr_html_()
    assert "360 states" in html and "<details>" in html and "LayerRecord" not in html
    solved = vs.solve_many("sliding-2x3", ["1 2 3 4 x 5", "1 2 3 x 4 5"])
    page = solved._repr_html_()
    assert "2 of 2 solved" in page and "<td>1</td>" in page and "<td>2</td>" in page


def test_a_profile_plot_is_drawn_once_in_a_notebook():
    import matplotlib

    matplotlib.use("Agg")
    figure = vs.bfs("sliding-2x3").profile.plot()
    # pyplot's inline backend draws the figure at the end of the cell; its own display adds nothing
    assert figure._ipython_display_() is None and type(figure).__name__ == "ProfileFigure"
    import matplotlib.pyplot as pyplot

    pyplot.close(figure)


def test_the_memory_refusal_names_the_ways_beyond():
    with pytest.raises(vs.MemoryLimitError) as refused:
        vs.bfs("sliding-3x3", max_memory="1K")
    assert "the least that surely fits is the two-bit table" in str(refused.value)
    assert "22.1 KiB at the start, up to" in str(refused.value) and "--max-depth" in str(refused.value)
