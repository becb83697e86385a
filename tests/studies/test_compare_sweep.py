"""`simsym compare` and `simsym sweep`: paired runs on the same deals."""

import re

import numpy as np
import pytest
from click.testing import CliRunner

from simsym.cli.main import main
from simsym.studies.compare import compare, parse_fail_on
from simsym.errors import SimsymError
from simsym.studies.paired import BatchedRun, paired, seat_metric
from simsym.model.scenario import REPO_ROOT

BASE = str(REPO_ROOT / "scenarios" / "base.yaml")
NERF = str(REPO_ROOT / "scenarios" / "plato-nerf.yaml")


def test_compare_a_scenario_with_itself_finds_nothing():
    c = compare(BASE, BASE, games=400, seed=3)
    assert (c.seats["diff"] == 0).all() and not c.seats["beyond_noise"].any()
    assert not c.cards["beyond_noise"].any()
    assert c.value("card-change") == 0.0


def test_compare_sees_the_plato_nerf_on_the_same_deals():
    c = compare(BASE, NERF, games=3000, seed=5)
    gih = c.cards[c.cards["metric"] == "gih_wr"].set_index("name")
    assert gih.loc["Plato", "diff"] < 0
    # Only Plato's own text changed: most cards are unmoved within noise.
    assert gih["beyond_noise"].sum() <= 3


def test_what_changed_is_listed_exactly_and_the_changed_cards_come_first(tmp_path):
    """B against A: a card's notation and copies, a card added and one removed, a rule option
    and the table, each in one line worked out by hand from the files; compare.md opens with
    them and lists the changed cards first in its card table."""
    from simsym.studies.compare import changed_first, comparison_of
    from simsym.studies.paired import run_batched
    from simsym.model.scenario import load_scenario, scenario_changes

    variant = tmp_path / "variant.yaml"
    variant.write_text(f"""extends: {BASE}
name: variant
cards:
  overrides:
    Plato: "4I; IO"
    krater: {{copies: 3}}
  add:
    Nectar: "2W; Vintage"
  remove: [Orgy]
rules:
  hand_size: 8
  wine_social: [3, 6]
""")
    a, b = load_scenario(BASE), load_scenario(variant)
    lines, changed = scenario_changes(a.judge("fast"), b.judge("fast"))
    assert lines == ["Krater: 1 → 3 copies", "Orgy: removed (was `5H; HO, Requires 3+ WC`)",
                     "Plato: `5I; IO` → `4I; IO`", "Nectar: added, `2W; Vintage`",
                     "rules.hand_size: 9 → 8", "rules.wine_social: [3, 5] → [3, 6]"]
    assert changed == ["Krater", "Orgy", "Plato", "Nectar"]
    lines, _ = scenario_changes(a.judge("fast"), a.judge("strong"))
    assert lines == ["table: greedy players (fast table) → learned players (strong table)"]
    assert scenario_changes(a, a) == ([], [])

    A = run_batched(a.judge("fast"), 200, 1, 1)
    B = run_batched(b.judge("fast"), 200, 1, 1)
    c = comparison_of(A, B)
    order = list(changed_first(c)["name"])
    assert order[:2] == ["Krater", "Plato"]  # the changed cards both sides hold, deck order
    rest = changed_first(c).iloc[2:]
    assert list(rest["diff"].abs()) == sorted(rest["diff"].abs(), reverse=True)
    r = CliRunner().invoke(main, ["compare", BASE, str(variant), "--judge", "fast", "--games",
                                  "200", "--jobs", "1", "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert "changed: Krater: 1 → 3 copies; Orgy: removed" in r.output
    # the seat gap is a difference of win shares: percentage points, never "%"
    gap_line = next(line for line in r.output.splitlines() if line.startswith("Seat gap"))
    assert re.fullmatch(r"Seat gap \(best minus worst seat's win share\): A \d+\.\d pp, B "
                        r"\d+\.\d pp, change [+-]\d+\.\d pp \([+-]\d+\.\d to [+-]\d+\.\d\): "
                        r"(a real change|within noise|its interval excludes 0, but not told "
                        r"apart from noise once \d+ changes are tested)\.", gap_line), gap_line
    md = (tmp_path / "out" / "compare.md").read_text().splitlines()
    assert md[2] == "## Balanced?"  # the answer first, then what B changes
    i = md.index("## What changed (B against A)")
    assert md[i + 1:i + 3] == ["", "- Krater: 1 → 3 copies"]
    assert any(line.startswith("- **What B changed in the answer:** cards ") for line in md[:i])
    first = next(i for i, line in enumerate(md) if line.startswith("| card |")) + 2
    assert md[first].startswith("| Krater") and md[first + 1].startswith("| Plato")


def test_paired_interval_by_hand():
    """Batch means: diff of the whole runs, CI from the spread of per-batch differences."""
    def run(wins):
        totals = [{"games": np.array([10]), "seat_wins": np.array([w * 60, (10 - w) * 60]),
                   "seat_score": np.array([0, 0])} for w in wins]
        whole = {k: sum(t[k] for t in totals) for k in totals[0]}
        return BatchedRun(type("S", (), {"players": 2})(), 10 * len(wins), 0, whole, None,
                          totals, [None] * len(wins))

    A, B = run([5, 5, 5, 5]), run([6, 7, 6, 5])
    d = paired(seat_metric, A, B, {"name": "win_rate"})
    assert d.diff[0] == pytest.approx(0.1)  # (24 - 20) / 40
    per_batch = np.array([0.1, 0.2, 0.1, 0.0])
    from scipy import stats

    half = stats.t.ppf(0.975, 3) * per_batch.std(ddof=1) / 2
    assert d.lo[0] == pytest.approx(0.1 - half) and d.hi[0] == pytest.approx(0.1 + half)


def test_one_run_interval_by_hand():
    """Batch means for one run: the whole run's value, plus or minus t times the standard
    error of the per-batch values (seat 0 won 5, 6, 7 and 6 of 10 games: 24 of 40)."""
    from scipy import stats

    from simsym.studies.paired import interval

    totals = [{"games": np.array([10]), "seat_wins": np.array([w * 60, (10 - w) * 60]),
               "seat_score": np.array([0, 0])} for w in (5, 6, 7, 6)]
    whole = {k: sum(t[k] for t in totals) for k in totals[0]}
    run = BatchedRun(type("S", (), {"players": 2})(), 40, 0, whole, None, totals, [None] * 4)
    v, lo, hi = interval(seat_metric, run, {"name": "win_rate"})
    assert v[0] == pytest.approx(0.6)
    half = stats.t.ppf(0.975, 3) * np.std([0.5, 0.6, 0.7, 0.6], ddof=1) / 2
    assert (lo[0], hi[0]) == (pytest.approx(0.6 - half), pytest.approx(0.6 + half))
    assert (lo[1], hi[1]) == (pytest.approx(0.4 - half), pytest.approx(0.4 + half))


def test_fail_on_parsing_and_exit_code(tmp_path):
    assert parse_fail_on(["seat-gap>0.05"]) == [("seat-gap", ">", 0.05)]
    with pytest.raises(SimsymError, match="METRIC>VALUE"):
        parse_fail_on(["gap>>1"])
    r = CliRunner().invoke(main, ["compare", BASE, NERF, "--games", "300", "--jobs", "1",
                                  "--out", str(tmp_path), "-q", "--fail-on", "seat-gap>0.0"])
    assert r.exit_code == 3 and "seat-gap" in r.output
    assert (tmp_path / "compare.md").exists() and (tmp_path / "compare-cards.png").exists()
    # the judged base game is compared under its strong table, and the page says so
    assert "Played by learned players (strong table) on both sides." \
        in (tmp_path / "compare.md").read_text()
    r = CliRunner().invoke(main, ["compare", BASE, NERF, "--games", "300", "--jobs", "1",
                                  "--out", str(tmp_path), "-q", "--fail-on", "seat-gap>0.99"])
    assert r.exit_code == 0
    r = CliRunner().invoke(main, ["compare", BASE, "/nope.yaml"])
    assert r.exit_code == 2


def test_sweep_cli_over_players_and_a_card(tmp_path):
    r = CliRunner().invoke(main, ["sweep", BASE, "--players", "2", "--players", "5",
                                  "--games", "200", "--jobs", "1", "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    lines = (tmp_path / "sweep.csv").read_text().splitlines()
    assert len(lines) == 3 and lines[1].startswith("2,2,")
    assert (tmp_path / "sweep.png").exists()
    r = CliRunner().invoke(main, ["sweep", BASE, "--card", "plato", "--values", "3I; IO",
                                  "--values", "7I; IO", "--games", "300", "--jobs", "1",
                                  "--out", str(tmp_path / "c"), "-q"])
    assert r.exit_code == 0, r.output
    import pandas as pd

    df = pd.read_csv(tmp_path / "c" / "sweep.csv")
    assert df["card_gih_wr"].iloc[1] > df["card_gih_wr"].iloc[0]
    # every metric with its interval; the seat gap's change from the first value, paired
    assert ((df["seat_gap_lo"] <= df["seat_gap"]) & (df["seat_gap"] <= df["seat_gap_hi"])).all()
    assert (df["card_gih_wr_lo"] < df["card_gih_wr_hi"]).all()
    assert list(df["seat_gap_change_pp"]) == [0.0, pytest.approx(100 * (df["seat_gap"][1]
                                                                        - df["seat_gap"][0]))]
    long = pd.read_csv(tmp_path / "c" / "sweep_long.csv")
    gih = long[long["metric"] == "card GIH win rate"]
    assert list(gih["unit"]) == ["%", "%"]
    assert list(gih["estimate"]) == pytest.approx(list(100 * df["card_gih_wr"]))
    md = (tmp_path / "c" / "sweep.md").read_text()
    assert "| value | seat gap (pp) | seat gap change from the first value (paired) (pp) |" in md
    assert "card IWD, raw (pp)" in md and "_" not in md.split("| value | seat")[1].split("\n")[0]
    assert "| card strength (IWD minus the table's average) (pp) |" in md
    r = CliRunner().invoke(main, ["sweep", BASE, "--card", "Platon", "--values", "3I"])
    assert r.exit_code == 2 and "Plato" in r.output


def test_a_sweep_opens_with_each_values_answer_to_balanced(tmp_path, base):
    """Each value's "Balanced?" is the answer `simsym run` gives for that scenario: the first
    value is the base game's own Plato, so its row must be the plain run's answer on the same
    seed and games, and its card strength the run's. sweep.md opens with those answers in a
    table, then the glossary, before every other table."""
    import pandas as pd

    from simsym.report.data import gather
    from simsym.studies.sweep import run_sweep, write_sweep

    df = run_sweep(base, "card", "Plato", ["5I; IO", "8I; IO"], 200, 4, 1)
    r = CliRunner().invoke(main, ["run", BASE, "--judge", "fast", "--games", "200", "--seed",
                                  "4", "--jobs", "1", "--no-report", "--out",
                                  str(tmp_path / "run"), "-q"])
    assert r.exit_code == 0, r.output
    plain = gather(tmp_path / "run").balance
    row = df.iloc[0]
    assert row["balanced"] == plain.answer and row["cards_state"] == plain.cards_state
    assert row["seats_state"] == plain.seats_state
    assert (row["cards_strong_outside"], row["cards_weak_outside"]) == (
        len(plain.outside("strong")), len(plain.outside("weak")))
    assert row["cards_tested"] == plain.family
    assert (row["seat_spread"], row["seat_spread_lo"], row["seat_spread_hi"]) == pytest.approx(
        (plain.spread.value, plain.spread.lo, plain.spread.hi))
    plato = plain.cards.set_index("card").loc["Plato"]
    assert row["card_strength"] == pytest.approx(plato["strength"], abs=1e-9)
    assert row["card_strength_lo"] < row["card_strength"] < row["card_strength_hi"]
    assert df["card_strength"].iloc[1] > df["card_strength"].iloc[0]  # 8 points beat 5

    md = write_sweep(df, base, "card", "Plato", 200, 4, tmp_path / "sw").read_text()
    lines = md.splitlines()
    assert lines[:3] == ["# Sweep: card Plato (base)", "", "## Balanced?"]
    assert "every card's strength within ±3 pp of the table's average (cards), and the best " \
        "seat's win share within 3 pp of the worst's (seats)" in lines[4]
    assert lines[6:8] == ["| value | balanced? | cards | seats: spread pp (95% CI) |",
                          "| --- | --- | --- | ---: |"]
    for i, value in enumerate(("5I; IO", "8I; IO")):
        r = df.iloc[i]
        assert lines[8 + i].startswith(
            f"| {value} | {r['balanced']} (cards {r['cards_state']}, seats "
            f"{r['seats_state']}) | {r['cards_state']}")
        assert lines[8 + i].endswith(f" | {100 * r['seat_spread']:.1f} "
                                     f"({100 * r['seat_spread_lo']:.1f} to "
                                     f"{100 * r['seat_spread_hi']:.1f}) |")
    assert lines[11] == "## Glossary"
    assert md.index("## Glossary") < md.index("## Every metric per value") \
        < md.index("| value | seat gap")
    assert pd.read_csv(tmp_path / "sw" / "sweep.csv")["balanced"].tolist() == \
        df["balanced"].tolist()


def test_run_and_compare_print_their_verdict_as_json_for_scripts(tmp_path):
    """`--json`: stdout is one JSON object a script can read (progress stays on stderr),
    holding the same figures as the files the command wrote."""
    import json

    r = CliRunner().invoke(main, ["run", BASE, "--games", "200", "--jobs", "1", "--no-report",
                                  "--out", str(tmp_path / "judged"), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    judges = json.loads((tmp_path / "judged" / "judges.json").read_text())
    assert doc["scenario"] == "base" and doc["units"] == "pp"
    assert set(doc["tables"]) == {"fast", "strong"} and doc["games"] == 200
    for role in ("fast", "strong"):  # judges.json's shares, in pp
        t, j = doc["tables"][role], judges["tables"][role]
        assert t["gap"] == pytest.approx(100 * j["gap"], abs=1e-4)
        assert [s["win_rate"] for s in t["seats"]] == pytest.approx(
            [100 * s["win_rate"] for s in j["seats"]], abs=1e-4)
        assert [s["mean_score"] for s in t["seats"]] == [s["mean_score"] for s in j["seats"]]

    r = CliRunner().invoke(main, ["run", BASE, "--judge", "fast", "--games", "200", "--jobs",
                                  "1", "--no-report", "--out", str(tmp_path / "fast"), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    seats = json.loads((tmp_path / "fast" / "summary.json").read_text())["seats"]
    rates = [s["win_rate"] for s in seats]
    assert [s["win_rate"] for s in doc["tables"]["table"]["seats"]] == pytest.approx(
        [100 * x for x in rates], abs=1e-4)
    assert doc["tables"]["table"]["gap"] == pytest.approx(100 * (max(rates) - min(rates)),
                                                          abs=1e-3)
    assert doc["tables"]["table"]["strategy"] == "greedy"

    r = CliRunner().invoke(main, ["compare", BASE, NERF, "--judge", "fast", "--games", "300",
                                  "--jobs", "1", "--out", str(tmp_path / "cmp"), "--json",
                                  "--fail-on", "seat-gap>0.0"])
    assert r.exit_code == 3, r.output  # the gate still decides the exit code
    doc = json.loads(r.stdout)
    assert doc["changes"] == ["Plato: 5I; IO → 4I; IO"] and doc["changed_cards"] == ["Plato"]
    assert doc["a"] == "base" and doc["b"] == "plato-nerf" and doc["games"] == 300
    assert doc["failed"] and doc["failed"][0].startswith("seat-gap>0pp")
    gap = doc["seat_gap"]
    assert doc["units"] == "pp"
    assert gap["diff"] == pytest.approx(gap["B"] - gap["A"], abs=2e-4)
    assert doc["balanced"]["a"]["balanced"] in ("yes", "no", "not decided")
    assert doc["balanced"]["moves"].startswith("cards ")


def test_seats_csv_is_the_reports_seat_table_one_row_a_seat(tmp_path):
    """A run's seats.csv is the seat table of its report (simsym.analysis.seat_table, worked
    by hand in tests/product/test_report.py) for its summary.json: one row a seat, its win share the
    seat's wins over its games, against the fair share of a 4-player table."""
    import json

    import pandas as pd

    from simsym.analysis import seat_table

    r = CliRunner().invoke(main, ["run", BASE, "--judge", "fast", "--games", "200", "--jobs",
                                  "1", "--no-report", "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    text = (tmp_path / "seats.csv").read_text()
    assert text == seat_table(summary).to_csv(index=False, lineterminator="\n")
    t = pd.read_csv(tmp_path / "seats.csv")
    assert list(t["seat"]) == [0, 1, 2, 3] and set(t["strategy"]) == {"greedy"}
    assert list(t["win_rate"]) == pytest.approx([s["wins"] / s["games"]
                                                 for s in summary["seats"]])
    assert (t["fair_share"] == 0.25).all() and (t["win_rate_lo"] < t["win_rate_hi"]).all()
