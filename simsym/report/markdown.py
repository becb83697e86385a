"""report.md: the verdict first, then tables and figures, then how to reproduce the run.

No timestamps or timings: the same run directory always gives the same text.
"""

from __future__ import annotations

import json
import math

import pandas as pd

from simsym.analysis.balance import (RULE, Balance, balance_lines, fmt_pp, seat_spread,
                                    spread_words)
from simsym.model.rules import RuleOptions
from simsym.report.data import ReportData

UP, DOWN = "▲", "▼"
TOP_CARDS = 3  # cards named in the verdict on each side


def _pct(x: float, digits: int = 1) -> str:
    if x is None or math.isnan(x):
        return "–"
    return f"{x * 100:.{digits}f}"


def _pp(x: float) -> str:
    return "–" if x is None or math.isnan(x) else f"{x * 100:+.1f}"


def _ci(lo: float, hi: float, signed: bool = False) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return ""
    f = _pp if signed else _pct
    return f" ({f(lo)} to {f(hi)})" if signed else f" ({f(lo)}–{f(hi)})"


def _mark(m: str) -> str:
    return {"+": f" {UP}", "-": f" {DOWN}"}.get(m, "")


def _rate(r, name: str) -> str:
    return f"{_pct(r[name])}{_ci(r[f'{name}_lo'], r[f'{name}_hi'])}{_mark(r[f'{name}_mark'])}"


def _num(x: float, digits: int = 2) -> str:
    return "–" if math.isnan(x) else f"{x:.{digits}f}"


def _table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or "l" + "r" * (len(header) - 1)
    sep = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |"
              for row in rows]
    return "\n".join(lines)


# --- balanced? and the words every report uses --------------------------------------------

GLOSSARY_ANCHOR = "#glossary"
GLOSSARY = """\
## Glossary

- **pp**: percentage points, the unit of every difference of two shares (25.0% to 27.5% is
  +2.5 pp).
- **Card strength**: a card's IWD minus the table's average IWD, in pp, with its 95% interval:
  the one number a card is judged by. Raw IWD is above zero for nearly every card (a player who
  sees more cards wins more), so a card is strong or weak only against the average.
- **IWD** (improvement when drawn): GIH WR minus GNS WR, in pp. **GIH WR**: the win share of
  the players who held the card at some point; **OH WR**: dealt it in the opening hand;
  **GD WR**: drew it later; **GNS WR**: never held it.
- **Win share**: wins counted with ties split (a tie of k players gives each 1/k); the fair
  share is 1 / players.
- **Paired**: two scenarios played on the same deals, so the luck of the deal cancels in
  their difference; its interval comes from the spread of that difference over batches of
  games.
- **Holm**: the correction for testing many things at once.
- **The one rule**: {rule} (a card is strong or weak beyond noise likewise, against the
  table's average); an interval that excludes 0 without that is not told apart from noise
  once every test is counted.
- **Balanced**: every card's strength within the card band of the table's average, and the
  best seat's win share within the seat band of the worst's (3 pp each unless the scenario's
  `balance:` says otherwise); *not decided* where an estimate is outside a band but within
  noise of its edge.""".replace("{rule}", f"**{RULE}**")


def balanced_section(balances: list[Balance], notes: list[str] = ()) -> str:
    """The report's first section: "Balanced?" under each table, criterion by criterion."""
    c = balances[0].criteria
    intro = (f"Criteria (the scenario's `balance:`): every card's strength within "
             f"±{c.card_band * 100:g} pp of the table's average; the best seat's win share "
             f"within {c.seat_band * 100:g} pp of the worst's, with the seat compensation "
             f"verified on fresh deals where there is one. \"Beyond noise\" is the one rule "
             f"of the [glossary]({GLOSSARY_ANCHOR}).")
    parts = ["## Balanced?", intro]
    for b in balances:
        lines = balance_lines(b)
        parts.append(f"- {lines[0]}\n" + "\n".join(f"  - {x}" for x in lines[1:]))
    parts += [f"- {n}" for n in notes]
    return "\n\n".join(parts)


# --- verdict ---------------------------------------------------------------------------------

def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _seat_verdict(d: ReportData) -> str:
    t, eq = d.seats, d.equality
    fair = t["fair_share"].iloc[0]
    best = t.loc[t["win_rate"].idxmax()]
    worst = t.loc[t["win_rate"].idxmin()]
    sp = seat_spread(t["win_rate"].to_numpy(), int(d.summary["games"]))
    test = (f"chi-square {eq.statistic:.1f} on {eq.dof} degrees of freedom, "
            f"{_p_text(eq.p_value)}")
    head = (f"**Seats:** seat {best['seat']} wins {_pct(best['win_rate'])}%"
            f"{_ci(best['win_rate_lo'], best['win_rate_hi'])} of the games against a fair "
            f"share of {_pct(fair)}% ({_pp(best['win_rate'] - fair)} pp); "
            f"seat {worst['seat']} wins {_pct(worst['win_rate'])}%"
            f"{_ci(worst['win_rate_lo'], worst['win_rate_hi'])} "
            f"({_pp(worst['win_rate'] - fair)} pp): a spread of "
            f"{spread_words(sp)}.")
    if eq.rejects:
        return f"{head} The seats are **not equal** ({test})."
    return f"{head} No evidence that the seats differ ({test})."


def _deals(chk: dict) -> str:
    """Which deals a compensation check played."""
    if chk.get("deals") == "fresh":
        return f"{chk['games']:,} fresh deals (seed {chk['seed']})"
    return f"the same {chk['games']:,} deals"


def _comp_verdict(d: ReportData) -> str:
    c = d.compensation
    chk = d.compensation_check
    if chk:
        return (f"**Compensation:** starting the seats at `{chk['suggested']}` points (seat 0 "
                f"first) was verified by a re-run on {_deals(chk)}: the spread "
                f"between the best and worst seat's win share goes from "
                f"{_pct(chk['gap_before'])} to {_spread_after(chk)} "
                f"([details](#seats-with-the-suggested-compensation)).")
    if not any(c):
        return ("**Compensation:** none suggested (every seat's mean score is within half a "
                "point of the best seat's).")
    return (f"**Compensation:** start the seats at `{c}` points (seat 0 first) to even their "
            f"mean scores: `rules: {{seat_compensation: {c}}}` in a scenario; verify it with a "
            f"re-run.")


def _spread_after(chk: dict) -> str:
    """The spread a verified compensation left, in pp with its interval."""
    return spread_words(seat_spread([x["win_rate"] for x in chk["seats_after"]],
                                    int(chk["games"])))


def card_list(df: pd.DataFrame) -> str:
    """Cards named in the one frame: ``Orgy -7.4 pp (-7.7 to -7.1)``."""
    return ", ".join(f"{r['card']} {fmt_pp(r['strength'], r['strength_lo'], r['strength_hi'])}"
                     for _, r in df.iterrows())


def card_counts(c: pd.DataFrame) -> str:
    """How many cards are strong and weak beyond noise: the same count in every report."""
    up, down = (c["verdict"] == "strong").sum(), (c["verdict"] == "weak").sum()
    near = int(c["interval_only"].sum())
    text = f"{up} strong and {down} weak beyond noise, of {len(c)} cards"
    if near:
        text += (f"; {near} more whose interval excludes the average but not told apart "
                 f"from noise once {len(c)} cards are tested")
    return text


def _cards_verdict(d: ReportData) -> str:
    c, avg = d.cards, d.cards_average["iwd"]
    strong = c[c["verdict"] == "strong"].head(TOP_CARDS)
    weak = c[c["verdict"] == "weak"].iloc[::-1].head(TOP_CARDS)
    parts = [f"**Cards** ([strength](#glossary): IWD minus the table's average of "
             f"{_pp(avg)} pp):"]
    if len(strong):
        parts.append(f"strongest: {card_list(strong)};")
    if len(weak):
        parts.append(f"weakest: {card_list(weak)}.")
    if not len(strong) and not len(weak):
        parts.append("no card's strength differs from the average beyond noise.")
    parts.append(f"({card_counts(c)}.)")
    return " ".join(parts)


def verdict(d: ReportData) -> str:
    s = d.summary
    lines = [f"- {_seat_verdict(d)}", f"- {_comp_verdict(d)}", f"- {_cards_verdict(d)}"]
    if len(d.strategies) > 1:
        st = d.strategies.sort_values("win_rate", ascending=False, kind="mergesort")
        lines.append("- **Strategies:** " + "; ".join(
            f"{r['strategy']} {_pct(r['win_rate'])}%{_mark(r['mark'])}"
            for _, r in st.iterrows()) + f" (fair share {_pct(1 / s['players'])}%).")
    if d.findings:
        n = len(d.findings)
        lead = "" if n == 1 else f"{n} findings, e.g. "
        lines.append(f"- **Degenerate play:** {lead}{d.findings[0]} "
                     "See [below](#degenerate-play).")
    else:
        lines.append("- **Degenerate play:** none found.")
    return "\n".join(lines)


# --- sections --------------------------------------------------------------------------------

def seats_section(d: ReportData, image: str) -> str:
    rows = [[r["seat"], r["strategy"], f"{r['wins']:,.1f}",
             f"{_pct(r['win_rate'])}{_ci(r['win_rate_lo'], r['win_rate_hi'])}{_mark(r['mark'])}",
             f"{r['wr_fs']:.2f}", f"{r['diff_pp']:+.1f}", f"{r['mean_score']:.2f}",
             f"{r['sd_score']:.2f}", f"{r['mean_margin']:+.2f}", f"{r['symposia_per_game']:.2f}",
             f"{c:d}"]
            for (_, r), c in zip(d.seats.iterrows(), d.compensation)]
    eq = d.equality
    return "\n\n".join([
        "## Seats",
        _table(["seat", "strategy", "wins", "win share % (95% CI)", "WR / fair share",
                "vs fair (pp)", "mean score", "sd score", "mean margin", "Symposia a game",
                "suggested start"], rows, "llrrrrrrrrr"),
        f"All seats equal? Pearson's chi-square goodness of fit of the seats' wins "
        f"({', '.join(f'{w:,.1f}' for w in eq.observed)}) against {eq.expected:,.1f} each: "
        f"chi-square = {eq.statistic:.2f}, {eq.dof} degrees of freedom, "
        f"{_p_text(eq.p_value)}.",
        f"![Win share per seat]({image})",
    ])


def strategies_section(d: ReportData, image: str) -> str:
    rows = [[r["strategy"], f"{r['games']:,}", f"{r['wins']:,.1f}",
             f"{_pct(r['win_rate'])}{_ci(r['win_rate_lo'], r['win_rate_hi'])}{_mark(r['mark'])}",
             f"{r['wr_fs']:.2f}", f"{r['mean_score']:.2f}", f"{r['mean_margin']:+.2f}",
             f"{r['symposia_per_game']:.2f}"]
            for _, r in d.strategies.iterrows()]
    return "\n\n".join([
        "## Strategies",
        _table(["strategy", "player-games", "wins", "win share % (95% CI)", "WR / fair share",
                "mean score", "mean margin", "Symposia a game"], rows),
        f"![Win share per strategy]({image})",
    ])


CARD_HEADER = ["#", "card", "category", "strength pp (95% CI)", "IWD pp (95% CI)",
               "GIH WR %", "GIH / fair",
               "OH WR %", "GD WR %", "GNS WR %", "play rate %", "dead rate %",
               "mean points", "held"]


def _plain_rate(r, name: str) -> str:
    return f"{_pct(r[name])}{_ci(r[f'{name}_lo'], r[f'{name}_hi'])}"


def card_rows(df: pd.DataFrame) -> list[list[str]]:
    return [[i + 1, r["card"], r["category"],
             f"{_pp(r['strength'])}{_ci(r['strength_lo'], r['strength_hi'], True)}"
             f"{_mark(r['iwd_mark'])}",
             f"{_pp(r['iwd'])}{_ci(r['iwd_lo'], r['iwd_hi'], True)}",
             _plain_rate(r, "gih_wr"), _num(r["gih_wr_fs"]), _plain_rate(r, "oh_wr"),
             _plain_rate(r, "gd_wr"), _plain_rate(r, "gns_wr"), _plain_rate(r, "play_rate"),
             _plain_rate(r, "dead_rate"), _num(r["mean_points"]), f"{int(r['held_n']):,}"]
            for i, (_, r) in enumerate(df.iterrows())]


def _averages_line(avg: pd.Series, players: int) -> str:
    return (f"Table averages (card strength is IWD minus the first): IWD {_pp(avg['iwd'])} "
            f"pp, GIH WR {_pct(avg['gih_wr'])}%, OH WR {_pct(avg['oh_wr'])}%, GD WR "
            f"{_pct(avg['gd_wr'])}%, GNS WR {_pct(avg['gns_wr'])}%, play rate "
            f"{_pct(avg['play_rate'])}%, dead rate {_pct(avg['dead_rate'])}%, mean points "
            f"{_num(avg['mean_points'])}; fair share {_pct(1 / players)}%.")


CARD_NOTES = """\
How to read it (every win is a win share: a tie between k winners gives each 1/k; the terms are
in the [glossary](#glossary)):

- **strength** = IWD minus the table's average IWD, in pp: the one frame every report names a
  card in. The table is ranked by it. {up}/{down}: strong/weak beyond noise, by the one rule
  (Holm's correction over the {n} cards); no marker: not told apart from the average.
- **IWD** (improvement when drawn) = GIH WR − GNS WR, in pp, with a 95% interval by
  Newcombe's hybrid score method (the two Wilson intervals combined, the two groups taken as
  independent).
- **GIH WR**: win share of the player-games in which the player held the card at any time.
  **OH WR**: dealt it in the opening hand of 9. **GD WR**: drew it later (not in the opening
  hand). **GNS WR**: never held it. Each with a 95% Wilson interval.
- **WR / fair share** divides a win rate by the fair share 1/players (1.00 = an average player),
  so tables with different player counts compare.
- **play rate**: of the player-games that held the card, the share that played it at least
  once; **dead rate** = held but never played (1 − play rate). **mean points**: the mean
  score of the Symposia the card was played in.
- **Bias**: a player who sees more cards (longer games, more Symposia, more draws and trades)
  holds more kinds of card, and those players win more. So every card's GIH WR and GD WR sit
  above the fair share and its GNS WR below it, and IWD is positive on average: hence
  strength, against the table's average, not against zero or the fair share."""


def cards_section(d: ReportData, image: str) -> str:
    players = d.summary["players"]
    return "\n\n".join([
        "## Cards",
        "Card strength pooled over every strategy"
        + (" (per strategy [below](#cards-per-strategy))" if d.several_strategies else "")
        + "; all cards as CSV: [cards_strength.csv](cards_strength.csv).",
        _table(CARD_HEADER, card_rows(d.cards), "rll" + "r" * 11),
        _averages_line(d.cards_average, players),
        CARD_NOTES.format(up=UP, down=DOWN, n=len(d.cards)),
        f"![Card strength with 95% intervals]({image})",
    ])


def cards_by_strategy_section(d: ReportData, images: list[str]) -> str:
    players = d.summary["players"]
    parts = ["## Cards per strategy",
             "The same metrics within each strategy's own player-games, against that "
             "strategy's own averages."]
    bs = d.by_strategy
    for (label, avg), image in zip(d.by_strategy_average.iterrows(), images):
        g = bs[bs["strategy"] == label]
        parts += [f"### {label}", _averages_line(avg, players),
                  f"![Card strength, {label}]({image})",
                  "<details><summary>table</summary>",
                  _table(CARD_HEADER, card_rows(g), "rll" + "r" * 11), "</details>"]
    return "\n\n".join(parts)


def distributions_section(d: ReportData, scores: str | None, lengths: str | None,
                          points: str) -> str:
    s = d.summary
    parts = ["## Scores, game length and Symposion types",
             f"{s['games']:,} games, {s['mean_turns']:.1f} turns and "
             f"{s['trades_per_game']:.2f} trades a game on average; {s['stalled']:,} stalled."]
    if scores:
        parts.append(f"![Final-score distribution per seat]({scores})")
    if lengths:
        parts.append(f"![Game-length distribution]({lengths})")
    rows = [[r["strategy"], f"{r['points_intellectual']:.2f}", f"{r['points_social']:.2f}",
             f"{r['points_hedonistic']:.2f}"] for _, r in d.strategies.iterrows()]
    rows += [[f"seat {r['seat']}", f"{r['points_intellectual']:.2f}",
              f"{r['points_social']:.2f}", f"{r['points_hedonistic']:.2f}"]
             for _, r in d.seats.iterrows()]
    parts += ["Mean points a player-game by Symposion type:",
              _table(["strategy / seat", "intellectual", "social", "hedonistic"], rows),
              f"![Points by Symposion type]({points})"]
    return "\n\n".join(parts)


def findings_section(d: ReportData) -> str:
    body = "\n".join(f"- {f}" for f in d.findings) if d.findings else "None found."
    return ("## Degenerate play\n\n" + body + "\n\nChecked: a Symposion type under 1% of the "
            "points; a strategy that never wins or whose win-share interval stays under a "
            "quarter of the fair share; a card never held, or held in at least 20 player-games "
            "and dead (held, never played) in at least 95% of them; stalled games.")


def run_section(d: ReportData) -> str:
    s = d.summary
    defaults = RuleOptions().as_dict()
    rows = []
    for k, v in s.get("rules", {}).items():
        changed = k in defaults and defaults[k] != v
        value = json.dumps(v)
        rows.append([f"`{k}`", f"**{value}**" if changed else value,
                     json.dumps(defaults[k]) if changed else ""])
    return "\n\n".join([
        "## The run",
        _table(["", ""], [["scenario", s["scenario"]], ["seed", s["seed"]],
                          ["games", f"{s['games']:,}"], ["players", s["players"]],
                          ["seating", s["seating"]],
                          ["strategies", ", ".join(st["strategy"] for st in s["strategies"])]],
               "ll"),
        "Rules (bold: changed from the default):",
        _table(["rule", "value", "default"], rows, "lll"),
        "Reproduce it (the results do not depend on `--jobs` or `--chunk-size`):",
        "```sh\n" + "\n".join(d.command) + "\n```",
    ])


def quality_section(blocks: dict, image: str | None) -> str:
    """"How the game plays": each game-quality measure (docs/game-engine.md section 8) with
    its 95% interval, one column a table (``blocks``: its label -> its summary's "quality")."""
    from simsym.analysis.quality import fmt_measure, quality_tables

    df = quality_tables(blocks)
    labels = list(blocks)
    rows = []
    for measure, g in df.groupby("measure", sort=False):
        by = {r.judge: fmt_measure(r.estimate, r.low, r.high, r.unit) for r in g.itertuples()}
        rows.append([measure, g["unit"].iloc[0], *[by[label] for label in labels]])
    parts = [
        "## How the game plays",
        "Beside who wins, how the games went, under each table, on the run's games (every "
        "interval a 95% interval). The leader at the end of a turn is the one seat with the "
        "strictly highest score (a tie at the top: no leader); a lead change is a new leader; "
        "a game is decided at the first turn from whose end on its winner leads at every end "
        "of turn (a shared win: at its last turn); the winner's deficit is the best other "
        "seat's score minus the winner's; a run is one pass through the deck. A column "
        "\"with [...]\" is the same table with the seat compensation verified on fresh deals "
        "(starting points change who leads early). Each measure: "
        "`simsym docs guide`, \"How the game plays\".",
        _table(["measure", "unit", *labels], rows, "ll" + "r" * len(labels)),
    ]
    if image:
        parts.append(f"![How the game plays]({image})")
    return "\n\n".join(parts)


def render(d: ReportData, images: dict, opening: str | None = None,
           balanced: str | None = None, quality: str | None = None,
           convergence: str | None = None) -> str:
    """The report: "Balanced?" first (``balanced``, a judged run's under both tables; this
    table's alone otherwise), the glossary, then the verdict; a judged run's ``opening``
    (both tables' verdicts) comes before the strong table's own, and the rest then describes
    the strong table; ``convergence``, whether the strong verdicts hold for better players,
    follows "Balanced?"."""
    s = d.summary
    parts = [f"# Balance report: {s['scenario']}",
             f"{s['games']:,} games, {s['players']} players, {s['seating']} seating, "
             f"seed {s['seed']}. Win shares are compared with the fair share 1/{s['players']} = "
             f"{_pct(1 / s['players'])}%; every interval is a 95% interval; every difference "
             f"is in pp.",
             balanced or balanced_section([d.balance]), *([convergence] if convergence else []),
             GLOSSARY]
    if opening:
        label = d.strategies["strategy"].iloc[0]
        parts += [opening, *([quality] if quality else []),
                  f"## The strong table ({label}) in detail",
                  f"Everything below is the strong table's ({label} in every seat).",
                  verdict(d)]
    else:
        parts += ["## Verdict", verdict(d), *([quality] if quality else [])]
    parts.append(seats_section(d, images["seats"]))
    if len(d.strategies) > 1:
        parts.append(strategies_section(d, images["strategies"]))
    parts.append(cards_section(d, images["cards"]))
    if d.several_strategies:
        parts.append(cards_by_strategy_section(d, images["cards_by_strategy"]))
    parts += [distributions_section(d, images.get("scores"), images.get("lengths"),
                                    images["points"]),
              findings_section(d)]
    if d.census:
        parts.append(census_section(d.census))
    if d.compensation_check:
        parts.append(compensation_section(d.compensation_check))
    parts.append(run_section(d))
    return "\n\n".join(parts) + "\n"


def compensation_section(chk: dict) -> str:
    rows = []
    for b, a in zip(chk["seats_before"], chk["seats_after"]):
        rows.append([str(b["seat"]), str(chk["suggested"][b["seat"]]),
                     f"{_pct(b['win_rate'])}{_ci(*b['ci95'])}",
                     f"{_pct(a['win_rate'])}{_ci(*a['ci95'])}",
                     f"{b['mean_score']:.2f}", f"{a['mean_score']:.2f}"])
    return "\n\n".join([
        "## Seats with the suggested compensation",
        f"The run was repeated on {_deals(chk)} with "
        f"`rules: {{seat_compensation: {chk['suggested']}}}`. Best-minus-worst seat spread: "
        f"{_pct(chk['gap_before'])} pp before, {_spread_after(chk)} after.",
        _table(["seat", "starts with", "win share % before", "win share % after",
                "mean score before", "mean score after"], rows)])


def census_section(c: dict) -> str:
    from simsym.analysis.census import census_findings

    rows = [[t, f"{v['plays']:,}", _pct(v["share"]),
             "–" if v["mean_score"] is None else f"{v['mean_score']:.2f}",
             "–" if v["mean_cards"] is None else f"{v['mean_cards']:.2f}"]
            for t, v in c["by_type"].items()]
    social = c["by_type"]["social"]["plays"]
    text = [
        "## Symposia census",
        f"Every Symposion of the first {c['games']:,} games, replayed from their logs and "
        f"broken down: {c['symposia']:,} Symposia.",
        _table(["type", "Symposia", "share %", "mean score", "mean cards"], rows),
        f"Social Symposia scoring a bonus: {c['social_with_bonus']:,} of {social:,}; with the "
        f"full all-equal bonus: {c['social_full_bonus']:,}; **wine only** (Intellectual = "
        f"Hedonistic = 0, bonus for nothing): {c['social_wine_only_bonus']:,} "
        f"({_pct(c['wine_only_bonus_share_of_social'])}% of Social Symposia)."]
    found = census_findings(c)
    if found:
        text.append("\n".join(f"- {f}" for f in found))
    return "\n\n".join(text)
