"""numba's compiler as vecsearch patches it (``vecsearch._numba_patches``): the same code, made faster."""

import copy
import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

import vecsearch._numba_patches as patches


def test_the_inliner_copies_each_scope_once_and_inlines_the_same_code():
    from numba.core import inline_closurecall

    assert patches.faster_inlining() and patches.faster_inlining()  # installed once, kept
    assert isinstance(inline_closurecall.copy, patches._ScopeSharingCopy)

    @njit(inline="always")
    def digits(x):
        total = 0
        while x:
            total += x % 10
            x //= 10
        return total

    @njit
    def twice(x):
        return digits(x) + digits(x + 1)

    assert twice(1999) == 28 + 2


def test_ir_is_copied_as_copy_deepcopy_copies_it():
    from numba.core.compiler import run_frontend

    function_ir = run_frontend(_step.py_func)
    theirs, ours = {}, {}  # one memo per copier, shared by the blocks, as the inliner's copies share theirs
    for block in function_ir.blocks.values():
        expected, got = copy.deepcopy(block, theirs), patches.ir_deepcopy(block, ours)
        assert [str(statement) for statement in got.body] == [str(statement) for statement in expected.body]
        assert got.scope is ours[id(block.scope)] and got is not block and got.body[0] is not block.body[0]
    kept = {id(theirs), id(ours)}  # what each keeps alive, as copy.deepcopy does
    assert {k: type(v) for k, v in ours.items() if k not in kept} == {k: type(v) for k, v in theirs.items()
                                                                      if k not in kept}  # the same objects copied
    assert len(ours[id(ours)]) == len(theirs[id(theirs)])
    variables = [v for v in ours.values() if type(v).__name__ == "Var"]
    variables[0].name = "renamed"  # a copy's variables are its own
    assert "renamed" not in str(list(function_ir.blocks.values())[0].body)


def test_the_frame_stack_reuses_its_chunks():
    import resource

    from vecsearch import _frame_chunks

    assert _frame_chunks.install() and _frame_chunks.install()  # installed once, kept

    def dive(depth):
        return 0 if depth == 0 else dive(depth - 1) + 1

    assert dive(800) == 800  # frames in the chunks handed out again hold what they should
    kept = _frame_chunks._installed["kept"]
    assert 0 < kept[_frame_chunks.COUNT] <= _frame_chunks.KEPT
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(2000):
        assert dive(800) == 800  # several chunks deep: each mapped afresh would fault again, 10,000 times
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 1000
    exits = subprocess.run([sys.executable, "-c", "import threading\nfrom vecsearch import _frame_chunks\n"
                            "def dive(d): return 0 if d == 0 else dive(d - 1) + 1\n"
                            "assert _frame_chunks.install() and dive(900) == 900\n"
                            "threading.Thread(target=dive, args=(900,)).start()"], capture_output=True, text=True)
    assert (exits.returncode, exits.stderr) == (0, "")  # exits cleanly: the wrapped allocator is back first


def test_the_collector_waits_while_numba_compiles():
    import gc

    from numba import types
    from numba.core.errors import TypingError
    from numba.extending import intrinsic

    seen = []

    @intrinsic
    def thresholds_now(typingctx):  # typed, so run, while its caller compiles
        seen.append(gc.get_threshold())
        return types.int64(), lambda context, builder, signature, args: context.get_constant(types.int64, 7)

    @njit
    def compiled():
        return thresholds_now()

    @njit
    def broken(x):
        return x.no_such_attribute

    own = gc.get_threshold()
    gc.set_threshold(701, 11, 12)
    try:
        assert compiled() == 7 and seen == [patches.COMPILE_GC_THRESHOLDS]
        assert gc.get_threshold() == (701, 11, 12)
        with pytest.raises(TypingError):
            broken(1)
        assert gc.get_threshold() == (701, 11, 12)  # the collector's own again after a compile that raised
    finally:
        gc.set_threshold(*own)


def test_flags_compare_as_numba_compares_them():
    from numba.core.compiler import Flags

    assert patches.quick_flag_comparisons() and patches.quick_flag_comparisons()  # installed once, kept
    numbas = Flags.__eq__.numba
    same, other, explicit = Flags(), Flags(), Flags()
    for flags in (same, other, explicit):
        flags.nrt = True
    other.boundscheck = True
    explicit.error_model = Flags().error_model  # a default set explicitly
    pairs = [(same, Flags()), (same, same), (same, other), (other, same), (same, explicit), (explicit, same)]
    assert [a == b for a, b in pairs] == [numbas(a, b) for a, b in pairs] == [False, True, False, False, True, True]


OFFSET = 1  # read by test_the_inliner_prepares_a_callee_once_per_compile's inlined function


def test_the_inliner_prepares_a_callee_once_per_compile(monkeypatch):
    from numba.core import inline_closurecall

    assert patches.reused_callee_irs() and patches.reused_callee_irs()  # installed once, kept
    prepared = []
    run_untyped_passes = inline_closurecall.InlineWorker.run_untyped_passes
    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes",
                        lambda self, function, *args: prepared.append(function.__name__)
                        or run_untyped_passes(self, function, *args))

    @njit(inline="always")
    def shifted(x):
        return x + OFFSET

    @njit
    def three_sites(x):
        return shifted(x) + shifted(2 * x) + shifted(3 * x)

    assert three_sites(1) == 6 + 3 and prepared == ["shifted"]
    monkeypatch.setitem(globals(), "OFFSET", 10)  # numba reads a global when it prepares the IR

    @njit
    def one_site(x):
        return shifted(x)

    assert one_site(1) == 11 and prepared == ["shifted", "shifted"]  # a later compile reads it afresh
    assert not patches._callee_irs




@njit(inline="always")
def _step(state, table, kids):
    """A per-state function as the puzzles write them: loops, branches, variables assigned twice."""
    count = 0
    for i in range(table.shape[0]):
        child = state ^ table[i]
        if child > state:
            child -= 1
        else:
            child += 1
        kids[count] = child
        count += 1
    return count


def test_ssa_and_liveness_are_numbas_on_inlined_loops(monkeypatch):
    from numba.core import analysis, ir_utils, ssa

    assert patches.ssa_by_mentions() and patches.bitset_liveness()
    checked = {"ssa": 0, "live": 0}
    ours_ssa, numbas_ssa = ssa._run_ssa, ssa._run_ssa.numba

    def dump(blocks):
        return [(label, [str(statement) for statement in block.body]) for label, block in blocks.items()]

    def both_ssa(blocks):
        expected = dump(numbas_ssa(copy.deepcopy(blocks)))
        got = ours_ssa(blocks)
        assert dump(got) == expected
        checked["ssa"] += 1
        return got

    def both_live(cfg, blocks, uses, defs):
        got = patches.live_map(cfg, blocks, uses, defs)
        assert got == patches.live_map.numba(cfg, blocks, uses, defs)
        checked["live"] += 1
        return got

    monkeypatch.setattr(ssa, "_run_ssa", both_ssa)
    monkeypatch.setattr(analysis, "compute_live_map", both_live)
    monkeypatch.setattr(ir_utils, "compute_live_map", both_live)

    @njit
    def walk(start, table, steps):
        kids = np.empty(table.shape[0], np.int64)
        state, total = start, 0
        for _ in range(steps):
            n = _step(state, table, kids)
            m = _step(kids[0], table, kids)
            state = kids[(state + n + m) % m]
            total += state
        return total

    table = np.array([1, 2, 4, 8], np.int64)
    assert walk(5, table, 20) == walk.py_func(5, table, 20)
    assert checked["ssa"] > 0 and checked["live"] > 10


def test_references_are_counted_in_the_members_that_hold_them():
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.core.registry import cpu_target
    from numba.core.runtime import context

    assert patches.counted_members_only()
    ours = context.NRTContext.get_meminfos
    target = cpu_target.target_context
    nrt = context.NRTContext(target, True)  # its own: the context's is cached, and copied by every compile
    array = types.Array(types.int64, 2, "C")
    tables = types.Tuple([array, types.int64, types.Tuple([types.float64, array, types.UniTuple(array, 2)])])
    module = ir.Module()
    function = cgutils.get_or_insert_function(module, ir.FunctionType(ir.VoidType(), []), "f")
    builder = ir.IRBuilder(function.append_basic_block())
    value = cgutils.get_null_value(target.get_value_type(tables))
    found = ours(nrt, builder, tables, value)
    extracted = len(builder.block.instructions)
    expected = ours.numba(nrt, builder, tables, value)
    assert [t for t, _ in found] == [t for t, _ in expected] == [types.MemInfoPointer(types.int64)] * 4
    assert extracted < len(builder.block.instructions) - extracted  # numba's extracts every member


def test_a_kernel_is_optimized_before_the_functions_it_calls_are_linked(monkeypatch):
    import re

    from numba.core import codegen

    assert patches.late_linked_kernels() and patches.late_linked_kernels()  # installed once, kept
    monkeypatch.setattr(patches, "_OURS", re.compile(r"_ZN\d+test_numba_patches"))  # this module's count as ours
    optimized = {}  # per library: the functions it defined when its module was optimized

    def recording(self, original=codegen.CPUCodeLibrary._optimize_final_module):
        optimized[self.name.rsplit(".", 1)[-1]] = [f.name for f in self._final_module.functions if not f.is_declaration]
        return original(self)

    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", recording)

    @njit
    def summed(values, lo, hi):
        total = 0
        for i in range(lo, hi):
            total += values[i]
        return total

    @njit
    def caller(values):
        return summed(values, 0, len(values)) * 10 + min(summed(values, 1, 3), 100)

    values = np.arange(10)
    assert caller(values) == values.sum() * 10 + 3
    [library] = [overload.library for overload in caller.overloads.values()]
    linked = [f.name for f in library._final_module.functions if not f.is_declaration]
    assert not any("summed" in name for name in optimized["caller"])  # optimized without the loop's body
    assert any("ol_min" in name for name in optimized["caller"])  # numba's own implementations inlined as before
    assert any("summed" in name for name in linked)  # which the kernel's machine code holds all the same


def test_the_runtime_is_compiled_once_and_loaded_after(tmp_path):
    """numba's runtime functions (what every kernel that allocates links to), saved by the first
    process in the cache folder and loaded by the next without compiling them; a file that
    cannot be read is compiled again and replaced."""
    code = ("import sys\n"
            "import numpy as np\n"
            "import vecsearch._numba\n"
            "from numba import njit\n"
            "from numba.core.runtime import nrtdynmod\n"
            "if sys.argv[1] == 'saved':\n"
            "    nrtdynmod.create_nrt_module = None  # compiling the runtime would fail\n"
            "allocating = njit(lambda n: np.arange(n).sum() + len([1.0] * n))\n"
            "print(allocating(10))\n")

    def run(how):
        done = subprocess.run([sys.executable, "-c", code, how], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "VECSEARCH_CACHE_DIR": str(tmp_path)})
        assert (done.returncode, done.stdout) == (0, "55\n"), done.stderr
        return list(tmp_path.glob("numba-runtime-*.pickle"))

    saved = run("compiled")
    assert len(saved) == 1
    made = saved[0].read_bytes()
    assert run("saved") == saved and saved[0].read_bytes() == made
    saved[0].write_bytes(made[:len(made) // 2])  # cut short: compiled again, replaced
    assert run("compiled") == saved and saved[0].read_bytes() == made
