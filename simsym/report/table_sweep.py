"""sweep.md and its figures for a sweep over strategy tables (simsym.studies.table_sweep),
and the "Balanced?" table every sweep's page opens with (one row a swept value or table).

"Balanced?" first (each table's answer under the scenario's `balance:` criteria), the
glossary, then the verdict (seat spread per table, ranking agreement with the first table, how
many verdicts flip), the seats, the agreement of every pair and the flips. Card strength is
IWD minus the table's average IWD, in pp, with its interval. No timings: the same sweep always
gives the same text.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from simsym.analysis.balance import MET, NOT_MET, Balance, Criteria
from simsym.report.markdown import DOWN, GLOSSARY, GLOSSARY_ANCHOR, UP, _ci, _pct, _pp, _table
from simsym.report.plots import plt, save

VERDICT_MARK = {"strong": f" {UP}", "weak": f" {DOWN}", "": ""}
FLIPS_SHOWN = 15  # flips listed in sweep.md for each table against the first


# --- Balanced?, one row a value or table ---------------------------------------------------

def answer_words(b: Balance) -> str:
    """One table's answer in one line: ``no (cards not met, seats met)``."""
    return f"{b.answer} (cards {b.cards_state}, seats {b.seats_state})"


def balance_row(b: Balance) -> dict:
    """One table's answer as flat columns (a sweep's row in sweep.csv): the answer, each
    criterion's state, the cards outside the card band (beyond noise, strong and weak; within
    noise of its edge), the cards tested, and the seat spread the seat criterion reads, with
    its 95% interval (fractions)."""
    s = b.spread
    return {"balanced": b.answer, "cards_state": b.cards_state,
            "cards_strong_outside": len(b.outside("strong")),
            "cards_weak_outside": len(b.outside("weak")),
            "cards_edge": int((b.cards["band"] == "edge").sum()), "cards_tested": b.family,
            "seats_state": b.seats_state, "seat_spread": s.value, "seat_spread_lo": s.lo,
            "seat_spread_hi": s.hi}


def _cards_cell(r) -> str:
    strong, weak = int(r["cards_strong_outside"]), int(r["cards_weak_outside"])
    edge, n = int(r["cards_edge"]), int(r["cards_tested"])
    if r["cards_state"] == MET:
        return f"met (all {n} within the band)"
    out = []
    if strong + weak:
        out.append(f"{strong + weak} of {n} outside the band beyond noise ({strong} too "
                   f"strong, {weak} too weak)")
    if edge:
        out.append(f"{edge} of {n} outside within noise of its edge")
    return f"{r['cards_state']}: " + "; ".join(out)


def _answer_cell(r) -> str:
    return f"{r['balanced']} (cards {r['cards_state']}, seats {r['seats_state']})"


def balanced_table(criteria: Criteria, rows, what: str, data: str) -> str:
    """A sweep's opening section: "## Balanced?" with one row a value (or table) in ``rows``
    (mappings with ``value`` and the columns of :func:`balance_row`); ``what`` names a row
    ('value', 'table'), ``data`` the file with every row's answer in full."""
    c = criteria
    intro = (f"Criteria (the scenario's `balance:`): every card's strength within "
             f"±{c.card_band * 100:g} pp of the table's average (cards), and the best seat's "
             f"win share within {c.seat_band * 100:g} pp of the worst's (seats), as played; "
             f"each criterion is {MET}, {NOT_MET} or not decided (outside a band but within "
             f"noise of its edge); \"beyond noise\" is the one rule of the "
             f"[glossary]({GLOSSARY_ANCHOR}). The seat spread's interval is the one the seat "
             "criterion is judged on (multinomial, over the games of that "
             f"{what}). Every {what}'s answer in full: {data}.")
    body = [[str(r["value"]), _answer_cell(r), _cards_cell(r),
             f"{r['seat_spread'] * 100:.1f} ({r['seat_spread_lo'] * 100:.1f} to "
             f"{r['seat_spread_hi'] * 100:.1f})"] for r in rows]
    return "\n\n".join(["## Balanced?", intro,
                         _table([what, "balanced?", "cards", "seats: spread pp (95% CI)"],
                                body, "lllr")])


def balanced_and_glossary(criteria: Criteria, rows, what: str, data: str) -> list[str]:
    """:func:`balanced_table` and the glossary, as the lines a page opens with."""
    return [balanced_table(criteria, rows, what, data), "", GLOSSARY, ""]


def _r2(x) -> str:
    return "–" if x is None or math.isnan(x) else f"{x:.2f}"


def _rci(v, lo, hi) -> str:
    """A rank correlation with its interval."""
    return f"{_r2(v)} ({_r2(lo)} to {_r2(hi)})"


def _seat_cell(s: dict, fair: float) -> str:
    lo, hi = s["ci95"]
    mark = f" {UP}" if lo > fair else f" {DOWN}" if hi < fair else ""
    return f"{_pct(s['win_rate'])}{_ci(lo, hi)}{mark}"


def _verdict_section(res) -> list[str]:
    first = res.tables[0].label
    spreads = ", ".join(f"{r['table']} {_pct(r['spread'])} pp{_ci(r['lo'], r['hi'])}"
                        for _, r in res.spread.iterrows())
    lines = ["## Verdict", "", f"- **Seat spread** (best − worst seat's win share): {spreads}."]
    vs_first = res.agreement[res.agreement["a"] == first]
    if len(vs_first):
        lines.append(f"- **Card ranking** (strength) agreement with {first}, Spearman: "
                     + ", ".join(f"{r['b']} "
                                 f"{_rci(r['spearman'], r['spearman_lo'], r['spearman_hi'])}"
                                 for _, r in vs_first.iterrows()) + ".")
    flipped = sorted(set(res.flips["card"]))
    if flipped:
        lines.append(f"- **Verdict flips**: {len(flipped)} cards are strong or weak beyond "
                     f"noise under one table and not under another ({len(res.flips)} flips "
                     f"over the pairs of tables; {int(res.flips['moved'].sum())} of them with "
                     "the card's strength moved beyond noise).")
    else:
        lines.append("- **Verdict flips**: none; every card keeps its verdict under every "
                     "table.")
    return lines


def _seats_section(res) -> list[str]:
    fair = res.tables[0].summary["fair_share"]
    players = res.tables[0].summary["players"]
    header = ["", *[t.label for t in res.tables]]
    rows = [[f"seat {i}", *[_seat_cell(t.summary["seats"][i], fair) for t in res.tables]]
            for i in range(players)]
    rows.append(["spread (best − worst, pp)", *[f"{_pct(r['spread'])}{_ci(r['lo'], r['hi'])}"
                                            for _, r in res.spread.iterrows()]])
    rows.append(["mean game length (turns)",
                 *[f"{t.summary['mean_turns']:.1f}" for t in res.tables]])
    rows.append(["cards strong / weak", *[
        f"{(t.cards['iwd_verdict'] == 'strong').sum()} / "
        f"{(t.cards['iwd_verdict'] == 'weak').sum()}" for t in res.tables]])
    rows.append(["average IWD, raw (pp)", *[_pp(t.average_iwd) for t in res.tables]])
    return ["## Seats", "",
            f"Win share % per seat (95% Wilson interval; {UP}/{DOWN}: wholly above/below the "
            f"fair share {_pct(fair)}%).", "", _table(header, rows), "",
            "![Win share per seat and table](sweep.png)"]


def _agreement_section(res) -> list[str]:
    rows = [[r["a"], r["b"], str(r["cards"]),
             _rci(r["spearman"], r["spearman_lo"], r["spearman_hi"]),
             _rci(r["kendall"], r["kendall_lo"], r["kendall_hi"]), str(r["flips"]),
             str(r["moved"])] for _, r in res.agreement.iterrows()]
    return ["## Card ranking agreement", "",
            "Rank correlation of the cards' strength between two tables (1: the same order; 0: "
            "unrelated), with a 95% bootstrap interval over blocks of deals.", "",
            _table(["table A", "table B", "cards", "Spearman (95% CI)",
                    "Kendall's tau (95% CI)", "verdict flips", "of them moved"], rows,
                   "llrrrrr")]


def _strength_cell(r) -> str:
    """A card's strength under one table, with its interval and verdict mark."""
    return (f"{_pp(r['strength'])}{_ci(r['strength_lo'], r['strength_hi'], signed=True)}"
            f"{VERDICT_MARK[r['iwd_verdict']]}")


def _flips_section(res) -> list[str]:
    lines = ["## Cards whose verdict flips", ""]
    if not len(res.flips):
        return lines + ["No card is strong or weak beyond noise under one table and not "
                        "under another."]
    flipped = set(res.flips["card"])
    names = [c for c in res.tables[0].cards.index if c in flipped]
    rows = [[n, *[_strength_cell(t.cards.loc[n]) for t in res.tables]] for n in names]
    lines += ["Card strength under each table: the card's IWD minus that table's average IWD, "
              f"pp (95% interval); {UP}/{DOWN}: strong/weak beyond noise (after Holm's "
              "correction over the cards).", "",
              _table(["card", *[t.label for t in res.tables]], rows), "",
              f"Below, each flip against {res.tables[0].label} (the largest {FLIPS_SHOWN} a "
              "table), with the paired change of the card's strength (its IWD minus its "
              "table's average) between the two tables (batch means over the shared blocks "
              "of deals; beyond noise after Holm's correction over the cards). A flip that "
              "did not move is a card near the line of noise under both tables.", ""]
    first = res.tables[0].label
    for _, g in res.flips[res.flips["a"] == first].groupby("b", sort=False):
        g = g.reindex(g["change"].abs().sort_values(ascending=False, kind="mergesort").index)
        more = len(g) - FLIPS_SHOWN
        lines += [f"### A = {first}, B = {g['b'].iloc[0]}: {len(g)} flips, "
                  f"{int(g['moved'].sum())} with the card's standing moved beyond noise", "",
                  _table(["card", "verdict A", "verdict B",
                          "change of strength, B − A, pp (95% CI)",
                          "Holm p", "moved"],
                         [[r["card"], r["verdict_a"] or "–", r["verdict_b"] or "–",
                           f"{_pp(r['change'])} ({_pp(r['change_lo'])} to "
                           f"{_pp(r['change_hi'])})", f"{r['change_p_holm']:.3g}",
                           "yes" if r["moved"] else "no"]
                          for _, r in g.head(FLIPS_SHOWN).iterrows()], "lllrrl"), ""]
        if more > 0:
            lines += [f"... and {more} smaller changes in sweep_flips.csv.", ""]
    return lines + ["Every flip of every pair of tables: [sweep_flips.csv](sweep_flips.csv)."]


def markdown(res) -> str:
    t0 = res.tables[0]
    answers = [{"value": t.label, **balance_row(t.balance)} for t in res.tables]
    lines = [f"# Sweep: strategy tables ({res.scenario_name})", ""]
    lines += balanced_and_glossary(t0.balance.criteria, answers, "table",
                                   "[sweep.json](sweep.json) (each table's `balanced`)")
    lines += ["## How the tables were played", "",
             f"Every table plays the same {res.games:,} games (seed {res.seed}, game indices "
             f"0..{res.games - 1}: the same deals), as a mirror table: every seat plays the "
             f"table's strategy. Intervals are 95%: Wilson for a win share; for the seat spread "
             f"and the rank agreement a bootstrap (BCa) over {res.blocks} blocks of "
             f"deals, resampled jointly for all tables. A card is strong ({UP}) or weak "
             f"({DOWN}) under a table when its strength (IWD minus that table's average IWD) "
             f"is beyond noise after Holm's correction for testing all {len(t0.cards)} cards, "
             "the rule of the card report and `simsym compare`. Which table to trust for "
             "what: `simsym docs guide` (docs/designer-guide.md), section 5.", ""]
    lines += _verdict_section(res) + [""] + _seats_section(res) + [""]
    lines += _agreement_section(res) + [""] + _flips_section(res) + [""]
    lines += ["![Card strength under each table against the first](sweep-iwd.png)", "",
              "Data: [sweep.json](sweep.json), [sweep_cards.csv](sweep_cards.csv) (every card "
              "under every table), [sweep_flips.csv](sweep_flips.csv), "
              "[sweep.csv](sweep.csv).", ""]
    return "\n".join(lines)


def plot_seats(res, path: Path) -> Path:
    """Win share per seat, one bar per table, with Wilson intervals and the fair share."""
    T, P = len(res.tables), res.tables[0].summary["players"]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.5 * T * P + 2.5), 4.2))
    width = 0.8 / T
    for j, t in enumerate(res.tables):
        x = np.arange(P) - 0.4 + width * (j + 0.5)
        seats = t.summary["seats"]
        rate = np.array([s["win_rate"] for s in seats]) * 100
        lo, hi = (np.array([s["ci95"][k] for s in seats]) * 100 for k in (0, 1))
        ax.bar(x, rate, width * 0.9, label=t.label, color=f"C{j}")
        ax.errorbar(x, rate, yerr=np.vstack([rate - lo, hi - rate]), fmt="none",
                    ecolor="black", capsize=2)
    fair = res.tables[0].summary["fair_share"] * 100
    ax.axhline(fair, color="#c0392b", linestyle="--", label=f"fair share {fair:.1f}%")
    ax.set_xticks(np.arange(P), [f"seat {i}" for i in range(P)])
    ax.set_ylabel("win share (%), 95% Wilson interval")
    ax.set_title(f"{res.scenario_name}: win share per seat under each table "
                 f"({res.games:,} games, same deals)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, path)


def plot_iwd(res, path: Path) -> Path:
    """Each card's strength (IWD minus the table's average) under every other table against
    the first; flips in red, named."""
    first, others = res.tables[0], res.tables[1:] or res.tables[:1]
    n = len(others)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.4 * rows), squeeze=False)
    for ax, t in zip(axes.flat, others):
        x = first.cards["strength"].to_numpy() * 100
        y = t.cards["strength"].to_numpy() * 100
        flip = (first.cards["iwd_verdict"] != t.cards["iwd_verdict"]).to_numpy()
        ax.scatter(x[~flip], y[~flip], s=10, color="tab:gray", label="same verdict")
        ax.scatter(x[flip], y[flip], s=16, color="tab:red", label="verdict flips")
        for name, xi, yi in zip(first.cards.index[flip], x[flip], y[flip]):
            ax.annotate(name, (xi, yi), fontsize=6, xytext=(2, 2), textcoords="offset points")
        ok = np.isfinite(x) & np.isfinite(y)
        if ok.any():
            lim = [min(x[ok].min(), y[ok].min()), max(x[ok].max(), y[ok].max())]
            ax.plot(lim, lim, color="black", lw=0.8, ls=":")
        ax.axvline(0, color="#c0392b", lw=0.8, ls="--")
        ax.axhline(0, color="#c0392b", lw=0.8, ls="--")
        row = res.agreement[(res.agreement["a"] == first.label)
                            & (res.agreement["b"] == t.label)]
        rho = f", Spearman {_r2(row['spearman'].iloc[0])}" if len(row) else ""
        ax.set_title(f"{t.label} vs {first.label}{rho}", fontsize=9)
        ax.set_xlabel(f"strength under {first.label} (pp)")
        ax.set_ylabel(f"strength under {t.label} (pp)")
        ax.legend(fontsize=7, loc="upper left")
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.suptitle("Card strength (IWD minus the table's average IWD, pp) under each table; "
                 "dashed: the average", fontsize=10)
    fig.tight_layout()
    return save(fig, path)
