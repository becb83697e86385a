"""The Social group's closed form (search_nb._social_cf): the card shapes and the deck's
exclusion vectors as encode_cards writes them, worked by hand; and its answers, in every
search mode, against the general walk (the same kernel on the same table with the vector
table switched off) and the brute-force reference, on the base deck and on random decks of
the shapes it covers."""

import itertools
import random

import numpy as np
import pytest
from numba import njit

from simsym.run.bench import deck_hands
from simsym.model.cards.encode import encode_cards
from simsym.model.cards.model import CardSet
from simsym.model.cards.notation import parse_notation
from simsym.core import enums as E
from simsym.core.search_nb import (
    best_play_ws, best_score_above_ws, best_symposion_hint_ws, best_symposion_ws,
    workspace_size)
from simsym.model.rules import RuleOptions, encode_rules
from simsym.engine.search import Searcher
from tests.kernels.test_search_property import outcome

COLS = 2 * E.RES.SIZE + 4


@njit
def _answers(hands, n, table, rules, reqs, floors, tms, out):
    """Per hand: the full result, the full result above a floor (a hint), the play's score,
    cards and type, and the score above the floor."""
    ws = np.empty(workspace_size(n), np.int64)
    res = np.zeros(E.RES.SIZE, np.int64)
    for i in range(hands.shape[0]):
        best_symposion_ws(hands[i], n, table, rules, reqs[i], tms[i], res, ws)
        out[i, :E.RES.SIZE] = res
        best_symposion_hint_ws(hands[i], n, table, rules, reqs[i], tms[i], floors[i], res, ws)
        out[i, E.RES.SIZE:2 * E.RES.SIZE] = res
        best_play_ws(hands[i], n, table, rules, reqs[i], tms[i], res, ws)
        out[i, 2 * E.RES.SIZE] = res[E.RES.SCORE]
        out[i, 2 * E.RES.SIZE + 1] = res[E.RES.MASK]
        out[i, 2 * E.RES.SIZE + 2] = res[E.RES.TYPE]
        out[i, 2 * E.RES.SIZE + 3] = best_score_above_ws(hands[i], n, table, rules, reqs[i],
                                                         tms[i], floors[i], res, ws)


def _both(table, rules, hands, seed):
    """The answers with the closed form and with the general walk (vector table off)."""
    rng = np.random.default_rng(seed)
    N, n = hands.shape
    reqs = np.where(rng.random(N) < 0.4, 1 << rng.integers(0, n, N), 0).astype(np.int64)
    floors = rng.integers(-1, 20, N).astype(np.int64)
    tms = np.where(rng.random(N) < 0.5, 7, rng.integers(1, 8, N)).astype(np.int64)
    general = table.copy()
    general[0, E.CF.XR_STARTS] = -1
    a = np.zeros((N, COLS), np.int64)
    b = np.zeros((N, COLS), np.int64)
    _answers(hands, n, table, rules, reqs, floors, tms, a)
    _answers(hands, n, general, rules, reqs, floors, tms, b)
    return a, b


def test_card_shapes_as_encoded(cards):
    t = encode_cards(cards)
    shape = {c.name: t[k, E.CF.SCF] for k, c in enumerate(cards)}
    assert shape["Grapes"] == shape["Dionysus"] == shape["Strong Wine"] == E.SCF_ENUM
    assert shape["Wit"] == shape["Komos"] == shape["Philosophy"] == E.SCF_FREE
    assert shape["Plato"] == shape["Orgy"] == shape["Drunken Revelry"] == E.SCF_NONE
    # Amphorae (1W or 2W, Container): 2W first (value 2), then 1W; its non-Container wine 0.
    k = cards.lookup("Amphorae")
    assert t[k, E.CF.SCF_NS] == 2 and t[k, E.CF.SCF_MAXP] == 2 and t[k, E.CF.SCF_VAL] == 2
    assert t[k, E.CF.SCF_ST] == 2 | 2 << 8 and t[k, E.CF.SCF_ST + 1] == 1 | 1 << 8
    assert t[k, E.CF.SCF_OPT] == 1 | 2 << 8 and t[k, E.CF.SCF_OPT + 1] == 0 | 1 << 8
    # Fine Wine (1W or 2E; Vintage): 2E first (one 2E item, Vintage), then 1W.
    k = cards.lookup("Fine Wine")
    assert t[k, E.CF.SCF_ST] == 1 << 24 | 1 << 56
    assert t[k, E.CF.SCF_ST + 1] == 1 | 1 << 8 | 1 << 16 | 1 << 24
    # Komos (4H) and Food (1E): points 4 and 1, H 4 and one 1E item.
    assert t[cards.lookup("Komos"), E.CF.SCF_FREE] >> 8 == 4 << 8 | 4 << 32
    assert t[cards.lookup("Food"), E.CF.SCF_FREE] >> 8 == 1 << 16 | 1 << 32


def _vector(t, v):
    """Vector v of the deck's table: (counts per class, cards, points lost, pairs, delta)."""
    row, col = divmod(v, E.XR_PER_ROW)
    w0 = int(t[row, E.CF.XR + 2 * col]) & (2 ** 64 - 1)
    w1 = int(t[row, E.CF.XR + 2 * col + 1])
    counts = [(w0 >> 8 * i) & 0xFF for i in range(E.SCF_MAX_CLASSES)]
    pairs = []
    p = w1 & 0x3FFFFFFF
    while p:
        pairs.append((p & 7, (p >> 3) & 7))
        p >>= 6
    return counts, (w0 >> 56) & 15, w0 >> 60, pairs, w1 >> 32


def test_the_base_decks_exclusion_vectors(cards):
    # The base deck's free classes, numbered in order of (category, points): 2I, 3I, 2H, 3H,
    # 4H, 1E, 2E. Vectors losing 0, 1, 2 points: none; one 1E; one 2I, one 2H, one 2E or
    # two 1E (the deck has four 1E cards).
    t = encode_cards(cards)
    s = int(t[0, E.CF.XR_STARTS])
    starts = [(s >> 9 * L) & 511 for L in range(7)]
    assert starts[:4] == [0, 1, 2, 6]
    assert _vector(t, 0)[:3] == ([0] * 7, 0, 0)
    assert _vector(t, 1)[:3] == ([0, 0, 0, 0, 0, 1, 0], 1, 1)
    assert sorted(_vector(t, v)[0] for v in range(2, 6)) == sorted(
        [[1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1],
         [0, 0, 0, 0, 0, 2, 0]])
    # Komos's class (4H, number 4) holds 4 points; Food's (1E, number 5) a 1E item.
    assert t[cards.lookup("Komos"), E.CF.SCF_FREE] & 0xFF == 4
    assert t[cards.lookup("Food"), E.CF.SCF_FREE] & 0xFF == 5
    points = [2, 3, 2, 3, 4, 1, 2]
    # Every vector of counts losing at most 5 points is listed, once (itertools, apart).
    every = {c for c in itertools.product(*(range(5 // p + 1) for p in points))
             if sum(n * p for n, p in zip(c, points)) <= 5}
    assert len(every) == starts[6] == 44
    assert {tuple(_vector(t, v)[0]) for v in range(starts[6])} == every
    for v in range(starts[6]):
        counts, n, lost, pairs, delta = _vector(t, v)
        assert n == sum(counts) and lost == sum(c * p for c, p in zip(counts, points)) <= 5
        assert starts[lost] <= v < starts[lost + 1]
        assert sorted(pairs) == [(i, c) for i, c in enumerate(counts) if c]
        i_, h_ = counts[0] * 2 + counts[1] * 3, counts[2] * 2 + counts[3] * 3 + counts[4] * 4
        assert delta == i_ | h_ << 8 | counts[5] << 16 | counts[6] << 24


def test_base_deck_closed_form_is_the_general_walk(base):
    table = encode_cards(base.cards)
    rules = encode_rules(base.rules)
    hands = deck_hands(base, 6000, 9, 23)
    a, b = _both(table, rules, hands, 1)
    assert (a[:, E.RES.TYPE] == E.T_SOCIAL).sum() > 2000
    bad = np.nonzero((a != b).any(axis=1))[0]
    assert len(bad) == 0, bad[:5]


SHAPES = ["{a}W", "{a}W or {e}E", "{a}W or {b}W, Container", "{a}W, Container", "{a}W and {e}E",
          "{a}W (Worth {b}W for Scoring) Vintage", "{a}W or {e}E; Vintage", "{a}W; NI",
          "{a}W; NH", "{p}I", "{p}H", "{e}E", "{e}E, WC", "{e}E, MW", "{p}I; IO",
          "{e}E; Social Symposion Only", "{p}H; HO"]


def _covered_deck(seed):
    """Random notations of the shapes the closed form covers: 24 to 40 kinds, one copy."""
    rng = random.Random(seed)
    cards = []
    while len(cards) < 24 or (len(cards) < 40 and rng.random() < 0.9):
        text = rng.choice(SHAPES).format(a=rng.randint(1, 3), b=rng.randint(1, 3),
                                         e=rng.randint(1, 2), p=rng.randint(1, 5))
        cards.append(parse_notation(f"C{len(cards)}", text))
    return CardSet(cards)


@pytest.mark.parametrize("seed", range(6))
def test_random_covered_decks(seed):
    cards = _covered_deck(seed)
    table = encode_cards(cards)
    assert table[0, E.CF.XR_STARTS] >= 0  # the deck has its vector table
    assert (table[:, E.CF.SCF] != E.SCF_OTHER).all()
    rng = random.Random(seed)
    for rules in (RuleOptions(), RuleOptions(social_bonus_stacks=False),
                  RuleOptions(max_vintage=2, non_container_wine=2, wine_social=(2, 6)),
                  RuleOptions(bonus_wine="printed", social_bonus_equal=1),
                  RuleOptions(wine_social=(0, 4), non_container_wine=0, max_vintage=0)):
        hands = np.array([rng.sample(range(len(cards)), 9) for _ in range(400)], np.int64)
        a, b = _both(table, encode_rules(rules), hands, seed)
        assert (a == b).all()
        fast = Searcher(cards, rules)
        ref = Searcher(cards, rules, engine="reference")
        for hand in hands[:12]:
            assert outcome(fast.best(list(hand))) == outcome(ref.best(list(hand))), hand


def test_decks_and_hands_it_does_not_cover_take_the_general_walk(cards):
    # A 3E card is no shape of the closed form; the rest of the deck keeps its table.
    odd = CardSet(list(cards) + [parse_notation("Triple", "3E")])
    t = encode_cards(odd)
    assert t[len(odd) - 1, E.CF.SCF] == E.SCF_OTHER and t[0, E.CF.XR_STARTS] >= 0
    # More free classes than SCF_MAX_CLASSES: no table at all.
    many = CardSet([parse_notation(f"F{p}{c}", f"{p}{c}") for p in range(1, 6) for c in "IH"]
                   + [parse_notation(f"W{i}", "1W") for i in range(4)])
    assert encode_cards(many)[0, E.CF.XR_STARTS] == -1
    for deck in (odd, many):
        fast = Searcher(deck, RuleOptions())
        ref = Searcher(deck, RuleOptions(), engine="reference")
        rng = random.Random(3)
        for _ in range(60):
            hand = rng.sample(range(len(deck)), 9)
            assert outcome(fast.best(hand)) == outcome(ref.best(hand)), hand


def test_an_empty_deck_encodes_and_searches_to_no_play():
    table = encode_cards(CardSet([]))
    assert table.shape == (0, E.CF.SIZE)
    out = np.zeros((1, COLS), np.int64)
    none = np.zeros(1, np.int64)
    _answers(np.zeros((1, 0), np.int64), 0, table, encode_rules(RuleOptions()), none,
             none - 1, none + 7, out)
    assert out[0, E.RES.TYPE] == -1 and out[0, E.RES.SCORE] == 0


def test_no_cards_is_no_social_play(cards):
    # With a Social window from 0 Wine and no non-Container rule, leaving every card out
    # would meet the window and I = H = Wine = 0: but a play of no cards is no play.
    rules = RuleOptions(wine_social=(0, 5), non_container_wine=0)
    fast = Searcher(cards, rules)
    ref = Searcher(cards, rules, engine="reference")
    for names in (["Plato", "Orgy"], ["Food", "Wit"], ["Krater", "Pleasure", "Food"]):
        hand = [cards.lookup(x) for x in names]
        assert outcome(fast.best(hand)) == outcome(ref.best(hand)), names
    assert fast.best([cards.lookup("Plato"), cards.lookup("Orgy")]).type is None
    # Food (1E) and Wit (2E): 0 Wine, E split 1 / 2: no bonus, 3 points with both.
    play = fast.best([cards.lookup("Food"), cards.lookup("Wit")])
    assert (play.type, play.score, len(play.choices)) == ("social", 3, 2)

