"""The notebook API returns the report's tables as DataFrames."""

from simsym import api
from simsym.model.scenario import BASE_SCENARIO


def test_run_and_load(tmp_path):
    res = api.run(BASE_SCENARIO, games=300, seed=2, out=tmp_path, hand_size=10)
    assert res.summary["rules"]["hand_size"] == 10
    assert list(res.seats["seat"]) == [0, 1, 2, 3]
    assert len(res.cards) == 75 and {"iwd", "gih_wr", "play_rate"} <= set(res.cards.columns)
    assert res.cards_by_strategy is None
    again = api.load(tmp_path)
    assert again.summary == res.summary
    assert res.report().exists()
    assert len(res.compensation) == 4
