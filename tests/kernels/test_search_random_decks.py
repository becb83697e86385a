"""The numba search against the brute-force reference on random decks of random notations.

The base deck's tests (test_search_property.py) reach the shapes the rules print; here each
deck is drawn from the notation's shapes with random points, every shape on several kinds
(cards that behave alike but sort apart) and some with copies, under two rule variants, and
every answer (score, type, cards, options) must equal the reference's."""

import random
from dataclasses import replace

import pytest

from simsym.model.cards.model import CardSet
from simsym.model.cards.notation import parse_notation
from simsym.model.rules import RuleOptions
from simsym.engine.search import Searcher
from tests.kernels.test_search_property import outcome

SHAPES = [
    "{a}W", "{a}W or {b}E", "{a}W or {b}W, Container", "{a}W, Container", "{a}W and {b}E",
    "{a}W (Worth {b}W for Scoring) Vintage", "{a}W or {b}E; Vintage", "{a}W; NI", "{a}W; NH",
    "{a}I", "{a}H", "{a}E", "{a}E, WC", "{a}E, MW", "{a}I; IO", "{a}H; HO, Requires 2+ WC",
    "{a}H; HO, Requires 4+ Wine Points", "{a}E; Social Symposion Only",
]


def _deck(seed):
    """9 random notations, each printed on 1 to 3 kinds, some of them with 2 copies."""
    rng = random.Random(seed)
    cards = []
    for c in range(9):
        text = rng.choice(SHAPES).format(a=rng.randint(1, 3), b=rng.randint(1, 3))
        for j in range(rng.randint(1, 3)):
            cards.append(parse_notation(f"C{c}{'abc'[j]}", text, copies=rng.choice((1, 1, 2))))
    return CardSet(cards)


@pytest.mark.parametrize("seed", range(8))
def test_random_decks_match_the_reference(seed):
    cards = _deck(seed)
    deck = [k for k, c in enumerate(cards) for _ in range(c.copies)]
    rng = random.Random(100 + seed)
    variants = [RuleOptions(), replace(RuleOptions(), wine_social=(2, 7), max_vintage=2)]
    for rules in variants:
        fast, ref = Searcher(cards, rules), Searcher(cards, rules, engine="reference")
        for _ in range(60):
            hand = rng.sample(deck, rng.randint(2, 9))
            assert outcome(fast.best(hand)) == outcome(ref.best(hand)), (seed, hand)
