"""The notebook API returns the report's tables as DataFrames."""

import gc

import pytest

from simsym import api
from simsym.errors import InputError, SimsymError
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
    # pp by default, as the reports say it: a win share of 25.0, not 0.25
    frac = api.load(tmp_path, units="fraction")
    assert res.seats["win_rate"].tolist() == pytest.approx(
        (100 * frac.seats["win_rate"]).tolist())
    assert res.cards["strength"].tolist() == pytest.approx(
        (100 * frac.cards["strength"]).tolist(), nan_ok=True)
    assert res.seats["win_rate"].sum() == pytest.approx(100, abs=0.01)
    assert res.balanced == res.balance.answer in ("yes", "no", "not decided")
    with pytest.raises(SimsymError, match="units 'percent': allowed: pp, fraction"):
        api.load(tmp_path, units="percent")


def test_scenario_from_a_file_with_overrides_and_from_a_mapping(tmp_path):
    base = api.scenario()  # the game as written
    assert base.name == "base" and base.cards.lookup("Plato") is not None
    nerf = api.scenario(base, cards={"Plato": "4I; IO", "Krater": {"copies": 2}},
                        rules={"hand_size": 10}, games=500)
    plato = nerf.cards[nerf.cards.lookup("Plato")]
    krater = nerf.cards[nerf.cards.lookup("Krater")]
    assert (plato.text, krater.copies, nerf.rules.hand_size, nerf.games) == \
        ("4I; IO", 2, 10, 500)
    assert nerf.name == "base-variant"
    assert api.scenario(base, games=7).name == "base"  # only how much to play changed
    # a mapping, its relative paths against base_dir, as a scenario file would read them
    (tmp_path / "mine.yaml").write_text("extends: simsym:base\nplayers: 3\n")
    m = api.scenario({"extends": "mine.yaml", "rules": {"hand_size": 9}}, base_dir=tmp_path)
    assert (m.players, m.rules.hand_size, m.name) == (3, 9, "scenario")


def test_a_bad_mapping_names_the_key_and_what_is_allowed():
    with pytest.raises(InputError) as e:
        api.scenario({"extends": "simsym:base", "rules": {"hand_sise": 9}, "players": 9})
    text = str(e.value)
    assert "<scenario mapping>: rules.hand_sise: unknown rule option 'hand_sise'" in text
    assert "did you mean 'hand_size'" in text
    assert "<scenario mapping>: players: expected a whole number from 2 to 6, found 9" in text
    with pytest.raises(InputError, match="cards.overrides.Platoo: unknown card 'Platoo'; "
                                         "closest: Plato"):
        api.scenario("simsym:base", cards={"Platoo": "4I"})


def test_a_temporary_run_is_removed_when_its_result_is_dropped():
    res = api.run(api.scenario(games=200, seed=4), save_games=True)
    folder = res.run_dir
    assert folder.is_dir() and res.temporary
    assert len(res.games()) == 200 and len(res.games(long=True)) == 800
    html = res._repr_html_()
    assert "base: 200 games, seed 4" in html and "win share %" in html
    del res
    gc.collect()
    assert not folder.exists()


def test_compare_says_what_changed_and_lists_that_card_first(tmp_path):
    base = api.scenario(games=400)
    c = api.compare(base, api.scenario(base, cards={"Plato": "4I; IO"}), seed=3)
    assert c.changes == ["Plato: 5I; IO → 4I; IO"]
    assert c.cards["name"].iloc[0] == "Plato" and c.cards["metric"].iloc[0] == "strength"
    assert c.comparison.games == 400 and c.comparison.seed == 3
    assert c.verdict[0].startswith("Seat gap (best minus worst seat's win share): A ")
    assert c.verdict[1].startswith("Plato (changed by B): strength ")
    # shares and differences in pp by default, as the reports say them; fractions on request
    f = api.CompareResult(c.comparison, "fraction")
    pp, fr = c.cards.set_index(["metric", "name"]), f.cards.set_index(["metric", "name"])
    assert pp.loc[("strength", "Plato"), "diff"] == pytest.approx(
        100 * fr.loc[("strength", "Plato"), "diff"])
    assert pp.loc[("strength", "Plato"), "unit"] == "pp"
    assert fr.loc[("strength", "Plato"), "unit"] == "fraction"
    seats = c.seats.set_index(["metric", "name"])
    assert seats.loc[("mean_score", "seat 0"), "unit"] == "points"
    assert seats.loc[("mean_score", "seat 0"), "diff"] == pytest.approx(
        f.seats.set_index(["metric", "name"]).loc[("mean_score", "seat 0"), "diff"])
    assert c.balanced["a"].answer in ("yes", "no", "not decided")
    html = c._repr_html_()
    assert "<li>Plato: 5I; IO → 4I; IO</li>" in html and "Holm p" in html
    md = c.report(tmp_path).read_text()
    assert "## What changed (B against A)" in md and "- Plato: `5I; IO` → `4I; IO`" in md
    # whether the change holds for better players: the same rows as --json's, in units
    better = c.for_better_players.set_index("name")
    gap = c.gap.iloc[0]
    assert better.loc["seat gap", "newest"] == pytest.approx(gap["diff"], abs=1e-3)
    assert bool(better.loc["seat gap", "real_newest"]) == bool(gap["real"])
    assert better.loc["Plato", "unit"] == "pp" and better.loc["turns", "unit"] == "turns"
    fb = f.for_better_players.set_index("name")
    assert fb.loc["Plato", "move"] == pytest.approx(better.loc["Plato", "move"] / 100)
    assert fb.loc["turns", "move"] == better.loc["turns", "move"]
    assert (better["stopped"] == (better["holds"] & ~better["real"])).all()
    fast = api.compare(base, api.scenario(base, cards={"Plato": "4I; IO"}), seed=3,
                       judge="fast", both_judges=False)
    assert fast.for_better_players is None  # greedy has no generations


def test_sweep_returns_the_wide_and_the_long_table(tmp_path):
    s = api.sweep(api.scenario(games=300), card="Plato", values=["4I; IO", "5I; IO"], seed=2)
    assert list(s.table["value"]) == ["4I; IO", "5I; IO"]
    gap = s.long[s.long["metric"] == "seat gap"]
    assert list(gap["unit"]) == ["pp", "pp"]
    assert gap["estimate"].tolist() == pytest.approx((100 * s.table["seat_gap"]).tolist())
    assert (gap["lo"] <= gap["estimate"]).all() and (gap["estimate"] <= gap["hi"]).all()
    assert "seat gap (pp)" in s._repr_html_()
    assert s.report(tmp_path).name == "sweep.md" and (tmp_path / "sweep_long.csv").exists()
