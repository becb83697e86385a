"""simsym.core's change to numba's inliner (one deepcopy of a function's blocks instead of one
per block, see simsym/core/__init__.py): applied under the numba pyproject.toml pins, and the
machine code numba emits for the search kernel is the same with it as without it. And its
choice of LLVM level for the first, per-function passes, kernel by kernel."""

import re

import numba
import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall as ic

import simsym.core as core
from simsym.cards.encode import encode_cards
from simsym.core import enums as E
from simsym.core import search_nb
from simsym.rules import encode_rules


def test_the_inliner_copies_once_under_the_pinned_numba():
    assert core.INLINER_COPIES_ONCE, (
        f"numba {numba.__version__}: InlineWorker.inline_ir no longer holds the per-block copy "
        "simsym/core/__init__.py replaces; check whether it still needs replacing")
    assert ic.InlineWorker.inline_ir._simsym_copies_once
    assert core._inliner_copies_once()  # a second call changes nothing


def _machine_code(inline_ir, cards, rules):
    """numba's assembly for the search kernel compiled afresh (no cache) with ``inline_ir``,
    its symbol names left out (they carry a per-compile counter), and the kernel's answer on
    one hand."""
    saved = ic.InlineWorker.inline_ir
    ic.InlineWorker.inline_ir = inline_ir
    try:
        kernel = njit(_nrt=False)(search_nb._best_core.py_func)
        hand = np.array([0, 7, 14, 21, 28, 35, 42, 49, 56], np.int64)
        res = np.zeros(E.RES_SIZE, np.int64)
        ws = np.empty(search_nb.workspace_size(9), np.int64)
        score = kernel(hand, np.int64(9), cards, rules, np.int64(0), np.int64(7), res, ws,
                       np.int64(-1), np.int64(search_nb.MODE_FULL))
        asm = kernel.inspect_asm(kernel.signatures[0])
    finally:
        ic.InlineWorker.inline_ir = saved
    lines = [re.sub(r"_ZN\w+", "SYM", line) for line in asm.splitlines()
             if "missing Environment" not in line]  # a string holding a symbol name
    return lines, (score, res.copy())


@pytest.mark.slow
def test_the_search_compiles_to_the_same_machine_code_either_way(base):
    cards, rules = encode_cards(base.cards), encode_rules(base.rules)
    patched = ic.InlineWorker.inline_ir
    before, answer_before = _machine_code(patched._numba_original, cards, rules)
    after, answer_after = _machine_code(patched, cards, rules)
    assert len(before) > 5_000  # the whole kernel, with what numba inlined into it
    assert after == before
    assert answer_after[0] == answer_before[0] >= 0
    assert (answer_after[1] == answer_before[1]).all()


def test_the_function_passes_run_at_o1_only_for_the_kernels_that_ask(monkeypatch):
    """simsym.core runs numba's first, per-function LLVM passes at O1 for the kernels named by
    function_passes_o1 (the game loop) and at numba's level for every other function."""
    import sys
    import types as pytypes

    from llvmlite.binding import newpassmanagers
    from numba.core import config

    assert core.FUNCTION_PASSES_O1 and core._function_passes_o1_where_asked()
    levels = {}  # LLVM function name: the level its function passes ran at
    run = newpassmanagers.FunctionPassManager.run

    def spy(self, fun, pb):
        levels[fun.name] = pb._pto.speed_level
        return run(self, fun, pb)

    monkeypatch.setattr(newpassmanagers.FunctionPassManager, "run", spy)
    module = pytypes.ModuleType("simsym.o1_probe")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec("def looped(a):\n    t = 0\n    for x in a:\n        t += x * x\n    return t\n"
         "def plain(a):\n    return a[0] + 1\n", module.__dict__)
    looped = core.function_passes_o1(njit(module.looped))
    plain = njit(module.plain)
    a = np.arange(5, dtype=np.int64)
    assert looped(a) == 30 and plain(a) == 1
    at = {k: {lvl for name, lvl in levels.items() if f"8o1_probe{len(k)}{k}B" in name}
          for k in ("looped", "plain")}
    assert at == {"looped": {1}, "plain": {int(config.OPT)}}, (at, levels)
