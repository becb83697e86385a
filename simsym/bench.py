"""Benchmarks behind `simsym bench` (figures only; nothing here asserts a speed)."""

from __future__ import annotations

import statistics
import time

import numpy as np
from numba import njit

from simsym.cards.encode import encode_cards
from simsym.core import enums as E
from simsym.core.search_nb import best_symposion_nb
from simsym.rules import encode_rules
from simsym.search import Searcher


@njit(cache=True)
def _repeat_search_nb(hand, n, table, rules, reps, res):
    for _ in range(reps):
        best_symposion_nb(hand, n, table, rules, 0, 7, res)
    return res[E.RES_SCORE]


def deck_hands(scenario, count: int, size: int, seed: int) -> np.ndarray:
    """``count`` hands of ``size`` cards dealt from the scenario's deck (copies included)."""
    deck = np.repeat(np.arange(len(scenario.cards)), [c.copies for c in scenario.cards])
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(deck)[:size] for _ in range(count)]).astype(np.int64)


def search_figures(scenario, hands=2000, ref_hands=30, reps=50, seed=1, size=9) -> dict:
    table = encode_cards(scenario.cards)
    rules = encode_rules(scenario.rules)
    res = np.zeros(E.RES_SIZE, np.int64)
    hs = deck_hands(scenario, hands, size, seed)
    t0 = time.perf_counter()
    _repeat_search_nb(hs[0], size, table, rules, 1, res)
    compile_s = time.perf_counter() - t0
    per_hand = []
    for h in hs:
        t = time.perf_counter()
        _repeat_search_nb(h, size, table, rules, reps, res)
        per_hand.append((time.perf_counter() - t) / reps)
    fast = Searcher(scenario.cards, scenario.rules)
    ref = Searcher(scenario.cards, scenario.rules, engine="reference")
    sub = hs[:ref_hands]
    t = time.perf_counter()
    ref_plays = [ref.best(list(h)) for h in sub]
    ref_s = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(reps):
        for h in sub:
            best_symposion_nb(h, size, table, rules, 0, 7, res)
    fast_s = (time.perf_counter() - t) / reps
    agree = sum(fast.best(list(h)).score == p.score for h, p in zip(sub, ref_plays))
    median = statistics.median(per_hand)
    return {
        "hand_size": size, "compile_s": compile_s, "reps": reps,
        "numba_hands": len(hs), "numba_median_us": median * 1e6,
        "numba_hands_per_s": 1.0 / statistics.mean(per_hand),
        "reference_hands": len(sub), "reference_hands_per_s": len(sub) / ref_s,
        "ratio": ref_s / fast_s, "agree": agree,
    }
