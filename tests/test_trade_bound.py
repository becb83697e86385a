"""The trade-candidate bound (game_nb._bound_prep, _bound_may_beat) against the exact search.

A trade attempt skips the search of a candidate w when the bound says no play of H - x + w
holding w can beat the floor. That is only safe if the bound is never below the exact best
play holding w: checked here on random hands, under the base rules and under rule variants
that move the wine windows (an upper end within reach and one out of reach)."""

from dataclasses import replace

import numpy as np
import pytest

from simsym.core import enums as E
from simsym.core import game_nb as G
from simsym.core.search_nb import best_score_above_ws, best_symposion_nb
from simsym.engine import setup_for

VARIANTS = {
    "base": {},
    "wide windows": {"wine_social": (2, 8), "wine_hedonistic": (4, 9)},
    "scored wine, one-wine Intellectual": {"wine_counts": "scored", "wine_intellectual": (1, 1)},
}


def _table(base, changes):
    scenario = replace(base, rules=replace(base.rules, **changes))
    return scenario, setup_for(scenario).table()


def _hands(scenario, count, size, seed):
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    rng = np.random.default_rng(seed)
    for _ in range(count):
        cards = rng.permutation(deck)[:size + 1]
        yield np.sort(cards[:size]).astype(np.int64), int(cards[size])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_bound_is_never_below_the_best_play_holding_the_candidate(base, variant):
    scenario, tb = _table(base, VARIANTS[variant])
    scr = np.zeros(4 * E.BT_SCR, np.int64)
    res = np.zeros(E.RES_SIZE, np.int64)
    checked = 0
    for i, (H, w) in enumerate(_hands(scenario, 1500, 8, seed=11)):
        types = 1 + i % 7
        if not G._bound_prep(tb.bt, scr, H, len(H), types):
            continue
        hand = np.append(H, w)
        best_symposion_nb(hand, len(hand), tb.kinds, tb.rules, 1 << len(H), types, res)
        if res[E.RES_TYPE] < 0:
            continue
        exact = res[E.RES_SCORE]
        # A floor just below the exact best: the bound must let the search run, for the
        # best play's type (all-equal Social plays by BT_MAY_AE).
        may = G._bound_may_beat(tb.bt, scr, w, types, exact - 1)
        t = res[E.RES_TYPE]
        assert may & (1 << t) or (t == E.T_SOCIAL and may & E.BT_MAY_AE), (H, w, types, exact)
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_what_the_bound_leaves_to_the_all_equal_solver(base, variant):
    """When the bound keeps Social only for an all-equal play (BT_MAY_AE without Social's
    bit), no Social play scoring with a bonus of at most beq (every play that is not
    all-equal) beats the floor; and the trade attempt's answer, the search over the types
    left plus all_equal_above_ws, is the full search's."""
    from simsym.core.allequal_nb import UNCOVERED, ae_workspace_size, all_equal_above_ws
    from simsym.core.search_nb import workspace_size
    from simsym.rules import encode_rules

    scenario, tb = _table(base, VARIANTS[variant])
    eq_only = encode_rules(replace(scenario.rules, social_bonus_all_equal=0,
                                   social_bonus_stacks=False))
    scr = np.zeros(4 * E.BT_SCR, np.int64)
    res = np.zeros(E.RES_SIZE, np.int64)
    ws = np.zeros(max(ae_workspace_size(9), workspace_size(9)), np.int64)
    social = 1 << E.T_SOCIAL
    i64 = np.int64

    def above(hand, rules, req, types, floor):
        # Every scalar as int64, as the engine passes them: a Python int would compile the
        # search for another signature (tests/test_compile_once.py).
        return best_score_above_ws(hand, i64(len(hand)), tb.kinds, rules, i64(req), i64(types),
                                   i64(floor), res, ws)

    left = 0
    rng = np.random.default_rng(4)
    for i, (H, w) in enumerate(_hands(scenario, 1500, 8, seed=12)):
        types = 1 + i % 7
        if not G._bound_prep(tb.bt, scr, H, len(H), types):
            continue
        hand = np.append(H, w)
        req = 1 << len(H)
        full = above(hand, tb.rules, req, types, -1)
        floor = max(0, full - int(rng.integers(0, 4)))
        may = G._bound_may_beat(tb.bt, scr, w, types, floor)
        if not may & E.BT_MAY_AE:
            continue
        left += 1
        assert not may & social
        assert above(hand, eq_only, req, social, floor) == -1, (H, w, floor)
        rest = may & E.ALL_TYPES
        got = above(hand, tb.rules, req, rest, floor) if rest else -1
        a = all_equal_above_ws(hand, i64(len(hand)), tb.kinds, tb.rules, i64(req),
                               i64(max(got, floor)), ws)
        if a == UNCOVERED:  # the attempt searches Social then
            a = above(hand, tb.rules, req, social, max(got, floor))
        got = max(got, a)
        assert got == above(hand, tb.rules, req, types, floor), (H, w, floor)
    assert left > 50


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_window_maximum_is_the_direct_maximum(base, variant):
    """Per wine cw of the card to add, _bound_prep keeps the best knapsack value over the
    wine totals c with lo <= c + cw <= hi: compared with the maximum taken directly."""
    scenario, tb = _table(base, VARIANTS[variant])
    scr = np.zeros(4 * E.BT_SCR, np.int64)
    compared = 0
    for i, (H, _) in enumerate(_hands(scenario, 400, 12, seed=3)):
        H = np.sort(H[:1 + i % 12])
        if not G._bound_prep(tb.bt, scr, H, len(H), E.ALL_TYPES):
            continue
        for g in range(4):
            sc = g * E.BT_SCR
            cap = scr[sc + 1]
            dp = sc + 2
            bw = dp + E.BT_WMAX + 1
            lo, hi = tb.bt[E.BT_LO + g], tb.bt[E.BT_HI + g]
            for cw in range(cap + 1):
                window = [scr[dp + c] for c in range(cap + 1) if lo <= c + cw <= hi]
                assert scr[bw + cw] == max(window, default=E.BT_NEG), (g, cw)
                compared += 1
    assert compared > 1000
