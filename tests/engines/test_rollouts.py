"""The rollout API of the numba engine (docs/game-engine.md, "Rollouts").

A rollout copies a game state into another, gives every seat a strategy and plays the copy to
the end on a stream the caller chose. Checked here against the engine itself: a rollout that
keeps the game's own strategies and stream is the game, from any phase boundary; the source
state is never touched; the same stream key gives the same game."""

import numpy as np
import pytest

from simsym.core import enums as E
from simsym.core import game_nb as G
from simsym.core.rng_nb import stream_state_nb
from simsym.engine.compiled import play_logged, setup_for
from simsym.model.strategies import make_strategy
from test_game_engine import VARIANTS, scenario_with

GAME_FIELDS = G.State._fields[:G.N_GAME_FIELDS]
STOPS = [(0, E.AT.DEAL), (0, E.AT.TURN), (3, E.AT.DISCARDS), (5, E.AT.TRADING), (8, E.AT.SYMPOSION),
         (12, E.AT.KOMOS), (17, E.AT.AMPHORAE)]


def states(setup, n=2):
    tb = setup.table()
    return tb, [G.new_state(tb, 0) for _ in range(n)]


def snapshot(s):
    return {f: np.array(getattr(s, f), copy=True) for f in GAME_FIELDS}


def own_policy(s):
    return np.array(s.seat_strat, copy=True)


@pytest.mark.parametrize("name", ["base", "mixed-rotate", "mixed-random", "two-players-uneven",
                                  "others-trade"])
def test_a_rollout_with_the_games_own_stream_and_strategies_is_the_game(name):
    sc = VARIANTS[name]
    setup = setup_for(sc)
    tb, (src, dst) = states(setup)
    P = sc.players
    for g in range(6):
        _, row, _ = play_logged(setup, g)
        for turn, at in STOPS:
            G.setup(tb, src, g, sc.seed)
            G.play_until(tb, src, turn, at)
            if turn > 0 and src.sc[E.GS.AT] == E.AT.OVER:
                continue
            assert (src.sc[E.GS.TURN], src.sc[E.GS.AT]) == (turn, at)
            scores = G.rollout_nb(tb, src, dst, own_policy(src), src.rng[0])
            assert list(scores) == list(row[E.ROW.FIXED:E.ROW.FIXED + P]), (g, turn, at)
            assert dst.sc[E.GS.TURN] == row[E.ROW.TURNS]
            assert dst.sc[E.GS.TRADES] == row[E.ROW.TRADES]


def test_a_rollout_from_the_deal_with_the_deal_stream_is_the_game():
    """A state set up for game g stands before the shuffle: rolled out on the deal's game
    stream (docs section 1) with its own strategies, it is game g."""
    sc = VARIANTS["mixed-rotate"]
    setup = setup_for(sc)
    tb, (src, dst) = states(setup)
    for g in range(8):
        _, row, _ = play_logged(setup, g)
        G.setup(tb, src, g, sc.seed)
        deal = g // sc.players
        G.rollout_nb(tb, src, dst, own_policy(src),
                     np.uint64(stream_state_nb(sc.seed, deal)))
        assert dst.sc[E.GS.DEAL] == row[E.ROW.DEAL] == deal
        assert list(dst.score) == list(row[E.ROW.FIXED:E.ROW.FIXED + sc.players])


def test_all_greedy_rollouts_play_the_greedy_game():
    """Every seat given the greedy row: the mixed table's deal d, rolled out from the deal,
    is game d of the same scenario with a mirror greedy table (same seed, so same deal)."""
    mixed = VARIANTS["mixed-rotate"]
    greedy = scenario_with(strategies=[make_strategy("greedy")], seating="mirror")
    setup = setup_for(mixed)
    gsetup = setup_for(greedy)
    tb, (src, dst) = states(setup)
    policy = np.full(mixed.players, setup.greedy, np.int64)
    for d in range(5):
        g = d * mixed.players + 1  # rotation 1: no seat plays greedy in seat 0
        G.setup(tb, src, g, mixed.seed)
        _, row, _ = play_logged(gsetup, d)
        G.rollout_nb(tb, src, dst, policy, src.rng[0])
        assert list(dst.score) == list(row[E.ROW.FIXED:E.ROW.FIXED + mixed.players])
        assert dst.sc[E.GS.TURN] == row[E.ROW.TURNS]


def test_a_rollout_leaves_its_source_untouched():
    sc = VARIANTS["mixed-rotate"]
    setup = setup_for(sc)
    tb, (src, dst) = states(setup)
    G.setup(tb, src, 3, sc.seed)
    G.play_until(tb, src, 9, E.AT.TRADING)
    before = snapshot(src)
    policy = np.full(sc.players, setup.greedy, np.int64)
    for it in range(5):
        stream = np.uint64(G.key_stream_nb(sc.seed, np.array([3, 9, 0, it])))
        G.rollout_nb(tb, src, dst, policy, stream)
        assert dst.sc[E.GS.AT] == E.AT.OVER
    after = snapshot(src)
    for f in GAME_FIELDS:
        assert (before[f] == after[f]).all(), f
    # and the copy shares nothing with its source
    G.copy_state(src, dst)
    for f in GAME_FIELDS:
        assert not np.shares_memory(getattr(src, f), getattr(dst, f)), f
        assert (getattr(src, f) == getattr(dst, f)).all(), f


def test_rollouts_are_deterministic_per_stream_key():
    sc = VARIANTS["base"]
    setup = setup_for(sc)
    tb, (src, dst, dst2) = states(setup, 3)
    G.setup(tb, src, 1, sc.seed)
    G.play_until(tb, src, 6, E.AT.SYMPOSION)
    policy = np.full(sc.players, setup.greedy, np.int64)
    results = set()
    for it in range(12):
        key = np.array([1, 6, 0, 0, it], np.int64)
        a = G.rollout_nb(tb, src, dst, policy, np.uint64(G.key_stream_nb(sc.seed, key))).copy()
        G.rollout_nb(tb, src, dst2, policy, np.uint64(G.key_stream_nb(sc.seed, key)))
        assert (a == dst2.score).all() and dst.sc[E.GS.TURN] == dst2.sc[E.GS.TURN]
        results.add((tuple(a), int(dst.sc[E.GS.TURN])))
    assert len(results) > 1  # the key does change the stream


def test_key_streams_differ_by_key_and_from_the_game_stream():
    seed = 20261130
    keys = [np.array(k, np.int64) for k in ([0], [1], [0, 0], [0, 1], [1, 0], [0, 0, 0])]
    streams = [int(G.key_stream_nb(seed, k)) for k in keys]
    assert len(set(streams)) == len(streams)
    assert not {int(stream_state_nb(seed, d)) for d in range(4)} & set(streams)
