"""Leave-one-out importance and the verified seat compensation."""

import json
from dataclasses import replace

import pandas as pd
import pytest
from click.testing import CliRunner

from simsym.cli.main import main
from simsym.core import enums as E
from simsym.engine.compiled import run_chunk, setup_for
from simsym.model.scenario import BASE_SCENARIO, load_scenario


def test_ablate_cli_writes_a_row_per_card(tmp_path):
    r = CliRunner().invoke(main, ["ablate", str(BASE_SCENARIO), "--cards", "overindulgence",
                                  "--cards", "Plato", "--games", "400", "--jobs", "1",
                                  "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    df = pd.read_csv(tmp_path / "ablation.csv")
    assert list(df["card"]) == ["Overindulgence", "Plato"]
    # Removing the strongest wine card lowers the mean score, beyond noise.
    o = df.iloc[0]
    assert o["mean_score_hi"] < 0
    assert (tmp_path / "ablation.png").exists()
    # ablation_long.csv: a row per card and metric, in the metric's unit
    long = pd.read_csv(tmp_path / "ablation_long.csv")
    assert len(long) == 2 * 3 and set(long["unit"]) == {"points", "turns", "pp"}
    gap = long[(long["card"] == "Plato") & (long["metric"] == "seat gap")].iloc[0]
    plato = df.iloc[1]
    assert gap["change"] == pytest.approx(100 * plato["seat_gap_change"])
    assert gap["without_card"] - gap["with_card"] == pytest.approx(gap["change"])
    assert gap["lo"] <= gap["change"] <= gap["hi"]
    md = (tmp_path / "ablation.md").read_text()
    assert ("| card | mean score change (points) | game length change (turns) | "
            "seat gap change (pp) |") in md
    t = plato
    assert (f"| Plato | {t['mean_score_change']:+.2f} ({t['mean_score_lo']:+.2f} to "
            f"{t['mean_score_hi']:+.2f}) | {t['mean_turns_change']:+.2f} "
            f"({t['mean_turns_lo']:+.2f} to {t['mean_turns_hi']:+.2f}) |") in md
    r = CliRunner().invoke(main, ["ablate", str(BASE_SCENARIO), "--cards", "Platoo"])
    assert r.exit_code == 2 and "Plato" in r.output


def test_compensation_only_shifts_scores():
    """seat_compensation changes starting points, never the play: the same games, shifted."""
    sc = load_scenario(BASE_SCENARIO).judge("fast")
    comp = replace(sc, rules=replace(sc.rules, seat_compensation=(0, 2, 6, 8)))
    a, _ = run_chunk(setup_for(sc), 0, 30)
    b, _ = run_chunk(setup_for(comp), 0, 30)
    F = E.ROW.FIXED  # (the fixed part's game-quality fields follow the scores: not compared)
    assert (b[:, F:F + 4] - a[:, F:F + 4] == [0, 2, 6, 8]).all()
    assert (b[:, F + 4:] == a[:, F + 4:]).all()
    assert (b[:, :E.ROW.RUN1] == a[:, :E.ROW.RUN1]).all()  # deal, turns, stalled, trades
    assert (b[:, [E.ROW.RUN1, E.ROW.RUN2]] == a[:, [E.ROW.RUN1, E.ROW.RUN2]]).all()


def test_run_verifies_the_suggested_compensation(tmp_path):
    r = CliRunner().invoke(main, ["run", str(BASE_SCENARIO), "--games", "1500", "--jobs", "1",
                                  "--out", str(tmp_path), "-q", "--verify-compensation"])
    assert r.exit_code == 0, r.output
    chk = json.loads((tmp_path / "compensation.json").read_text())
    assert chk["suggested"][0] == 0 and chk["suggested"] == sorted(chk["suggested"])
    assert chk["gap_after"] < chk["gap_before"]
    report = (tmp_path / "report.md").read_text()
    assert "## Seats with the suggested compensation" in report
