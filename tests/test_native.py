"""Kernels called by symbol (simsym.core.native): pinned types, clear errors, the make order."""

import numba
import numpy as np
import pytest
from numba.core.errors import TypingError

from simsym.core import enums as E
from simsym.core import game_nb as G
from simsym.core import native
from simsym.engine import setup_for


def test_the_pinned_record_types_are_those_the_engine_makes(base):
    """setup and play_until are called by symbol for TABLE_T and STATE_T alone: the records
    Setup.table() and new_state make (and the chunk's state, its ``out`` replaced) are of
    those types."""
    setup = setup_for(base)
    tb = setup.table()
    s = G.new_state(tb, 0)
    assert numba.typeof(tb) == G.TABLE_T
    assert numba.typeof(s) == G.STATE_T
    assert numba.typeof(s._replace(out=np.zeros(G.CK_SIZE, np.int64))) == G.STATE_T


def test_a_call_of_other_types_says_which_types_the_kernel_has():
    @numba.njit
    def prep32(bt, scr, H):
        return G._bound_prep_x(bt, scr, H, 0, 1)

    a = np.zeros(4, np.int64)
    with pytest.raises(TypingError, match=r"simsym_game_nb__bound_prep is compiled for"):
        prep32(a, a, np.zeros(4, np.int32))


def test_the_symbols_are_made_in_order_and_never_ahead_of_one_being_made(monkeypatch):
    """A symbol's code calls only symbols registered before it: ensure_all stops at one being
    made (a kernel loaded meanwhile is its own or what it compiles), and a symbol called
    from the code of one registered before it is refused with a message saying so."""
    made = []
    keep = np.zeros(1, np.int64)  # an address no code is ever called at

    def maker(name):
        def make():
            made.append(name)
            return keep, keep.ctypes.data
        return make

    names = ["simsym_test_first", "simsym_test_second", "simsym_test_third"]
    monkeypatch.setattr(native, "_MAKERS", {n: maker(n) for n in names})
    monkeypatch.setattr(native, "_OWNERS", {})
    monkeypatch.setattr(native, "_BUSY", {names[1]})
    native.ensure_all()
    assert made == [names[0]]
    with pytest.raises(RuntimeError, match="simsym_test_second calls simsym_test_third"):
        native.ensure(names[2])
    native._BUSY.clear()
    native.ensure_all()
    assert made == names
    assert native.owner(names[2]) is keep


@numba.njit
def _trade_first_cards(s):
    """A compiled caller of swap: seat 0's first card for seat 1's."""
    G.swap(s, 0, 1, s.hands[1, 0], s.hands[0, 0], -1)


def test_a_kernel_for_compiled_callers_only_says_so_when_called_from_python(base):
    """Kernels only other kernels call are compiled without numba's Python wrapper
    (native.INNER): called from Python, they raise a TypeError naming the kernel, before and
    after a compiled caller has compiled (or loaded) them, instead of jumping to a wrapper
    that was never compiled. Their compiled callers run them as before."""
    assert G.swap.targetoptions["no_cpython_wrapper"]
    assert not G.play_until.targetoptions.get("no_cpython_wrapper", False)
    setup = setup_for(base)
    tb = setup.table()
    s = G.new_state(tb, 0)
    G.setup(tb, s, 0, base.seed)
    G.play_until(tb, s, np.int64(1), np.int64(E.AT_TRADING))  # dealt, before any trade
    sizes = s.hn[:2].tolist()
    cards = sorted(s.hands[0, :sizes[0]].tolist() + s.hands[1, :sizes[1]].tolist())
    for _ in range(2):  # the second time, swap has been compiled for _trade_first_cards
        with pytest.raises(TypeError, match=r"simsym\.core\.game_nb\.swap is a kernel for "
                                            r"compiled callers only"):
            G.swap(s, 0, 1, s.hands[1, 0], s.hands[0, 0], -1)
        _trade_first_cards(s)
        assert G.swap.overloads
    assert s.sc[E.GS_TRADES] == 2
    assert s.hn[:2].tolist() == sizes  # one card for one, twice
    assert sorted(s.hands[0, :sizes[0]].tolist() + s.hands[1, :sizes[1]].tolist()) == cards
