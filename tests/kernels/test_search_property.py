"""The numba search against the brute-force reference on random and edge-case hands."""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simsym.model.rules import RuleOptions
from simsym.engine.search import TYPES, Searcher


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


def test_a_sorted_hand_gives_the_answer_of_its_shuffles(cards):
    """A hand already sorted by kind (as the engine keeps every seat's hand), or sorted but for
    its last card (as the trade code's hands are), is copied instead of sorted by the search.
    Its answer must be the one of the same cards in another order: a sorted hand against a
    shuffle of it, or against the same hand with one card moved to the end; copies of a
    kind, allowed types and required cards included."""
    import random

    fast = Searcher(cards, RuleOptions())
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(1, 12)
        hand = sorted(rng.randrange(36) if rng.random() < 0.6 else rng.randrange(75)
                      for _ in range(n))
        required = sorted(rng.sample(range(n), rng.randint(0, min(2, n))))
        types = tuple(t for t in TYPES if rng.random() < 0.7) or ("social",)
        order = list(range(n))
        if rng.random() < 0.5:
            rng.shuffle(order)  # shuffled[q] = hand[order[q]]
        else:  # one card moved to the end (a trade's hand: one card out, one put last)
            order.append(order.pop(rng.randrange(n)))
        shuffled = [hand[i] for i in order]
        a = fast.best(hand, types=types, required=tuple(required))
        b = fast.best(shuffled, types=types,
                      required=tuple(sorted(order.index(i) for i in required)))
        assert outcome(a) == outcome(b), (hand, shuffled, required, types)
        # The positions each reports are its hand's: each names the card it played, and the
        # required cards are played.
        moved = [order.index(i) for i in required]
        for h, req, play in ((hand, required, a), (shuffled, moved, b)):
            if play.type is not None:
                assert set(req) <= {c.position for c in play.choices}
                assert all(cards[h[c.position]].name == c.name for c in play.choices)


NO_JIT_SCRIPT = """
import json, random, sys
import numba
from simsym.core import search_nb
from simsym.model.rules import RuleOptions
from simsym.model.scenario import BASE_SCENARIO, load_scenario
from simsym.engine.search import Searcher
# Really plain Python: the kernel and every helper it calls are uncompiled functions.
assert numba.config.DISABLE_JIT and not hasattr(search_nb._best_core, "py_func")
sys.path.insert(0, sys.argv[1])
from test_search_property import HANDS_NO_JIT, no_jit_cases, outcome
slow = Searcher(load_scenario(BASE_SCENARIO).cards, RuleOptions(), engine="python")
print(json.dumps([outcome(slow.best(h, types=t, required=r)) for h, t, r in no_jit_cases()]))
"""
HANDS_NO_JIT = 300


def no_jit_cases():
    """Seeded hands of 1..12 cards with random allowed types and required cards."""
    import random

    rng = random.Random(3)
    cases = []
    for _ in range(HANDS_NO_JIT):
        hand = rng.sample(range(75), rng.randint(1, 12))
        types = tuple(t for t in TYPES if rng.random() < 0.7) or ("hedonistic",)
        required = tuple(sorted(rng.sample(range(len(hand)), rng.randint(0, min(2, len(hand))))))
        cases.append((hand, types, required))
    return cases


def test_python_mode_with_the_jit_disabled_matches_compiled(cards):
    """The kernel run as plain Python (NUMBA_DISABLE_JIT=1, in a fresh process, so that the
    helpers it calls are plain Python too) gives the compiled kernel's answers."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    r = subprocess.run([sys.executable, "-c", NO_JIT_SCRIPT, os.path.dirname(__file__)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    slow = json.loads(r.stdout)
    fast = Searcher(cards, RuleOptions())
    compiled = [json.loads(json.dumps(outcome(fast.best(h, types=t, required=req))))
                for h, t, req in no_jit_cases()]
    assert len(slow) == HANDS_NO_JIT
    assert sum(1 for o in compiled if o[1] is not None) > HANDS_NO_JIT // 3  # not only 0s
    assert slow == compiled
