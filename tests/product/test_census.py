"""The Symposia census: every play of the first games, broken down."""

from simsym.analysis.census import census, census_findings
from simsym.core import enums as E
from simsym.engine.compiled import play_logged, setup_for
from simsym.model.scenario import BASE_SCENARIO, load_scenario


def test_census_counts_every_symposion_of_the_logs():
    sc = load_scenario(BASE_SCENARIO).judge("fast")
    c = census(sc, 25)
    setup = setup_for(sc)
    scores = [e for g in range(25) for e in play_logged(setup, g)[0].tolist()
              if e[0] == E.EV.SCORE]
    assert c["symposia"] == len(scores)
    assert sum(v["plays"] for v in c["by_type"].values()) == len(scores)
    mean = sum(v["plays"] * v["mean_score"] for v in c["by_type"].values() if v["plays"])
    assert round(mean) == sum(e[2] for e in scores)
    assert 0 <= c["social_wine_only_bonus"] <= c["social_with_bonus"]


def test_census_findings_call_out_wine_only_bonus_and_unplayed_types():
    c = {"symposia": 1000, "social_wine_only_bonus": 80, "wine_only_bonus_share_of_social": 0.1,
         "by_type": {"intellectual": {"plays": 5, "share": 0.005},
                     "social": {"plays": 800, "share": 0.8},
                     "hedonistic": {"plays": 195, "share": 0.195}}}
    found = census_findings(c)
    assert any("wine only" in f and "10.0%" in f for f in found)
    assert any("intellectual" in f for f in found)
    c["wine_only_bonus_share_of_social"] = 0.01
    c["by_type"]["intellectual"]["share"] = 0.2
    assert census_findings(c) == []
