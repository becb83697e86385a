"""The numba search against the brute-force reference on random and edge-case hands."""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simsym.rules import RuleOptions
from simsym.search import TYPES, Searcher


def outcome(play):
    """Everything but the per-card E split (any split reaching the same totals is as good):
    score, type, cards, breakdown and each card's chosen option."""
    return (play.score, play.type, sorted(play.cards), play.wine, play.intellectual,
            play.hedonistic, play.bonus, sorted((c.name, c.option) for c in play.choices))


def check_legal_breakdown(play):
    assert play.wine + play.intellectual + play.hedonistic + play.bonus == play.score
    for c in play.choices:
        assert c.either_to_intellectual >= 0 and c.either_to_hedonistic >= 0


# The first 36 cards of the deck are the wine, E and woman cards where the choices live.
hand_st = st.lists(st.one_of(st.integers(0, 74), st.integers(0, 35)), min_size=0, max_size=9)

rule_variants = [
    RuleOptions(),
    replace(RuleOptions(), either_split=True),
    replace(RuleOptions(), social_bonus_stacks=False),
    replace(RuleOptions(), wine_counts="scored", bonus_wine="printed"),
    replace(RuleOptions(), io_bars_mw=False, non_container_wine=0),
    replace(RuleOptions(), max_vintage=2, wine_social=(2, 6), wine_hedonistic=(4, 8)),
    replace(RuleOptions(), social_bonus_equal=5, social_bonus_all_equal=0),
]


@pytest.fixture(scope="module")
def engines(cards):
    return {i: (Searcher(cards, r), Searcher(cards, r, engine="reference"))
            for i, r in enumerate(rule_variants)}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hand_st)
def test_numba_equals_reference_random_hands(engines, hand):
    fast, ref = engines[0]
    a, b = fast.best(hand), ref.best(hand)
    assert outcome(a) == outcome(b)
    check_legal_breakdown(a)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hand_st, variant=st.integers(1, len(rule_variants) - 1))
def test_numba_equals_reference_under_rule_options(engines, hand, variant):
    fast, ref = engines[variant]
    assert outcome(fast.best(hand)) == outcome(ref.best(hand))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_numba_equals_reference_with_types_and_required(engines, data):
    hand = data.draw(hand_st.filter(len))
    types = tuple(t for t in TYPES if data.draw(st.booleans())) or ("social",)
    required = tuple(sorted(data.draw(st.sets(st.integers(0, len(hand) - 1), max_size=2))))
    fast, ref = engines[0]
    a = fast.best(hand, types=types, required=required)
    b = ref.best(hand, types=types, required=required)
    assert outcome(a) == outcome(b)
    if a.type is not None:
        assert a.type in types
        played = sorted(c.position for c in a.choices)
        assert set(required) <= set(played)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.lists(st.integers(0, 74), min_size=9, max_size=9, unique=True))
def test_numba_equals_reference_on_dealt_nine_card_hands(engines, hand):
    fast, ref = engines[0]
    assert outcome(fast.best(hand)) == outcome(ref.best(hand))


def test_hand_order_does_not_change_the_answer(cards):
    import random

    fast = Searcher(cards, RuleOptions())
    rng = random.Random(7)
    for _ in range(300):
        hand = rng.sample(range(75), 9)
        a = fast.best(hand)
        rng.shuffle(hand)
        assert outcome(fast.best(hand)) == outcome(a)


def test_python_mode_of_the_kernel_matches_compiled(cards):
    """The kernel's .py_func (plain Python, for debugging) gives the compiled answers."""
    import random

    fast, slow = Searcher(cards, RuleOptions()), Searcher(cards, RuleOptions(), engine="python")
    rng = random.Random(3)
    for _ in range(40):
        hand = rng.sample(range(75), 9)
        assert outcome(fast.best(hand)) == outcome(slow.best(hand))
