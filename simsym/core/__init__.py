"""numba kernels over flat integer arrays. Nothing here knows about names, YAML or pandas.

numba is used as published: ``@njit(cache=True)`` kernels, the ``numba:compile`` event, and
the ``NUMBA_CACHE_DIR`` setting, chosen here before any kernel is defined.

**The cache, keyed on every kernel's source.** numba stores a compiled kernel together with
the machine code of every kernel it calls, but judges the stored copy fresh by the kernel's
own source file alone: after an edit to search_nb.py, the game kernel (in game_nb.py) would
load the previous search from its cache. So the kernels are cached in a folder of their own
per digest of every module of this package: an edit to any of them starts an empty folder,
and every kernel is compiled again, once. The folder is
``<NUMBA_CACHE_DIR, else ~/.cache/simsym>/simsym-numba/<digest>``; numba is told through
``NUMBA_CACHE_DIR``, which the processes a run starts inherit.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
from functools import lru_cache
from pathlib import Path

_CORE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def kernel_sources_digest() -> str:
    """SHA-256 over the source of every module in simsym.core (the kernels), in name order."""
    h = hashlib.sha256()
    for path in sorted(_CORE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def kernel_cache_dir() -> Path:
    """Where numba caches the kernels of these sources (see the module's docstring)."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        base = Path(base)
        if base.parent.name == "simsym-numba":  # inherited from a process that chose it
            base = base.parent.parent
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "simsym"
    return base / "simsym-numba" / kernel_sources_digest()[:16]


def _use_kernel_cache_dir() -> None:
    """Point numba's cache at kernel_cache_dir(), for this process and the workers it starts
    (they inherit the environment)."""
    os.environ["NUMBA_CACHE_DIR"] = str(kernel_cache_dir())
    if "numba" in sys.modules:  # numba read its settings when it was imported
        from numba import config

        config.reload_config()


_use_kernel_cache_dir()

from numba.core import event  # noqa: E402  (after the cache folder is chosen)


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
