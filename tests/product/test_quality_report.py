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


def test_the_measures_are_named_once(judged_run):
    from simsym.analysis.quality import MEASURES

    q = ss.load(judged_run, units="fraction").quality
    assert list(zip(q["measure"], q["unit"]))[:len(MEASURES)] == MEASURES


def test_compare_judges_every_measure_by_the_one_rule(tmp_path):
    """A fourth run through the deck makes games longer: `compare` calls the change of turns
    real, paired on the same deals, in the same family as the seats and cards (1 seat gap +
    4 seats + 75 cards + 10 measures), and --json gives each measure in its unit."""
    import json

    from simsym.analysis.quality import MEASURES

    longer = tmp_path / "longer.yaml"
    longer.write_text("extends: simsym:base\nname: longer\nrules: {deck_runs: 4}\n")
    out = tmp_path / "cmp"
    r = CliRunner().invoke(main, ["compare", "scenarios/base.yaml", str(longer), "--games",
                                  "800", "--out", str(out), "--json", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    assert doc["tested"] == 1 + 4 + 75 + len(MEASURES)
    q = {row["name"]: row for row in doc["quality"]}
    assert [(n, row["unit"].replace("% of", "share of")) for n, row in q.items()] == MEASURES
    turns = q["turns"]
    assert turns["diff"] == pytest.approx(turns["B"] - turns["A"], abs=1e-5)
    assert turns["lo"] > 0 and turns["real"]  # four runs through the deck last longer
    shared = q["shared win"]
    assert shared["unit"] == "% of games" and 0 <= shared["A"] <= 100
    md = (out / "compare.md").read_text()
    assert "- **How the game plays:** turns " in md and "(real changes)" in md
    assert "| turns ** | " in md


def test_a_sweep_over_player_counts_says_how_each_count_plays(tmp_path):
    """sweep.md's "How the game plays per value": the four-player value is the base game's
    strong table on the same seed and games, so its estimates are that run's."""
    from simsym.analysis.quality import quality_frame

    out = tmp_path / "sweep"
    r = CliRunner().invoke(main, ["sweep", "scenarios/base.yaml", "--players", "3",
                                  "--players", "4", "--games", "300", "--out", str(out), "-q",
                                  "--jobs", "1"])
    assert r.exit_code == 0, r.output
    md = (out / "sweep.md").read_text()
    section = md.split("## How the game plays per value")[1].split("\n## ")[0]
    assert [line.split(" | ")[0] for line in section.splitlines()
            if line.startswith(("| 3 ", "| 4 "))] == ["| 3", "| 4"]
    run = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "scenarios/base.yaml", "--judge", "strong", "--games",
                                  "300", "--out", str(run), "-q", "--no-report", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    import json

    q = quality_frame(json.loads((run / "summary.json").read_text())["quality"])
    sweep = pd.read_csv(out / "sweep.csv").set_index("value")
    lead = q[q["measure"] == "lead changes"].iloc[0]
    assert sweep.loc[4, "q_lead_changes"] == pytest.approx(lead["estimate"])
    shared = q[q["measure"] == "shared win"].iloc[0]
    assert sweep.loc[4, "q_shared_win"] == pytest.approx(shared["estimate"])
    long = pd.read_csv(out / "sweep_long.csv")
    row = long[(long["players"] == 4) & (long["metric"] == "shared win")].iloc[0]
    assert row["unit"] == "%" and row["estimate"] == pytest.approx(100 * shared["estimate"])


def test_the_verified_compensation_shows_what_it_does_to_how_the_game_plays(tmp_path):
    """With --verify-compensation each table gets a column for its verified compensation,
    the numbers of those fresh deals (compensation.json's quality_after); judges.json keeps
    the seats alone."""
    import json

    from simsym.analysis.quality import quality_frame

    out = tmp_path / "base"
    r = CliRunner().invoke(main, ["run", "scenarios/base.yaml", "--games", "300", "--out",
                                  str(out), "-q", "--jobs", "1", "--verify-compensation"])
    assert r.exit_code == 0, r.output
    section = (out / "report.md").read_text().split("## How the game plays")[1]
    header = next(line for line in section.splitlines() if line.startswith("| measure"))
    for d, label in ((out, "strong table (learned)"), (out / "fast", "fast table (greedy)")):
        check = json.loads((d / "compensation.json").read_text())
        assert f"| {label} with {check['suggested']} (fresh deals) |" in header + " |"
        q = quality_frame(check["quality_after"]).set_index("measure")
        assert check["quality_after"]["games"] == 300
        cells = next(line for line in section.splitlines() if line.startswith("| turns |"))
        m = q.loc["turns"]
        assert f"{m['estimate']:.2f} ({m['low']:.2f} to {m['high']:.2f})" in cells
    assert "quality_after" not in (out / "judges.json").read_text()
