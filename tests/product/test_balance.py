"""Balanced? by hand: the card band and the seat band, the one rule (Holm over the family)
for strong, weak and a real change, and the scenario's `balance:` criteria."""

import math

import numpy as np
import pandas as pd
import pytest

from simsym.analysis.balance import (MET, NOT_MET, UNDECIDED, Criteria, balance_lines,
                                     card_frame, judge_balance, seat_spread, strength_columns)
from simsym.analysis.stats import newcombe_diff
from simsym.errors import InputError
from simsym.model.scenario import load_scenario


def cards(rows):
    """A card table of the columns the balance reads, from (card, held wins, held n, never
    held wins, never held n)."""
    df = pd.DataFrame(rows, columns=["card", "held_wins", "held_n", "gns_wins", "gns_n"])
    d, lo, hi = newcombe_diff(df["held_wins"], df["held_n"], df["gns_wins"], df["gns_n"])
    return df.assign(iwd=d, iwd_lo=lo, iwd_hi=hi)


# Four cards against an average IWD of 0 (given): A wins 30% held and 25% not (IWD +5 pp,
# on 100,000 player-games each side: an interval of about ±0.4 pp, wholly beyond the 3 pp
# band); B +4 pp on 1,000 a side (about ±4 pp: outside the band on the estimate, within noise
# of its edge); C +1 pp (inside); D -5 pp on 100,000 (beyond the band, weak).
FOUR = cards([("A", 30_000, 100_000, 25_000, 100_000),
              ("B", 290, 1_000, 250, 1_000),
              ("C", 26_000, 100_000, 25_000, 100_000),
              ("D", 20_000, 100_000, 25_000, 100_000)])


def test_card_strength_is_iwd_minus_the_average_with_the_shifted_interval():
    out = strength_columns(FOUR, 0.01)
    a = out.iloc[0]
    assert a["strength"] == pytest.approx(0.05 - 0.01)
    assert (a["strength_lo"], a["strength_hi"]) == pytest.approx((a["iwd_lo"] - 0.01,
                                                                  a["iwd_hi"] - 0.01))
    assert list(out["verdict"]) == ["strong", "", "", "weak"]


def test_the_card_band_inside_outside_and_at_the_edge():
    out = card_frame(FOUR, 0.0, band=0.03)
    assert list(out["band"]) == ["outside", "edge", "inside", "outside"]
    b = judge_balance("table (hand)", FOUR, 0.0, [0.26, 0.25, 0.25, 0.24], 100_000)
    assert b.cards_state == NOT_MET
    # the least each must move to reach the band's edge: 5 - 3 = 2 pp either way
    assert b.changes() == ["weaken A by at least 2.0 pp", "strengthen D by at least 2.0 pp"]
    only_b = judge_balance("t", FOUR.iloc[1:3], 0.0, [0.25] * 4, 100_000)
    assert only_b.cards_state == UNDECIDED  # B outside on its estimate, within noise
    assert judge_balance("t", FOUR.iloc[2:3], 0.0, [0.25] * 4, 1000).cards_state == MET


def test_the_one_rule_holm_over_every_card():
    # ten cards each 1.35 pp above the average on 10,000 player-games a side: a standard
    # error of sqrt(2 * 0.25 * 0.75 / 10,000) = 0.61 pp, so z = 2.2 and p about 0.03; each
    # interval excludes the average, but Holm over ten needs p below 0.005 for the first
    n = 10_000
    rows = [(f"c{i}", 0.25 * n + 135, n, 0.25 * n, n) for i in range(10)]
    df = cards(rows)
    out = strength_columns(df, 0.0)
    p = out["strength_p"].to_numpy()
    assert p == pytest.approx(np.full(10, 0.028), abs=0.004)
    assert (out["verdict"] == "").all() and out["interval_only"].all()
    # one card alone: the same evidence is a verdict
    alone = strength_columns(df.iloc[:1], 0.0)
    assert list(alone["verdict"]) == ["strong"] and not alone["interval_only"].any()


def test_seat_spread_by_hand():
    # 30% against 20% of 10,000 games: variance (0.3*0.7 + 0.2*0.8 + 2*0.3*0.2) / 10,000
    s = seat_spread([0.30, 0.25, 0.25, 0.20], 10_000, [0, 1, 1, 2])
    half = 1.959964 * math.sqrt(0.49 / 10_000)
    assert (s.value, s.lo, s.hi) == pytest.approx((0.10, 0.10 - half, 0.10 + half))
    assert (s.best, s.worst, s.compensation) == (0, 3, [0, 1, 1, 2])


@pytest.mark.parametrize("rates,games,state", [
    ([0.26, 0.25, 0.25, 0.24], 1_000, MET),            # a spread of 2 pp, however noisy
    ([0.27, 0.25, 0.25, 0.23], 1_000, UNDECIDED),      # 4 pp, interval about ±3.5 pp
    ([0.27, 0.25, 0.25, 0.23], 100_000, NOT_MET),      # 4 pp, interval about ±0.4 pp
    ([0.30, 0.25, 0.25, 0.20], 100_000, NOT_MET),      # 10 pp
])
def test_the_seat_band(rates, games, state):
    b = judge_balance("t", FOUR.iloc[2:3], 0.0, rates, games)
    assert b.seats_state == state
    assert b.state == state and b.answer == {MET: "yes", NOT_MET: "no",
                                             UNDECIDED: "not decided"}[state]


def test_the_answer_in_words_names_every_criterion_with_intervals():
    b = judge_balance("strong table (learned)", FOUR, 0.0, [0.30, 0.25, 0.25, 0.20], 100_000,
                      compensation=[0, 2, 3, 8], verified=True)
    lines = balance_lines(b)
    assert lines[0] == "**Strong table (learned): no.**"
    assert "1 too strong beyond noise: A +5.0 pp (+4.6 to +5.4)" in lines[1]
    assert "1 outside the band but within noise of its edge: B +4.0 pp" in lines[1]
    assert lines[2].startswith("Seats (best minus worst seat's win share within 3 pp, with "
                               "the seat compensation `[0, 2, 3, 8]` verified on fresh deals)"
                               ": not met; seat 0 minus seat 3: 10.0 pp (9.6 to 10.4).")
    assert lines[3] == ("What remains: weaken A by at least 2.0 pp; strengthen D by at least "
                        "2.0 pp; re-tune the seat compensation [0, 2, 3, 8] (it leaves a "
                        "spread of 10.0 pp).")
    d = b.as_dict()
    assert d["units"] == "pp" and d["balanced"] == "no"
    assert d["cards"]["strong_outside"][0]["strength"] == pytest.approx(5.0)
    assert d["seats"]["spread"]["value"] == pytest.approx(10.0)


def test_wider_bands_from_the_scenario_change_the_answer():
    crit = Criteria.from_pp({"card_band": 6, "seat_band": 12})
    b = judge_balance("t", FOUR, 0.0, [0.30, 0.25, 0.25, 0.20], 100_000, crit)
    assert (b.cards_state, b.seats_state, b.answer) == (MET, MET, "yes")


# --- the scenario's balance: ----------------------------------------------------------------

def write(tmp_path, text):
    p = tmp_path / "s.yaml"
    p.write_text("extends: simsym:base\nname: s\n" + text)
    return p


def test_balance_criteria_in_a_scenario(tmp_path):
    sc = load_scenario(write(tmp_path, "balance:\n  card_band: 2.5\n  seat_band: 4pp\n"))
    assert sc.balance == {"card_band": 2.5, "seat_band": 4.0}
    assert Criteria.from_pp(sc.balance) == Criteria(0.025, 0.04)
    partial = load_scenario(write(tmp_path, "balance: {seat_band: 2}\n"))
    assert partial.balance == {"card_band": 3.0, "seat_band": 2.0}
    assert load_scenario(write(tmp_path, "")).balance is None


@pytest.mark.parametrize("text,line,key,words", [
    ("balance:\n  card_band: -1\n", 4, "balance.card_band", "expected percentage points above 0"),
    ("balance:\n  seat_band: lots\n", 4, "balance.seat_band", "found 'lots'"),
    ("balance:\n  card_bnad: 3\n", 4, "balance.card_bnad", "did you mean 'card_band'"),
    ("balance: 3\n", 3, "balance", "expected a mapping of the balance criteria"),
])
def test_bad_balance_criteria_name_the_line_and_what_is_allowed(tmp_path, text, line, key,
                                                                 words):
    with pytest.raises(InputError) as e:
        load_scenario(write(tmp_path, text))
    err = e.value.errors[0] if getattr(e.value, "errors", None) else e.value
    assert (err.line, err.key) == (line, key)
    assert words in str(err) and "allowed" in str(err)


def test_holm_over_the_family_of_a_comparison_by_hand():
    from simsym.studies.compare import _one_rule

    gap = pd.DataFrame({"p": [0.01]})
    seats = pd.DataFrame({"metric": ["win_rate", "mean_score"], "p": [0.04, 0.0]})
    cards = pd.DataFrame({"metric": ["strength", "gih_wr"], "p": [0.03, 0.0]})
    n = _one_rule([(gap, np.ones(1, bool)), (seats, (seats["metric"] == "win_rate").to_numpy()),
                   (cards, (cards["metric"] == "strength").to_numpy())])
    # Holm on 0.01, 0.04, 0.03: 0.01 * 3 = 0.03, then max(0.03, 0.03 * 2) = 0.06, then
    # max(0.06, 0.04 * 1) = 0.06; the rows not tested get none
    assert n == 3
    assert gap["p_adjusted"].tolist() == pytest.approx([0.03])
    assert seats["p_adjusted"].tolist()[0] == pytest.approx(0.06)
    assert math.isnan(seats["p_adjusted"].iloc[1]) and not seats["beyond_noise"].iloc[1]
    assert cards["p_adjusted"].tolist()[0] == pytest.approx(0.06)
    assert gap["beyond_noise"].tolist() == [True] and cards["beyond_noise"].tolist()[0] == False


def test_criteria_moves_say_what_a_change_fixed_or_broke():
    from simsym.studies.compare import criteria_moves

    bad = judge_balance("A", FOUR, 0.0, [0.30, 0.25, 0.25, 0.20], 100_000)
    good = judge_balance("B", FOUR.iloc[2:3], 0.0, [0.26, 0.25, 0.25, 0.24], 100_000)
    assert criteria_moves(bad, good) == ("cards: not met -> met (fixed); "
                                         "seats: not met -> met (fixed)")
    assert criteria_moves(good, bad) == ("cards: met -> not met (broke); "
                                         "seats: met -> not met (broke)")
    assert criteria_moves(good, good) == "cards met on both; seats met on both"


# --- one change, one verdict everywhere ---------------------------------------------------------

def _words(text: str) -> str:
    return " ".join(text.replace("*", "").split()).lower()


def test_the_readme_the_guide_and_every_report_state_the_one_rule():
    from simsym.analysis.balance import RULE
    from simsym.model.scenario import REPO_ROOT
    from simsym.report.markdown import GLOSSARY

    for doc in (REPO_ROOT / "README.md", REPO_ROOT / "docs" / "designer-guide.md"):
        assert _words(RULE) in _words(doc.read_text()), doc
    assert _words(RULE) in _words(GLOSSARY)


def test_one_change_reads_the_same_in_the_report_the_terminal_the_api_and_the_workbench(
        tmp_path):
    """Plato one point weaker, compared on the same deals by `simsym compare` (compare.md and
    --json), by the notebook API and on the workbench's page: the same strength change, the
    same interval, the same words of the one rule, in pp everywhere."""
    import json

    from click.testing import CliRunner

    from simsym import api
    from simsym.cli.main import main
    from simsym.model.scenario import BASE_SCENARIO
    from simsym.serve.pages import verdict_text
    from simsym.serve.jobs import summarise
    from simsym.studies.compare import rule_words
    from simsym.studies.sequential import Decision, Look, parse_metric

    nerf = tmp_path / "plato-4.yaml"
    nerf.write_text(f"extends: {BASE_SCENARIO}\nname: plato-4\ncards:\n  overrides:\n"
                    "    Plato: \"4I; IO\"\n")
    args = dict(games=2_000, seed=11, judge="fast")
    out = tmp_path / "cmp"
    r = CliRunner().invoke(main, ["compare", str(BASE_SCENARIO), str(nerf), "--games", "2000",
                                  "--seed", "11", "--judge", "fast", "--jobs", "1", "--out",
                                  str(out), "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    md = (out / "compare.md").read_text()

    res = api.compare(str(BASE_SCENARIO), str(nerf), jobs=1, **args)
    c = res.comparison
    row = res.cards.set_index(["metric", "name"]).loc[("strength", "Plato")]
    words = rule_words(c.cards[(c.cards["metric"] == "strength")
                               & (c.cards["name"] == "Plato")].iloc[0], c.tested)
    change = f"{row['diff']:+.1f} pp ({row['lo']:+.1f} to {row['hi']:+.1f})"

    # the report and the API: the same line
    said = f"strength {row['A']:+.1f} -> {row['B']:+.1f} pp, change {change}: {words}."
    assert f"- **Plato** (changed by B): {said}" in md
    assert f"Plato (changed by B): {said}" in res.verdict
    # the terminal's --json: the same figures in pp, the same call
    js = doc["changed_cards_strength"][0]
    assert js["name"] == "Plato" and js["real"] == bool(row["real"])
    assert (js["diff"], js["lo"], js["hi"]) == pytest.approx((row["diff"], row["lo"],
                                                              row["hi"]), abs=1e-3)
    assert doc["balanced"]["moves"] == res.balanced["moves"]
    assert f"**What B changed in the answer:** {res.balanced['moves']}." in md
    # the workbench's headline on the same comparison
    look = Look(c.games, Decision(40, "less", 0.0, 5.0, -3.0, 3.0, row["diff"] / 100,
                                  row["lo"] / 100, row["hi"] / 100), [], [], [], [])
    metric = parse_metric("card:Plato", api.scenario(str(BASE_SCENARIO)),
                          api.scenario(str(nerf)))
    page = summarise(c, look, metric, 0.02)
    assert verdict_text(page, True) == (
        f"Plato: strength against the table's average {row['A']:+.1f} \u2192 {row['B']:+.1f} "
        f"pp, a change of {change}: {words}")
    assert page["balanced"]["moves"] == res.balanced["moves"]
