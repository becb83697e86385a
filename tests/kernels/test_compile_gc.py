"""While numba compiles, the garbage collector's first threshold is raised; afterwards the
process's own thresholds are back (simsym.core's compile listener)."""

import gc

import numpy as np
from numba import njit
from numba.core import event

import simsym.core  # noqa: F401  (registers the listener)


class _Probe(event.Listener):
    def __init__(self):
        self.seen = []

    def on_start(self, ev):
        self.seen.append(gc.get_threshold())

    def on_end(self, ev):
        pass


def test_threshold_raised_only_while_compiling():
    before = (500, 9, 8)
    old = gc.get_threshold()
    gc.set_threshold(*before)
    probe = _Probe()
    event.register("numba:compile", probe)  # after simsym's listener: sees its setting
    try:
        @njit
        def inner(x):
            return x + 1

        @njit
        def outer(x):  # compiling outer compiles inner inside it (a nested compile)
            return inner(x) * 2

        assert outer(np.int64(3)) == 8
        after = gc.get_threshold()
    finally:
        event.unregister("numba:compile", probe)
        gc.set_threshold(*old)
    assert probe.seen, "no compile event seen"
    assert all(t == (7000, 9, 8) for t in probe.seen), probe.seen
    assert after == before
