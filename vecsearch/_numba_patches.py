"""Patches of numba's compiler and cache that make vecsearch's kernels compile faster and load lighter.

Each is installed once, checks first that numba is laid out as it expects (returning False and
changing nothing otherwise), and but for ``late_linked_kernels`` computes what numba's own code
computes: the same IR, the same liveness, the same counted pointers
(``tests/test_numba_patches.py`` runs both and compares).

Kernels built from ``inline="always"`` per-state functions are large: a two-bit kernel inlines a
puzzle's rules at several call sites into thousands of IR statements. Several of numba's passes
cost more than linearly in that size:

- ``faster_inlining()``: the inliner copies a callee's IR one block at a time, each copy also
  copying the whole scope (blocks x variables), and then copies it all a second time for a
  return value no caller reads;
- ``reused_callee_irs()``: the inliner prepares a callee's IR again at every call site;
- ``ssa_by_mentions()``: SSA reconstruction rewrites every block once per variable assigned
  more than once (variables x statements);
- ``bitset_liveness()``: the liveness that numba computes after every pass that changes the IR
  is a fixed point over sets of variable names, one set per block (blocks x variables) with
  every set operation in Python;
- ``counted_members_only()``: counting a reference to a tuple of arrays extracts every field of
  every array, to find the one counted pointer in each;
- ``ir_deepcopy`` (in ``faster_inlining``): the inliner's copies go through Python's generic
  ``copy.deepcopy`` protocol, object by object;
- ``quick_flag_comparisons()``: typing a call to an overload compares the compile's flags with
  those of every cached implementation, option by option;
- ``late_linked_kernels()``: a kernel that calls a loop or another kernel optimized the callee's
  code once more in its own module. The one patch that changes compiled code: a kernel now calls
  vecsearch's functions it links as they were compiled, never inlining them.

Two are CPython's: the chunks of its frame stack, which a deep recursion such as the compiler's
maps and unmaps at every crossing of a chunk's edge, are kept for reuse
(``vecsearch._frame_chunks``: ``tests/test_pairs.py`` cold, 32.0 s -> 26.4 s, 4.4 s -> 0.3 s of
it in the system); and while numba compiles, the garbage collector runs less often
(``COMPILE_GC_THRESHOLDS``: then 31.2 s -> 25.8-26.9 s, in another hour of the machine).

Compiling pancake-6's two-bit search (its kernels, cold) took 5.6-5.8 s before
``ssa_by_mentions``, ``bitset_liveness`` and the inliner's second copy skipped, 4.0-4.3 s with
them; ``counted_members_only`` then took ``tests/test_values.py`` from 80 s to 64 s (cold).
``ir_deepcopy`` and ``quick_flag_comparisons`` took it from 70.5-73.5 CPU seconds to 65.9-68.9
(cold, one process, back to back), and left ``tests/test_pairs.py`` with ``tests/test_twobit.py``
as they were (73.2-73.5).

``quicker_cache_loads()`` loads a cached kernel without numba's full context refresh (see there),
and ``saved_runtime()`` its runtime's functions from their machine code saved by an earlier process.

``install()`` (``vecsearch._numba`` calls it at import) installs ``quicker_cache_loads`` and
``saved_runtime`` at once and the compiler's patches when numba starts its first compile in the
process (``_Compiles``): a process that only loads kernels from the cache never imports the
compiler's passes.
"""

import contextlib
import copy
import gc
import hashlib
import os
import re
from collections import defaultdict

import numpy as np
from numba.core import event

_ATOMIC = frozenset((int, float, bool, complex, str, bytes, type(None)))
_plain: dict = {}  # class -> whether copy.deepcopy copies it as its __dict__, deep-copied (numba's IR nodes)


def _is_plain(cls) -> bool:
    plain = _plain.get(cls)
    if plain is None:
        plain = _plain[cls] = (cls.__module__ == "numba.core.ir" and "__dict__" in dir(cls)
                               and not hasattr(cls, "__deepcopy__") and not hasattr(cls, "__setstate__")
                               and cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
                               and getattr(cls, "__getstate__", object.__getstate__) is object.__getstate__
                               and not getattr(cls, "__slots__", ())
                               and cls not in copy.__dict__.get("_deepcopy_dispatch", {}))
    return plain


def ir_deepcopy(value, memo):
    """``copy.deepcopy(value, memo)``, the same copy, made faster for numba's IR: its nodes (plain
    objects of ``numba.core.ir``), lists, dicts and tuples are copied here, without the generic
    protocol (``__reduce_ex__``, ``copyreg``); anything else by ``copy.deepcopy``."""
    cls = type(value)
    if cls in _ATOMIC:
        return value
    key = id(value)
    if key in memo:
        return memo[key]
    if cls is list:
        made = memo[key] = []
        made.extend([ir_deepcopy(item, memo) for item in value])
    elif cls is dict:
        made = memo[key] = {}
        for name, item in value.items():
            made[ir_deepcopy(name, memo)] = ir_deepcopy(item, memo)
    elif cls is tuple:
        items = [ir_deepcopy(item, memo) for item in value]
        if key in memo:
            return memo[key]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        made = memo[key] = tuple(items)
    elif _is_plain(cls):
        made = memo[key] = cls.__new__(cls)
        state = value.__dict__
        if state:
            made.__dict__.update(ir_deepcopy(state, memo))
    else:
        return copy.deepcopy(value, memo)
    if made is not value:  # as copy.deepcopy, keep what was copied alive (a singleton is its own copy)
        memo.setdefault(id(memo), []).append(value)
    return made


class _ScopeSharingCopy:
    """Stands in for the ``copy`` module inside ``numba.core.inline_closurecall``.

    To inline a function, numba deep-copies its IR one block at a time, each with a fresh memo.
    Every variable refers to the function's scope, which holds every variable, so each block's
    copy also copies the whole scope: blocks x variables, 44% of compiling a two-bit kernel.
    Here the blocks of one scope share a memo while one ``inline_ir`` call runs, so the scope is
    copied once (as one deep copy of the whole IR would); separate copies stay separate.

    ``inline_ir`` then copies its copy again, "an unmutated copy of the callee IR to return",
    which both of numba's callers drop: a block made by this call's first copy is returned as
    it is (half the copying). The blocks are copied by ``ir_deepcopy``.
    """

    def __init__(self, block_type):
        self.block_type = block_type
        self.memos = None  # scope id -> memo, during one inline_ir call
        self.made = {}  # id -> block, of the blocks copied during one inline_ir call (kept: ids stay theirs)

    def deepcopy(self, value, memo=None):
        if memo is None and self.memos is not None and isinstance(value, self.block_type):
            if id(value) in self.made:
                return value  # the "unmutated copy" of a copy that inline_ir returns, and every caller drops
            copied = ir_deepcopy(value, self.memos.setdefault(id(value.scope), {}))
            self.made[id(copied)] = copied
            return copied
        return copy.deepcopy(value, memo)

    def __getattr__(self, name):
        return getattr(copy, name)


def faster_inlining() -> bool:
    """Install ``_ScopeSharingCopy`` in numba's inliner (once; importing the inliner costs
    0.1 s, so only code generation asks). False, and nothing changed, on a numba whose inliner
    is not laid out as this expects. Compiled code is the same either way."""
    from numba.core import inline_closurecall, ir

    if isinstance(getattr(inline_closurecall, "copy", None), _ScopeSharingCopy):
        return True
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if worker is None or getattr(inline_closurecall, "copy", None) is not copy or not hasattr(worker, "inline_ir"):
        return False
    shim = _ScopeSharingCopy(ir.Block)
    inline_ir = worker.inline_ir

    def inline_ir_sharing_scopes(self, *args, **kwargs):
        saved, shim.memos, made, shim.made = shim.memos, {}, shim.made, {}
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            shim.memos, shim.made = saved, made

    inline_closurecall.copy = shim
    worker.inline_ir = inline_ir_sharing_scopes
    return True


_callee_irs: dict = {}  # (function, what its IR depends on) -> its IR, during one outermost compile


def reused_callee_irs() -> bool:
    """Make numba's inliner prepare a function's IR once per compile, not once per call site.

    To inline a call, numba runs the compiler's untyped passes over the callee (bytecode to IR,
    rewrites, and the inlining of its own callees, recursively), then copies that IR into the
    caller (``inline_ir`` copies it first: the IR itself is not changed). A kernel inlines the same
    puzzle rules at several call sites, each time from the bytecode up: here the IR is kept in
    ``_callee_irs`` by function and by what the untyped passes read (the pipeline, the parallel
    and loop-lifting options), and dropped when the outermost compile ends, so a function
    redefined between compiles is read afresh (13% less compiling for the pocket cube's two-bit,
    pair and IDA* kernels). False, and nothing changed, on a numba whose inliner is not laid out
    as this expects."""
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_function, "reusing", False):
        return True
    if not all(hasattr(worker, name) for name in ("run_untyped_passes", "inline_ir", "inline_function")):
        return False

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        flags = self.flags
        key = (function, getattr(self, "_compiler_pipeline", None), repr(getattr(flags, "auto_parallel", None)),
               getattr(flags, "enable_looplift", None), getattr(flags, "no_rewrites", None))
        callee_ir = _callee_irs.get(key)
        if callee_ir is None:
            callee_ir = _callee_irs[key] = self.run_untyped_passes(function)
        else:
            flags.enable_ssa = False  # as run_untyped_passes leaves it
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

    inline_function.reusing = True
    worker.inline_function = inline_function
    return True


def ssa_by_mentions() -> bool:
    """Make numba's SSA reconstruction rewrite, for each variable, only the blocks that name it.

    numba (``numba.core.ssa._run_ssa``) fixes one variable assigned more than once at a time, in
    two passes over every statement of every block (fresh names for its assignments, then each
    use pointed at its reaching definition, with phi nodes where needed): 0.26 s of compiling
    pancake-6's two-bit kernels. A block that names the variable nowhere passes through both
    unchanged, so here it is copied as it is; which blocks name which variable is read once, as
    renaming one variable changes no other's. The statements, their order and the fresh names are
    numba's."""
    from numba.core import errors, ir, ssa

    needed = ("_run_ssa", "compute_cfg_from_blocks", "_iterated_domfronts", "_find_defs_violators", "_CacheListVars",
              "_get_scope", "_FreshVarHandler", "_FixSSAVars", "_compute_phi_locations", "_run_ssa_block_pass")
    if getattr(ssa._run_ssa, "by_mentions", False):
        return True
    if not all(hasattr(ssa, name) for name in needed):
        return False

    def rewrite(blocks, states, handler, labels):
        rewritten = {}
        for label, block in blocks.items():
            new = ir.Block(scope=block.scope, loc=block.loc)
            if label in labels:
                states["label"], states["block"] = label, block
                new.body = list(ssa._run_ssa_block_pass(states, block, handler))
            else:
                new.body = list(block.body)
            rewritten[label] = new
        return rewritten

    def run_ssa(blocks):
        if not blocks:
            return {}
        cfg = ssa.compute_cfg_from_blocks(blocks)
        df_plus = ssa._iterated_domfronts(cfg)
        violators = ssa._find_defs_violators(blocks, cfg)
        cache_list_vars = ssa._CacheListVars()
        naming = defaultdict(set)  # variable -> labels of the blocks that name it
        for label, block in blocks.items():
            for statement in block.body:
                for var in statement.list_vars():
                    naming[var.name].add(label)
        for name in violators:
            defmap, phimap = defaultdict(list), defaultdict(list)
            states = {"scope": ssa._get_scope(blocks), "varname": name, "defmap": defmap}
            blocks = rewrite(blocks, states, ssa._FreshVarHandler(), naming[name])
            states = {"scope": ssa._get_scope(blocks), "varname": name, "defmap": defmap, "phimap": phimap,
                      "cfg": cfg, "phi_locations": ssa._compute_phi_locations(df_plus, defmap)}
            blocks = rewrite(blocks, states, ssa._FixSSAVars(cache_list_vars), naming[name])
            for label, phis in phimap.items():
                blocks[label].body = phis + blocks[label].body
        if ssa.compute_cfg_from_blocks(blocks) != cfg:
            raise errors.CompilerError("CFG mutated in SSA pass")
        return blocks

    run_ssa.by_mentions, run_ssa.numba = True, ssa._run_ssa
    ssa._run_ssa = run_ssa
    return True


def live_map(cfg, blocks, var_use_map, var_def_map) -> dict:
    """``numba.core.analysis.compute_live_map`` (the variables live at the entry of each block),
    its fixed points over bitsets: one Python int per block, a bit per variable."""
    index: dict = {}

    def bits(names) -> int:
        word = 0
        for name in names:
            word |= 1 << index.setdefault(name, len(index))
        return word

    uses = {label: bits(var_use_map[label]) for label in blocks}
    defs = {label: bits(var_def_map[label]) for label in blocks}
    order = cfg.topo_order()
    reach = defaultdict(int)  # the variables defined or used on some path to a block's entry
    changed = True
    while changed:
        changed = False
        for label in order:
            here = reach[label] | defs[label] | uses[label]
            changed |= here != reach[label]
            reach[label] = here
            for successor, _ in cfg.successors(label):
                merged = reach[successor] | here
                changed |= merged != reach[successor]
                reach[successor] = merged
    live = dict(uses)
    changed = True
    while changed:
        changed = False
        for label in reversed(order):
            here = live[label]
            for predecessor, _ in cfg.predecessors(label):
                merged = live[predecessor] | (here & reach[predecessor] & ~defs[predecessor])
                changed |= merged != live[predecessor]
                live[predecessor] = merged
    names = np.array(list(index), dtype=object)
    size = max(1, (len(index) + 7) // 8)

    def members(word: int) -> set:
        found = np.unpackbits(np.frombuffer(word.to_bytes(size, "little"), np.uint8), bitorder="little")
        return set(names[np.flatnonzero(found)].tolist())

    return {label: members(live[label]) for label in blocks}


def bitset_liveness() -> bool:
    """Make numba compute liveness (``compute_live_map``) over bitsets (``live_map``).

    numba's version unions and intersects sets of variable names, block by block, to a fixed
    point, after every pass that changes the IR (``numba.core.postproc``) and in dead-code
    elimination (``numba.core.ir_utils``): 0.65 s of compiling pancake-6's two-bit kernels, most
    of it in its sets of the variables reaching each block. The result is the same sets."""
    from numba.core import analysis, ir_utils

    if analysis.compute_live_map is live_map:
        return True
    if not hasattr(analysis, "compute_live_map") or getattr(ir_utils, "compute_live_map", None) \
            is not analysis.compute_live_map:
        return False
    live_map.numba = analysis.compute_live_map
    analysis.compute_live_map = ir_utils.compute_live_map = live_map
    return True


_HOLDS_MEMINFO: dict = {}  # (data models, numba type) -> whether its values hold a reference-counted pointer


def _holds_meminfo(models, numba_type) -> bool:
    key = (id(models), numba_type)
    found = _HOLDS_MEMINFO.get(key)
    if found is None:
        found = _HOLDS_MEMINFO[key] = any(models[t].has_nrt_meminfo() for t in models[numba_type].traverse_types())
    return found


def counted_members_only() -> bool:
    """Make numba look for the reference-counted pointers of a value only in the members that
    can hold one.

    To count a reference to a value (``NRTContext.get_meminfos``), numba extracts every member of
    it, recursively, and keeps the pointers among them: for a kernel's ``tables``, a tuple of
    arrays, that is every field of every array (data, sizes, shape and strides), to find one
    pointer in each. A kernel counts references each time it binds ``tables`` to an inlined
    function's argument, so its lowering emitted thousands of extractions that LLVM then parsed
    and removed unused (12% of compiling a wide puzzle's kernels, 19% for ``tests/test_values.py``).
    Here members whose type holds no pointer (read once per type from numba's data models) are
    not extracted. The pointers found, and their order, are numba's."""
    from numba.core.datamodel.models import DataModel
    from numba.core.runtime import context

    nrt = context.NRTContext
    if getattr(nrt.get_meminfos, "counted_members_only", False):
        return True
    if not hasattr(nrt, "get_meminfos") or not all(hasattr(DataModel, name) for name in
                                                    ("traverse", "traverse_types", "has_nrt_meminfo")):
        return False

    def get_meminfos(self, builder, numba_type, value):
        models = self._context.data_model_manager
        if not _holds_meminfo(models, numba_type):
            return []
        model = models[numba_type]
        meminfos = [(numba_type, model.get_nrt_meminfo(builder, value))] if model.has_nrt_meminfo() else []
        for member_type, getter in model.traverse(builder):
            if _holds_meminfo(models, member_type):
                meminfos.extend(self.get_meminfos(builder, member_type, getter(value)))
        return meminfos

    get_meminfos.counted_members_only, get_meminfos.numba = True, nrt.get_meminfos
    nrt.get_meminfos = get_meminfos
    return True


def quick_flag_comparisons() -> bool:
    """Make two sets of compiler flags compare equal at once when they set the same options.

    numba keys its cache of an overload's implementation by the flags of the compile that asks
    (``typing.templates._get_impl``), and every compile has flags of its own: each lookup compares
    them, listing both sets' values (about 40 options, each read through a descriptor), and all
    flags hash alike. Flags of one class setting the same options to the same values are equal
    (the values of the options they leave unset are the defaults of both); others are compared as
    numba compares them. False, and nothing changed, on a numba whose flags are not laid out as
    this expects."""
    from numba.core import targetconfig

    config = targetconfig.TargetConfig
    if getattr(config.__eq__, "quick", False):
        return True
    if not hasattr(config(), "_values"):
        return False
    numbas = config.__eq__

    def __eq__(self, other):
        if type(self) is type(other) and self._values == other._values:
            return True
        return numbas(self, other)

    __eq__.quick, __eq__.numba = True, numbas
    config.__eq__ = __eq__
    return True


_OURS = re.compile(r"_ZN\d+vecsearch")  # the mangled names of functions of vecsearch's modules (generated ones too)


def _ours(library) -> bool:
    """Whether ``library`` (compiled, finalized) defines a function of one of vecsearch's modules."""
    return any(not fn.is_declaration and _OURS.match(fn.name) for fn in library._final_module.functions)


def late_linked_kernels() -> bool:
    """Make numba optimize a kernel's own code before it links in the kernels it calls.

    A kernel that calls another compiled function (a ``loop``, a kernel) links that function's
    library, already optimized, into its module and optimizes the whole module again: every
    wrapper optimized its loop once more (``twobit_range``, ``twobit_loop`` of pancake-8: 0.95 s
    of the wrapper's 3.9 s compile), ``bitset_grow`` the same loop again through
    ``expand_claim_range``. Here the libraries of vecsearch's own functions are linked after the
    kernel's module is optimized: the kernel is optimized with their declarations only, so it
    calls them as they were compiled and never inlines them (a call per range, layer or root);
    numba's libraries (its implementations of ``min``, ``np.empty``...) are linked first, as
    before, for the optimizer to inline. The module links and compiles to machine code as
    before, whole, so a kernel saved in the cache holds all it calls. False, and nothing changed,
    on a numba whose libraries are not laid out as this expects."""
    import llvmlite.binding as ll
    from numba.core import codegen

    library = codegen.CPUCodeLibrary
    if getattr(library.finalize, "late", False):
        return True
    needed = ("_linking_libraries", "_reload_init", "_final_module", "_optimize_final_module", "_finalize_final_module",
              "_raise_if_finalized", "_get_module_for_linking")
    if not all(hasattr(library, name) for name in needed[3:]) or not hasattr(codegen, "require_global_compiler_lock"):
        return False
    numbas = library.finalize

    def finalize(self):
        if not all(hasattr(self, name) for name in needed[:3]) or codegen.config.DUMP_FUNC_OPT:
            return numbas(self)
        codegen.require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        seen, late = set(), []
        for linked in self._linking_libraries:
            if linked not in seen:
                self._reload_init.update(linked._reload_init)
                seen.add(linked)
                if _ours(linked):
                    late.append(linked)
                else:
                    self._final_module.link_in(linked._get_module_for_linking(), preserve=True)
        self._optimize_final_module()
        for linked in late:
            self._final_module.link_in(linked._get_module_for_linking(), preserve=True)
        if late:  # what they brought that nothing calls (their Python wrappers, say) is not compiled
            unused = ll.create_new_module_pass_manager()
            unused.add_global_dead_code_eliminate_pass()
            unused.run(self._final_module, self._codegen._pass_builder())
        self._final_module.verify()
        self._finalize_final_module()

    finalize.late, finalize.numba = True, numbas
    library.finalize = finalize
    return True


# Python's garbage collector while numba compiles: a compile makes millions of objects, most of them kept until
# it ends, and with the default thresholds (700, 10, 10) the collector walked them over and over (tests/test_pairs.py
# cold, one process: 31.2 s -> 25.8-26.9 s, the same peak memory; freezing the objects there before instead: as
# fast, 90 MB more)
COMPILE_GC_THRESHOLDS = (100_000, 50, 1000)


class _Compiles(event.Listener):
    """Installs the compiler's patches (``faster_inlining`` to ``quick_flag_comparisons``) and
    CPython's (``vecsearch._frame_chunks``) when numba starts its first compile in the process (a
    process that only loads kernels from the cache never imports the compiler's passes); while an
    outermost compile runs, the garbage collector takes ``COMPILE_GC_THRESHOLDS``, and when it
    ends, its own thresholds again and ``_callee_irs`` is emptied (numba's compiler lock holds
    meanwhile: one compile at a time). It stays registered: numba would skip the next listener of
    the event it is told of if it left the list then."""

    registered = False
    installed = False
    depth = 0
    thresholds = (700, 10, 10)  # the collector's own, while no compile runs

    def on_start(self, ev) -> None:
        if not self.installed:
            self.installed = True  # before the frame stack's allocator is compiled (or loaded)
            from vecsearch._frame_chunks import install as keep_frame_chunks

            keep_frame_chunks()
            faster_inlining()
            reused_callee_irs()
            ssa_by_mentions()
            bitset_liveness()
            counted_members_only()
            quick_flag_comparisons()
            late_linked_kernels()
        if self.depth == 0:
            self.thresholds = gc.get_threshold()
            gc.set_threshold(*COMPILE_GC_THRESHOLDS)
        self.depth += 1

    def on_end(self, ev) -> None:
        self.depth -= 1
        if self.depth == 0:
            _callee_irs.clear()
            gc.set_threshold(*self.thresholds)  # numba ends the event when a compile raises too


def quicker_cache_loads() -> bool:
    """Make numba's cache load a kernel after initialising only what a loaded kernel calls into.

    Before each load, numba refreshes its target context in full: it imports every module of
    implementations (arrays, linear algebra, random numbers, typed containers...) and registers
    them for typing and lowering, which only a compile uses. A loaded kernel needs only the symbols
    its machine code links to: the runtime's (``rtsys.initialize``, which the refresh also does),
    numba's C helpers (registered with the context itself) and the hash secret, registered when
    ``numba.cpython.hashing`` is imported. Those are set up here instead; the first compile
    refreshes in full as before (``numba.core.compiler.compile_extra``). False, and nothing
    changed, on a numba whose cache is not laid out as this expects."""
    from numba.core import caching
    from numba.core.runtime import rtsys

    cache = caching.Cache
    if getattr(cache.load_overload, "quick", False):
        return True
    if not all(hasattr(cache, name) for name in ("_load_overload", "_guard_against_spurious_io_errors")) \
            or not hasattr(rtsys, "initialize"):
        return False

    def load_overload(self, sig, target_context):
        import numba.cpython.hashing  # noqa: F401  (the hash secret's symbols)

        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload.quick = True
    cache.load_overload = load_overload
    return True


def saved_runtime() -> bool:
    """Make numba's runtime load its functions' machine code saved by an earlier process.

    Before its first kernel, a process compiles numba's runtime functions (reference counts,
    atomic operations) from LLVM IR with LLVM's optimizer: 20-26 ms of each process (a judge
    problem's whole search takes less). Their machine code depends only on numba, llvmlite, the
    target machine and numba's debugging options, so it is saved on first use in vecsearch's
    cache folder (``$VECSEARCH_CACHE_DIR``), under a name hashed from those, as numba saves a
    kernel's (its object code and bitcode), and loaded by later processes (3-5 ms). A file that
    cannot be read is compiled again and replaced; a folder that cannot be written saves none.
    False, and nothing changed, on a numba whose runtime is not built as this expects."""
    import pickle

    import llvmlite
    import numba
    from numba.core import config
    from numba.core.runtime import nrtdynmod

    if getattr(nrtdynmod.compile_nrt_functions, "saved", False):
        return True
    if not hasattr(nrtdynmod, "create_nrt_module"):
        return False

    def compile_nrt_functions(ctx):
        from vecsearch.cache_folder import cache_dir

        codegen = ctx.codegen()
        made_by = (numba.__version__, llvmlite.__version__, codegen.magic_tuple(), config.DEBUG_NRT,
                   config.DEBUG_NRT_STACK_LIMIT, config.MACHINE_BITS)
        name = hashlib.blake2b(repr(made_by).encode(), digest_size=10).hexdigest()
        path = cache_dir() / f"numba-runtime-{name}.pickle"
        try:
            with open(path, "rb") as saved:
                return codegen.unserialize_library(pickle.load(saved))
        except Exception:  # noqa: BLE001 - absent, or unreadable in any way: compiled again
            pass
        ir_module, library = nrtdynmod.create_nrt_module(ctx)
        library.enable_object_caching()
        library.add_ir_module(ir_module)
        library.finalize()
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_bytes(pickle.dumps(library.serialize_using_object_code()))
            temporary.replace(path)  # atomic: readers never see half a file
        return library

    compile_nrt_functions.saved = True
    nrtdynmod.compile_nrt_functions = compile_nrt_functions
    return True


_COMPILES = _Compiles()


def install() -> None:
    """Install ``quicker_cache_loads`` and ``saved_runtime`` now and the compiler's patches at the
    first compile (once)."""
    if not _COMPILES.registered:
        event.register("numba:compile", _COMPILES)
        _COMPILES.registered = True
    quicker_cache_loads()
    saved_runtime()
