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
