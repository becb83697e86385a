"""Does a verdict hold for better players? The strong table against the generation before the
shipped model, in `simsym run`'s report and in `simsym compare`, each figure checked against a
run of that generation alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simsym.analysis.convergence import (EDGE, INSIDE, MOVES, STOPPED, TOO_STRONG, TOO_WEAK,
                                         card_verdict, change_summary, lines, stopped,
                                         summary_words)
from simsym.cli.main import main as cli
from simsym.learned.model import NEWEST, PREVIOUS

BASE = str(Path("scenarios/base.yaml").resolve())
NERF = str(Path("scenarios/plato-nerf.yaml").resolve())


# --- the words, hand-worked ---------------------------------------------------------------

def test_a_verdict_stops_moving_when_it_holds_and_its_figure_does_not_move():
    assert stopped(holds=True, real=False)
    assert not stopped(holds=True, real=True)  # the same verdict, but the figure moved
    assert not stopped(holds=False, real=False)  # another verdict, within noise
    assert card_verdict("outside", 0.05) == TOO_STRONG
    assert card_verdict("outside", -0.05) == TOO_WEAK
    assert card_verdict("edge", 0.035) == EDGE and card_verdict("inside", 0.01) == INSIDE


def _card(name, prev, new, real, vp, vn):
    return {"card": name, "previous": prev, "newest": new, "move": new - prev, "lo": 0.0,
            "hi": 0.0, "real": real, "verdict": {"previous": vp, "newest": vn},
            "holds": vp == vn}


DOC = {"games": 1000, "seed": 1, "tested": 4, "units": "pp",
       "previous": {"generation": 1, "judge": "learned(generation=1)"},
       "newest": {"generation": 2, "judge": "learned"},
       "seats": {"previous": 23.4, "newest": 23.6, "move": 0.2, "lo": -0.2, "hi": 0.6,
                 "real": False, "holds": True},
       "compensation": None,
       "cards": [_card("Orgy", -7.0, -7.4, False, TOO_WEAK, TOO_WEAK),
                 _card("Plato", 2.8, 3.5, True, INSIDE, TOO_STRONG),
                 _card("Wit", 1.0, 2.0, True, INSIDE, INSIDE)]}


def test_the_report_says_which_verdicts_stopped_moving_and_reads_the_others_as_ranges():
    text = "\n".join(lines(DOC))
    spread = next(x for x in text.splitlines() if x.startswith("- **Seat spread**"))
    assert "23.6 pp under generation 2, 23.4 pp under generation 1" in spread
    assert "moves +0.2 pp (-0.2 to +0.6), within noise" in spread and STOPPED in spread
    cards = text.split("- **Cards**")[1]
    assert cards.startswith(f": 1 of 3 verdicts **{STOPPED}**; 1 change verdict")
    plato = next(x for x in cards.splitlines() if "Plato" in x)
    assert "too strong under generation 2, within the band under generation 1" in plato
    assert "read it as +2.8 to +3.5 pp" in plato
    wit = next(x for x in cards.splitlines() if "Wit" in x)
    assert "within the band under both" in wit and "a real move" in wit
    assert "Orgy" not in cards  # stopped moving: not listed
    assert MOVES in text
    line = summary_words(DOC)
    assert "the seat spread stopped moving" in line
    assert "1 of 3 card verdicts stopped moving, 2 still move" in line


def test_a_change_holds_when_real_under_both_generations_the_same_way_or_under_neither():
    rows = [{"name": "seat gap", "kind": "seats", "previous": -1.0, "newest": -1.2, "move": -0.2,
             "lo": -0.5, "hi": 0.1, "real": False, "real_previous": True, "real_newest": True,
             "holds": True},
            {"name": "Plato", "kind": "cards", "previous": -0.4, "newest": -1.5, "move": -1.1,
             "lo": -1.6, "hi": -0.6, "real": True, "real_previous": False, "real_newest": True,
             "holds": False}]
    doc = {"games": 10, "seed": 1, "tested": 2, "previous": {"generation": 1},
           "newest": {"generation": 2}, "rows": rows}
    assert change_summary(doc) == (
        "For better players (generation 1 against the shipped 2, same deals): 1 of the 2 "
        f"real changes are real under generation 1 too; 1 of 2 tested changes {STOPPED}.")


# --- end to end -----------------------------------------------------------------------------

def _run(*args):
    res = CliRunner().invoke(cli, list(map(str, args)))
    assert res.exit_code == 0, res.output
    return res


def _alone(tmp_path, name, extends, games=400):
    """``extends`` played by the generation before the shipped model alone."""
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"extends: {extends}\nname: {name}\n"
                 f"strategies: [{{family: learned, generation: {PREVIOUS}}}]\n")
    return p


def _verdicts(balance: dict) -> dict:
    """Each listed card's verdict in a balance.json table (the others are within the band)."""
    c = balance["cards"]
    out = {r["card"]: TOO_STRONG for r in c["strong_outside"]}
    out.update({r["card"]: TOO_WEAK for r in c["weak_outside"]})
    out.update({r["card"]: EDGE for r in c["edge"]})
    return out


@pytest.mark.slow
def test_a_judged_run_checks_its_strong_verdicts_under_the_generation_before(tmp_path):
    assert PREVIOUS is not None and PREVIOUS < NEWEST
    out = tmp_path / "o"
    _run("run", BASE, "--games", 400, "--jobs", 1, "--out", out, "--verify-compensation",
         "-q")
    doc = json.loads((out / "convergence.json").read_text())
    j = json.loads((out / "judges.json").read_text())
    assert doc["previous"]["generation"] == PREVIOUS and doc["newest"]["generation"] == NEWEST
    assert doc["games"] == 400 and doc["seed"] == j["seed"]
    # the newest generation's figures are the strong table's, as the run reported them
    assert doc["seats"]["newest"] == pytest.approx(100 * j["tables"]["strong"]["gap"],
                                                   abs=1e-3)
    comp = j["compensation"]["strong"]
    assert doc["compensation"]["suggested"] == comp["suggested"]
    assert doc["compensation"]["newest"] == pytest.approx(100 * comp["gap_after"], abs=1e-3)
    # the previous generation's are those of a run of it alone on the same deals
    alone = tmp_path / "alone"
    _run("run", _alone(tmp_path, "prev", BASE), "--games", 400, "--jobs", 1, "--seed",
         j["seed"], "--out", alone, "-q")
    summary = json.loads((alone / "summary.json").read_text())
    rates = [s["win_rate"] for s in summary["seats"]]
    assert doc["seats"]["previous"] == pytest.approx(100 * (max(rates) - min(rates)), abs=1e-3)
    assert doc["seats"]["move"] == pytest.approx(doc["seats"]["newest"]
                                                 - doc["seats"]["previous"], abs=1e-3)
    import pandas as pd

    cards = pd.read_csv(alone / "cards_strength.csv")
    cards = cards[cards["strategy"] == "all"].set_index("card")
    prev_v = _verdicts(json.loads((alone / "balance.json").read_text())["tables"][0])
    new_v = _verdicts(json.loads((out / "balance.json").read_text())["tables"][0])
    for r in doc["cards"]:
        assert r["previous"] == pytest.approx(100 * cards.loc[r["card"], "strength"], abs=1e-3)
        assert r["verdict"]["previous"] == prev_v.get(r["card"], INSIDE)
        assert r["verdict"]["newest"] == new_v.get(r["card"], INSIDE)
        assert r["holds"] == (r["verdict"]["previous"] == r["verdict"]["newest"])
    q = {r["name"]: r for r in doc["quality"]}
    assert q["turns"]["previous"] == pytest.approx(
        summary["quality"]["turns"]["sum"] / summary["quality"]["games"], abs=1e-3)
    report = (out / "report.md").read_text()
    balanced = report.split("## Glossary")[0]
    assert "**For better players?** Under the generation before the shipped model" in balanced
    assert "## Does it hold for better players?" in balanced
    assert "- **Seat spread**" in balanced and "- **Compensation**" in balanced


@pytest.mark.slow
def test_a_comparison_says_whether_its_change_holds_under_the_generation_before(tmp_path):
    res = _run("compare", BASE, NERF, "--games", 400, "--jobs", 1, "--out", tmp_path / "c",
               "--json")
    doc = json.loads(res.output)
    conv = doc["for_better_players"]
    assert conv["previous"]["generation"] == PREVIOUS
    rows = {r["name"]: r for r in conv["rows"]}
    # under the shipped model: the comparison's own changes
    assert rows["seat gap"]["newest"] == pytest.approx(doc["seat_gap"]["diff"], abs=1e-3)
    assert rows["seat gap"]["real_newest"] == doc["seat_gap"]["real"]
    # under the generation before: a comparison of the two sides played by it alone
    a, b = _alone(tmp_path, "a", BASE), _alone(tmp_path, "b", NERF)
    old = json.loads(_run("compare", a, b, "--games", 400, "--jobs", 1, "--seed", doc["seed"],
                          "--out", tmp_path / "old", "--json").output)
    assert old["for_better_players"] is None  # no generation before an older one's verdicts
    assert rows["seat gap"]["previous"] == pytest.approx(old["seat_gap"]["diff"], abs=1e-3)
    assert rows["seat gap"]["real_previous"] == old["seat_gap"]["real"]
    plato = next(r for r in old["changed_cards_strength"] if r["name"] == "Plato")
    assert rows["Plato"]["previous"] == pytest.approx(plato["diff"], abs=1e-3)
    for r in conv["rows"]:
        assert r["move"] == pytest.approx(r["newest"] - r["previous"], abs=2e-3)
        assert r["holds"] == (r["real_previous"] == r["real_newest"] and (
            not r["real_newest"] or (r["newest"] > 0) == (r["previous"] > 0)))
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "## Does the change hold for better players?" in md
    assert change_summary(conv) in md
