"""The numba lookahead against the reference one (docs/game-engine.md 6.6): the same streams,
the same deals of the hidden cards, the same rollout values."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from simsym.core import lookahead_nb as N
from simsym.reference import lookahead as L
from simsym.reference.game import Game
from tests.engines.test_lookahead_reference import scenario
from tests.rules.test_reference_game import fast


def test_rollout_streams_agree():
    sc = scenario()
    out = np.zeros(1, np.uint64)
    for g, t, s, d, i in [(0, 0, 0, 0, 0), (5, 17, 3, 2, 63), (123456, 999, 1, 0, 7)]:
        game = Game(sc, g, fast(sc))
        game.turn = t
        N.rollout_stream_nb(sc.seed, g, t, s, d, i, out)
        assert int(out[0]) == L.rollout_stream(game, s, d, i).state


def test_values_agree():
    rnd = random.Random(1)
    for _ in range(500):
        P = rnd.randint(2, 6)
        score = [rnd.randint(0, 60) for _ in range(P)]
        s = rnd.randrange(P)
        assert N.rollout_value_nb(np.array(score, np.int64), P, s) == L.value(score, s)


def test_determinizations_agree():
    sc = scenario()
    rnd = random.Random(2)
    D = sum(c.copies for c in sc.cards)
    for g in range(40):
        game = Game(sc, g, fast(sc))
        game.setup()
        for _ in range(rnd.randint(0, 30)):  # some cards to the discard pile
            game.discard.append(game.pile.pop())
        for j in range(sc.players):  # hands of several sizes
            for _ in range(rnd.randint(0, 3)):
                game.hands[j].pop()
        s = rnd.randrange(sc.players)
        offer = None
        if rnd.random() < 0.5:
            giver = (s + 1 + rnd.randrange(sc.players - 1)) % sc.players
            if game.hands[giver]:
                offer = (giver, game.hands[giver][:rnd.randint(1, min(2, len(game.hands[giver])))],
                         0)
        i = rnd.randrange(100)
        want_hands, want_pile = L.determinize(game, s, L.rollout_stream(game, s, 0, i), offer)

        hands = np.full((sc.players, D), -1, np.int64)
        hn = np.zeros(sc.players, np.int64)
        for j, h in enumerate(game.hands):
            hands[j, :len(h)] = h
            hn[j] = len(h)
        dcount = np.zeros(len(sc.cards), np.int64)
        for k, c in Counter(game.discard).items():
            dcount[k] = c
        copies = np.array([c.copies for c in sc.cards], np.int64)
        off = np.array(offer[1] if offer else [0], np.int64)
        stream = np.zeros(1, np.uint64)
        N.rollout_stream_nb(sc.seed, g, game.turn, s, 0, i, stream)
        unseen = np.zeros(D, np.int64)
        pile = np.zeros(D, np.int64)
        m = N.determinize_nb(copies, hands, hn, s, dcount, offer[0] if offer else -1, off,
                             len(offer[1]) if offer else 0, stream, unseen, pile)
        got_hands = [list(hands[j, :hn[j]]) for j in range(sc.players)]
        assert got_hands == want_hands
        assert list(pile[:m]) == want_pile


def test_halving_rounds():
    assert [N.halving_rounds_nb(c) for c in (1, 2, 3, 4, 5, 8, 9, 64)] == [0, 1, 2, 2, 3, 3, 4, 6]


# --- whole games: the numba engine's lookahead makes the reference's decisions --------------

def _variants():
    from dataclasses import replace

    from simsym.model.strategies import make_strategy
    from tests.engines.test_lookahead_reference import BASE

    greedy = make_strategy("greedy")
    plain = replace(BASE, players=4, seating="rotate", seed=7,
                    strategies=[make_strategy({"family": "lookahead", "iterations": 4})]
                    + [greedy] * 3)
    # Policy "own" against other families, trades between others and uneven trades on, so
    # lookahead seats are asked (and answer) trades, including uneven offers.
    la = make_strategy({"family": "lookahead", "iterations": 3, "policy": "own",
                        "candidates": 4, "trade_inactive": True})
    others = [make_strategy({"family": "patient", "trade_inactive": True}),
              make_strategy({"family": "specialist"}), make_strategy("random")]
    mixed = replace(BASE, players=4, seating="rotate", seed=11, strategies=[la] + others)
    mixed = replace(mixed, rules=replace(mixed.rules, trade_between_others=True,
                                         uneven_trades=True))
    three = replace(BASE, players=3, seating="rotate", seed=3,
                    strategies=[make_strategy({"family": "lookahead", "iterations": 2,
                                               "candidates": 3}), greedy])
    return {"plain": (plain, 6), "mixed": (mixed, 12), "three": (three, 6)}


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["plain", "mixed", "three"])
def test_games_agree_event_for_event(monkeypatch, variant):
    from simsym.engine.compiled import play_logged, setup_for
    from simsym.run.reference import record_row

    sc, games = _variants()[variant]
    kinds = Counter()
    real = L.decide

    def counting(game, s, kind, cands, offer=None):
        if len(cands) > 1:
            kinds[kind] += 1
        return real(game, s, kind, cands, offer)

    monkeypatch.setattr(L, "decide", counting)
    setup = setup_for(sc)
    for g in range(games):
        events, row, _ = play_logged(setup, g)
        ref = Game(sc, g, fast(sc)).play()
        assert [tuple(e) for e in events.tolist()] == [tuple(e) for e in ref.events], g
        # the per-game row too, the game-quality fields included (docs section 8)
        assert row.tolist() == record_row(ref, sc.players).tolist(), g
    # Every kind of decision was searched (and so compared) somewhere in these games.
    assert kinds[L.SYMPOSIARCH] and kinds[L.SYMPOSION] and kinds[L.KOMOS]
    if variant == "mixed":
        assert kinds[L.TRADE] > 0
