"""The `lookahead` player of the reference engine (docs/game-engine.md §6.6).

Hand-worked checks of its parts (the value of a rollout, the successive-halving budget, the
determinization, the candidate generators), and the property that matters most: it decides only
from what its seat knows. At every decision of a few games the hidden cards (other hands, the
pile's order) are re-dealt in another way consistent with the seat's knowledge, and the decision
must not change.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

import pytest

from simsym.reference import lookahead as L
from simsym.reference.game import Game
from simsym.reference.hands import NONE
from simsym.model.scenario import BASE_SCENARIO, load_scenario
from simsym.model.strategies import make_strategy
from tests.rules.test_reference_game import fast

BASE = load_scenario(BASE_SCENARIO).judge("fast")


def scenario(iterations=4, candidates=6, policy="greedy", players=4, **rules):
    la = make_strategy({"family": "lookahead", "iterations": iterations,
                        "candidates": candidates, "policy": policy})
    sc = replace(BASE, players=players, seating="rotate",
                 strategies=[la] + [make_strategy("greedy")] * (players - 1), seed=7)
    if rules:
        sc = replace(sc, rules=replace(sc.rules, **rules))
    return sc


# --- the value of a rollout ------------------------------------------------------------------

def test_value_is_win_units_then_margin():
    # Seat 1 ties seat 2 at the top: 60 / 2 = 30 win units, margin 12 - 12 = 0.
    assert L.value([10, 12, 12, 5], 1) == 1024 * 30
    # Seat 0 loses: no win units, margin 10 - 12 = -2.
    assert L.value([10, 12, 12, 5], 0) == -2
    # A sole winner by 3: 60 units, margin +3.
    assert L.value([4, 1, 0, 1], 0) == 1024 * 60 + 3
    # Margins are clamped so that they never outweigh a win unit difference.
    assert L.value([1000, 0], 0) == 1024 * 60 + 511
    assert L.value([0, 1000], 0) == -512


# --- the budget: successive halving with common random numbers -------------------------------

def test_successive_halving_spends_the_budget_as_specified(monkeypatch):
    game = Game(scenario(iterations=8), 0, fast(scenario()))
    game.setup()
    calls = []
    # Candidate c's value in iteration i: made up so that the ranking changes between rounds.
    table = {("a", 0): 5, ("b", 0): 9, ("c", 0): 1, ("d", 0): 7,
             ("b", 1): 0, ("d", 1): 4, ("b", 2): 0, ("d", 2): 4}

    def fake(game_, s, kind, cand, d, i, offer):
        calls.append((cand, i))
        return table[(cand, i)]

    monkeypatch.setattr(L, "rollout_value", fake)
    # 4 candidates, 8 iterations: ceil(log2 4) = 2 rounds of 8 // 2 = 4 rollouts.
    # Round 1: 4 // 4 = 1 rollout each (iteration 0): b 9, d 7, a 5, c 1 -> b, d survive.
    # Round 2: 4 // 2 = 2 rollouts each (iterations 1, 2): b 9+0+0 = 9, d 7+4+4 = 15 -> d.
    assert L.decide(game, 0, L.KOMOS, ["a", "b", "c", "d"]) == "d"
    assert calls == [("a", 0), ("b", 0), ("c", 0), ("d", 0),
                     ("b", 1), ("d", 1), ("b", 2), ("d", 2)]
    assert game.decisions[0] == 1  # the next decision of this seat this turn gets new streams


def test_ties_go_to_the_earlier_candidate_and_one_candidate_costs_nothing(monkeypatch):
    game = Game(scenario(iterations=2), 0, fast(scenario()))
    game.setup()
    calls = []
    monkeypatch.setattr(L, "rollout_value", lambda *a: calls.append(a) or 0)
    assert L.decide(game, 0, L.TRADE, [True, False]) is True  # equal totals: greedy's answer
    assert len(calls) == 2  # 1 round, 2 // 2 = 1 rollout each
    calls.clear()
    assert L.decide(game, 0, L.SYMPOSION, ["only"]) == "only"
    assert calls == []
    assert game.decisions[0] == 1  # a decision without rollouts takes no stream number


# --- determinization -------------------------------------------------------------------------

def test_determinization_keeps_what_the_seat_knows():
    sc = scenario()
    game = Game(sc, 0, fast(sc))
    game.setup()
    game.discard = [game.pile.pop() for _ in range(5)]
    s = 2
    giver, offer = 1, [game.hands[1][0], game.hands[1][3]]
    hands, pile = L.determinize(game, s, L.rollout_stream(game, s, 0, 0), (giver, offer, 0))
    assert hands[s] == game.hands[s]
    assert [len(h) for h in hands] == [len(h) for h in game.hands]
    assert len(pile) == len(game.pile)
    assert hands[giver][:2] == offer  # the offered cards are where the seat saw them
    # Every card is somewhere: deck = hands + pile + discard.
    everything = Counter(pile) + Counter(game.discard)
    for h in hands:
        everything += Counter(h)
    assert everything == Counter({k: c.copies for k, c in enumerate(sc.cards)})
    # A different iteration deals differently; the same one the same.
    again = L.determinize(game, s, L.rollout_stream(game, s, 0, 0), (giver, offer, 0))
    other = L.determinize(game, s, L.rollout_stream(game, s, 0, 1), (giver, offer, 0))
    assert again == (hands, pile)
    assert other != (hands, pile)


def test_rollout_stream_is_keyed_on_seed_game_turn_seat_decision_iteration():
    sc = scenario()
    game = Game(sc, 3, fast(sc))
    firsts = set()
    for key in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]:
        firsts.add(L.rollout_stream(game, *key).next())
    game.turn = 1
    firsts.add(L.rollout_stream(game, 0, 0, 0).next())
    assert len(firsts) == 5
    # mix64 chained as spec §6.6 writes it, for (seed 7, g 3, turn 1, seat 0, d 0, i 0).
    from simsym.reference.rng import Stream, mix64
    x = mix64(7 ^ 0x100C)
    for v in (3, 1, 0, 0, 0):
        x = mix64(x ^ v)
    assert L.rollout_stream(game, 0, 0, 0).next() == Stream(x).next()


# --- candidate generators --------------------------------------------------------------------

@pytest.fixture
def seen(monkeypatch):
    """The candidate list of the next decision (which then takes the first candidate)."""
    got = {}
    monkeypatch.setattr(L, "decide", lambda g, s, kind, cands, offer=None:
                        got.setdefault("c", cands)[0])
    return got


def _game_with_hand(names, sc=None):
    sc = sc or scenario()
    game = Game(sc, 0, fast(sc))
    game.setup()
    want = [sc.cards.lookup(n) for n in names]
    # Seat 0 gets the wanted cards; the others are dealt again from what is left.
    pool = game.pile + [k for h in game.hands for k in h]
    for k in want:
        pool.remove(k)
    game.hands[0] = list(want)
    for j in range(1, game.P):
        game.hands[j], pool = pool[:9], pool[9:]
    game.pile = pool
    return game


def test_komos_candidates_are_windows_of_the_greedy_discard_order(seen):
    # Plato, Mathematics, Grapes, Vines, Krater, Flutist, Dancers, Orgy, Komos: n = 1.
    game = _game_with_hand(["Plato", "Mathematics", "Grapes", "Vines", "Krater", "Flutist",
                            "Dancers", "Orgy", "Komos"])
    chosen = game.choose_komos(0, 1)
    cands = seen["c"]
    # The first candidate is exactly what greedy would discard.
    greedy = Game(replace(game.sc, strategies=[make_strategy("greedy")]), 0, game.search)
    greedy.hands = [list(h) for h in game.hands]
    assert cands[0] == greedy.choose_komos(0, 1) == chosen
    # n = 1: one candidate per distinct card, up to `candidates` (6).
    assert len(cands) == 6
    assert len({tuple(c) for c in cands}) == 6
    assert all(len(c) == 1 for c in cands)


def test_symposion_candidates(seen):
    # The rulings' first worked example: Intellectual 18 is the best play.
    game = _game_with_hand(["Plato", "Mathematics", "Science", "Education", "Grapes", "Vines",
                            "Wine Mixed with Water", "Dancers"], scenario(candidates=64))
    play = game.choose_play(0)
    cands = seen["c"]
    assert play == cands[0] and play.score == 18 and play.type == "intellectual"
    assert cands[1] == NONE  # pass is always the second candidate
    # Then the best social play (the best intellectual one is greedy's, so it is not repeated;
    # 3 printed Wine cannot make a Hedonistic one), then the hold-back play: without the most
    # valuable card of greedy's play, still intellectual and worth less.
    assert [c.type for c in cands[2:]] == ["social", "intellectual"]
    keep = game.keep[0]
    v = max(play.kinds, key=lambda k: (keep[k], k))
    held = cands[3]
    assert v not in held.kinds and held.score < 18
    assert held == game.best([k for k in game.hands[0] if k != v])
    assert len({(c.type, c.kinds) for c in cands}) == len(cands)


def test_symposiarch_candidates_start_with_greedy_and_none(seen):
    game = _game_with_hand(["Plato", "Mathematics", "Grapes", "Vines", "Krater", "Flutist",
                            "Dancers", "Orgy", "Komos"])
    game.choose_symposiarch_discards(0)
    cands = seen["c"]
    rest = game.rest(0, game.hands[0])
    assert [] in cands
    prefixes = [rest[:j] for j in range(min(4, len(rest)) + 1)]
    assert all(c in prefixes for c in cands[1:])


# --- the property that matters: no hidden information ----------------------------------------

def _redeal(game, s, offer, rnd):
    """Another arrangement of the cards s cannot see, consistent with what it knows."""
    other = copy.copy(game)
    giver = offer[0] if offer else None
    fixed = list(offer[1]) if offer else []
    hidden = list(game.pile)
    for j in range(game.P):
        if j != s:
            h = list(game.hands[j])
            if j == giver:
                for k in fixed:
                    h.remove(k)
            hidden += h
    rnd.shuffle(hidden)
    other.hands = [list(h) for h in game.hands]
    pos = 0
    for j in range(game.P):
        if j != s:
            mine = list(fixed) if j == giver else []
            n = len(game.hands[j]) - len(mine)
            other.hands[j] = mine + hidden[pos:pos + n]
            pos += n
    other.pile = hidden[pos:]
    other.decisions = list(game.decisions)
    return other


@pytest.mark.slow
@pytest.mark.parametrize("g", [0, 1, 2])
def test_decisions_do_not_depend_on_hidden_cards(monkeypatch, g):
    sc = scenario(iterations=3)
    checked = Counter()
    real = L.decide
    rnd = random.Random(g)

    def checking(game, s, kind, cands, offer=None):
        if len(cands) > 1:
            alt = _redeal(game, s, offer, rnd)
            assert (alt.hands, alt.pile) != (game.hands, game.pile)
            assert real(alt, s, kind, cands, offer) == real(game, s, kind, cands, offer)
            checked[kind] += 1
            game.decisions[s] -= 1  # the check spent a decision number: give it back
        return real(game, s, kind, cands, offer)

    monkeypatch.setattr(L, "decide", checking)
    Game(sc, g, fast(sc)).play()
    assert checked[L.SYMPOSION] > 0 and checked[L.KOMOS] + checked[L.SYMPOSIARCH] > 0
