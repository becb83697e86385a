"""How the game plays, as the designer reads it: the report's section under both judges, the
plot, and the API's tidy table, each computed again here from the run's saved games (one row
a game, its measures recorded by the engine) by the textbook formulas."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from click.testing import CliRunner

import simsym.api as ss
from simsym.cli.main import main

Z = 1.959963984540054


def _mean_ci(x: pd.Series) -> tuple[float, float, float]:
    m, sd = float(x.mean()), float(x.std(ddof=1))
    half = Z * sd / math.sqrt(len(x))
    return m, m - half, m + half


def _wilson(k: int, n: int) -> tuple[float, float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return p, centre - half, centre + half


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("quality") / "base"
    r = CliRunner().invoke(main, ["run", "scenarios/base.yaml", "--games", "400", "--out",
                                  str(out), "--save-games", "-q", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return out


def test_the_report_says_how_the_game_plays_under_both_judges(judged_run):
    md = (judged_run / "report.md").read_text()
    section = md.split("## How the game plays")[1].split("\n## ")[0]
    # after both tables' verdicts, before the strong table's details
    assert md.index("## Verdict") < md.index("## How the game plays") \
        < md.index("## The strong table (learned) in detail")
    assert "| measure | unit | strong table (learned) | fast table (greedy) |" in section
    assert "![How the game plays](quality.png)" in section
    assert (judged_run / "quality.png").stat().st_size > 10_000
    games = pd.read_parquet(judged_run / "games")
    turns = _mean_ci(games["turns"])
    assert f"| turns | turns | {turns[0]:.2f} ({turns[1]:.2f} to {turns[2]:.2f}) |" in section
    behind = games[games["run1_turn"] >= 0]
    k = int((behind["winner_deficit_run1"] > 0).sum())
    p, lo, hi = _wilson(k, len(behind))
    assert (f"| winner behind at the end of run 1 | share of games reaching it | "
            f"{100 * p:.1f}% ({100 * lo:.1f} to {100 * hi:.1f}) |") in section
    # the fast table's column is its own games' (the same deals, another table)
    fast = pd.read_parquet(judged_run / "fast" / "games")
    m = _mean_ci(fast["margin"])
    row = next(line for line in section.splitlines() if line.startswith("| winning margin"))
    assert row.endswith(f"| {m[0]:.2f} ({m[1]:.2f} to {m[2]:.2f}) |"), row


def test_the_api_gives_one_tidy_table_per_judge_with_units(judged_run):
    r = ss.load(judged_run)
    q = r.quality
    assert list(q.columns) == ["judge", "measure", "estimate", "low", "high", "unit"]
    assert list(q["judge"].unique()) == ["strong", "fast"]
    games = pd.read_parquet(judged_run / "games")
    row = q[(q["judge"] == "strong") & (q["measure"] == "lead changes")].iloc[0]
    assert row["estimate"] == pytest.approx(games["lead_changes"].mean())
    assert (row["low"], row["high"]) == pytest.approx(_mean_ci(games["lead_changes"])[1:])
    shared = q[(q["judge"] == "strong") & (q["measure"] == "shared win")].iloc[0]
    p = (games["winners"] > 1).mean()
    assert shared["estimate"] == pytest.approx(100 * p) and shared["unit"] == "% of games"
    frac = ss.load(judged_run, units="fraction").quality
    shared = frac[(frac["judge"] == "strong") & (frac["measure"] == "shared win")].iloc[0]
    assert shared["estimate"] == pytest.approx(p) and shared["unit"] == "share of games"
    # a decided fraction is the decided turn over the game's length, averaged over games
    decided = q[(q["judge"] == "fast") & (q["measure"] == "decided turn / turns")].iloc[0]
    fast = pd.read_parquet(judged_run / "fast" / "games")
    by_game = (fast["decided_turn"] * 1000 // fast["turns"].clip(lower=1)) / 1000
    assert decided["estimate"] == pytest.approx(by_game.mean())
    # the table of a single table's run is labelled "table"
    assert list(ss.load(judged_run / "fast").quality["judge"].unique()) == ["table"]
