"""Kernels compiled once per family: members share one generated module; templates are modules."""

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import vecsearch as vs
from vecsearch.engine.runtime import codegen
from vecsearch.engine.runtime.codegen import layer_kernels

KERNELS = Path(vs.__file__).parent / "kernels"


@pytest.mark.parametrize("names", [
    ("pancake-5", "pancake-9", "pancake-12", "topspin-8", "topspin-11-3", "lrx-7"),  # pieces with rank steps
    ("pocket-htm", "pocket-qtm", "pocket-full", str(KERNELS.parent / "data" / "2x2x2.tws")),  # coordinates
    ("sliding-2x2", "sliding-2x4", "sliding-3x3", "sliding-4x4"),
])
def test_members_of_a_family_share_one_kernel_module(names):
    modules = {layer_kernels(vs.get_puzzle(name)).__name__ for name in names}
    assert len(modules) == 1, modules


def test_families_differ_in_what_is_compiled_into_them():
    pancake, pocket = vs.get_puzzle("pancake-6"), vs.get_puzzle("pocket-htm")
    assert layer_kernels(pancake) is not layer_kernels(pocket)
    assert layer_kernels(pancake).MAX_MOVES >= max(pancake.max_moves, vs.get_puzzle("pancake-16").max_moves)
    assert layer_kernels(pancake).HAS_PREDECESSORS is False  # reversible: backward branches pruned


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="loops are Python functions then")
def test_a_familys_loops_have_no_python_entry_point_and_say_so_when_called():
    """The loops only kernels call are compiled without numba's wrapper for Python: a call from
    Python is a ``TypeError`` naming the loop, not a call through a null entry point."""
    puzzle = vs.get_puzzle("pancake-5")
    assert vs.bfs(puzzle, mode="twobit").total_states == 120  # its kernel runs the loop
    loop = layer_kernels(puzzle).MODULES["vecsearch.engine.twobit.rank_space_template"]
    loop = sys.modules[loop].twobit_loop
    assert loop.targetoptions["no_cpython_wrapper"]
    with pytest.raises(TypeError, match="twobit_loop is a loop that only kernels call"):
        loop(np.zeros(4, np.int64), 0, 4)


def test_templates_are_modules_that_import_and_lint_clean():
    from pyflakes.api import checkPath
    from pyflakes.reporter import Reporter

    class Collect:
        def __init__(self):
            self.lines = []

        def write(self, text):
            self.lines.append(text)

    every = {path.resolve() for path in KERNELS.parent.rglob("*_template.py")}
    assert {codegen.template_path(module).resolve() for module in codegen.TEMPLATES} == every  # one list of them
    for module in codegen.TEMPLATES:
        __import__(module)
        path = codegen.template_path(module)
        out = Collect()
        assert checkPath(str(path), Reporter(out, out)) == 0, "".join(out.lines)
        assert "noqa" not in path.read_text(), path.name


def test_a_template_module_runs_on_the_first_use_of_its_kernels_in_a_new_process():
    """A process runs only the templates it calls; every export resolves to its template's kernel."""
    script = ("import sys, vecsearch as vs; from vecsearch.engine.runtime import codegen;"
              " family = codegen.layer_kernels(vs.get_puzzle('pancake-5'));"
              " loaded = lambda: sorted(t for t, n in family.MODULES.items() if n in sys.modules);"
              " print(loaded()); family.neighbours; print(loaded());"
              " print(all(getattr(family, k).__module__ == family.EXPORTS[k] for k in family.EXPORTS));"
              " print(loaded())")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    shown = run.stdout.splitlines()
    templates = codegen.family_templates(codegen.LAYER_TEMPLATES)
    assert shown[:4] == ["[]", str(["vecsearch.engine.runtime.layer_template"]), "True", str(sorted(templates))]
    with pytest.raises(AttributeError, match="no attribute 'no_such_kernel'"):
        _ = layer_kernels(vs.get_puzzle("pancake-5")).no_such_kernel


def test_generated_module_binds_only_the_roles_import():
    names = {"vecsearch.kernels.roles": "family", "vecsearch.engine.runtime.layer_template": "family_layer_template"}
    body = codegen.generated_text("vecsearch.engine.twobit.rank_space_template", names)
    assert "from vecsearch.kernels.roles import" not in body
    assert "from vecsearch.engine.runtime.layer_template import" not in body
    assert "def twobit_range(" in body and "from vecsearch.kernels.intrinsics import" in body


RUN = """
import json, hanoi, vecsearch as vs
from numba.core import event
from vecsearch.engine.runtime.codegen import layer_kernels
with event.install_recorder("numba:compile") as compiled:
    result = vs.bfs(hanoi.puzzle(5))
kernels = layer_kernels(hanoi.puzzle(5)).__file__
print(json.dumps([result.total_states, result.depth, sum(e.is_start for _, e in compiled.buffer), kernels]))
"""


def test_plain_functions_in_a_module_load_from_the_disk_cache_in_the_next_process(tmp_path):
    """On the suite's kernel cache: the first process compiles what the cache lacks (everything, on
    a cold cache), the second compiles nothing."""
    (tmp_path / "hanoi.py").write_text((Path(__file__).parent / "data" / "hanoi.py").read_text())
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    runs = [json.loads(subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, text=True,
                                      check=True).stdout) for _ in range(2)]
    (states, depth, _, module), (_, _, compiled_again, again) = runs
    assert (states, depth) == (3 ** 5, 2 ** 5 - 1)  # every disc arrangement; 2^n - 1 moves across
    assert module == again and Path(module).is_file()
    assert compiled_again == 0  # every kernel loaded from the disk


def test_other_sources_write_another_module(monkeypatch, tmp_path):
    """Two versions of vecsearch sharing a cache directory keep apart (numba unpickles a cache
    index before it compares its stamp, and fails on a type the other version lacks)."""
    monkeypatch.setenv("VECSEARCH_CACHE_DIR", str(tmp_path))
    made, pancake = [], vs.get_puzzle("pancake-4")
    for stamp in ("one version", "another"):
        monkeypatch.setattr(codegen, "_stamp", lambda functions, stamp=stamp: stamp)
        made.append(codegen.build_kernels(dict(pancake.functions), 1, 4, "stamped").__file__)
    assert made[0] != made[1] and all(Path(path).parent == tmp_path for path in made)


def test_a_puzzle_sent_to_another_process_binds_the_same_cached_module(tmp_path):
    """A dask worker receives a puzzle pickled: its functions arrive as new dispatchers made from
    the originals' code. They still bind the family's module on disk (not an in-memory module
    compiled again in every worker, every run)."""
    puzzle = vs.get_puzzle(str(KERNELS.parent / "data" / "2x2x2.tws"))
    (tmp_path / "puzzle.pickle").write_bytes(pickle.dumps(puzzle))
    read = (f"import pickle; from vecsearch.engine.runtime.codegen import layer_kernels;"
            f" print(layer_kernels(pickle.loads(open({str(tmp_path / 'puzzle.pickle')!r}, 'rb').read())).__file__)")
    there = subprocess.run([sys.executable, "-c", read], capture_output=True, text=True, check=True).stdout.strip()
    assert there == layer_kernels(puzzle).__file__ and Path(there).is_file()


def test_functions_no_other_process_can_import_bind_modules_kept_in_memory_with_their_lines():
    """A trusted puzzle whose functions are local (as a notebook's): its modules are compiled in
    memory, uncached, and their text is in linecache under their pseudo file names."""
    import linecache

    from numba import njit

    @njit
    def steps(state, tables, children, moves):
        children[0], children[1] = (state + 7) % 101, (state + 94) % 101
        moves[0], moves[1] = 0, 1
        return 2

    puzzle = vs.Puzzle("steps", steps, 2, rank=vs.Rank(njit(lambda state, tables: state), 101), start=1)
    puzzle.trusted = True  # its functions run unguarded, as vecsearch's own
    assert vs.bfs(puzzle).layer_sizes == [1] + [2] * 50  # +-7 around a ring of 101
    listed = codegen.module_files(layer_kernels(puzzle))
    assert all(file.startswith("<vecsearch_kernels_user_steps_") for _, file in listed)
    for template, file in listed[1:]:
        lines = codegen.template_text(template).splitlines()
        assert [linecache.getline(file, n).rstrip("\n") for n in (len(lines) // 2, len(lines))] == \
               [lines[len(lines) // 2 - 1], lines[-1]]
