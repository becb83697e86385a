"""sweep.md and its figures for a sweep over strategy tables (simsym.studies.table_sweep).

The verdict first (seat spread per table, ranking agreement with the first table, how many
verdicts flip), then the seats, the agreement of every pair and the flips. No timings: the
same sweep always gives the same text.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from simsym.report.markdown import DOWN, UP, _ci, _pct, _pp, _table
from simsym.report.plots import plt, save

VERDICT_MARK = {"strong": f" {UP}", "weak": f" {DOWN}", "": ""}
FLIPS_SHOWN = 15  # flips listed in sweep.md for each table against the first


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
        lines.append(f"- **Card ranking** (IWD) agreement with {first}, Spearman: " + ", ".join(
            f"{r['b']} {_rci(r['spearman'], r['spearman_lo'], r['spearman_hi'])}"
            for _, r in vs_first.iterrows()) + ".")
    flipped = sorted(set(res.flips["card"]))
    if flipped:
        lines.append(f"- **Verdict flips**: {len(flipped)} cards are strong or weak beyond "
                     f"noise under one table and not under another ({len(res.flips)} flips "
                     f"over the pairs of tables; {int(res.flips['moved'].sum())} of them with "
                     "the card's IWD above its table's average moved beyond noise).")
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
    rows.append(["average IWD (pp)", *[_pp(t.average_iwd) for t in res.tables]])
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
            "Rank correlation of the cards' IWD between two tables (1: the same order; 0: "
            "unrelated), with a 95% bootstrap interval over blocks of deals.", "",
            _table(["table A", "table B", "cards", "Spearman (95% CI)",
                    "Kendall's tau (95% CI)", "verdict flips", "of them moved"], rows,
                   "llrrrrr")]


def _flips_section(res) -> list[str]:
    lines = ["## Cards whose verdict flips", ""]
    if not len(res.flips):
        return lines + ["No card is strong or weak beyond noise under one table and not "
                        "under another."]
    flipped = set(res.flips["card"])
    names = [c for c in res.tables[0].cards.index if c in flipped]
    rows = [[n, *[f"{_pp(t.cards.at[n, 'iwd'])}{VERDICT_MARK[t.cards.at[n, 'iwd_verdict']]}"
                  for t in res.tables]] for n in names]
    lines += [f"IWD in percentage points under each table; {UP}/{DOWN}: strong/weak beyond "
              "noise (against that table's average IWD, after Holm's correction).", "",
              _table(["card", *[t.label for t in res.tables]], rows), "",
              f"Below, each flip against {res.tables[0].label} (the largest {FLIPS_SHOWN} a "
              "table), with the paired change of the card's IWD above its table's average "
              "between the two tables (batch means over the shared blocks of deals; beyond "
              "noise after Holm's correction over the cards). A flip that did not move is a "
              "card near the line of noise under both tables.", ""]
    first = res.tables[0].label
    for _, g in res.flips[res.flips["a"] == first].groupby("b", sort=False):
        g = g.reindex(g["change"].abs().sort_values(ascending=False, kind="mergesort").index)
        more = len(g) - FLIPS_SHOWN
        lines += [f"### A = {first}, B = {g['b'].iloc[0]}: {len(g)} flips, "
                  f"{int(g['moved'].sum())} with the card's standing moved beyond noise", "",
                  _table(["card", "verdict A", "verdict B",
                          "change of IWD − average, B − A, pp (95% CI)",
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
    lines = [f"# Sweep: strategy tables ({res.scenario_name})", "",
             f"Every table plays the same {res.games:,} games (seed {res.seed}, game indices "
             f"0..{res.games - 1}: the same deals), as a mirror table: every seat plays the "
             f"table's strategy. Intervals are 95%: Wilson for a win share; for the seat spread "
             f"and the rank agreement a bootstrap (BCa) over {res.blocks} blocks of "
             f"deals, resampled jointly for all tables. A card is strong ({UP}) or weak "
             f"({DOWN}) under a table when its IWD interval excludes that table's average IWD "
             f"after Holm's correction for testing all {len(t0.cards)} cards (the stance of "
             "`simsym compare`; the card report's markers are uncorrected). Which table to "
             "trust for what: docs/designer-guide.md.", ""]
    lines += _verdict_section(res) + [""] + _seats_section(res) + [""]
    lines += _agreement_section(res) + [""] + _flips_section(res) + [""]
    lines += ["![IWD under each table against the first](sweep-iwd.png)", "",
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
    """Each card's IWD under every other table against the first; flips in red, named."""
    first, others = res.tables[0], res.tables[1:] or res.tables[:1]
    n = len(others)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.4 * rows), squeeze=False)
    for ax, t in zip(axes.flat, others):
        x = first.cards["iwd"].to_numpy() * 100
        y = t.cards["iwd"].to_numpy() * 100
        flip = (first.cards["iwd_verdict"] != t.cards["iwd_verdict"]).to_numpy()
        ax.scatter(x[~flip], y[~flip], s=10, color="tab:gray", label="same verdict")
        ax.scatter(x[flip], y[flip], s=16, color="tab:red", label="verdict flips")
        for name, xi, yi in zip(first.cards.index[flip], x[flip], y[flip]):
            ax.annotate(name, (xi, yi), fontsize=6, xytext=(2, 2), textcoords="offset points")
        ok = np.isfinite(x) & np.isfinite(y)
        if ok.any():
            lim = [min(x[ok].min(), y[ok].min()), max(x[ok].max(), y[ok].max())]
            ax.plot(lim, lim, color="black", lw=0.8, ls=":")
        ax.axvline(first.average_iwd * 100, color="#c0392b", lw=0.8, ls="--")
        ax.axhline(t.average_iwd * 100, color="#c0392b", lw=0.8, ls="--")
        row = res.agreement[(res.agreement["a"] == first.label)
                            & (res.agreement["b"] == t.label)]
        rho = f", Spearman {_r2(row['spearman'].iloc[0])}" if len(row) else ""
        ax.set_title(f"{t.label} vs {first.label}{rho}", fontsize=9)
        ax.set_xlabel(f"IWD under {first.label} (pp)")
        ax.set_ylabel(f"IWD under {t.label} (pp)")
        ax.legend(fontsize=7, loc="upper left")
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.suptitle("Card strength (IWD) under each table; dashed: the tables' averages",
                 fontsize=10)
    fig.tight_layout()
    return save(fig, path)
