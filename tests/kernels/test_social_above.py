"""The Social score-only solver (simsym.core.social_nb) against hand-worked hands, the search
and the brute force.

social_above_ws answers what a trade attempt asks of the Social type (the best Social score
holding the candidate card, above a floor), walking only the wine-capable cards. Checked
here:

* hand-worked hands: the expectations in the comments are worked from the rules and
  rulings (the +2 for I = H, the +3 more for I = H = Wine, cards left out for a bonus,
  required cards, the wine window);
* random base-deck hands under rule variants, with random required cards and floors,
  against the search with Social the only type (best_score_above_ws), and UNCOVERED only
  where the module's docstring says;
* random decks of random notations, against the search;
* small hands against the reference brute force.
"""

import random
from dataclasses import replace

import numpy as np
import pytest

from simsym.model.cards.encode import encode_cards
from simsym.core import enums as E
from simsym.core.allequal_nb import UNCOVERED, ae_workspace_size
from simsym.core.search_nb import best_score_above_ws, workspace_size
from simsym.core.social_nb import social_above_ws, social_workspace_size
from simsym.model.rules import RuleOptions, encode_rules
from simsym.engine.search import Searcher
from tests.kernels.test_search_random_decks import _deck

I64 = np.int64  # as the engine passes them: no other signature (test_compile_once.py)
SOCIAL = I64(1 << E.T_SOCIAL)
VARIANTS = {
    "base": RuleOptions(),
    "E split": replace(RuleOptions(), either_split=True),
    "bonus not stacked": replace(RuleOptions(), social_bonus_stacks=False),
    "scored window, printed bonus wine": replace(RuleOptions(), wine_counts="scored",
                                                 bonus_wine="printed"),
    "no Vintage": replace(RuleOptions(), max_vintage=0),
    "two Vintage": replace(RuleOptions(), max_vintage=2),
    "wide Social window": replace(RuleOptions(), wine_social=(2, 8)),
    "I = H worth 4": replace(RuleOptions(), social_bonus_equal=4),
    "no I = H bonus": replace(RuleOptions(), social_bonus_equal=0),
    "Container wine alone": replace(RuleOptions(), non_container_wine=False),
}


def _ws(n):
    return np.zeros(max(social_workspace_size(n), workspace_size(n), ae_workspace_size(n)),
                    np.int64)


def social(cards, names, rules=RuleOptions(), floor=0, required=()):
    """social_above_ws for the hand of those card names, checked against the search."""
    hand = np.array([cards.lookup(n) for n in names], np.int64)
    req = I64(sum(1 << p for p in required))
    kinds, enc = encode_cards(cards), encode_rules(rules)
    ws = _ws(len(hand))
    got = social_above_ws(hand, I64(len(hand)), kinds, enc, req, I64(floor), ws)
    want = best_score_above_ws(hand, I64(len(hand)), kinds, enc, req, SOCIAL, I64(floor),
                               np.zeros(E.RES.SIZE, np.int64), ws)
    assert got == want
    return got


WINE3 = ["Grapes", "Vines", "Wine Mixed with Water"]  # 1W each, none a Container


def test_the_all_equal_play(cards):
    # 3 Wine, I = Wit 2E + Young Women 1E = 3, H = Kottabos 3H = 3: I = H = Wine, +2 and +3:
    # 3 + 3 + 3 + 5 = 14.
    hand = WINE3 + ["Wit", "Young Women", "Kottabos"]
    assert social(cards, hand) == 14
    assert social(cards, hand, floor=13) == 14
    assert social(cards, hand, floor=14) == -1  # only plays above the floor count


def test_a_card_left_out_for_the_equal_bonus(cards):
    # Philosophy 3I, Komos 4H, Young Women 1E, Food 1E, 3 Wine. All played: 3 + 3 + 4 + 2 =
    # 12, and I = H needs 3 + x = 4 + (2 - x), x = 1.5: no bonus. Without one 1E card:
    # 3 + x = 4 + (1 - x), x = 1: I = H = 4 (not 3 = Wine, so +2 only): 11 + 2 = 13.
    hand = WINE3 + ["Philosophy", "Komos", "Young Women", "Food"]
    assert social(cards, hand) == 13
    assert social(cards, hand, floor=12) == 13
    assert social(cards, hand, floor=13) == -1
    # Either 1E card may go; with both required none can, and 12 is the best.
    assert social(cards, hand, required=(6,)) == 13
    assert social(cards, hand, required=(5, 6)) == 12
    # Splitting E points changes nothing here: d = 4 - 3 + 2 = 3 is odd either way.
    assert social(cards, hand, rules=replace(RuleOptions(), either_split=True)) == 13


def test_the_wine_window(cards):
    # Two Wine: below the Social window (3 to 5), no Social play at all.
    hand = ["Grapes", "Vines", "Philosophy", "Komos"]
    assert social(cards, hand) == -1
    # A window from 2 (a rule option): 2 + 3 + 4 = 9.
    assert social(cards, hand, rules=replace(RuleOptions(), wine_social=(2, 5))) == 9


def test_a_required_card_outside_social(cards):
    # Orgy is Hedonistic only: no Social play may hold it.
    assert social(cards, WINE3 + ["Komos", "Orgy"], required=(4,)) == -1


def _random_case(rng, n_kinds, wine_kinds):
    n = int(rng.integers(1, 13))
    nw = int(rng.integers(0, n + 1))
    hand = np.concatenate([rng.choice(wine_kinds, nw), rng.integers(0, n_kinds, n - nw)])
    rng.shuffle(hand)
    req = int(rng.integers(0, 1 << n)) & int(rng.integers(0, 1 << n)) \
        if rng.random() < 0.4 else 0
    return hand.astype(np.int64), I64(req), I64(rng.integers(0, 30))


def _agree(cards, rules, cases, seed):
    """The solver against the search on ``cases`` random hands: (uncovered, found)."""
    kinds, enc = encode_cards(cards), encode_rules(rules)
    wine_kinds = [k for k in range(len(cards)) if kinds[k, E.CF.WM]]
    rng = np.random.default_rng(seed)
    ws = _ws(16)
    res = np.zeros(E.RES.SIZE, np.int64)
    uncovered = found = 0
    for _ in range(cases):
        hand, req, floor = _random_case(rng, len(cards), wine_kinds)
        n = I64(len(hand))
        got = social_above_ws(hand, n, kinds, enc, req, floor, ws)
        if got == UNCOVERED:
            uncovered += 1
            continue
        want = best_score_above_ws(hand, n, kinds, enc, req, SOCIAL, floor, res, ws)
        assert got == want, (list(hand), int(req), int(floor))
        found += got >= 0
    return uncovered, found


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_hands_match_the_search(cards, variant):
    uncovered, found = _agree(cards, VARIANTS[variant], 3000, 11)
    assert uncovered == 0  # base-deck hands under these rules are all covered
    assert found > 500  # not only "none"


@pytest.mark.parametrize("seed", range(4))
def test_random_decks_match_the_search(seed):
    """Random notations (Vintage, Containers, E on wine cards, several options) and a wide
    window with two Vintage cards."""
    cards = _deck(seed)
    for rules in (RuleOptions(), replace(RuleOptions(), wine_social=(2, 7), max_vintage=2)):
        uncovered, found = _agree(cards, rules, 1500, 300 + seed)
        assert found > 50


def test_a_window_from_zero_is_not_covered(cards):
    """A Social window from 0 Wine is outside what the solver answers (a play of no card would
    meet I = H): it says UNCOVERED, and the trade attempt searches instead."""
    hand = np.array([cards.lookup(n) for n in WINE3 + ["Kottabos"]], np.int64)
    rules = encode_rules(replace(RuleOptions(), wine_social=(0, 5)))
    got = social_above_ws(hand, I64(4), encode_cards(cards), rules, I64(0), I64(0), _ws(4))
    assert got == UNCOVERED


def test_small_hands_match_the_brute_force(cards):
    """Against the reference brute force: the best Social score above 0."""
    rng = random.Random(8)
    kinds = encode_cards(cards)
    wine = [k for k in range(len(cards)) if kinds[k, E.CF.WM]]
    dry = [k for k in range(len(cards)) if not kinds[k, E.CF.WM]]
    for rules in (RuleOptions(), replace(RuleOptions(), either_split=True)):
        ref = Searcher(cards, rules, engine="reference")
        enc = encode_rules(rules)
        found = 0
        for _ in range(40):
            hand = rng.sample(wine, rng.randint(2, 4)) + rng.sample(dry, rng.randint(1, 4))
            p = ref.best(hand, types=("social",))
            want = p.score if p.type is not None and p.score > 0 else -1
            got = social_above_ws(np.array(hand, np.int64), I64(len(hand)), kinds, enc, I64(0),
                                  I64(0), _ws(len(hand)))
            assert got == want, hand
            found += got >= 0
        assert found > 10
