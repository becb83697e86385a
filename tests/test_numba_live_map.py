"""numba's live-variable analysis over bitsets (simsym.core): the same live sets as numba's
own analysis on every block of functions with loops, early exits and dead code, compiled."""

import numpy as np
import pytest
from numba import njit
from numba.core import analysis, ir_utils

import simsym.core as core

ORIGINAL = analysis.compute_live_map._numba_original


def test_installed():
    assert core.LIVE_MAP_BITSETS
    assert analysis.compute_live_map is core._live_map_bitsets
    assert ir_utils.compute_live_map is core._live_map_bitsets


def _loops(a, n):
    s = 0
    t = 1
    for i in range(n):
        if a[i] < 0:
            continue
        j = 0
        while j < i:  # a nested loop reading and writing variables of the outer one
            if a[j] == a[i]:
                t += j
                break
            j += 1
        else:
            s += a[i] * t
        if s > 1000:
            return s - t
    k = n
    while True:  # a loop left only by its break
        k -= 1
        if k <= 0 or a[k] > 5:
            break
    u = s + k if n > 3 else t  # a variable defined on one path only
    return u


def _dead(a, n):
    x = 0
    if n < 0:
        return -1
    for i in range(n):
        x += a[i]
    if False:  # a block no path reaches
        y = x * 2
        return y
    return x


@pytest.mark.parametrize("fn", [_loops, _dead])
def test_same_live_sets_as_numba(fn, monkeypatch):
    seen = []

    def both(cfg, blocks, var_use_map, var_def_map):
        expected = ORIGINAL(cfg, blocks, var_use_map, var_def_map)
        got = core._live_map_bitsets(cfg, blocks, var_use_map, var_def_map)
        assert got == expected
        assert list(got) == list(expected)
        seen.append(sum(len(v) for v in got.values()))
        return got

    monkeypatch.setattr(analysis, "compute_live_map", both)
    monkeypatch.setattr(ir_utils, "compute_live_map", both)
    a = np.array([3, -1, 3, 7, 2, 9, 3], dtype=np.int64)
    compiled = njit(fn)
    assert compiled(a, np.int64(len(a))) == fn(a, len(a))
    assert compiled(a, np.int64(-2)) == fn(a, -2)
    assert len(seen) >= 2 and max(seen) > 0  # the analysis ran, on blocks with live variables


def test_hand_made_graph():
    """A graph with a self-loop, a block no path reaches and a variable defined in the loop."""
    from numba.core.controlflow import CFGraph

    cfg = CFGraph()
    for b in (0, 1, 2, 3, 9):
        cfg.add_node(b)
    cfg.add_edge(0, 1)
    cfg.add_edge(1, 1)  # self-loop
    cfg.add_edge(1, 2)
    cfg.add_edge(2, 1)
    cfg.add_edge(2, 3)
    cfg.add_edge(9, 3)  # 9: no path from the entry
    cfg.set_entry_point(0)
    cfg.process()
    blocks = dict.fromkeys((0, 1, 2, 3, 9))
    uses = {0: set(), 1: {"i", "n"}, 2: {"s", "i"}, 3: {"s", "z"}, 9: {"q"}}
    defs = {0: {"i", "s", "n"}, 1: {"t"}, 2: {"s", "i"}, 3: set(), 9: {"z"}}
    expected = ORIGINAL(cfg, blocks, uses, defs)
    assert core._live_map_bitsets(cfg, blocks, uses, defs) == expected
    assert expected[1] == {"i", "n", "s"}  # hand-worked: s is used in 2, reached from 0
