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
from simsym.engine.compiled import setup_for

VARIANTS = {
    "base": {},
    "wide windows": {"wine_social": (2, 8), "wine_hedonistic": (4, 9)},
    "scored wine, one-wine Intellectual": {"wine_counts": "scored", "wine_intellectual": (1, 1)},
    "two Vintage cards": {"max_vintage": 2},
    "no Vintage card": {"max_vintage": 0},
}
# _may_play also reads the non-Container rule (the trade bound does not).
MAY_PLAY_VARIANTS = {**VARIANTS, "Container wine enough": {"non_container_wine": 0},
                     "two non-Container wine": {"non_container_wine": 2}}


def _table(base, changes):
    scenario = replace(base, rules=replace(base.rules, **changes))
    return scenario, setup_for(scenario).table()


def _hands(scenario, count, size, seed):
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    rng = np.random.default_rng(seed)
    for _ in range(count):
        cards = rng.permutation(deck)[:size + 1]
        yield np.sort(cards[:size]).astype(np.int64), int(cards[size])


def _with_io_cards(base):
    """The base scenario with more IO cards (two kinds of three copies added to the seven
    single ones), so that the second Intellectual group (IO cards allowed, no WC or MW)
    wins often."""
    from simsym.model.cards.model import CardSet
    from simsym.model.cards.notation import parse_notation

    io = [parse_notation("Philosophy", "3I; IO", copies=3),
          parse_notation("Rhetoric", "1W or 2I; IO", copies=3)]
    return replace(base, cards=CardSet(list(base.cards) + io))


def _is_io(tb, k):
    return bool(tb.kinds[k, E.CF.IO])


@pytest.mark.parametrize("variant", sorted(VARIANTS) + ["more IO cards"])
def test_bound_is_never_below_the_best_play_holding_the_candidate(base, variant):
    """Also for the second Intellectual group (IO cards allowed, no WC or MW): its best plays
    hold an IO card."""
    if variant == "more IO cards":
        scenario = _with_io_cards(base)
        tb = setup_for(scenario).table()
    else:
        scenario, tb = _table(base, VARIANTS[variant])
    scr = np.zeros(4 * E.BTS.SIZE, np.int64)
    res = np.zeros(E.RES.SIZE, np.int64)
    checked = 0
    io_plays = 0  # best plays of the second Intellectual group: holding an IO card
    for i, (H, w) in enumerate(_hands(scenario, 1500, 8, seed=11)):
        types = 1 + i % 7
        if not G._bound_prep(tb.bt, scr, H, len(H), types):
            continue
        hand = np.append(H, w)
        best_symposion_nb(hand, len(hand), tb.kinds, tb.rules, 1 << len(H), types, res)
        if res[E.RES.TYPE] < 0:
            continue
        exact = res[E.RES.SCORE]
        # A floor just below the exact best: the bound must let the search run, for the
        # best play's type (all-equal Social plays by BT_MAY_AE).
        may = G._bound_may_beat(tb.bt, scr, w, types, exact - 1)
        t = res[E.RES.TYPE]
        assert may & (1 << t) or (t == E.T_SOCIAL and may & E.BT_MAY_AE), (H, w, types, exact)
        checked += 1
        hand_io = [_is_io(tb, k) for k in hand]
        io_plays += any(hand_io[q] for q in range(len(hand)) if (res[E.RES.MASK] >> q) & 1)
    assert checked > 500
    assert io_plays > (40 if variant == "more IO cards" else 5)


def test_the_io_group_is_prepared_only_for_cards_holding_an_io_card(base):
    """Group 1's plays (Intellectual with IO cards) hold an IO card, and the search opens the
    group only then: _bound_prep leaves it unprepared (cap -1) for cards without one, and
    _bound_may_beat then keeps Intellectual for an IO candidate whatever the floor (only a
    search can tell) and never lets the stale group decide for another."""
    tb = setup_for(_with_io_cards(base)).table()
    scr = np.zeros(4 * E.BTS.SIZE, np.int64)
    cap1 = E.BTS.SIZE + E.BTS.CAP
    seen = {True: 0, False: 0}
    io_kept = 0
    for H, w in _hands(_with_io_cards(base), 400, 8, seed=5):
        scr[:] = 7  # stale scratch: must not be read for an unprepared group
        if not G._bound_prep(tb.bt, scr, H, len(H), E.ALL_TYPES):
            continue
        has_io = any(_is_io(tb, k) for k in H)
        seen[has_io] += 1
        assert (scr[cap1] >= 0) == has_io, H
        if not has_io and _is_io(tb, w) and tb.bt[E.BT.TAB + (w * 4 + 1) * E.BTR.SIZE + E.BTR.JOIN]:
            assert G._bound_may_beat(tb.bt, scr, w, 1 << E.T_INTELLECTUAL, 1000) \
                & (1 << E.T_INTELLECTUAL)
            io_kept += 1
    assert seen[True] > 50 and seen[False] > 50 and io_kept > 10


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_what_the_bound_leaves_to_the_all_equal_solver(base, variant):
    """When the bound keeps Social only for an all-equal play (BT_MAY_AE without Social's
    bit), no Social play scoring with a bonus of at most beq (every play that is not
    all-equal) beats the floor; and the trade attempt's answer, the search over the types
    left plus all_equal_above_ws, is the full search's."""
    from simsym.core.allequal_nb import UNCOVERED, ae_workspace_size, all_equal_above_ws
    from simsym.core.search_nb import workspace_size
    from simsym.model.rules import encode_rules

    scenario, tb = _table(base, VARIANTS[variant])
    eq_only = encode_rules(replace(scenario.rules, social_bonus_all_equal=0,
                                   social_bonus_stacks=False))
    scr = np.zeros(4 * E.BTS.SIZE, np.int64)
    res = np.zeros(E.RES.SIZE, np.int64)
    ws = np.zeros(max(ae_workspace_size(9), workspace_size(9)), np.int64)
    social = 1 << E.T_SOCIAL
    i64 = np.int64

    def above(hand, rules, req, types, floor):
        # Every scalar as int64, as the engine passes them: a Python int would compile the
        # search for another signature (tests/kernels/test_compile_once.py).
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
    scr = np.zeros(4 * E.BTS.SIZE, np.int64)
    compared = 0
    for i, (H, _) in enumerate(_hands(scenario, 400, 12, seed=3)):
        H = np.sort(H[:1 + i % 12])
        if not G._bound_prep(tb.bt, scr, H, len(H), E.ALL_TYPES):
            continue
        for g in range(4):
            sc = g * E.BTS.SIZE
            cap = scr[sc + E.BTS.CAP]
            lo, hi = tb.bt[E.BT.LO + g], tb.bt[E.BT.HI + g]
            for r in range(2):  # the rows without a Vintage card and with at most one
                dp = sc + E.BTS.DP + r * (E.BT_WMAX + 1)
                bw = sc + E.BTS.DP + (2 + r) * (E.BT_WMAX + 1)
                for cw in range(cap + 1):
                    window = [scr[dp + c] for c in range(cap + 1) if lo <= c + cw <= hi]
                    assert scr[bw + cw] == max(window, default=E.BT_NEG), (g, r, cw)
                    compared += 1
    assert compared > 1000


HED = 1 << E.T_HEDONISTIC


def _hand_worked(base, changes, names, w):
    """(bound's verdict at each floor 0..30 for Hedonistic, the exact best Hedonistic play
    holding w or -1) for the base cards ``names`` plus the card ``w``."""
    scenario, tb = _table(base, changes)
    index = {c.name: k for k, c in enumerate(scenario.cards)}
    H = np.sort(np.array([index[n] for n in names], np.int64))
    k = np.int64(index[w])
    scr = np.zeros(4 * E.BTS.SIZE, np.int64)
    assert G._bound_prep(tb.bt, scr, H, np.int64(len(H)), np.int64(HED))
    verdicts = [bool(G._bound_may_beat(tb.bt, scr, k, np.int64(HED), np.int64(f)) & HED)
                for f in range(31)]
    hand = np.append(H, k)
    res = np.zeros(E.RES.SIZE, np.int64)
    best_symposion_nb(hand, np.int64(len(hand)), tb.kinds, tb.rules, np.int64(1 << len(H)),
                      np.int64(HED), res)
    return verdicts, (res[E.RES.SCORE] if res[E.RES.TYPE] >= 0 else -1)


WINE5 = ["Grapes", "Vines", "Wine Mixed with Water", "Wine Jars"]  # 1 + 1 + 1 + 2 Wine


def test_bound_knows_orgy_wants_three_women(base):
    """Orgy (5H, requires 3+ WC): with two women among the cards no Hedonistic play holds
    it, whatever the floor; with three, all eight cards and Orgy play for 5 Wine + 2 + 2 + 2
    (the women's E) + 4 (Komos) + 5 = 20, and the bound lets every floor below 20 through."""
    two = WINE5 + ["Singers", "Dancers", "Komos", "Shouting"]
    verdicts, exact = _hand_worked(base, {}, two, "Orgy")
    assert exact == -1 and not any(verdicts)
    three = WINE5 + ["Singers", "Dancers", "Komos", "Flutist"]
    verdicts, exact = _hand_worked(base, {}, three, "Orgy")
    assert exact == 20 and all(verdicts[:20])


def test_bound_knows_drunken_revelry_wants_seven_wine(base):
    """Drunken Revelry (4H, requires 7+ Wine): 5 Wine among the cards is not enough, so no
    play holds it; with Overindulgence (3W) for Pleasure the 8 Wine make 8 + 4 (Komos) + 2
    (Shouting) + 3 (Kottabos) + 4 = 21."""
    verdicts, exact = _hand_worked(
        base, {}, WINE5 + ["Komos", "Shouting", "Kottabos", "Pleasure"], "Drunken Revelry")
    assert exact == -1 and not any(verdicts)
    verdicts, exact = _hand_worked(
        base, {}, WINE5 + ["Komos", "Shouting", "Kottabos", "Overindulgence"],
        "Drunken Revelry")
    assert exact == 21 and all(verdicts[:21])


def test_bound_keeps_to_one_vintage_card(base):
    """Strong Wine (2W, Vintage) with Fine Wine (Vintage) among the cards: under the base
    limit of one Vintage card a play holding Strong Wine has only 2 + 1 + 1 = 4 Wine, short of
    Hedonistic's 5, so none exists; with two allowed, Fine Wine's 1W completes it: 5 Wine + 4
    (Komos) + 3 (Kottabos) + 2 + 2 + 2 (Shouting, Pleasure, Bad Behavior) = 18."""
    cards = ["Fine Wine", "Grapes", "Vines", "Komos", "Kottabos", "Shouting", "Pleasure",
             "Bad Behavior"]
    verdicts, exact = _hand_worked(base, {}, cards, "Strong Wine")
    assert exact == -1 and not any(verdicts)
    verdicts, exact = _hand_worked(base, {"max_vintage": 2}, cards, "Strong Wine")
    assert exact == 18 and all(verdicts[:18])
    verdicts, exact = _hand_worked(base, {"max_vintage": 0}, cards, "Grapes")
    # Without Vintage cards: Grapes, Vines and Grapes make 3 Wine at most: no play.
    assert exact == -1 and not any(verdicts)


def _may_and_best(base, changes, names):
    """(_may_play's verdict, the exact best play's score or -1) for the base cards
    ``names``, any type."""
    scenario, tb = _table(base, changes)
    index = {c.name: k for k, c in enumerate(scenario.cards)}
    hand = np.array([index[n] for n in names], np.int64)
    res = np.zeros(E.RES.SIZE, np.int64)
    best_symposion_nb(hand, np.int64(len(hand)), tb.kinds, tb.rules, 0, E.ALL_TYPES, res)
    may = bool(G._may_play(tb.bt, hand, np.int64(len(hand)), np.int64(E.ALL_TYPES)))
    return may, (res[E.RES.SCORE] if res[E.RES.TYPE] >= 0 else -1)


def test_no_play_when_the_wine_needs_two_vintage_cards(base):
    """Dionysus (1W or 2E), Wine of Chios (1W worth 2W, Vintage) and Old Wine (1W or 1E,
    Vintage): 3 counted Wine in all, but only one Vintage card may be played, so at most
    2, below every window (Intellectual 3, Social 3-5, Hedonistic 5+): no play, and
    _may_play says so without a search. With two Vintage cards allowed, 1 + 1 + 1 = 3 Wine
    make a Social play of all five: Wine 1 + 2 (scored) + 1, Philosophy 3I, Komos 4H = 11
    (3I and 4H: no bonus; Intellectual would leave Komos out: 7)."""
    cards = ["Dionysus", "Wine of Chios", "Old Wine", "Philosophy", "Komos"]
    assert _may_and_best(base, {}, cards) == (False, -1)
    assert _may_and_best(base, {"max_vintage": 2}, cards) == (True, 11)


def test_no_play_when_all_the_wine_is_in_containers(base):
    """Krater, Drinking Horn and Cantharos (1W, Container each): 3 Wine, all from
    Containers, which the rule (non_container_wine 1) forbids: no play, and _may_play says
    so. With the rule at 0 they make an Intellectual play: 3 Wine + Philosophy 3 = 6."""
    cards = ["Krater", "Drinking Horn", "Cantharos", "Philosophy"]
    assert _may_and_best(base, {}, cards) == (False, -1)
    assert _may_and_best(base, {"non_container_wine": 0}, cards) == (True, 6)


@pytest.mark.parametrize("variant", sorted(MAY_PLAY_VARIANTS))
def test_no_play_for_want_of_wine_only_when_the_search_finds_none(base, variant):
    """_may_play (the engine skips a search when it says False) says False only for hands
    without a legal play of those types, and does so for most small hands without one."""
    scenario, tb = _table(base, MAY_PLAY_VARIANTS[variant])
    res = np.zeros(E.RES.SIZE, np.int64)
    rng = np.random.default_rng(21)
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    said_no = without = 0
    for i in range(3000):
        hand = rng.permutation(deck)[:1 + i % 9].astype(np.int64)
        types = 1 + i % 7
        best_symposion_nb(hand, len(hand), tb.kinds, tb.rules, 0, types, res)
        may = G._may_play(tb.bt, hand, np.int64(len(hand)), np.int64(types))
        assert may or res[E.RES.TYPE] < 0, (hand, types)
        without += res[E.RES.TYPE] < 0
        said_no += not may
    assert without > 500 and said_no > without // 2


@pytest.mark.parametrize("seed", range(6))
def test_no_play_verdicts_hold_on_random_decks(seed):
    """_may_play's "no play" on decks of random notations (tests.kernels.test_search_random_decks)
    under random rule options that move the wine: never for a hand the search finds a play
    in."""
    import random

    from simsym.model.cards.encode import encode_cards
    from simsym.model.rules import RuleOptions, encode_rules
    from tests.kernels.test_search_random_decks import _deck

    rng = random.Random(300 + seed)
    cards = _deck(seed)
    kinds = encode_cards(cards)
    deck = [k for k, c in enumerate(cards) for _ in range(c.copies)]
    res = np.zeros(E.RES.SIZE, np.int64)
    said_no = 0
    for _ in range(6):
        rules = replace(RuleOptions(), max_vintage=rng.choice((0, 1, 1, 2, 3)),
                        non_container_wine=rng.choice((0, 1, 1, 2, 3)),
                        wine_counts=rng.choice(("printed", "scored")),
                        wine_social=rng.choice(((3, 5), (2, 7), (4, 4))))
        ra = encode_rules(rules)
        bt = np.zeros(G.bound_table_size(len(cards)), np.int64)
        G.bound_table_nb(kinds, ra, bt)
        for _ in range(150):
            hand = np.array(rng.sample(deck, rng.randint(1, 9)), np.int64)
            types = rng.randint(1, 7)
            best_symposion_nb(hand, len(hand), kinds, ra, 0, types, res)
            may = G._may_play(bt, hand, np.int64(len(hand)), np.int64(types))
            assert may or res[E.RES.TYPE] < 0, (seed, rules, hand.tolist(), types)
            said_no += not may
    assert said_no > 0


@pytest.mark.parametrize("seed", range(4))
def test_packed_wine_words_answer_as_the_rows(seed):
    """_may_play adds the cards' packed wine words (every group at once, each card's wine
    capped at what the group asks); _may_play_rows reads the rows group by group. The same
    verdict on decks of random notations, under rule options that move the wine (windows from
    1 up, so that the caps bite; Vintage limits 0 to 3; the non-Container rule 0 to 3), for
    hands of 1 to 30 cards and every type mask."""
    import random

    from simsym.model.cards.encode import encode_cards
    from simsym.model.rules import RuleOptions, encode_rules
    from tests.kernels.test_search_random_decks import _deck

    rng = random.Random(500 + seed)
    cards = _deck(seed)
    kinds = encode_cards(cards)
    deck = [k for k, c in enumerate(cards) for _ in range(c.copies)]
    verdicts = set()
    for _ in range(8):
        rules = replace(RuleOptions(), max_vintage=rng.choice((0, 1, 2, 3)),
                        non_container_wine=rng.choice((0, 1, 2, 3)),
                        wine_counts=rng.choice(("printed", "scored")),
                        wine_intellectual=rng.choice(((3, 3), (1, 1), (2, 2))),
                        wine_social=rng.choice(((3, 5), (1, 7), (4, 4))),
                        wine_hedonistic=rng.choice(((5, None), (2, None), (8, None))))
        bt = np.zeros(G.bound_table_size(len(cards)), np.int64)
        G.bound_table_nb(kinds, encode_rules(rules), bt)
        assert bt[E.BT.PK] > 0  # the words are there: these caps fit
        for _ in range(200):
            hand = np.array(rng.sample(deck, rng.randint(1, min(30, len(deck)))), np.int64)
            types = np.int64(rng.randint(1, 7))
            n = np.int64(len(hand))
            may = bool(G._may_play(bt, hand, n, types))
            assert may == bool(G._may_play_rows(bt, hand, n, types)), (rules, hand, types)
            verdicts.add(may)
    assert verdicts == {True, False}


@pytest.mark.parametrize("variant", sorted(MAY_PLAY_VARIANTS))
def test_packed_wine_words_answer_as_the_rows_on_base_hands(base, variant):
    """The same on base hands of 1 to 20 cards (its seven Vintage cards often meet in them):
    the packed words' verdict is the rows'."""
    scenario, tb = _table(base, MAY_PLAY_VARIANTS[variant])
    assert tb.bt[E.BT.PK] > 0
    rng = np.random.default_rng(23)
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    verdicts = set()
    for i in range(3000):
        hand = rng.permutation(deck)[:1 + i % 20].astype(np.int64)
        types = np.int64(1 + i % 7)
        n = np.int64(len(hand))
        may = bool(G._may_play(tb.bt, hand, n, types))
        assert may == bool(G._may_play_rows(tb.bt, hand, n, types)), (hand, types)
        verdicts.add(may)
    assert verdicts == {True, False}


def test_packed_wine_words_are_off_when_a_cap_does_not_fit(base):
    """A window whose low end exceeds what a packed lane may hold (BTP_CAP) leaves the words
    off (BT.PK 0): _may_play then reads the rows, and answers as they do."""
    scenario, tb = _table(base, {"wine_hedonistic": (E.BTP_CAP + 1, None)})
    assert tb.bt[E.BT.ON] == 1 and tb.bt[E.BT.PK] == 0
    index = {c.name: k for k, c in enumerate(scenario.cards)}
    hand = np.array([index[n] for n in ("Dionysus", "Krater", "Grapes", "Komos")], np.int64)
    n = np.int64(len(hand))
    for types in range(1, 8):
        assert G._may_play(tb.bt, hand, n, np.int64(types)) == \
            G._may_play_rows(tb.bt, hand, n, np.int64(types))
    # Hedonistic alone cannot reach 256 Wine; Social (3-5) can with these cards.
    assert not G._may_play(tb.bt, hand, n, np.int64(1 << E.T_HEDONISTIC))
    assert G._may_play(tb.bt, hand, n, np.int64(1 << E.T_SOCIAL))


def test_lane_max_is_the_maximum_of_each_lane():
    """_lane_max (no branch) against the maximum of each 16-bit lane, for lanes of 0 to
    BTP_CAP, equal lanes and the extremes included."""
    rng = np.random.default_rng(5)
    vals = np.concatenate([[0, 1, E.BTP_CAP - 1, E.BTP_CAP], rng.integers(0, E.BTP_CAP + 1, 400)])
    for _ in range(3000):
        a = [int(v) for v in rng.choice(vals, 4)]
        b = [int(v) if rng.random() < 0.8 else a[i] for i, v in enumerate(rng.choice(vals, 4))]
        x = sum(v << 16 * i for i, v in enumerate(a))
        y = sum(v << 16 * i for i, v in enumerate(b))
        want = sum(max(p, q) << 16 * i for i, (p, q) in enumerate(zip(a, b)))
        assert G._lane_max(np.int64(x), np.int64(y)) == want, (a, b)


@pytest.mark.parametrize("variant", sorted(MAY_PLAY_VARIANTS))
def test_swap_verdict_is_may_play_on_the_new_hand(base, variant):
    """_swap_may_play (an answer to an offer: seat h gives w for x, and x2) from the sums of
    h's hand, kept per hand version: when it answers, it answers as _may_play on the hand
    after the swap; it declines only for a Vintage card given or taken when at most one may
    be played. The hand changes every fourth offer (its version bumped), so sums kept for
    an older hand would show."""
    scenario, tb = _table(base, MAY_PLAY_VARIANTS[variant])
    rng = np.random.default_rng(31)
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    vint = {k for k in range(len(scenario.cards)) if tb.kinds[k, E.CF.VINTAGE]}
    hands = np.zeros((2, 40), np.int64)
    hn = np.zeros(2, np.int64)
    memo = np.zeros((2, E.MEMO.SIZE), np.int64)
    memo[:, E.MEMO.PKVER] = -1
    told = 0
    for i in range(2000):
        if i % 4 == 0:
            hand = np.sort(rng.permutation(deck)[:1 + i % 12])
            hn[1] = len(hand)
            hands[1, :len(hand)] = hand
            memo[1, E.MEMO.VER] += 1
        w = int(rng.choice(hands[1, :hn[1]]))
        x = int(rng.choice(deck))
        x2 = int(rng.choice(deck)) if i % 3 == 0 else -1
        types = 1 + i % 7
        verdict = G._swap_may_play(tb.bt, hands, hn, memo, np.int64(1), np.int64(w),
                                   np.int64(x), np.int64(x2), np.int64(types))
        after = list(hands[1, :hn[1]])
        after.remove(w)
        after += [x] + ([x2] if x2 >= 0 else [])
        want = G._may_play(tb.bt, np.array(after, np.int64), np.int64(len(after)),
                           np.int64(types))
        if verdict >= 0:
            assert verdict == int(want), (hands[1, :hn[1]], w, x, x2, types)
            told += 1
        else:
            assert tb.bt[E.BT.VMODE] == 1 and {w, x, x2} & vint
        assert memo[1, E.MEMO.PKVER] == memo[1, E.MEMO.VER] or verdict < 0
    assert told > 1500
