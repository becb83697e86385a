"""The opening of a judged run's report: the verdicts under the fast and the strong table.

Seats: each table's win share per seat and spread, and the compensation that evens the strong
table, verified on fresh deals under both. Cards: a card is called strong or weak only where
its IWD says so beyond noise under both tables; the cards that one table flags and the other
does not (or flags the other way) are listed apart. Skill: the strong judge's win share in a
table of one strong and the rest fast players, a measure of how much the game rewards skill.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd

from simsym.analysis.balance import fmt_pp, seat_spread, spread_words
from simsym.report.data import ReportData, table_balance
from simsym.report.markdown import (_ci, _pct, _spread_after, _table, balanced_section,
                                    card_counts)

TOP = 5  # cards named on each side where the tables agree
LISTED = 8  # cards named in each list of disagreements


def _names(df: pd.DataFrame) -> str:
    names = list(df["card"])
    more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return ", ".join(names[:LISTED]) + more if names else "none"


def _cards_text(fast: pd.DataFrame, strong: pd.DataFrame, labels: dict) -> list[str]:
    both = strong.merge(fast, on="card", suffixes=("_s", "_f")).set_index("card")
    up = both[(both["verdict_s"] == "strong") & (both["verdict_f"] == "strong")]
    down = both[(both["verdict_s"] == "weak") & (both["verdict_f"] == "weak")]
    up = up.sort_values("strength_s", ascending=False, kind="mergesort")
    down = down.sort_values("strength_s", kind="mergesort")

    def listed(df):
        return "; ".join(
            f"{c} {fmt_pp(r['strength_s'], r['strength_lo_s'], r['strength_hi_s'])} strong "
            f"table, {fmt_pp(r['strength_f'], r['strength_lo_f'], r['strength_hi_f'])} fast"
            for c, r in df.head(TOP).iterrows()) or "none"

    lines = [f"**Cards, where both tables agree** ([strength](#glossary): IWD minus each "
             f"table's average, beyond noise under both): strong: {listed(up)}. Weak: "
             f"{listed(down)}. The tables agree on {len(up)} strong and {len(down)} weak cards; "
             f"the strong table alone finds {card_counts(strong)}."]
    fl, sl = labels["fast"], labels["strong"]
    flips = []
    for mark, other, word, rev in (("strong", "weak", "strong", "weak"),
                                   ("weak", "strong", "weak", "strong")):
        turned = both[(both["verdict_f"] == mark) & (both["verdict_s"] == other)]
        if len(turned):
            flips.append(f"{word} for {fl} players but {rev} for {sl} players: "
                         f"{_names(turned.reset_index())}")
    for word in ("strong", "weak"):
        only_f = both[(both["verdict_f"] == word) & (both["verdict_s"] == "")]
        only_s = both[(both["verdict_s"] == word) & (both["verdict_f"] == "")]
        if len(only_f):
            flips.append(f"{word} only for {fl} players: {_names(only_f.reset_index())}")
        if len(only_s):
            flips.append(f"{word} only for {sl} players: {_names(only_s.reset_index())}")
    lines.append("**Cards the tables disagree on** (trust the strong table's verdict; every "
                 "card of both tables in cards_strength.csv and fast/cards_strength.csv): "
                 + ("; ".join(flips) if flips else "none") + ".")
    return lines


def _seats_table(j: dict) -> str:
    t = j["tables"]
    comp = j.get("compensation")
    header = ["seat", f"fast ({t['fast']['strategy']}) win share %",
              f"strong ({t['strong']['strategy']}) win share %"]
    if comp:
        header += [f"starts with ({t['strong']['strategy']}-evened)",
                   "strong, compensated %", "fast, compensated %"]
    rows = []
    for i, (a, b) in enumerate(zip(t["fast"]["seats"], t["strong"]["seats"])):
        row = [str(a["seat"]), f"{_pct(a['win_rate'])}{_ci(*a['ci95'])}",
               f"{_pct(b['win_rate'])}{_ci(*b['ci95'])}"]
        if comp:
            cs, cx = comp["strong"], comp["strong_under_fast"]
            row += [str(cs["suggested"][i]),
                    f"{_pct(cs['seats_after'][i]['win_rate'])}"
                    f"{_ci(*cs['seats_after'][i]['ci95'])}",
                    f"{_pct(cx['seats_after'][i]['win_rate'])}"
                    f"{_ci(*cx['seats_after'][i]['ci95'])}"]
        rows.append(row)
    gap = ["spread (pp)", _pct(t["fast"]["gap"]), _pct(t["strong"]["gap"])]
    if comp:
        gap += ["", _pct(comp["strong"]["gap_after"]), _pct(comp["strong_under_fast"]["gap_after"])]
    rows.append(gap)
    return _table(header, rows)


def _spread(seats: list[dict], games: int) -> str:
    return spread_words(seat_spread([x["win_rate"] for x in seats], int(games)))


def judged_balanced(j: dict, strong: ReportData, fast: ReportData,
                    convergence: dict | None = None) -> tuple[str, list]:
    """"Balanced?" under both tables: the strong table with the compensation verified under
    it, and the fast table with that same compensation (what the game ships with), its own
    compensation named beside; with ``convergence`` (convergence.json), whether the strong
    verdicts hold under the generation before the shipped model. Returns the section and the
    two answers."""
    t = j["tables"]
    sb = replace(strong.balance, judge=f"strong table ({t['strong']['strategy']})")
    comp = j.get("compensation") or {}
    fb = table_balance(f"fast table ({t['fast']['strategy']})", fast.summary, fast.cards,
                       float(fast.cards_average["iwd"]), comp.get("strong_under_fast"))
    notes = []
    if comp:
        cf = comp["fast"]
        notes.append(f"The strong table's compensation `{comp['strong']['suggested']}` is "
                     f"the one both answers use; the fast table alone would want "
                     f"`{cf['suggested']}` ({_spread_after(cf)} there).")
    else:
        notes.append("Seats as played: no compensation was verified in this run (`simsym run "
                     "--verify-compensation` verifies one under both tables).")
    if convergence:
        from simsym.analysis.convergence import summary_words

        notes.append(f"**For better players?** {summary_words(convergence)} "
                     "[Verdict by verdict](#does-it-hold-for-better-players).")
    return balanced_section([sb, fb], notes), [sb, fb]


def _first_estimate(first: dict | None) -> str:
    """How the printed compensation was found, when it refines the mean-score estimate."""
    if not first:
        return ""
    return (f" It refines the estimate that evens the mean scores, `{first['suggested']}`, "
            f"from the win shares that one gave on other fresh deals (seed {first['seed']}: "
            f"{_pct(first['gap_after'])} pp); the deals it is verified on chose nothing.")


def opening(run_dir: Path, strong_cards: pd.DataFrame, fast_cards: pd.DataFrame) -> str:
    """The report's first section for a run directory holding judges.json."""
    from simsym.run.judged import FAST_DIR, JUDGES_JSON

    j = json.loads((Path(run_dir) / JUDGES_JSON).read_text(encoding="utf-8"))
    t = j["tables"]
    labels = {role: t[role]["strategy"] for role in ("fast", "strong")}
    n = len(t["strong"]["seats"])
    fair = j["skill"]["fair_share"]
    spreads = {role: _spread(t[role]["seats"], j["games"]) for role in ("strong", "fast")}
    seats = (f"**Seats:** the best seat's win share minus the worst's is "
             f"{spreads['strong']} under the strong table ({labels['strong']}) and "
             f"{spreads['fast']} under the fast table ({labels['fast']}), against a "
             f"fair share of {_pct(fair)}% each.")
    comp = j.get("compensation")
    if comp:
        cs, cx, cf = comp["strong"], comp["strong_under_fast"], comp["fast"]
        comp_text = (f"**Compensation:** start the seats at `{cs['suggested']}` points (seat 0 "
                     f"first). Verified on {cs['games']:,} fresh deals (seed {cs['seed']}), it "
                     f"takes the strong table's spread from {_pct(cs['gap_before'])} pp to "
                     f"{_spread_after(cs)} and leaves the fast table's at "
                     f"{_spread_after(cx)} (the fast table alone would want "
                     f"`{cf['suggested']}`: {_spread_after(cf)} there)."
                     + _first_estimate(comp.get("strong_first")))
    else:
        comp_text = ("**Compensation:** not verified in this run (`simsym run "
                     "--verify-compensation` verifies it under both tables).")
    k = j["skill"]
    skill = (f"**Skill:** one {k['strong']} player against {n - 1} {k['fast']} players wins "
             f"{_pct(k['win_rate'])}%{_ci(*k['ci95'])} of {k['games']:,} games (seats "
             f"rotated), against a fair share of {_pct(k['fair_share'])}%: the better player "
             f"wins {k['win_rate'] / k['fair_share']:.2f} times its share.")
    cards = _cards_text(fast_cards, strong_cards, labels)
    bullets = "\n".join(f"- {x}" for x in [seats, comp_text, *cards, skill])
    return "\n\n".join([
        "## Verdict",
        f"Judged by two mirror tables on the same {j['games']:,} deals: the **strong** table "
        f"({n} {labels['strong']} players: the verdict to trust) and the **fast** table "
        f"({n} {labels['fast']} players, scripted). The fast table's full report: "
        f"[{FAST_DIR}/report.md]({FAST_DIR}/report.md).",
        bullets, _seats_table(j), "![Both tables' seats](judges-seats.png)"])
