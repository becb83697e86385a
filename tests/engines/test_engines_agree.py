"""The numba engine and the plain-Python reference play the same games, event for event.

Thousands of seeded games over eight scenario variants (strategy families, seatings, player
counts, trading options, compensation). For speed the reference is given the compiled
best-Symposion search as its oracle (the search itself is proven against the brute force in
test_search_property.py); a few games also run the pure brute-force path end to end."""

from dataclasses import replace

import numpy as np
import pytest

from simsym.core import enums as E
from simsym.engine.compiled import play_logged, setup_for
from simsym.reference.game import play_game
from simsym.run.executor import run_games
from simsym.run.reference import record_row
from simsym.run.summary import build_summary
from simsym.engine.search import Searcher
from test_game_engine import VARIANTS


def compiled_oracle(scenario):
    s = Searcher(scenario.cards, scenario.rules)

    def oracle(hand, types, required=()):
        p = s.best(list(hand), types=types, required=required)
        return p.score, p.type, tuple(sorted(scenario.cards.index(n) for n in p.cards))

    return oracle


def agree(name, games):
    sc = VARIANTS[name]
    setup = setup_for(sc)
    oracle = compiled_oracle(sc)
    for g in games:
        rec = play_game(sc, g, search=oracle)
        events, row, cs = play_logged(setup, g)
        ref = np.array(rec.events, np.int64).reshape(-1, 5)
        assert ref.shape == events.shape and (ref == events).all(), f"{name} game {g}"
        assert (rec.card_stats == cs).all(), f"{name} game {g} card stats"
        P = sc.players
        assert list(row[E.ROW.FIXED:E.ROW.FIXED + P]) == rec.scores
        # the whole row, the game-quality fields (docs/game-engine.md section 8) included
        want = record_row(rec, P)
        assert (row == want).all(), (name, g, quality_diff(row, want))


def quality_diff(row, want):
    """The fields of the fixed part of two rows that differ, by name."""
    return {f: (int(row[getattr(E.ROW, f)]), int(want[getattr(E.ROW, f)]))
            for f in E.ROW._fields[:-2] if row[getattr(E.ROW, f)] != want[getattr(E.ROW, f)]}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_engines_agree(name):
    agree(name, range(40))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_engines_agree_on_thousands_of_games(name):
    agree(name, range(40, 340))


@pytest.mark.slow
def test_pure_reference_engine_gives_the_same_summary():
    """--engine python with the brute-force search, on a few games, end to end."""
    sc = replace(VARIANTS["mixed-random"], players=3, strategies=VARIANTS["mixed-random"]
                 .strategies[:3])
    a = run_games(sc, 3, 11, engine="numba")
    b = run_games(sc, 3, 11, engine="python")
    assert build_summary(sc, a[0], 3, 11) == build_summary(sc, b[0], 3, 11)
    assert (a[1] == b[1]).all()
