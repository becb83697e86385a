"""The all-equal Social solver (simsym.core.allequal_nb) against hand-worked hands, the search
and the brute force.

all_equal_above_ws answers the question a trade attempt asks most, without the search's
walk: the best all-equal Social play (Intellectual = Hedonistic = the bonus wine, ruling 21,
so it takes the whole +5) scoring above a floor. Checked here:

* hand-worked hands: the expectations in the comments are worked from the rules;
* random base-deck hands under rule variants against the search on rules in which only the
  all-equal bonus counts (and what it does not cover, it says: UNCOVERED);
* small hands against the reference brute force on those rules;
* random decks of random notations.
"""

import random
from dataclasses import replace

import numpy as np
import pytest

from simsym.model.cards.encode import encode_cards
from simsym.core import enums as E
from simsym.core.allequal_nb import (
    AEP_SIZE, UNCOVERED, ae_may_beat_with, ae_prep, ae_workspace_size, all_equal_above_ws,
)
from simsym.core.search_nb import best_score_above_ws, workspace_size
from simsym.model.rules import RuleOptions, encode_rules
from simsym.engine.search import Searcher
from tests.kernels.test_search_random_decks import _deck

VARIANTS = {
    "base": RuleOptions(),
    "E split": replace(RuleOptions(), either_split=True),
    "bonus not stacked": replace(RuleOptions(), social_bonus_stacks=False),
    "scored window, printed bonus wine": replace(RuleOptions(), wine_counts="scored",
                                                 bonus_wine="printed"),
    "no Vintage": replace(RuleOptions(), max_vintage=0),
    "two Vintage (not covered)": replace(RuleOptions(), max_vintage=2),
    "wide Social window (not covered when W may pass 6)": replace(RuleOptions(),
                                                                  wine_social=(2, 8)),
}
BIG = 1 << 20  # the oracle's all-equal bonus: above any score without it


def ae(cards, names, rules=RuleOptions(), floor=0, required=(), solver=True):
    """all_equal_above_ws for the hand of those card names, checked against the oracle (the
    oracle's answer alone with ``solver`` False)."""
    hand = np.array([cards.lookup(n) for n in names], np.int64)
    req = sum(1 << p for p in required)
    kinds, enc = encode_cards(cards), encode_rules(rules)
    want = _oracle(kinds, enc, hand, req, floor)
    if not solver:
        return want
    ws = np.zeros(ae_workspace_size(len(hand)), np.int64)
    got = all_equal_above_ws(hand, len(hand), kinds, enc, req, floor, ws)
    assert got == want
    return got


BASIC = ["Grapes", "Vines", "Wine Mixed with Water", "Wit", "Young Women", "Kottabos"]


def test_the_all_equal_play_and_its_score(cards):
    # 3 printed = 3 scored Wine (three plain 1W cards), I = Wit 2E + Young Women 1E = 3,
    # H = Kottabos 3H = 3: I = H = Wine, so +2 and +3: 3 + 3 + 3 + 5 = 14. No other W: only
    # three wine cards, each 1W.
    assert ae(cards, BASIC) == 14
    assert ae(cards, BASIC, floor=13) == 14
    assert ae(cards, BASIC, floor=14) == -1  # only plays above the floor count


def test_cards_left_out_to_make_it_all_equal(cards):
    # Pleasure (2H) is left out: with it H would be 5. Still 14.
    assert ae(cards, BASIC + ["Pleasure"]) == 14
    # Required, it must be played: H = 3 then needs Pleasure 2H + Young Women 1E, which
    # leaves Wit 2E alone for I = 3: impossible. No all-equal play.
    assert ae(cards, BASIC + ["Pleasure"], required=(6,)) == -1


def test_no_all_equal_play_when_the_points_do_not_split(cards):
    # I = 3 needs Either points summing to 3; Wit 2E alone cannot (ruling 15: an E card goes
    # whole to one side).
    assert ae(cards, ["Grapes", "Vines", "Wine Mixed with Water", "Wit", "Kottabos"]) == -1


def test_either_split_option(cards):
    # Wit 2E and Repartee 2E, Pleasure 2H: whole, I is 0, 2 or 4, never 3. Split (option
    # either_split): Wit 2 + 1 of Repartee to I = 3, Pleasure 2 + 1 to H = 3: 3 + 6 + 5 = 14.
    hand = ["Grapes", "Vines", "Wine Mixed with Water", "Wit", "Repartee", "Pleasure"]
    assert ae(cards, hand) == -1
    assert ae(cards, hand, rules=replace(RuleOptions(), either_split=True)) == 14


def test_bonus_wine_scored_or_printed(cards):
    # Wine of Lesbos (1W, worth 2W for scoring) + Grapes + Vines: printed 3, scored 4.
    # Default: the bonus compares scored Wine, W = 4, and I = 4 is out of reach (E: 2 + 1).
    # bonus_wine "printed": W = 3, I = Wit + Young Women = 3, H = Kottabos = 3, scored
    # 4 + 3 + 3 + 5 = 15.
    hand = ["Wine of Lesbos", "Grapes", "Vines", "Wit", "Young Women", "Kottabos"]
    assert ae(cards, hand) == -1
    assert ae(cards, hand, rules=replace(RuleOptions(), bonus_wine="printed")) == 15


def test_one_vintage_card_whichever_way_it_is_played(cards):
    # W = 4 needs Wine of Lesbos (the Vintage card) with Grapes and Vines, and I = 4 needs
    # Wit 2E + Fine Wine as 2E; but Fine Wine is Vintage too (ruling 14). Without Lesbos the
    # wine is Grapes, Vines, Fine Wine as 1W: W = 3, I = 3 impossible (only Wit 2E). So none.
    # With two Vintage cards allowed: 4 + 4 + 4 + 5 = 17 (Komos 4H for H).
    hand = ["Wine of Lesbos", "Grapes", "Vines", "Fine Wine", "Wit", "Komos"]
    assert ae(cards, hand) == -1
    assert ae(cards, hand, rules=replace(RuleOptions(), max_vintage=0)) == -1
    two = replace(RuleOptions(), max_vintage=2)
    assert ae(cards, hand, rules=two, solver=False) == 17
    # Two Vintage slots are outside what the solver answers: it says so.
    ws = np.zeros(ae_workspace_size(6), np.int64)
    assert all_equal_above_ws(np.array([cards.lookup(n) for n in hand], np.int64), 6,
                              encode_cards(cards), encode_rules(two), 0, 0, ws) == UNCOVERED


def _oracle(kinds, rules, hand, req, floor):
    """The best all-equal Social play above floor, by the search: on a copy of the rules in
    which the all-equal bonus is BIG and the equal bonus 0, the best Social play is
    all-equal exactly when it scores BIG or more, and then scores its A3 + BIG."""
    r = rules.copy()
    beq, ball = r[E.RULE.BONUS_EQ], r[E.RULE.BONUS_ALL]
    maxbonus = beq + ball if r[E.RULE.BONUS_STACKS] else max(beq, ball)
    r[E.RULE.BONUS_EQ], r[E.RULE.BONUS_ALL], r[E.RULE.BONUS_STACKS] = 0, BIG, 0
    ws = np.zeros(workspace_size(len(hand)), np.int64)
    i64 = np.int64  # as the engine passes them: no other signature (test_compile_once.py)
    s = best_score_above_ws(hand, i64(len(hand)), kinds, r, i64(req), i64(1 << E.T_SOCIAL),
                            i64(max(BIG + floor - maxbonus, BIG - 1)),
                            np.zeros(E.RES.SIZE, np.int64), ws)
    return s - BIG + maxbonus if s >= BIG else -1


def _random_case(rng, n_kinds, wine_kinds):
    n = int(rng.integers(1, 13))
    nw = int(rng.integers(0, n + 1))
    hand = np.concatenate([rng.choice(wine_kinds, nw), rng.integers(0, n_kinds, n - nw)])
    rng.shuffle(hand)
    req = int(rng.integers(0, 1 << n)) & int(rng.integers(0, 1 << n)) \
        if rng.random() < 0.3 else 0
    return hand.astype(np.int64), req, int(rng.integers(0, 25))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_hands_match_the_search(cards, variant):
    """The answer equals the search's on rules where only the all-equal bonus counts, or is
    UNCOVERED where the rules or the hand are outside what the solver answers."""
    kinds = encode_cards(cards)
    rules = encode_rules(VARIANTS[variant])
    wine_kinds = [k for k in range(len(cards)) if kinds[k, E.CF.WM]]
    rng = np.random.default_rng(7)
    ws = np.zeros(ae_workspace_size(16), np.int64)
    found = uncovered = 0
    for _ in range(1500):
        hand, req, floor = _random_case(rng, len(cards), wine_kinds)
        got = all_equal_above_ws(hand, len(hand), kinds, rules, req, floor, ws)
        if got == UNCOVERED:
            uncovered += 1
            continue
        assert got == _oracle(kinds, rules, hand, req, floor), (list(hand), req, floor)
        found += got >= 0
    if "not covered" in variant:
        assert uncovered > 0
    else:
        assert uncovered == 0  # base-deck hands under these rules are all covered
    if uncovered < 1500:
        assert found > 50  # not only "none"


def test_small_hands_match_the_brute_force(cards):
    """Against the reference brute force on rules where only the all-equal bonus counts
    (1000): the best Social play scores 1000 + its A3 exactly when it is all-equal, and the
    all-equal play's score is its A3 + 5."""
    big = 1000
    rng = random.Random(5)
    for rules in (RuleOptions(), replace(RuleOptions(), either_split=True)):
        only_ae = replace(rules, social_bonus_equal=0, social_bonus_all_equal=big,
                          social_bonus_stacks=False)
        ref = Searcher(cards, only_ae, engine="reference")
        kinds = encode_cards(cards)
        wine = [k for k in range(len(cards)) if kinds[k, E.CF.WM]]
        dry = [k for k in range(len(cards)) if not kinds[k, E.CF.WM]]
        found = 0
        for _ in range(60):
            hand = rng.sample(wine, rng.randint(2, 4)) + rng.sample(dry, rng.randint(1, 4))
            p = ref.best(hand, types=("social",))
            want = p.score - big + 5 if p.type is not None and p.score >= big else -1
            got = ae(cards, [cards[k].name for k in hand], rules=rules)
            assert got == want, hand
            found += got >= 0
        assert found > 5


@pytest.mark.parametrize("seed", range(4))
def test_random_decks_match_the_search(seed):
    """Random notations (requirements, Vintage, containers, E cards on several kinds)."""
    cards = _deck(seed)
    kinds = encode_cards(cards)
    deck = [k for k, c in enumerate(cards) for _ in range(c.copies)]
    rng = random.Random(200 + seed)
    ws = np.zeros(ae_workspace_size(12), np.int64)
    covered = 0
    for rules in (RuleOptions(), replace(RuleOptions(), wine_social=(2, 5), either_split=True)):
        enc = encode_rules(rules)
        for _ in range(150):
            hand = np.array(rng.sample(deck, rng.randint(2, 10)), np.int64)
            req = 1 << rng.randrange(len(hand)) if rng.random() < 0.3 else 0
            floor = rng.randint(0, 20)
            got = all_equal_above_ws(hand, len(hand), kinds, enc, req, floor, ws)
            if got != UNCOVERED:
                covered += 1
                assert got == _oracle(kinds, enc, hand, req, floor), (seed, list(hand), req,
                                                                      floor)
    assert covered > 100


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_first_test_for_a_hand_plus_one_card_is_sound(cards, variant):
    """ae_may_beat_with (the first test with the hand's part prepared once, as a trade
    attempt asks it of each candidate card w) never rules out an all-equal play holding w
    that scores above the floor (by the search), and rules most cases out."""
    kinds = encode_cards(cards)
    rules = encode_rules(VARIANTS[variant])
    wine_kinds = [k for k in range(len(cards)) if kinds[k, E.CF.WM]]
    rng = np.random.default_rng(17)
    scr = np.zeros(2 * AEP_SIZE, np.int64)
    ruled_out = possible = 0
    for _ in range(1500):
        hand, _, floor = _random_case(rng, len(cards), wine_kinds)
        w = int(rng.choice(wine_kinds)) if rng.random() < 0.7 else int(rng.integers(len(cards)))
        ae_prep(hand, np.int64(len(hand)), kinds, rules, scr, np.int64(0))
        may = ae_may_beat_with(scr, np.int64(0), kinds, rules, np.int64(w), np.int64(floor))
        full = np.append(hand, w).astype(np.int64)
        want = _oracle(kinds, rules, full, 1 << len(hand), floor)
        if not may:
            assert want == -1, (list(hand), w, floor)
            ruled_out += 1
        possible += want >= 0
    assert ruled_out > 500 and possible > 20
