"""The code that runs is the code you read: kernels as plain Python (``NUMBA_DISABLE_JIT=1``), and
tracebacks that point at the kernel templates' own lines."""

import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import plain_python_searches
import pytest
from numba import njit

from vecsearch.engine.runtime import codegen
from vecsearch.kernels import intrinsics, python_intrinsics

HERE = Path(__file__).parent
AS_PYTHON = {"NUMBA_DISABLE_JIT": "1", "VECSEARCH_ANNOUNCE_COMPILE": "0"}
# numpy says when integer arithmetic wraps around, which the compiled kernels do silently (hashes, masks)
QUIET_WRAPPING = ["-W", "ignore:overflow encountered:RuntimeWarning"]


def run_as_python(args, env=None, check=True):
    return subprocess.run([sys.executable, *QUIET_WRAPPING, *args], env={**os.environ, **AS_PYTHON, **(env or {})},
                          capture_output=True, text=True, timeout=900, check=check)


def test_searches_run_as_python_give_the_compiled_answers():
    """bfs with a bitset and a hash set, bidirectional, IDA*, a distance table, pairs, two-bit
    (also partitioned), a user's puzzle in a module, over values and in a script: every kernel
    they call runs as Python, through the intrinsics' Python binding."""
    done = run_as_python([str(HERE / "plain_python_searches.py")])
    assert json.loads(done.stdout) == json.loads(json.dumps(plain_python_searches.results()))


def exercise(words, index, value):
    """Every intrinsic once (``intrinsics`` is a global: compiled, or bound to the Python ones)."""
    old = (intrinsics.atomic_or(words, index, value), intrinsics.atomic_and(words, index + 1, value),
           intrinsics.atomic_add(words, index + 2, value), intrinsics.synced_add(words, index + 3, value))
    intrinsics.prefetch(words, index)
    matrix = intrinsics.stack_matrix(12, 3, 4)
    matrix[0] = np.arange(4)
    intrinsics.repeat_first_row(matrix)
    scratch = intrinsics.stack_empty(5)
    scratch[:] = 7
    return (old, intrinsics.popcount(value), intrinsics.popcount(-value), matrix.sum(), scratch.sum(),
            intrinsics.to_fixed_tuple(scratch, 2), intrinsics.yield_cpu() >= 0, intrinsics.cycles() > 0,
            intrinsics.borrowed(words).shape[0])


def plain(value):
    """``value`` with numpy scalars as Python numbers and tuples as lists."""
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    return value.item() if isinstance(value, np.generic) else value


def test_every_intrinsic_has_a_python_binding_that_agrees_with_it():
    assert all(callable(getattr(python_intrinsics, name, None)) for name in intrinsics.__all__)
    compiled = njit(cache=True)(exercise)  # cached beside this file: a warm run loads it
    as_python = types.FunctionType(exercise.__code__, {**exercise.__globals__, "intrinsics": python_intrinsics})
    for value in (0, 1, 0x5555, (1 << 62) + 12345):
        words = np.arange(8, dtype=np.uint64) * np.uint64(0x0F0F)
        twin = words.copy()
        expected, got = plain(compiled(words, 2, value)), plain(as_python(twin, 2, value))
        assert got == expected and np.array_equal(words, twin), (value, got, expected)


def test_a_prefetch_is_for_writing_only_where_the_array_can_be_written():
    """``intrinsics.prefetch`` asks for a line to write only in a writable array: into a file
    mapped read-only (the partitioned search's previous table) such a prefetch costs more than
    the read it was to hide."""
    touch = njit(lambda words, index: intrinsics.prefetch(words, index))
    writable = np.zeros(4, np.int64)
    readonly = writable.copy()
    readonly.setflags(write=False)
    for array, write in ((writable, 1), (readonly, 0)):
        touch(array, 1)
        llvm = touch.inspect_llvm(touch.signatures[-1])
        assert re.findall(r"call void @llvm\.prefetch\.p0\([^,]+, i32 (\d), i32 3, i32 1\)", llvm) == [str(write)]


BROKEN = '''
import vecsearch as vs


def expand(state, tables, children, moves):
    moves[0] = 0
    children[0] = tables[0][state + 3]  # out of bounds at state 2
    return 1


puzzle = vs.Puzzle("broken", expand, 1, tables=({table},), rank=vs.Rank(lambda state, tables: state, 8), start=0,
                   check=False)
'''

FRAMES = '''
import json, sys, traceback
sys.path.insert(0, {directory!r})
import broken, vecsearch as vs
from vecsearch.errors import BrokenRule
try:
    vs.bfs(broken.puzzle)
except BrokenRule as error:
    frames = traceback.extract_tb(error.__traceback__)
    print(json.dumps([[frame.filename, frame.lineno, frame.name, frame.line] for frame in frames]))
'''


@pytest.mark.parametrize("where", ["a file", "memory"])
def test_a_broken_rule_points_at_the_templates_own_lines(tmp_path, where):
    """A user's expand indexes out of its table: with kernels run as Python, the traceback goes
    through the layer kernel and the guard, at their templates' own lines (the generated modules
    are line for line the templates: in the cache directory, or in memory when it cannot be
    written, their text then in ``linecache``)."""
    (tmp_path / "broken.py").write_text(BROKEN.format(table="__import__('numpy').arange(4)"))
    cache = tmp_path / "kernels" if where == "a file" else tmp_path / "broken.py" / "not a directory"
    done = run_as_python(["-c", FRAMES.format(directory=str(tmp_path))], {"VECSEARCH_CACHE_DIR": str(cache)})
    frames = json.loads(done.stdout)
    generated = [frame for frame in frames if codegen.generated_from(frame[0])]
    templates = {codegen.generated_from(file) for file, *_ in generated}
    assert {codegen.template_module("layer_template"), codegen.template_module("guard_template")} <= templates, frames
    for file, line, function, text in generated:
        assert (Path(file).parent == cache) == (where == "a file"), file
        template = codegen.template_text(codegen.generated_from(file))
        assert text and text == template.splitlines()[line - 1].strip(), (file, line, text)
        assert re.search(rf"^(def|    def) {function}\(", template, re.M), function
    assert frames[-1][2] == "broken"  # the guard's one raise, after the user's IndexError was noted


def test_generated_modules_keep_every_line_of_their_templates_but_the_imports():
    kernels = codegen.layer_kernels(plain_python_searches.hanoi.puzzle(3))
    listed = codegen.module_files(kernels)
    assert listed[0][0] == codegen.ROLES_MODULE and Path(listed[0][1]).parent == codegen.cache_dir()
    for template, file in listed[1:]:
        ours, theirs = Path(file).read_text().splitlines(), codegen.template_text(template).splitlines()
        assert len(ours) == len(theirs) + 1 and ours[-1].startswith("# Generated by vecsearch.engine.runtime.codegen")
        changed = [i for i, (a, b) in enumerate(zip(ours[:-1], theirs, strict=True)) if a != b]
        local = (codegen.ROLES_MODULE, *codegen.TEMPLATES)
        assert changed and all(re.match(r"from ([\w.]+) import", theirs[i])[1] in local
                               and ours[i].startswith(f"from {kernels.__name__}") for i in changed), template


def test_the_kernels_command_lists_each_templates_module(capsys):
    from vecsearch.cli import main

    assert main(["kernels", "eight"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("sliding-3x3: the kernels of family 'sliding'")
    listed = dict(line.split() for line in lines[1:])
    assert list(listed)[1:] == list(codegen.family_templates(codegen.LAYER_TEMPLATES))
    assert all(Path(file).is_file() for file in listed.values())


@pytest.mark.slow
def test_kernel_coverage_counts_the_templates_lines():
    """The coverage run of CI (``.ci/run``): the searches above as Python, under coverage; each
    template's share of lines run."""
    done = subprocess.run([sys.executable, str(HERE / "kernel_coverage.py")], capture_output=True, text=True,
                          timeout=900, check=True)
    table = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:] if line.strip()}
    for template in codegen.family_templates(codegen.LAYER_TEMPLATES):
        statements, run, share = table[template]
        assert 0 < int(run) <= int(statements) and share.endswith("%"), (template, table[template])
    layer = table[codegen.template_module("layer_template")]
    assert int(layer[1]) > int(layer[0]) // 2
