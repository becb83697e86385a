"""numba's SSA reconstruction, each variable rewritten only in the blocks that name it
(simsym.core): the same blocks, statement for statement, as numba's own pass, on functions
whose variables are redefined in loops, branches and on one path only."""

import copy

import numpy as np
import pytest
from numba import njit
from numba.core import ssa

import simsym.core as core

ORIGINAL = ssa._run_ssa._numba_original


def test_installed():
    assert core.SSA_NAMED_BLOCKS_ONLY
    assert getattr(ssa._run_ssa, "_simsym_named_only", False)


def _redefined(a, n):
    x = 0
    y = 1
    for i in range(n):
        if a[i] > 2:
            x = x + a[i]  # x and y redefined in the loop: phis at its head
        else:
            y = y * 2
            if y > 50:
                break
        x -= 1
    z = x + y if n > 2 else y
    w = 0
    while w < z:
        w += 3
    return w - z


def _one_path(a, n):
    if n > 3:
        v = a[0] * 2  # defined on one path only
    else:
        v = -1
    s = v
    for i in range(n):
        s = s + i
        v = s  # redefined after use
    return v + s


def _blocks_text(blocks):
    return [(label, [str(s) for s in b.body], str(b.loc)) for label, b in blocks.items()]


@pytest.mark.parametrize("fn", [_redefined, _one_path])
def test_same_blocks_as_numba(fn, monkeypatch):
    fast = ssa._run_ssa
    seen = []

    def both(blocks):
        twin = copy.deepcopy(blocks)  # numba's pass on a copy, ours on the blocks
        expected = ORIGINAL(twin)
        inputs = {id(b) for b in blocks.values()}
        got = fast(blocks)
        assert _blocks_text(got) == _blocks_text(expected)
        assert not any(id(b) in inputs for b in got.values())  # all new, as numba's
        seen.append(sum(len(b.body) for b in got.values()))
        return got

    monkeypatch.setattr(ssa, "_run_ssa", both)
    a = np.array([3, 1, 5, 0, 7, 2, 9], dtype=np.int64)
    compiled = njit(fn)
    for n in (0, 2, 5, 7):
        assert compiled(a, np.int64(n)) == fn(a, n)
    assert seen and max(seen) > 0
