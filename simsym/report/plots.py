"""The report's figures (matplotlib, Agg backend), written atomically and deterministically."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from simsym.run.output import atomic_write  # noqa: E402

CATEGORY_COLOURS = {"wine": "#8e2a57", "intellectual": "#2a6f97", "hedonistic": "#e07a1f",
                    "either": "#5b8c3a", "woman": "#8c6bb1"}
TYPE_COLOURS = {"intellectual": "#2a6f97", "social": "#5b8c3a", "hedonistic": "#e07a1f"}
DPI = 110


def save(fig: Figure, path: Path) -> Path:
    """Write fig as PNG to a temp name beside path, then rename it into place (atomic).

    metadata={"Software": None} drops the matplotlib version, so equal figures are equal bytes.
    """
    path = Path(path)
    try:
        atomic_write(path, lambda fh: fig.savefig(fh, format="png", dpi=DPI,
                                                  metadata={"Software": None}), binary=True)
    finally:
        plt.close(fig)
    return path


def _errorbars(ax, x, rate, lo, hi, **kw):
    yerr = np.vstack([rate - lo, hi - rate])
    ax.errorbar(x, rate, yerr=yerr, fmt="o", capsize=4, **kw)


def win_share_plot(table: pd.DataFrame, key: str, title: str, path: Path) -> Path:
    """Win share per seat (or strategy) with 95% Wilson intervals and the fair-share line."""
    n = len(table)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * n + 2.5), 4.0))
    x = np.arange(n)
    rate = table["win_rate"].to_numpy() * 100
    lo = table["win_rate_lo"].to_numpy() * 100
    hi = table["win_rate_hi"].to_numpy() * 100
    ax.bar(x, rate, color="#9bb7d4", width=0.6)
    _errorbars(ax, x, rate, lo, hi, color="black")
    fair = float(table["fair_share"].iloc[0]) * 100
    ax.axhline(fair, color="#c0392b", linestyle="--", label=f"fair share {fair:.1f}%")
    labels = [f"seat {v}" for v in table[key]] if key == "seat" else list(table[key])
    ax.set_xticks(x, labels, rotation=0 if key == "seat" else 20,
                  ha="center" if key == "seat" else "right")
    ax.set_ylabel("win share (%), 95% Wilson interval")
    ax.set_xlabel(key)
    ax.set_title(title)
    ax.set_ylim(0, max(hi.max(), fair) * 1.15)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return save(fig, path)


def iwd_plot(strength: pd.DataFrame, average: float, title: str, path: Path,
             band: float | None = None) -> Path:
    """Every card's strength (IWD minus the table's average, percentage points) with its 95%
    interval, coloured by category; the card band of the balance criteria when given."""
    df = strength.dropna(subset=["iwd"]).iloc[::-1]  # highest at the top
    n = len(df)
    fig, ax = plt.subplots(figsize=(8.0, max(3.0, 0.19 * n + 1.2)))
    y = np.arange(n)
    cats = [c for c in CATEGORY_COLOURS if c in set(df["category"])]
    cats += sorted(set(df["category"]) - set(cats))
    for cat in cats:
        g = df[df["category"] == cat]
        idx = y[(df["category"] == cat).to_numpy()]
        c = CATEGORY_COLOURS.get(cat, "#555555")
        rel = (g["iwd"].to_numpy() - average) * 100
        ax.errorbar(rel, idx, xerr=np.vstack([(g["iwd"] - g["iwd_lo"]).to_numpy() * 100,
                                              (g["iwd_hi"] - g["iwd"]).to_numpy() * 100]),
                    fmt="o", markersize=4, capsize=2, color=c, label=cat)
    ax.axvline(0, color="#c0392b", linestyle="--",
               label=f"table average (raw IWD {average * 100:+.1f} pp)")
    if band:
        for x in (-band * 100, band * 100):
            ax.axvline(x, color="grey", linestyle=":", linewidth=1)
        ax.axvspan(-band * 100, band * 100, color="#2ecc71", alpha=0.08,
                   label=f"balanced band ±{band * 100:g} pp")
    ax.set_yticks(y, list(df["card"]), fontsize=7)
    ax.set_ylim(-0.8, n - 0.2)
    ax.set_xlabel("card strength: IWD minus the table's average (pp), 95% Newcombe interval")
    ax.set_title(title)
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, labels, loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return save(fig, path)


def score_plot(scores: pd.DataFrame, title: str, path: Path, bin_width: int = 5) -> Path:
    """Final-score distribution per seat (share of games in each bin of bin_width points)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.0))
    seats = [c for c in scores.columns if c.startswith("seat_")]
    binned = scores.groupby(scores["score"] // bin_width)[seats].sum()
    total = binned.sum()
    nz = binned.sum(axis=1).to_numpy().nonzero()[0]
    lo, hi = (int(nz[0]), int(nz[-1])) if len(nz) else (0, 1)
    sl = binned.iloc[lo:hi + 1]
    x = sl.index.to_numpy() * bin_width + bin_width / 2
    for col in seats:
        share = sl[col].to_numpy() / max(int(total[col]), 1) * 100
        ax.plot(x, share, marker=".", label=col.replace("_", " "))
    ax.set_xlabel("final score (points)")
    ax.set_ylabel(f"share of games (%) per {bin_width} points")
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return save(fig, path)


def length_plot(lengths: pd.DataFrame, title: str, path: Path) -> Path:
    """Game-length distribution (turns). The histogram's last bin counts every game of that
    many turns or more: it is drawn apart, in another colour, and labelled so."""
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    last = len(lengths) - 1
    nz = lengths["games"].to_numpy()[:last].nonzero()[0]
    lo, hi = (int(nz[0]), int(nz[-1])) if len(nz) else (0, 1)
    sl = lengths.iloc[lo:hi + 1]
    total = max(int(lengths["games"].sum()), 1)
    ax.bar(sl["turns"], sl["games"] / total * 100, width=1.0, color="#9bb7d4",
           edgecolor="#4a6f96", linewidth=0.4)
    over = int(lengths["games"].iloc[last])
    if over:
        at = hi + max(3, (hi - lo) // 20)  # apart from the others: not a turn count
        share = over / total * 100
        turns = int(lengths["turns"].iloc[last])
        ax.bar([at], [share], width=max(1.0, (hi - lo) / 60), color="#d49b9b",
               edgecolor="#964a4a", linewidth=0.4, label=f"{turns} or more turns")
        ax.annotate(f"{turns}+: {share:.1f}%", (at, share), textcoords="offset points",
                    xytext=(0, 3), ha="center", fontsize=8)
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xlabel("game length (turns)")
    ax.set_ylabel("share of games (%)")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return save(fig, path)


def points_by_type_plot(strategies: pd.DataFrame, seats: pd.DataFrame, title: str,
                        path: Path) -> Path:
    """Mean points a player-game by Symposion type: stacked bars per strategy and per seat."""
    fig, axes = plt.subplots(1, 2, figsize=(10.0, 4.2),
                             gridspec_kw={"width_ratios": [max(len(strategies), 1),
                                                           max(len(seats), 1)]})
    for ax, df, labels, xlabel in (
            (axes[0], strategies, list(strategies["strategy"]), "strategy"),
            (axes[1], seats, [f"seat {s}" for s in seats["seat"]], "seat")):
        x = np.arange(len(df))
        bottom = np.zeros(len(df))
        for t, c in TYPE_COLOURS.items():
            v = df[f"points_{t}"].to_numpy()
            ax.bar(x, v, bottom=bottom, color=c, width=0.6, label=t)
            bottom += v
        ax.set_xticks(x, labels, rotation=20 if xlabel == "strategy" else 0,
                      ha="right" if xlabel == "strategy" else "center", fontsize=8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("mean points a player-game")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_title("per strategy")
    axes[1].set_title("per seat")
    axes[1].legend(handles=[Line2D([], [], color=c, linewidth=8, label=t)
                            for t, c in TYPE_COLOURS.items()][::-1], loc="upper left",
                   bbox_to_anchor=(1.01, 1.0), fontsize=8, title="Symposion type")
    fig.suptitle(title)
    fig.tight_layout()
    return save(fig, path)


def judges_seats_plot(tables: dict, title: str, path: Path) -> Path:
    """Win share per seat under the fast and the strong table, side by side, with 95% Wilson
    intervals and the fair-share line."""
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    n = len(tables["strong"]["seats"])
    x = np.arange(n)
    width = 0.38
    top = 0.0
    for k, (role, colour) in enumerate((("fast", "#c8d6e5"), ("strong", "#2e5c8a"))):
        seats = tables[role]["seats"]
        rate = np.array([s["win_rate"] for s in seats]) * 100
        lo = np.array([s["ci95"][0] for s in seats]) * 100
        hi = np.array([s["ci95"][1] for s in seats]) * 100
        xs = x + (k - 0.5) * width
        ax.bar(xs, rate, width=width, color=colour,
               label=f"{role}: {tables[role]['strategy']}")
        _errorbars(ax, xs, rate, lo, hi, color="black")
        top = max(top, hi.max())
    fair = 100.0 / n
    ax.axhline(fair, color="#c0392b", linestyle="--", label=f"fair share {fair:.1f}%")
    ax.set_xticks(x, [f"seat {i}" for i in range(n)])
    ax.set_ylabel("win share (%), 95% Wilson interval")
    ax.set_title(title)
    ax.set_ylim(0, max(top, fair) * 1.2)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return save(fig, path)


QUALITY_COLOURS = ["#2a6f97", "#e07a1f", "#5b8c3a", "#8e2a57"]


def quality_plot(blocks: dict, title: str, path: Path) -> Path:
    """How the game plays under each table (``blocks``: a label -> its summary's "quality"):
    left, the share of games decided by each tenth of their length (the winner leading at
    every end of turn from then on); right, how often the eventual winner was behind at the
    end of run 1, of run 2 and at some end of turn, with 95% Wilson intervals."""
    from simsym.analysis.quality import decided_by, wilson_interval

    fig, (left, right) = plt.subplots(1, 2, figsize=(10.0, 3.8))
    x = np.arange(1, 11) * 10
    width = 0.8 / max(len(blocks), 1)
    for i, (label, block) in enumerate(blocks.items()):
        colour = QUALITY_COLOURS[i % len(QUALITY_COLOURS)]
        left.plot(x, np.array(decided_by(block)) * 100, marker="o", color=colour, label=label)
        cases = [(r["winner_behind"], r["games"]) for r in block["run_end"]]
        cases.append((block["drama"]["positive"], block["games"]))
        est = np.array([wilson_interval(k, n) for k, n in cases]) * 100
        at = np.arange(len(cases)) + (i - (len(blocks) - 1) / 2) * width
        right.bar(at, est[:, 0], width=width, color=colour, alpha=0.75, label=label)
        _errorbars(right, at, est[:, 0], est[:, 1], est[:, 2], color="black", markersize=2)
    left.set_xlabel("share of the game's turns played (%)")
    left.set_ylabel("games decided by then (%)")
    left.set_xlim(5, 105)
    left.set_ylim(0, 102)
    left.grid(alpha=0.3)
    left.legend(fontsize=8, loc="lower right")
    left.set_title("decided by turn", fontsize=10)
    right.set_xticks(np.arange(3), ["end of run 1", "end of run 2", "any end of turn"])
    right.set_ylabel("winner behind (% of games)")
    right.grid(axis="y", alpha=0.3)
    right.set_title("comebacks: the winner was behind", fontsize=10)
    fig.suptitle(title)
    fig.tight_layout()
    return save(fig, path)
