"""Golden logs: the full move-by-move log of a few fixed-seed games, from both engines.

A change to the rules or the strategies shows up here as a readable diff. When the change
is intended, regenerate with `make golden` and commit the new logs with it."""

import re
from pathlib import Path

import pytest

from simsym.cli.log import game_log
from simsym.reference.game import play_game, render_events
from simsym.model.scenario import REPO_ROOT, load_scenario
from simsym.engine.search import Searcher

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))


def spec(path):
    m = re.fullmatch(r"(.+)-game(\d+)", path.stem)
    return load_scenario(REPO_ROOT / "scenarios" / f"{m[1]}.yaml").judge("fast"), int(m[2])


def test_there_are_golden_logs():
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_numba_engine_matches_golden_log(path):
    scenario, g = spec(path)
    assert game_log(scenario, g, "numba") == path.read_text()


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_reference_engine_matches_golden_log(path):
    scenario, g = spec(path)
    s = Searcher(scenario.cards, scenario.rules)

    def oracle(hand, types, required=()):
        p = s.best(list(hand), types=types, required=required)
        return p.score, p.type, tuple(sorted(scenario.cards.index(n) for n in p.cards))

    rec = play_game(scenario, g, search=oracle)
    body = path.read_text().split("\n", 1)[1]
    assert render_events(rec.events, scenario) + "\n" == body
