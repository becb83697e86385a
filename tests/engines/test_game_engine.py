"""The numba game engine: invariants on every turn, determinism, seating, chunking."""

from dataclasses import replace

import numpy as np
import pytest

from replay import replay
from simsym.core import enums as E
from simsym.engine.compiled import logged_games, play_logged, run_chunk, setup_for
from simsym.run.executor import run_games
from simsym.model.scenario import BASE_SCENARIO, load_scenario
from simsym.engine.search import Searcher
from simsym.model.strategies import make_strategy


def scenario_with(**kw):
    base = load_scenario(BASE_SCENARIO).judge("fast")  # the greedy table
    rules = kw.pop("rules", None)
    if rules:
        kw["rules"] = replace(base.rules, **rules)
    return replace(base, **kw)


MIXED = [make_strategy("greedy"), make_strategy({"family": "patient", "threshold": 12}),
         make_strategy({"family": "specialist", "favours": "hedonistic"}),
         make_strategy("random")]

VARIANTS = {
    "base": scenario_with(),
    "mixed-rotate": scenario_with(strategies=MIXED, seating="rotate"),
    "mixed-random": scenario_with(strategies=MIXED, seating="random"),
    "two-players-uneven": scenario_with(players=2, rules=dict(uneven_trades=True,
                                                              max_trades_per_turn=3)),
    "six-no-trading": scenario_with(players=6, rules=dict(trading=False, hand_size=8,
                                                          komos_limit=7)),
    "others-trade": scenario_with(strategies=[make_strategy({"family": "greedy",
                                                             "trade_inactive": True})]),
    "specialists": scenario_with(players=3, seating="rotate", strategies=[
        make_strategy({"family": "specialist", "favours": t, "fallback": False})
        for t in ("intellectual", "social", "hedonistic")]),
    "compensation": scenario_with(rules=dict(seat_compensation=(0, 2, 4, 6), deck_runs=2)),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_invariants_on_every_turn(name):
    sc = VARIANTS[name]
    setup = setup_for(sc)
    searcher = Searcher(sc.cards, sc.rules)
    comp = list(sc.rules.seat_compensation) or None
    for g in range(40):
        events, row, cs = play_logged(setup, g)
        scores = replay(events, sc, searcher, comp)
        P = sc.players
        assert list(row[E.ROW.FIXED:E.ROW.FIXED + P]) == scores
        assert row[E.ROW.TURNS] == events[-1][2]
        # Per-card counts agree with the log.
        played = sum(1 for e in events if e[0] in (E.EV.PLAYCARD, E.EV.JOIN))
        assert cs[:, :, E.CS.PLAYED].sum() == played
        opening = sum(1 for e in events if e[0] == E.EV.DRAW and e[3] == 0)
        assert cs[:, :, E.CS.OPENING].sum() == opening == P * sc.rules.hand_size


def test_every_game_ends_or_is_counted_stalled():
    sc = scenario_with(rules=dict(turn_cap=12))
    rows, _ = run_chunk(setup_for(sc), 0, 50)
    assert (rows[:, E.ROW.STALLED] == 1).all() and (rows[:, E.ROW.TURNS] == 12).all()
    rows, _ = run_chunk(setup_for(VARIANTS["base"]), 0, 200)
    assert rows[:, E.ROW.STALLED].sum() == 0


def test_game_depends_on_seed_and_index_only():
    setup = setup_for(VARIANTS["mixed-random"])
    ev1, row1, _ = play_logged(setup, 17)
    np.random.seed(0)  # hidden global state must not feed the game
    import random

    random.random()
    run_chunk(setup, 0, 5)
    ev2, row2, _ = play_logged(setup, 17)
    assert (ev1 == ev2).all() and (row1 == row2).all()
    ev3, _, _ = play_logged(setup_for(replace(VARIANTS["mixed-random"], seed=99)), 17)
    assert ev3.shape != ev1.shape or (ev3 != ev1).any()


def test_chunking_and_processes_do_not_change_totals():
    sc = VARIANTS["mixed-rotate"]
    a_tot, a_agg = run_games(sc, 240, 5, jobs=1, chunk_size=240)
    b_tot, b_agg = run_games(sc, 240, 5, jobs=1, chunk_size=7)
    c_tot, c_agg = run_games(sc, 240, 5, jobs=2, chunk_size=31)
    for k in a_tot:
        assert (a_tot[k] == b_tot[k]).all() and (a_tot[k] == c_tot[k]).all(), k
    assert (a_agg == b_agg).all() and (a_agg == c_agg).all()


def test_rotate_replays_each_deal_with_strategies_rotated():
    sc = VARIANTS["mixed-rotate"]
    setup = setup_for(sc)
    rows, _ = run_chunk(setup, 0, 8)
    P = sc.players
    strat = rows[:, E.ROW.FIXED + P:E.ROW.FIXED + 2 * P]
    assert list(rows[:, E.ROW.DEAL]) == [0, 0, 0, 0, 1, 1, 1, 1]
    for r in range(P):
        assert list(strat[r]) == [(i + r) % P for i in range(P)]
    # The same deal: the same opening hands in every rotation.
    openings = []
    for g in range(4):
        ev, _, _ = play_logged(setup, g)
        openings.append([tuple(e) for e in ev if e[0] == E.EV.DRAW and e[3] == 0])
    assert all(o == openings[0] for o in openings)


LOOKAHEAD_SEAT = scenario_with(strategies=[
    make_strategy({"family": "lookahead", "iterations": 2}), make_strategy("greedy")],
    seating="rotate")


@pytest.mark.parametrize("name", ["mixed-random", "two-players-uneven", "compensation",
                                  "lookahead"])
def test_games_logged_one_after_the_other_are_the_games_logged_alone(name):
    # logged_games reuses one state for every game: nothing of a game may leak into the next.
    setup = setup_for(LOOKAHEAD_SEAT if name == "lookahead" else VARIANTS[name])
    g1 = 9 if name == "lookahead" else 25
    together = list(logged_games(setup, 5, g1))
    assert len(together) == g1 - 5
    for g, (ev, row, cs) in zip(range(5, g1), together):
        ev1, row1, cs1 = play_logged(setup, g)
        assert np.array_equal(ev, ev1) and np.array_equal(row, row1) and np.array_equal(cs, cs1)


def test_random_seating_is_a_permutation_and_varies():
    setup = setup_for(VARIANTS["mixed-random"])
    rows, _ = run_chunk(setup, 0, 60)
    strat = rows[:, E.ROW.FIXED + 4:E.ROW.FIXED + 8]
    assert all(sorted(r) == [0, 1, 2, 3] for r in strat)
    assert len({tuple(r) for r in strat}) > 5


def test_ties_share_the_win():
    from simsym.run.aggregate import win_units

    u = win_units(np.array([[10, 10, 3, 10], [5, 1, 1, 1], [2, 2, 2, 2]]))
    assert u.tolist() == [[20, 20, 0, 20], [60, 0, 0, 0], [15, 15, 15, 15]]


@pytest.mark.parametrize("n", [0, 1, 2, 9, 30, 300])
def test_discard_order_is_keep_ascending_then_kind_descending(n):
    """docs 6.1's discard order, by hand: positions sorted by keep value (lowest first), then
    by kind (highest first), copies of one kind in hand order; 300 cards take the unpacked
    path."""
    from simsym.core.game_nb import _discard_order
    rng = np.random.default_rng(n)
    keep = rng.integers(-3, 1200, 40)
    keep[5] = keep[6] = keep[7]  # ties on keep, broken by kind
    kinds = rng.integers(0, 40, n).astype(np.int64)
    order = np.full(n + 1, -7, np.int64)
    _discard_order(kinds, n, keep, order)
    want = sorted(range(n), key=lambda q: (keep[kinds[q]], -kinds[q], q))
    assert order[:n].tolist() == want
    assert order[n] == -7
    four = np.zeros(4, np.int64)
    _discard_order(np.array([5, 7, 6, 7], np.int64), 4, keep, four)
    assert four.tolist() == [1, 3, 2, 0]  # keep ties: kind 7 (two copies), 6, then 5
