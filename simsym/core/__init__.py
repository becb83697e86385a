"""numba kernels over flat integer arrays. Nothing here knows about names, YAML or pandas."""

import gc
import hashlib
import inspect
import textwrap
from functools import lru_cache
from pathlib import Path

from numba.core import caching, event


class _FewerCollectionsWhileCompiling(event.Listener):
    """Python's cyclic garbage collector runs a tenth as often while numba compiles.

    A cold compile builds and deep-copies millions of short-lived IR objects (numba copies a
    function's IR each time it inlines it); with the default threshold (a collection every
    700 net allocations) the collector kept rescanning numba's large live heap. The threshold
    is restored when the outermost compile ends, so nothing else in the process is affected,
    and loading kernels from numba's cache is not a compile."""

    def __init__(self):
        self._depth = 0
        self._saved = None

    def on_start(self, ev):
        if self._depth == 0:
            self._saved = gc.get_threshold()
            gc.set_threshold(max(self._saved[0], 10 * 700), *self._saved[1:])
        self._depth += 1

    def on_end(self, ev):
        self._depth -= 1
        if self._depth == 0:
            gc.set_threshold(*self._saved)


event.register("numba:compile", _FewerCollectionsWhileCompiling())


# --- numba's inliner: a function's IR copied once, not once per block -------------------------

# numba 0.68's InlineWorker.inline_ir copies the callee's IR (twice per call site) with one
# deepcopy per block, each with a memo of its own. Every variable of the IR refers to the
# function's one Scope, which lists every variable of the function, so each block's copy
# copies the whole Scope again: the copy grows as blocks x variables. Those copies took ~7 s
# of a ~60 s cold compile, most of it inlining the trade code (_attempt_run with what it
# inlines: hundreds of blocks) into _attempt. One deepcopy of all the blocks shares the
# memo: the Scope and each variable are copied once, and the copy has the original's shape
# (one Scope for every block, as numba requires; numba then points the inlined blocks at the
# caller's Scope). The same answer, faster: the
# tests compare the machine code numba emits with and without it (tests/test_numba_inliner.py).
# Applied only where the method's source is exactly the text below (numba is pinned in
# pyproject.toml); anywhere else numba is left as it is, and compiles as before, slower.
_COPY_PER_BLOCK = """\
        kernel_copy.blocks = {}
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
            kernel_copy.blocks[block_label] = new_block
"""
_COPY_ONCE = """\
        # simsym (simsym/core/__init__.py): one deepcopy of every block, one memo, so the
        # Scope and each variable are copied once, not once per block.
        kernel_copy.blocks = copy.deepcopy(the_ir.blocks)

"""  # as many lines as it replaces: the method's line numbers stay numba's


def _inliner_copies_once() -> bool:
    """Replace numba's InlineWorker.inline_ir by its own source with _COPY_ONCE for
    _COPY_PER_BLOCK, compiled in its module; whether it is (or already was) replaced."""
    from numba.core import inline_closurecall as ic

    inline_ir = ic.InlineWorker.inline_ir
    if getattr(inline_ir, "_simsym_copies_once", False):
        return True
    try:
        source = textwrap.dedent(inspect.getsource(inline_ir))
        filename = inspect.getsourcefile(inline_ir)
    except (OSError, TypeError):
        return False
    if source.count(_COPY_PER_BLOCK) != 1 or inline_ir.__code__.co_freevars:
        return False
    padded = "\n" * (inline_ir.__code__.co_firstlineno - 1) + source.replace(_COPY_PER_BLOCK,
                                                                            _COPY_ONCE)
    namespace = {}
    exec(compile(padded, filename, "exec"), vars(ic), namespace)
    patched = namespace[inline_ir.__name__]
    patched.__qualname__ = inline_ir.__qualname__
    patched._simsym_copies_once = True
    patched._numba_original = inline_ir
    ic.InlineWorker.inline_ir = patched
    return True


INLINER_COPIES_ONCE = _inliner_copies_once()


# --- the game loop's function passes at O1, its module passes at O3 --------------------------

# numba optimises a function's LLVM IR twice: each function alone with LLVM's function
# simplification pipeline (CPUCodeLibrary._optimize_functions), then the whole module with
# the callees linked in, with the module pipelines, which run the same function simplification
# again inside. At O3 the first run is most of LLVM's time on the game loop (play_until, with
# the phases and the trade attempt inlined: ~1,200 blocks): 8.4 s there (CorrelatedValue-
# Propagation 4.1 s and SROA 3.3 s on numba's unoptimised IR, one alloca per variable)
# against 1.3 s in the module passes. At O1 (SROA, EarlyCSE, InstCombine, SimplifyCFG: the
# clean-up, without the analyses whose cost grows with a function's size) it leaves the
# module passes a small function to optimise at O3: cold compile -9 s, and the game loop's
# code as fast. Not for every kernel: the search's code is 3% longer so
# (docs/performance.md, thirty-sixth session).
_O1_FUNCTION_PASSES: set[str] = set()


def function_passes_o1(dispatcher):
    """Run the first, per-function LLVM passes on this kernel's code at O1 (see above); the
    kernel, for use as a decorator."""
    f = getattr(dispatcher, "py_func", None)
    if f is None:
        return dispatcher  # python mode (NUMBA_DISABLE_JIT): a plain function
    parts = f.__module__.split(".") + f.__qualname__.split(".")
    _O1_FUNCTION_PASSES.add("".join(f"{len(p)}{p}" for p in parts))  # as numba mangles it
    return dispatcher


def _function_passes_o1_where_asked() -> bool:
    """Run numba's per-function LLVM passes at O1 on the functions of the kernels named by
    function_passes_o1 (never above numba's own level); whether they are (or already were)
    so run."""
    from numba.core import codegen, config

    library = codegen.CPUCodeLibrary
    optimize_functions = library._optimize_functions
    if getattr(optimize_functions, "_simsym_o1", False):
        return True

    def optimize_functions_o1(self, ll_module):
        ll_module.data_layout = self._codegen._data_layout
        for func in ll_module.functions:
            o1 = any(name in func.name for name in _O1_FUNCTION_PASSES)
            fpm, pb = self._codegen._function_pass_manager(
                **({"opt": min(1, config.OPT)} if o1 else {}))
            with self._recorded_timings.record(f"Function passes on {func.name!r}", pb):
                fpm.run(func, pb)

    optimize_functions_o1._simsym_o1 = True
    optimize_functions_o1._numba_original = optimize_functions
    library._optimize_functions = optimize_functions_o1
    return True


FUNCTION_PASSES_O1 = _function_passes_o1_where_asked()


# --- one compile per kernel, not one per constant it is called with ---------------------------

# A compiled function calling a kernel with a constant (a literal 0, a module constant such
# as DISCARD_KOMOS, or a variable that only ever holds one) makes numba type and compile
# that kernel once more, for that constant (Literal[int](0) is a type of its own): the cold
# compile of the engine compiled 26 kernels 43 times more than needed, ~7 s of ~75 s. A call
# from one simsym kernel to another is typed with the arguments' plain types (int64 for
# Literal[int](0)), so each kernel compiles once per real signature. The machine code is as
# fast: LLVM inlines the small kernels and folds the constant back in where it inlines them.
# numba's typing of its own functions (np.zeros, tuple indexing) still sees the literals.
def _plain_types_for_kernel_calls() -> bool:
    """Make numba's dispatcher type a call to a simsym kernel from compiled code with the
    arguments' non-literal types; whether it does (or already did)."""
    from numba.core import dispatcher, types

    get_call_template = dispatcher._DispatcherBase.get_call_template
    if getattr(get_call_template, "_simsym_plain", False):
        return True

    def plain_get_call_template(self, args, kws):
        if getattr(self.py_func, "__module__", "").startswith("simsym."):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return get_call_template(self, args, kws)

    plain_get_call_template._simsym_plain = True
    plain_get_call_template._numba_original = get_call_template
    dispatcher._DispatcherBase.get_call_template = plain_get_call_template
    return True


PLAIN_KERNEL_CALLS = _plain_types_for_kernel_calls()


# --- numba's compile options compared by what is set ------------------------------------------

# Typing a call tries each overload template of the function (an array's getitem: those for
# typed lists, strings, literal dicts ...), and each looks in its cache under a key holding
# the compile's options (a numba TargetConfig, ~40 options). numba hashes and compares that
# key through TargetConfig.values(), which reads every option through a property: a cold
# compile of the engine made ~84,000 such lookups and ~360,000 values() calls, ~10% of the
# Python time of the compile under a profiler (docs/performance.md, fortieth session). Here
# values() is the defaults overlaid with the options set (the same dict, in the same order),
# the hash (numba's: of the sorted option names, the same for every config of a class) is
# computed once per class, and two configs of one class that set the same options are equal
# without building either dict. Every answer is numba's (tests/test_numba_flags.py).
def _target_config_fast_compare() -> bool:
    """Make numba's TargetConfig.values, __hash__ and __eq__ give their answers without
    reading each option through its property; whether they do (or already did)."""
    from numba.core import targetconfig

    config = targetconfig.TargetConfig
    if getattr(config.values, "_simsym_fast", False):
        return True
    values, hash_, eq = config.values, config.__hash__, config.__eq__
    defaults = {}  # TargetConfig subclass -> (its options mapping, their defaults, hash)

    def _class_facts(cls):
        facts = defaults.get(cls)
        if facts is None or facts[0] is not cls.options:
            d = {name: option.default for name, option in cls.options.items()}
            facts = (cls.options, d, hash(tuple(sorted(d))))
            defaults[cls] = facts
        return facts

    def fast_values(self):
        out = _class_facts(type(self))[1].copy()
        out.update(self._values)  # only options are ever set (numba's setters)
        return out

    def fast_hash(self):
        return _class_facts(type(self))[2]

    def fast_eq(self, other):
        if type(other) is type(self) and self._values == other._values:
            return True
        return eq(self, other)

    for new, old in ((fast_values, values), (fast_hash, hash_), (fast_eq, eq)):
        new._simsym_fast = True
        new._numba_original = old
    config.values = fast_values
    config.__hash__ = fast_hash
    config.__eq__ = fast_eq
    return True


TARGET_CONFIG_FAST_COMPARE = _target_config_fast_compare()


# --- an operator's typing answered once per argument types ------------------------------------

# numba types each call site again from scratch, at every pass of its type inference: an
# array's getitem tries the overload templates in order (typed lists, strings, literal
# dicts ...), each failing with a formatted message, before the array template answers. A
# cold compile of the engine typed ~4,000 getitems (~340 µs each), ~3,500 additions,
# ~1,800 setitems ...: ~5 s of ~46 s, for a few hundred distinct argument types (fortieth
# session). The answer depends only on the function type (its templates are fixed when it is
# made), the typing context, the argument types and the compile options in force (the
# overload templates key their implementations by them), so a successful typing of the
# operators and builtins below is kept under those and given again; a failure is not kept
# (numba raises its own message each time). Functions reached by name (kernels, intrinsics,
# numba's @overload of np.*) are typed as numba types them: their typing may compile.
_MEMO_TYPING_MODULES = frozenset({"_operator", "operator", "builtins"})


def _memo_typing_key(function_type) -> bool:
    key = function_type.typing_key
    if isinstance(key, type):  # bool, range, slice ...
        return key.__module__ == "builtins"
    return getattr(key, "__module__", None) in _MEMO_TYPING_MODULES


def _operator_typing_memo() -> bool:
    """Make numba's Function.get_call_type keep its successful answers for operators and
    builtins (see above); whether it does (or already did)."""
    from numba.core import targetconfig, types
    from numba.core.types import functions

    get_call_type = functions.BaseFunction.get_call_type
    if getattr(get_call_type, "_simsym_memo", False):
        return True
    memo = {}
    top_or_none = targetconfig.ConfigStack.top_or_none

    def memo_get_call_type(self, context, args, kws):
        if type(self) is not types.Function or not _memo_typing_key(self):
            return get_call_type(self, context, args, kws)
        flags = top_or_none()
        key = (self, context, tuple(args), tuple(kws.items()), flags)
        try:
            return memo[key]
        except KeyError:
            pass
        sig = get_call_type(self, context, args, kws)
        if sig is not None:  # kept under a copy of the options: the live ones may change
            memo[key[:4] + (None if flags is None else flags.copy(),)] = sig
        return sig

    memo_get_call_type._simsym_memo = True
    memo_get_call_type._numba_original = get_call_type
    memo_get_call_type.memo = memo
    functions.BaseFunction.get_call_type = memo_get_call_type
    return True


OPERATOR_TYPING_MEMO = _operator_typing_memo()


# --- numba's live-variable analysis over bitsets -------------------------------------------

# numba works out which variables are live at each block's entry (analysis.compute_live_map,
# for the `del`s it inserts) with Python sets: which definitions reach each block, pushed
# forward until nothing grows, then the uses pushed backward. In the game loop and the search
# (~1,000 blocks, thousands of variables, after inlining) those sets hold most of the
# variables, and a cold compile spent 3.7 s of ~41 s in 1,806 calls (fortieth session). The
# same two fixed points over Python integers as bitsets (a variable a bit) give the same
# sets at a fraction of the time: an | of two integers is one C loop over machine words.
def _live_map_bitsets(cfg, blocks, var_use_map, var_def_map):
    """numba's analysis.compute_live_map (the variables live at the entry of each block),
    computed over integer bitsets."""
    index = {}
    names = []

    def bits(variables):
        b = 0
        for v in variables:
            i = index.get(v)
            if i is None:
                i = index[v] = len(names)
                names.append(v)
            b |= 1 << i
        return b

    use = {}
    defs = {}

    def use_bits(offset):
        b = use.get(offset)
        if b is None:
            b = use[offset] = bits(var_use_map[offset])
        return b

    def def_bits(offset):
        b = defs.get(offset)
        if b is None:
            b = defs[offset] = bits(var_def_map[offset])
        return b

    topo = cfg.topo_order()
    # Definitions reaching each block's entry (numba's def_reach): the least fixed point of
    # reach[b] >= defs(b) | uses(b), reach[s] >= reach[b] for each successor s.
    succ = {o: [d for d, _ in cfg.successors(o)] for o in topo}
    reach = {}
    changed = True
    while changed:
        changed = False
        for o in topo:
            v = reach.get(o, 0) | def_bits(o) | use_bits(o)
            if v != reach.get(o, 0):
                reach[o] = v
                changed = True
            for s in succ[o]:
                w = reach.get(s, 0)
                if w | v != w:
                    reach[s] = w | v
                    changed = True
    # Live at entry (numba's liveness): from each block's uses, a variable live at a block is
    # live at the end of a predecessor it reaches, and at its entry unless defined there.
    live = {o: use_bits(o) for o in blocks.keys()}
    preds = {o: [p for p, _ in cfg.predecessors(o)] for o in topo}
    changed = True
    while changed:
        changed = False
        for o in reversed(topo):
            lv = live[o]
            for p in preds[o]:
                w = live[p]
                nw = w | (lv & reach.get(p, 0) & ~def_bits(p))
                if nw != w:
                    live[p] = nw
                    changed = True

    def as_set(b):
        out = set()
        while b:
            low = b & -b
            out.add(names[low.bit_length() - 1])
            b ^= low
        return out

    return {o: as_set(live[o]) for o in blocks.keys()}


def _live_map_over_bitsets() -> bool:
    """Make numba's postprocessor and IR utilities compute live variables with
    _live_map_bitsets; whether they do (or already did)."""
    from numba.core import analysis, ir_utils

    original = analysis.compute_live_map
    if getattr(original, "_simsym_bitsets", False):
        return True
    if getattr(ir_utils, "compute_live_map", None) is not original:
        return False  # not the numba this was written against: leave it as it is
    _live_map_bitsets._simsym_bitsets = True
    _live_map_bitsets._numba_original = original
    analysis.compute_live_map = _live_map_bitsets  # postproc calls it through the module
    ir_utils.compute_live_map = _live_map_bitsets  # ir_utils imported the name
    return True


LIVE_MAP_BITSETS = _live_map_over_bitsets()


# --- numba's SSA reconstruction: each variable's rewrite over the blocks that name it ---------

# numba rebuilds SSA form (ssa._run_ssa) one variable defined more than once at a time, and
# for each it rewrites every block twice (fresh names for its definitions, then each use
# pointed at the definition reaching it, with phis where paths join), running a handler on
# every statement of the function: in a cold compile of the engine 884 rewrites and ~2
# million statement visits, ~4 s (fortieth session). On a block that does not name the
# variable the handlers return each statement as it is and change nothing, so here only the
# blocks naming it (listed once: a rewrite only renames the variable it is for, and the phis
# it adds name only that variable's new names) go through the handlers; the others are kept
# as they are (copied before a phi is put in front of them, and at the end, so the pass
# returns new blocks as numba's does). The same blocks, statement for statement, as numba's
# own pass: on all 126 functions of the engine's cold compile (fortieth session, numba's pass
# run on a copy of each), and in tests/test_numba_ssa.py on functions of its own.
def _ssa_rewriting_named_blocks_only() -> bool:
    """Make numba's SSA reconstruction run its handlers only on the blocks that name the
    variable being rewritten (see above); whether it does (or already did)."""
    from collections import defaultdict

    from numba.core import errors, ir, ssa
    from numba.core.analysis import compute_cfg_from_blocks

    original = ssa._run_ssa
    if getattr(original, "_simsym_named_only", False):
        return True

    def copy_block(blk):
        new = ir.Block(scope=blk.scope, loc=blk.loc)
        new.body = list(blk.body)
        return new

    def rewrite(blocks, states, handler, named):
        # numba's _run_block_rewrite, the handler run only on the blocks in ``named``: on any
        # other block it would return every statement as it is and change no state.
        newblocks = {}
        for label, blk in blocks.items():
            if label not in named:
                newblocks[label] = blk
                continue
            newblk = ir.Block(scope=blk.scope, loc=blk.loc)
            newbody = []
            states['label'] = label
            states['block'] = blk
            for stmt in ssa._run_ssa_block_pass(states, blk, handler):
                assert stmt is not None
                newbody.append(stmt)
            newblk.body = newbody
            newblocks[label] = newblk
        return newblocks

    def run_ssa(blocks):
        if not blocks:
            return {}
        cfg = compute_cfg_from_blocks(blocks)
        df_plus = ssa._iterated_domfronts(cfg)
        violators = ssa._find_defs_violators(blocks, cfg)
        cache_list_vars = ssa._CacheListVars()
        named = {name: set() for name in violators}
        for label, blk in blocks.items():
            for stmt in blk.body:
                for var in stmt.list_vars():
                    labels = named.get(var.name)
                    if labels is not None:
                        labels.add(label)
        inputs = {id(b) for b in blocks.values()}
        for varname in violators:
            only = named[varname]
            # numba's _fresh_vars
            states = ssa._make_states(blocks)
            states['varname'] = varname
            states['defmap'] = defmap = defaultdict(list)
            blocks = rewrite(blocks, states, ssa._FreshVarHandler(), only)
            # numba's _fix_ssa_vars
            states = ssa._make_states(blocks)
            states['varname'] = varname
            states['defmap'] = defmap
            states['phimap'] = phimap = defaultdict(list)
            states['cfg'] = cfg
            states['phi_locations'] = ssa._compute_phi_locations(df_plus, defmap)
            newblocks = rewrite(blocks, states, ssa._FixSSAVars(cache_list_vars), only)
            for label, philist in phimap.items():
                curblk = newblocks[label]
                if curblk is blocks[label]:  # not rewritten: shared, so copied first
                    curblk = newblocks[label] = copy_block(curblk)
                curblk.body = philist + curblk.body
            blocks = newblocks
        if compute_cfg_from_blocks(blocks) != cfg:
            raise errors.CompilerError("CFG mutated in SSA pass")
        # Every block a new object, as numba's own pass returns them.
        return {label: copy_block(b) if id(b) in inputs else b for label, b in blocks.items()}

    run_ssa._simsym_named_only = True
    run_ssa._numba_original = original
    ssa._run_ssa = run_ssa
    return True


SSA_NAMED_BLOCKS_ONLY = _ssa_rewriting_named_blocks_only()


# --- numba's cache, kept in step with the kernels a kernel calls ------------------------------

_CORE = Path(__file__).resolve().parent
_PACKAGE = _CORE.parent


@lru_cache(maxsize=None)
def kernel_sources_digest() -> str:
    """SHA-256 over the source of every module in simsym.core (the kernels), in name order."""
    h = hashlib.sha256()
    for path in sorted(_CORE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


class KernelSourcesLocator(caching._CacheLocator):
    """Where numba caches a simsym kernel, and when that cache is stale.

    numba stores a compiled function together with the machine code of everything it calls,
    but judges the cache fresh by the function's own source file only. After an edit to
    search_nb.py alone, the game kernel (in game_nb.py) would keep running the previous
    search from its cache: an upgraded checkout could silently play different games. This
    locator is numba's own choice of place (the in-tree __pycache__, or NUMBA_CACHE_DIR),
    with a freshness stamp that also covers every kernel module, so an edit to any of them
    recompiles the kernels."""

    def __init__(self, inner):
        self._inner = inner
        self._py_file = getattr(inner, "_py_file", None)  # numba's warnings read it

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), kernel_sources_digest())

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            Path(py_file).resolve().relative_to(_PACKAGE)
        except (OSError, ValueError):
            return None  # not simsym's: numba's own locators decide
        for numba_locator in _NUMBA_LOCATORS:
            inner = numba_locator.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner)
        return None


# numba tries its locators in order; ours goes first (once, even if this module is reloaded).
_NUMBA_LOCATORS = [c for c in caching.CacheImpl._locator_classes
                   if c.__name__ != "KernelSourcesLocator"]
caching.CacheImpl._locator_classes[:] = [KernelSourcesLocator] + _NUMBA_LOCATORS


# --- the symbols kernels call, before a kernel is loaded from numba's cache --------------------
# Compiled kernels reach the search and a few big kernels through symbols (simsym.core.native).
# A kernel loaded from numba's cache is linked as it loads, so the symbols must exist first:
# every load of a simsym kernel's cache makes sure they do.
def _symbols_before_kernel_loads() -> bool:
    """Wrap numba's Cache.load_overload so that loading a simsym kernel from the cache first
    makes the registered symbols callable; whether it is wrapped (or already was)."""
    load_overload = caching.Cache.load_overload
    if getattr(load_overload, "_simsym_symbols", False):
        return True

    def load_overload_with_symbols(self, sig, target_context):
        if isinstance(getattr(self._impl, "locator", None), KernelSourcesLocator):
            from simsym.core import native

            native.ensure_all()
        return load_overload(self, sig, target_context)

    load_overload_with_symbols._simsym_symbols = True
    load_overload_with_symbols._numba_original = load_overload
    caching.Cache.load_overload = load_overload_with_symbols
    return True


SYMBOLS_HOOK = _symbols_before_kernel_loads()


# --- kernels without a Python entry -----------------------------------------------------------
# numba compiles, for every function, a wrapper that makes it callable from Python: code that
# unboxes each argument (every array of both game records: ~90 KB of IR) and boxes the result.
# Most simsym kernels are only ever called by other kernels, so they are compiled without it
# (numba's option no_cpython_wrapper; cold compile ~-13%, docs/performance.md, thirty-sixth
# session). numba would still register such a kernel for calls from Python, at the address of
# the wrapper it did not compile, and a call would crash the process: here it is not
# registered, and a call from Python raises a TypeError naming the kernel instead.
def _is_compiled_only(dispatcher) -> bool:
    return (dispatcher.targetoptions.get("no_cpython_wrapper", False)
            and getattr(dispatcher.py_func, "__module__", "").startswith("simsym."))


def _guard_kernels_without_python_entry() -> bool:
    """Keep numba from registering simsym kernels compiled without a Python entry for Python
    calls, and make such a call raise; whether the guard is (or already was) in place."""
    from numba.core import dispatcher

    base = dispatcher._DispatcherBase
    add_overload = base.add_overload
    if getattr(add_overload, "_simsym_guard", False):
        return True
    compile_for_args = dispatcher.Dispatcher._compile_for_args

    def add_overload_guarded(self, cres):
        if _is_compiled_only(self):
            self.overloads[tuple(cres.signature.args)] = cres  # for compiled callers only
            return
        add_overload(self, cres)

    def compile_for_args_guarded(self, *args, **kws):
        if _is_compiled_only(self):
            f = self.py_func
            raise TypeError(
                f"{f.__module__}.{f.__qualname__} is a kernel for compiled callers only "
                "(compiled with no_cpython_wrapper): call it from a compiled function, or "
                "give it the options of a Python entry point")
        return compile_for_args(self, *args, **kws)

    add_overload_guarded._simsym_guard = True
    add_overload_guarded._numba_original = add_overload
    compile_for_args_guarded._numba_original = compile_for_args
    base.add_overload = add_overload_guarded
    dispatcher.Dispatcher._compile_for_args = compile_for_args_guarded
    return True


PYTHON_ENTRY_GUARD = _guard_kernels_without_python_entry()
