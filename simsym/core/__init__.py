"""numba kernels over flat integer arrays. Nothing here knows about names, YAML or pandas."""

import gc
import hashlib
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
