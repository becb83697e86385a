"""numba kernels over flat integer arrays. Nothing here knows about names, YAML or pandas."""

import gc

from numba.core import event


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
