"""The balance report: card metrics, seat statistics and the compensation worked out by hand on
tiny hand-made tables; intervals against statsmodels; a report built from a small real run."""

import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from simsym.analysis import (card_strength, compensation, degenerate_findings, load_run,
                             seat_equality_test, seat_table)
from simsym.analysis.cards import card_averages, pooled_counts
from simsym.analysis.stats import chi_square_equal, marker, newcombe_diff, wilson
from simsym.cli.main import SimsymGroup
from simsym.cli.report import report
from simsym.errors import SimsymError
from simsym.report import build_report
from simsym.run.job import run_scenario
from simsym.model.scenario import BASE_SCENARIO, REPO_ROOT, load_scenario

HEADER = ("strategy,card,category,player_games,player_wins,opening_n,opening_wins,drawn_n,"
          "drawn_wins,held_n,held_wins,played,played_n,points_when_played,at_end,discarded,"
          "received_by_trade,held_unplayed_n\n")

# One strategy, 2 players, 10 player-games, 5 wins. Card A: dealt in 4 opening hands (3 wins),
# drawn later in 2 (1 win), held in 6 (4 wins); played 5 times in 4 player-games for 60
# points; held but never played in 2. Card B: opening 2 (a tie: 0.5 wins), drawn 3 (1 win),
# held 6 (one only by trade; 2 wins); played 3 times in 3 player-games for 30 points; dead in 3.
ONE = HEADER + (
    "s,A,wine,10,5.0,4,3.0,2,1.0,6,4.0,5,4,60,1,1,0,2\n"
    "s,B,hedonistic,10,5.0,2,0.5,3,1.0,6,2.0,3,3,30,2,0,1,3\n")

# A second strategy t (4 player-games, 1 win) for pooling.
TWO = ONE + (
    "t,A,wine,4,1.0,1,1.0,1,0.0,2,1.0,2,2,20,0,0,0,0\n"
    "t,B,hedonistic,4,1.0,0,0.0,0,0.0,0,0.0,0,0,0,0,0,0,0\n")


def table(text):
    return pd.read_csv(io.StringIO(text))


def row(df, card, strategy=None):
    sel = df["card"] == card
    if strategy is not None:
        sel &= df["strategy"] == strategy
    (i,) = np.flatnonzero(sel.to_numpy())
    return df.iloc[i]


# --- cards: worked by hand ------------------------------------------------------------------

def test_card_metrics_by_hand():
    t = card_strength(table(ONE), players=2)
    a, b = row(t, "A"), row(t, "B")
    assert a["oh_wr"] == pytest.approx(3 / 4)
    assert a["gd_wr"] == pytest.approx(1 / 2)
    assert a["gih_wr"] == pytest.approx(4 / 6)
    assert a["gns_wr"] == pytest.approx((5 - 4) / (10 - 6))  # 1/4
    assert a["iwd"] == pytest.approx(4 / 6 - 1 / 4)  # +5/12
    assert a["play_rate"] == pytest.approx(4 / 6)
    assert a["dead_rate"] == pytest.approx(2 / 6)
    assert a["mean_points"] == pytest.approx(60 / 5)
    assert a["gih_wr_fs"] == pytest.approx((4 / 6) / (1 / 2))
    assert b["oh_wr"] == pytest.approx(0.5 / 2)
    assert b["gd_wr"] == pytest.approx(1 / 3)
    assert b["gih_wr"] == pytest.approx(2 / 6)
    assert b["gns_wr"] == pytest.approx((5 - 2) / (10 - 6))  # 3/4
    assert b["iwd"] == pytest.approx(2 / 6 - 3 / 4)  # -5/12
    assert b["play_rate"] == pytest.approx(3 / 6)
    assert b["dead_rate"] == pytest.approx(3 / 6)
    assert b["mean_points"] == pytest.approx(30 / 3)
    assert b["oh_wr_fs"] == pytest.approx(0.25 * 2)
    assert list(t["card"]) == ["A", "B"]  # ranked by IWD, highest first


def test_card_averages_by_hand():
    avg = card_averages(table(ONE)).loc["s"]
    assert avg["oh_wr"] == pytest.approx((3 + 0.5) / (4 + 2))
    assert avg["gd_wr"] == pytest.approx((1 + 1) / (2 + 3))
    assert avg["gih_wr"] == pytest.approx((4 + 2) / (6 + 6))
    assert avg["gns_wr"] == pytest.approx((1 + 3) / (4 + 4))
    assert avg["play_rate"] == pytest.approx((4 + 3) / 12)
    assert avg["dead_rate"] == pytest.approx((2 + 3) / 12)
    assert avg["iwd"] == pytest.approx((5 / 12 - 5 / 12) / 2)  # mean of the cards' IWDs: 0
    assert avg["mean_points"] == pytest.approx(90 / 8)


def test_card_intervals_are_statsmodels_wilson_and_newcombe():
    t = card_strength(table(ONE), players=2)
    a = row(t, "A")
    for name, s, n in (("oh_wr", 3, 4), ("gd_wr", 1, 2), ("gih_wr", 4, 6), ("gns_wr", 1, 4),
                       ("play_rate", 4, 6), ("dead_rate", 2, 6)):
        lo, hi = proportion_confint(s, n, alpha=0.05, method="wilson")
        assert (a[f"{name}_lo"], a[f"{name}_hi"]) == pytest.approx((lo, hi)), name
    lo, hi = confint_proportions_2indep(4, 6, 1, 4, method="newcomb", compare="diff")
    assert (a["iwd_lo"], a["iwd_hi"]) == pytest.approx((lo, hi))
    # fractional wins (shared ties) too
    b = row(t, "B")
    lo, hi = proportion_confint(0.5, 2, alpha=0.05, method="wilson")
    assert (b["oh_wr_lo"], b["oh_wr_hi"]) == pytest.approx((lo, hi))


def test_newcombe_by_its_formula():
    d, lo, hi = newcombe_diff(30, 60, 10, 40)
    l1, u1 = proportion_confint(30, 60, method="wilson")
    l2, u2 = proportion_confint(10, 40, method="wilson")
    assert d == pytest.approx(0.25)
    assert lo == pytest.approx(0.25 - math.sqrt((0.5 - l1) ** 2 + (u2 - 0.25) ** 2))
    assert hi == pytest.approx(0.25 + math.sqrt((u1 - 0.5) ** 2 + (0.25 - l2) ** 2))
    lo, hi = wilson([3, 0], [4, 0])  # no trials: no interval
    assert lo[0] == pytest.approx(proportion_confint(3, 4, method="wilson")[0])
    assert math.isnan(lo[1]) and math.isnan(hi[1])


def test_markers_against_the_average():
    assert list(marker([0.3, 0.1, 0.1], [0.4, 0.2, 0.3], 0.25)) == ["+", "-", ""]
    # A: GIH 4/6, Wilson (0.300, 0.903) holds the average 0.5: no marker
    t = card_strength(table(ONE), players=2)
    assert row(t, "A")["gih_wr_mark"] == ""


def test_marker_when_interval_excludes_average():
    # 1,000 player-games; X held 500 times with 300 wins, Y 500 times with 200 wins
    text = HEADER + ("s,X,wine,1000,500.0,0,0.0,0,0.0,500,300.0,500,500,5000,0,0,0,0\n"
                     "s,Y,wine,1000,500.0,0,0.0,0,0.0,500,200.0,100,100,1000,0,0,0,400\n")
    t = card_strength(table(text), players=2)
    x, y = row(t, "X"), row(t, "Y")
    assert (x["gih_wr_mark"], y["gih_wr_mark"]) == ("+", "-")  # average 500/1000 = 0.5
    assert (x["iwd_mark"], y["iwd_mark"]) == ("+", "-")  # IWD +0.4 and -0.4, average 0
    assert (x["dead_rate_mark"], y["dead_rate_mark"]) == ("-", "+")  # 0 and 0.8, avg 0.4
    assert math.isnan(x["oh_wr"]) and x["oh_wr_mark"] == ""  # never in an opening hand


def test_pooled_over_strategies_by_hand():
    df = table(TWO)
    pooled = pooled_counts(df)
    a = row(pooled, "A")
    assert a["player_games"] == 14 and a["player_wins"] == pytest.approx(6)
    assert a["held_n"] == 8 and a["held_wins"] == pytest.approx(5)
    t = card_strength(df, players=2)
    a, b = row(t, "A"), row(t, "B")
    assert set(t["strategy"]) == {"all"}
    assert a["oh_wr"] == pytest.approx(4 / 5)
    assert a["gih_wr"] == pytest.approx(5 / 8)
    assert a["gns_wr"] == pytest.approx((6 - 5) / (14 - 8))
    assert a["mean_points"] == pytest.approx(80 / 7)
    assert b["gns_wr"] == pytest.approx((6 - 2) / (14 - 6))
    per = card_strength(df, players=2, by_strategy=True)
    assert len(per) == 4 and list(per["strategy"]) == ["s", "s", "t", "t"]
    tb = row(per, "B", "t")
    assert math.isnan(tb["gih_wr"]) and tb["gns_wr"] == pytest.approx(1 / 4)
    assert math.isnan(tb["iwd"])  # never held: no IWD, ranked last within its strategy


# --- seats ----------------------------------------------------------------------------------

def summary(wins, means, games=10, comp=(), stalled=0, points=None, strategies=None):
    P = len(wins)
    pts = points or {"intellectual": 10.0, "social": 20.0, "hedonistic": 5.0}
    seats = [{"seat": i, "strategy": "s", "games": games, "wins": w, "win_rate": w / games,
              "ci95": [0, 1], "mean_score": m, "sd_score": 1.0, "mean_margin": 0.0,
              "symposia_per_game": 1.0, "points_by_type": pts}
             for i, (w, m) in enumerate(zip(wins, means))]
    strategies = strategies or [{"strategy": "s", "player_games": games * P, "wins": games,
                                 "win_rate": 1 / P, "ci95": [0.1, 0.9], "mean_score": 1.0,
                                 "sd_score": 1.0, "mean_margin": 0.0, "symposia_per_game": 1,
                                 "points_by_type": pts}]
    return {"scenario": "hand", "games": games, "seed": 1, "players": P, "seating": "mirror",
            "stalled": stalled, "mean_turns": 20.0, "trades_per_game": 1.0,
            "fair_share": 1 / P, "seats": seats, "strategies": strategies,
            "rules": {"seat_compensation": list(comp), "turn_cap": 1000}}


def test_seat_table_against_fair_share():
    t = seat_table(summary([6, 4], [50, 48]))
    assert list(t["win_rate"]) == pytest.approx([0.6, 0.4])
    assert list(t["diff_pp"]) == pytest.approx([10.0, -10.0])
    assert list(t["wr_fs"]) == pytest.approx([1.2, 0.8])
    lo, hi = proportion_confint(6, 10, alpha=0.05, method="wilson")
    assert (t["win_rate_lo"][0], t["win_rate_hi"][0]) == pytest.approx((lo, hi))
    assert list(t["mark"]) == ["", ""]  # 10 games: within noise


def test_chi_square_by_hand():
    # wins 6 and 4 against 5 each: (1 + 1) / 5 = 0.4 on 1 df; p = erfc(sqrt(0.4 / 2))
    eq = seat_equality_test(summary([6, 4], [50, 48]))
    assert eq.statistic == pytest.approx(0.4)
    assert eq.dof == 1
    assert eq.p_value == pytest.approx(math.erfc(math.sqrt(0.2)))
    assert not eq.rejects
    # 4 seats, fractional (tied) wins: sum of (o - e)^2 / e with e = 100 / 4
    obs = [40.5, 24.5, 20.0, 15.0]
    stat, dof, p = chi_square_equal(obs)
    assert stat == pytest.approx(sum((o - 25) ** 2 / 25 for o in obs))
    assert dof == 3
    from scipy.stats import chi2
    assert p == pytest.approx(chi2.sf(stat, 3))


def test_compensation():
    assert compensation(summary([4, 3, 3], [50, 47.6, 45.4])) == [0, 2, 5]
    # the strongest seat need not be seat 0
    assert compensation(summary([3, 7], [40, 43])) == [3, 0]
    # scores already include a compensation: the suggestion adds to it
    assert compensation(summary([4, 3, 3], [50, 48, 49], comp=[0, 1, 3])) == [0, 3, 4]
    assert compensation(summary([5, 5], [50, 52], comp=[5, 0])) == [7, 0]


def test_degenerate_findings():
    pts = {"intellectual": 10.0, "social": 20.0, "hedonistic": 0.0}
    s = summary([6, 4], [50, 48], stalled=2, points=pts)
    s["strategies"][0]["wins"] = 0
    text = HEADER + ("s,Orgy,hedonistic,20,10.0,0,0.0,0,0.0,30,10.0,0,0,0,30,0,0,30\n"
                     "s,Lost,wine,20,10.0,0,0.0,0,0.0,0,0.0,0,0,0,0,0,0,0\n"
                     "s,Fine,wine,20,10.0,0,0.0,0,0.0,30,10.0,30,30,300,0,0,0,0\n")
    out = degenerate_findings(s, card_strength(table(text), players=2))
    joined = "\n".join(out)
    assert "Nobody scores Hedonistic Symposia" in joined
    assert "Strategy s never wins" in joined
    assert "Orgy is never played when held: dead in 100%" in joined
    assert "Lost is never held" in joined
    assert "Fine" not in joined
    assert "2 of 10 games stalled (reached the turn cap of 1000)" in joined
    assert degenerate_findings(summary([6, 4], [50, 48]),
                               card_strength(table(ONE), players=2)) == []


# --- a report from real runs ----------------------------------------------------------------

@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("report-base")
    run_scenario(load_scenario(BASE_SCENARIO).judge("fast"), games=300, seed=1, out=out, jobs=1)
    return out


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("report-mixed")
    scenario = load_scenario(REPO_ROOT / "scenarios" / "mixed-rotate.yaml")
    run_scenario(scenario, games=200, seed=1, out=out, jobs=1)
    return out


def links(md: str) -> list[str]:
    return re.findall(r"\]\(([^)#]+)\)", md)


@pytest.mark.parametrize("which", ["base_run", "mixed_run"])
def test_report_from_a_real_run(which, request):
    run_dir = request.getfixturevalue(which)
    path = build_report(run_dir)
    assert path == run_dir / "report.md"
    md = path.read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(images) >= 5
    for target in links(md):
        assert (run_dir / target).is_file(), target
        if target.endswith(".png"):
            assert (run_dir / target).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert md.index("## Balanced?") < md.index("## Glossary") < md.index("## Verdict") \
        < md.index("## Seats") < md.index("## Cards") < md.index("## The run")
    assert md.index("## Glossary") < md.index("\n| ")  # the glossary before the first table
    # one count of strong and weak cards: the verdict's is the card table's markers'
    m = re.search(r"(\d+) strong and (\d+) weak beyond noise, of (\d+) cards", md)
    table = md[md.index("## Cards"):md.index("## Cards") + 60_000].split("\n\n")[2]
    assert (int(m[1]), int(m[2])) == (table.count("▲"), table.count("▼"))
    answer = json.loads((run_dir / "balance.json").read_text())
    assert answer["units"] == "pp"
    assert f"**Table ({answer['tables'][0]['judge'][7:-1]}): {answer['tables'][0]['balanced']}." \
        in md
    s = json.loads((run_dir / "summary.json").read_text())
    assert "simsym report" in md and f"--seed {s['seed']}" in md and f"--games {s['games']}" in md
    assert "fair share" in md and "bias" in md.lower()
    csv = pd.read_csv(run_dir / "cards_strength.csv")
    n_cards = len(load_scenario(BASE_SCENARIO).cards)
    several = len(s["strategies"]) > 1
    assert len(csv) == n_cards * (1 + (len(s["strategies"]) if several else 0))
    assert ("## Cards per strategy" in md) == several
    assert not list(run_dir.glob(".*.tmp"))  # no temp files left behind


def test_report_is_deterministic(base_run):
    build_report(base_run)
    first = {p.name: p.read_bytes() for p in base_run.iterdir()
             if p.suffix in (".md", ".png") or p.name == "cards_strength.csv"}
    build_report(base_run)
    second = {p.name: p.read_bytes() for p in base_run.iterdir() if p.name in first}
    assert first == second
    assert "wall" not in first["report.md"].decode() and "started" not in \
        first["report.md"].decode()


def test_report_metrics_match_the_run(base_run):
    run = load_run(base_run)
    t = card_strength(run.cards, run.summary["players"])
    r = t.iloc[0]
    assert r["gih_wr"] == pytest.approx(r["held_wins"] / r["held_n"])
    seats = seat_table(run.summary)
    for seat, (_, row_) in zip(run.summary["seats"], seats.iterrows()):
        assert [row_["win_rate_lo"], row_["win_rate_hi"]] == pytest.approx(seat["ci95"],
                                                                           abs=1e-6)
    assert sum(s["wins"] for s in run.summary["seats"]) == pytest.approx(300)


# --- errors ---------------------------------------------------------------------------------

def test_cli_missing_run_dir(tmp_path):
    missing = tmp_path / "nope"
    r = CliRunner().invoke(report, [str(missing)])
    assert isinstance(r.exception, SimsymError)
    assert "no such run directory" in str(r.exception)
    # inside the simsym group the error is one line and exit code 2
    group = SimsymGroup("simsym", commands={"report": report})
    r = CliRunner().invoke(group, ["report", str(missing)], obj={})
    assert r.exit_code == 2
    assert r.output.startswith("simsym: error: ") and "nope" in r.output


def test_cli_incomplete_run_dir(tmp_path):
    (tmp_path / "cards.csv").write_text(HEADER)
    r = CliRunner().invoke(report, [str(tmp_path)])
    assert isinstance(r.exception, SimsymError)
    assert "no summary.json" in str(r.exception)
    with pytest.raises(SimsymError, match="is a file"):
        load_run(tmp_path / "cards.csv")


def test_cli_writes_the_report(base_run):
    r = CliRunner().invoke(report, [str(base_run)])
    assert r.exit_code == 0, r.output
    assert "report.md" in r.output


def test_the_game_length_overflow_bin_is_drawn_apart_and_labelled(tmp_path, monkeypatch):
    """The length histogram's last bin counts the games of that many turns or more: drawn
    apart from the turn counts, labelled "399 or more turns", its share worked by hand
    (2 of 10 games: 20%); the other bars sit at their turn counts (5 and 3 games: 50%, 30%)."""
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    from simsym.report import plots

    games = np.zeros(400, np.int64)
    games[[20, 21, 399]] = [5, 3, 2]
    lengths = pd.DataFrame({"turns": np.arange(400), "games": games})
    captured = {}
    real_save = plots.save

    def keep(fig, path):  # the figure as drawn, then saved as the report saves it
        captured["fig"] = fig
        return real_save(fig, path)

    monkeypatch.setattr(plots, "save", keep)
    plots.length_plot(lengths, "t", tmp_path / "game-length.png")
    ax = captured["fig"].axes[0]
    bars = [(round(p.get_x() + p.get_width() / 2, 3), round(p.get_height(), 6))
            for p in ax.patches]
    assert bars[:2] == [(20.0, 50.0), (21.0, 30.0)]
    assert len(bars) == 3 and bars[2][1] == 20.0 and bars[2][0] > 21 and bars[2][0] != 399
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["399 or more turns"]
    assert any(t.get_text() == "399+: 20.0%" for t in ax.texts)
    plt.close(captured["fig"])
    assert (tmp_path / "game-length.png").stat().st_size > 0
