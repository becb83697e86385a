"""`simsym sweep` over strategy tables: the same deals under several mirror tables, side by side.

The seat figures must be those of a plain `simsym run` of each table (same seed, same games,
so the same deals); equal tables must agree perfectly and flip nothing; the output must not
depend on --jobs; a bad table must be a clear error.
"""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from simsym.analysis import stats
from simsym.analysis.cards import card_averages, card_strength, iwd_verdicts, pooled_counts
from simsym.cli.main import main
from simsym.errors import InputError
from simsym.model.scenario import BASE_SCENARIO, load_scenario

TWO_TABLES = f"""\
extends: {BASE_SCENARIO}
name: two-tables
sweep:
  strategies:
    - greedy
    - {{family: patient, threshold: 15}}
"""


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def scenario(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_sweep_over_two_tables_equals_plain_runs_and_ignores_jobs(tmp_path):
    sweep = scenario(tmp_path, "two.yaml", TWO_TABLES)
    a, b = tmp_path / "a", tmp_path / "b"
    r = cli("sweep", sweep, "--games", "300", "--seed", "7", "--jobs", "1", "--out", a, "-q")
    assert r.exit_code == 0, r.output
    for f in ("sweep.md", "sweep.json", "sweep.csv", "sweep_cards.csv", "sweep.png",
              "sweep-iwd.png"):
        assert (a / f).exists(), f
    # the page names the guide by the command that shows it (no docs/ beside a workspace)
    assert "Which table to trust for what: `simsym docs guide`" in (a / "sweep.md").read_text()
    res = json.loads((a / "sweep.json").read_text())
    assert [t["table"] for t in res["tables"]] == ["greedy", "patient(threshold=15)"]
    assert res["games"] == 300 and res["seed"] == 7 and len(res["agreement"]) == 1
    # the seats' table is of win shares (%); its spread row is a difference of them (pp)
    md = (a / "sweep.md").read_text()
    assert "Win share % per seat" in md and "| spread (best − worst, pp) |" in md

    # Each table's seats and card verdicts are those of a plain run of that table.
    for i, table in enumerate(("greedy", "{family: patient, threshold: 15}")):
        one = scenario(tmp_path, f"t{i}.yaml", f"extends: {BASE_SCENARIO}\n"
                                               f"strategies: [{table}]\n")
        out = tmp_path / f"run{i}"
        r = cli("run", one, "--games", "300", "--seed", "7", "--jobs", "1", "--out", out, "-q",
                "--no-report")
        assert r.exit_code == 0, r.output
        summary = json.loads((out / "summary.json").read_text())
        assert res["tables"][i]["seats"] == [
            {k: s[k] for k in ("seat", "wins", "win_rate", "ci95")} for s in summary["seats"]]
        assert res["tables"][i]["mean_turns"] == summary["mean_turns"]
        import simsym.api as ss
        from simsym.report.data import gather

        # "Balanced?" under the table is the answer `simsym run` gives for it
        got, want = res["tables"][i]["balanced"], gather(out).balance.as_dict()
        assert got["judge"] == res["tables"][i]["table"]
        assert {k: v for k, v in got.items() if k != "judge"} == \
            {k: v for k, v in want.items() if k != "judge"}
        plain = ss.load(out, units="fraction").cards.set_index("card")
        swept = {c["card"]: c for c in res["tables"][i]["cards"]}
        for name, row in plain.iterrows():
            if np.isfinite(row["iwd"]):
                assert swept[name]["iwd"] == pytest.approx(row["iwd"], abs=1e-6)
                # card strength in the run report's frame: IWD minus the table's average
                assert swept[name]["strength"] == pytest.approx(row["strength"], abs=1e-6)
                lo, hi = swept[name]["strength_ci95"]
                assert (lo, hi) == (pytest.approx(row["strength_lo"], abs=1e-6),
                                    pytest.approx(row["strength_hi"], abs=1e-6))
                # the sweep's verdict is the run report's mark (Holm over the cards)
                v = swept[name]["verdict"]
                assert row["iwd_mark"] == {"strong": "+", "weak": "-", "": ""}[v]

    # sweep.md opens with each table's answer, then the glossary, before every other table
    md = (a / "sweep.md").read_text()
    lines = md.splitlines()
    assert lines[:3] == ["# Sweep: strategy tables (two-tables)", "", "## Balanced?"]
    assert "every card's strength within ±3 pp of the table's average (cards), and the best " \
        "seat's win share within 3 pp of the worst's (seats)" in lines[4]
    assert lines[6] == "| table | balanced? | cards | seats: spread pp (95% CI) |"
    for j, t in enumerate(res["tables"]):
        b_ = t["balanced"]
        spread = b_["seats"]["spread"]
        assert lines[8 + j].startswith(
            f"| {t['table']} | {b_['balanced']} (cards {b_['cards']['state']}, seats "
            f"{b_['seats']['state']}) | {b_['cards']['state']}")
        assert lines[8 + j].endswith(
            f" | {spread['value']:.1f} ({spread['lo']:.1f} to {spread['hi']:.1f}) |")
    assert lines[11] == "## Glossary"
    assert md.index("## Glossary") < md.index("## Verdict") < md.index("## Seats")

    r = cli("sweep", sweep, "--games", "300", "--seed", "7", "--jobs", "2", "--out", b, "-q")
    assert r.exit_code == 0, r.output
    for f in ("sweep.md", "sweep.json", "sweep.csv", "sweep_cards.csv"):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_equal_tables_agree_perfectly_and_flip_nothing(base):
    from simsym.studies.table_sweep import run_tables

    greedy = base.strategies[0]
    res = run_tables(base, [greedy, greedy], games=200, seed=11, resamples=200)
    assert [t.label for t in res.tables] == ["greedy", "greedy #2"]
    row = res.agreement.iloc[0]
    # The bootstrap resamples the same blocks of deals for both tables: every resample of two
    # equal tables agrees perfectly, so the interval is exactly 1 (independent resampling
    # would put it below 1).
    for col in ("spearman", "spearman_lo", "spearman_hi", "kendall", "kendall_lo",
                "kendall_hi"):
        assert row[col] == pytest.approx(1.0), col
    assert row["flips"] == 0 and len(res.flips) == 0
    assert res.spread["spread"].iloc[0] == res.spread["spread"].iloc[1]
    assert res.spread["lo"].iloc[0] <= res.spread["spread"].iloc[0] <= res.spread["hi"].iloc[0]


def test_agreement_is_the_rank_correlation_of_the_card_reports_iwd(base):
    from simsym.run.summary import card_table
    from simsym.model.strategies import make_strategy
    from simsym.studies.table_sweep import run_tables

    tables = [base.strategies[0], make_strategy({"family": "patient", "threshold": 20})]
    res = run_tables(base, tables, games=300, seed=5, resamples=200)
    iwd = []
    for t in res.tables:
        counts = card_table(t.run.scenario, t.run.agg, t.run.totals)
        iwd.append(card_strength(counts, 4).set_index("card").loc[t.cards.index, "iwd"])
    ok = np.isfinite(iwd[0]) & np.isfinite(iwd[1])
    row = res.agreement.iloc[0]
    assert row["spearman"] == pytest.approx(sps.spearmanr(iwd[0][ok], iwd[1][ok]).statistic,
                                            abs=1e-6)
    assert row["kendall"] == pytest.approx(sps.kendalltau(iwd[0][ok], iwd[1][ok]).statistic,
                                           abs=1e-6)
    assert row["spearman_lo"] <= row["spearman_hi"] and row["kendall_lo"] <= row["kendall_hi"]
    # A flip is a card whose verdict differs, with the paired change of its IWD above its
    # table's average (what the verdicts read).
    ta, tb = res.tables
    assert len(res.flips) == (ta.cards["iwd_verdict"] != tb.cards["iwd_verdict"]).sum()
    for _, f in res.flips.iterrows():
        a, b = ta.cards.loc[f["card"]], tb.cards.loc[f["card"]]
        assert a["iwd_verdict"] != b["iwd_verdict"]
        assert (f["verdict_a"], f["verdict_b"]) == (a["iwd_verdict"], b["iwd_verdict"])
        want = (b["iwd"] - tb.average_iwd) - (a["iwd"] - ta.average_iwd)
        assert f["change"] == pytest.approx(want, abs=1e-6)
        assert f["change_lo"] <= f["change"] <= f["change_hi"]


def test_fast_rank_agreement_equals_scipy_with_ties():
    from simsym.studies.table_sweep import _orders, _rank_agreement

    rng = np.random.default_rng(0)
    for trial in range(200):
        n = int(rng.integers(3, 80))
        x = rng.integers(0, 6, n).astype(float) if trial % 2 else rng.normal(size=n)
        y = x * rng.uniform(-1, 1) + rng.integers(0, 4, n)
        want = (sps.spearmanr(x, y).statistic, sps.kendalltau(x, y).statistic)
        got = _rank_agreement(x, y, _orders(x), _orders(y))
        assert np.allclose(got, want, equal_nan=True), (got, want)
    # A card without an IWD under a table (never held): scipy's, over the cards with both.
    x = np.array([0.1, np.nan, 0.3, 0.2, 0.5])
    y = np.array([0.5, 0.0, 0.3, 0.4, np.nan])
    assert _orders(x) is None
    assert _rank_agreement(x, y) == pytest.approx((-1.0, -1.0))
    assert np.isnan(_rank_agreement(x, y[[0, 1, 4, 4, 4]])).all()  # fewer than 3 cards


def test_newcombe_p_inverts_the_card_table_interval():
    # Hand-worked: 30/100 against 20/100; at alpha = p the interval's lower end touches 0.
    p = stats.newcombe_p([30.0], [100.0], [20.0], [100.0], 0.0)[0]
    d, lo, hi = stats.newcombe_diff(30.0, 100.0, 20.0, 100.0, p)
    assert d == pytest.approx(0.1) and lo == pytest.approx(0.0, abs=1e-9) and hi > 0
    assert 0.05 < p < 0.2  # the 95% interval includes 0: within noise
    assert stats.newcombe_p([25.0], [100.0], [25.0], [100.0], 0.0)[0] == 1.0
    assert np.isnan(stats.newcombe_p([0.0], [0.0], [1.0], [2.0], 0.0)[0])


def test_verdicts_are_the_report_markers_with_holm(base):
    from simsym.run.summary import card_table
    from simsym.studies.table_sweep import run_tables

    res = run_tables(base, base.strategies, games=400, seed=3, resamples=50)
    t = res.tables[0]
    counts = card_table(t.run.scenario, t.run.agg, t.run.totals)
    avg = float(card_averages(pooled_counts(counts))["iwd"].iloc[0])
    v = iwd_verdicts(card_strength(counts, 4), avg)
    # p < 0.05 exactly where the card report's 95% interval excludes the average ...
    ok = v["iwd_p"].notna()
    excludes = (v["iwd_lo"] > avg) | (v["iwd_hi"] < avg)
    assert ((v["iwd_p"] < 0.05) == excludes)[ok].all()
    # ... the card report's mark is the verdict (the one rule) ...
    assert (v["iwd_mark"] == v["iwd_verdict"].map({"strong": "+", "weak": "-", "": ""})).all()
    # ... and Holm's adjusted p decides the verdict, on the side of the IWD.
    assert (v["iwd_p_holm"] >= v["iwd_p"])[ok].all()
    strong = v["iwd_verdict"] == "strong"
    assert (v.loc[strong, "iwd"] > avg).all() and (v.loc[strong, "iwd_p_holm"] < 0.05).all()
    assert (v.loc[v["iwd_verdict"] == "", "iwd_p_holm"].fillna(1) >= 0.05).all()


@pytest.mark.parametrize("text,line,key,fragments", [
    ("sweep:\n  strategies:\n    - greedy\n    - {family: patient, threshold: -1}\n", 6,
     "sweep.strategies[1].threshold", ["whole number from 0 to 1000", "-1"]),
    ("sweep:\n  strategies:\n    - greedy\n    - [greedy, random]\n", 6, "sweep.strategies[1]",
     ["mirror table", "list of 2", "allowed"]),
    ("sweep:\n  strategies:\n    - gredy\n", 5, "sweep.strategies[0]",
     ["'gredy'", "did you mean 'greedy'", "allowed: greedy, patient, specialist, random"]),
    ("sweep:\n  strategies:\n    - python\n", 5, "sweep.strategies[0]",
     ["numba engine", "allowed: greedy"]),
    ("sweep:\n  strategies: []\n", 4, "sweep.strategies", ["non-empty list of tables"]),
    ("sweep:\n  strategies: [greedy]\n  values: [1]\n", 5, "sweep.values",
     ["card or rule only"]),
])
def test_a_bad_table_is_a_clear_error_with_exit_2(tmp_path, text, line, key, fragments):
    p = scenario(tmp_path, "bad.yaml", f"extends: {BASE_SCENARIO}\nname: bad\n{text}")
    with pytest.raises(InputError) as e:
        load_scenario(p)
    [err] = e.value.errors
    assert (err.file, err.line, err.key) == (str(p), line, key)
    for f in fragments:
        assert f in err.message, (f, err.message)
    for command in (["sweep", p, "--games", "10", "--jobs", "1", "--out", tmp_path / "o"],
                    ["validate", p]):
        r = cli(*command)
        assert r.exit_code == 2, r.output
        assert f"{p}:{line}: {key}: " in r.output and "Traceback" not in r.output
    assert not (tmp_path / "o").exists()


def test_the_shipped_strength_sweep_lists_six_mirror_tables():
    from simsym.model.scenario import REPO_ROOT

    sc = load_scenario(REPO_ROOT / "scenarios" / "strength-sweep.yaml")
    kind, _, tables = sc.sweep
    assert kind == "strategies" and sc.name == "strength"
    assert [t.label for t in tables] == ["greedy", "patient(threshold=15)",
                                         "patient(threshold=20)", "specialist(favours=social)",
                                         "lookahead(iterations=32)", "learned"]
