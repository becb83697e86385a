"""The ladder's files: ladder.json, pairs.csv, ladder.md (verdict first) and ladder.png.

Everything here is a function of the games and the seed: the same scenario, games and seed
give the same bytes whatever ``--jobs`` or chunk size. Wall times go to ladder-run.json.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simsym.studies.ladder import (BOOTSTRAP, ORDERS, PRIOR_WINS, SCALE, Z95, Played, Ratings,
                                   deal_games, interval, ladder_entries, pairs_frame, steps)
from simsym.run.output import atomic_write_text, write_json


def write_ladder(played: Played, r: Ratings, out: Path,
                 run_info: dict | None = None) -> list[dict]:
    """Write the ladder's files into ``out``; return ladder.json's entries."""
    out = Path(out)
    entries = ladder_entries(played, r)
    write_json(out / "ladder.json", entries)
    atomic_write_text(out / "pairs.csv",
                      pairs_frame(played, r).to_csv(index=False, lineterminator="\n"))
    ladder_plot(played, r, out / "ladder.png")
    atomic_write_text(out / "ladder.md", ladder_markdown(played, r, entries))
    if run_info is not None:
        write_json(out / "ladder-run.json", run_info)
    return entries


def _f(x: float) -> str:
    return f"{x:.1f}"


def _d(x: float) -> str:
    """A signed difference, with no "-0.0"."""
    return f"{round(x, 1) or 0.0:+.1f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def ladder_markdown(played: Played, r: Ratings, entries: list[dict]) -> str:
    labels = played.labels
    S, P = len(labels), played.players
    best = entries[0]
    st = steps(r)
    sig = [s for s in st if s.significant]
    flat = [s for s in st if not s.significant]
    lines = [f"# Strategy ladder: {played.scenario.name}", "",
             f"{S} strategies, every one against every other at {P}-player tables on the same "
             f"{played.deals:,} deals ({played.games:,} games a pair, "
             f"{played.games * S * (S - 1) // 2:,} in all; "
             f"seed {played.seed}).", "", "## Verdict", "",
             f"- **Best: {best['strategy']}**, rating {_f(best['rating'])} (95% {_f(best['lo'])} "
             f"to {_f(best['hi'])}); it takes {_pct(best['win_share'])}% of the wins of its "
             f"games (50% is even)" + ("." if st and st[0].significant else
                                         f", but not beyond noise above {labels[st[0].lower]}."
                                         if st else ".")]
    if sig:
        lines.append("- **Beyond noise**: " + "; ".join(
            f"{labels[s.upper]} above {labels[s.lower]} by {_d(s.diff)} "
            f"({_d(s.lo)} to {_d(s.hi)})" for s in sig) + ".")
    if flat:
        lines.append("- **Within noise** (the ladder cannot tell them apart): " + "; ".join(
            f"{labels[s.upper]} and {labels[s.lower]} ({_d(s.diff)}, {_d(s.lo)} to "
            f"{_d(s.hi)})" for s in flat) + ".")
    batch_order = sorted(range(S), key=lambda i: (-r.theta[i], labels[i]))
    if batch_order == r.order:
        lines.append("- The batch fit orders the strategies the same way.")
    else:
        lines.append("- The batch fit orders them differently: "
                     + " > ".join(labels[i] for i in batch_order)
                     + " (the online ratings depend on the order of the games; trust the "
                       "batch fit and its bootstrap interval).")
    h_lo, h_hi = interval(r.head_boot)
    beyond = sum(1 for i in range(S) for j in range(i + 1, S)
                 if h_lo[i, j] > 0.5 or h_hi[i, j] < 0.5)
    lines.append(f"- Head to head, {beyond} of {S * (S - 1) // 2} pairs differ from an even "
                 "split beyond noise.")
    lines += ["", "Steps compare each rung with the next: the batch fit's rating difference and "
              "its 95% interval from the bootstrap over deals; beyond noise when the interval "
              "leaves out 0.", "", "## Ladder", "",
              "| rank | strategy | rating (95%) | batch fit (95%) | win share % (95%) | games "
              "| mean score |", "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for e in entries:
        lines.append(f"| {e['rank']} | {e['strategy']} | {_f(e['rating'])} ({_f(e['lo'])} to "
                     f"{_f(e['hi'])}) | {_f(e['batch_rating'])} ({_f(e['batch_lo'])} to "
                     f"{_f(e['batch_hi'])}) | {_pct(e['win_share'])} ({_pct(e['win_share_lo'])}"
                     f" to {_pct(e['win_share_hi'])}) | {e['games']:,} | "
                     f"{e['mean_score']:.2f} |")
    lines += ["", "- **rating**: openskill's Plackett-Luce mu, updated game by game (mean of "
              f"{ORDERS} orders); interval mu ± 1.96 sigma. A difference of 5.9 points is 73% "
              "against 27% head to head.",
              "- **batch fit**: the maximum-likelihood Bradley-Terry fit on the same scale; "
              "interval from the bootstrap over deals.",
              "- **win share**: the share of the wins of its games it took (a tied win split), "
              "over all its opponents.", "", "## Head to head", "",
              "The row's win share against the column, in %, on the same deals. ▲/▼: the 95% "
              "interval (bootstrap over deals) lies wholly above/below 50.", "",
              "| | " + " | ".join(labels[j] for j in r.order) + " |",
              "| --- |" + " ---: |" * S]
    for i in r.order:
        cells = []
        for j in r.order:
            if i == j:
                cells.append("–")
                continue
            mark = " ▲" if h_lo[i, j] > 0.5 else (" ▼" if h_hi[i, j] < 0.5 else "")
            cells.append(f"{_pct(r.head[i, j])}{mark}")
        lines.append(f"| **{labels[i]}** | " + " | ".join(cells) + " |")
    sc = played.scenario
    tables = ("one table a pair alternating A, B, A, B" if P % 2 == 0 else
              "two tables a pair, A, B, A, ... and B, A, B, ..., on the same deals")
    lines += ["", "![Ladder](ladder.png)", "", "## How it was played", "",
              f"- {P} players, {tables}, in `rotate` seating: each deal is played in all "
              f"{P} rotations of the seats ({deal_games(P)} games a deal and pair), so seat "
              "luck cancels; every pair plays the same deals (seed and deal indices).",
              "- A game's result for the pair: the win units of each strategy's seats.",
              "- openskill (Plackett-Luce, tau 0: strategies do not drift): one update a game, "
              f"in a seeded random order of all games of all pairs; the rating is the mean of "
              f"{ORDERS} such passes, each in its own order (one order moves a rating by "
              f"{max(r.order_sd):.2f} at most, as a standard deviation).",
              f"- Batch fit: Bradley-Terry maximum likelihood (choix), win shares as "
              f"fractional wins, {PRIOR_WINS} win each way a pair as a prior; rating = 25 + "
              f"{SCALE:.3f} × log-strength (openskill's scale).",
              f"- Bootstrap: {BOOTSTRAP:,} resamples of the deals, the same for every pair.",
              "", "Reproduce: `simsym ladder " + str(sc.path) + f" --games {played.games} "
              f"--seed {played.seed}`", "",
              "Data: [ladder.json](ladder.json), [pairs.csv](pairs.csv).", ""]
    return "\n".join(lines)


def ladder_plot(played: Played, r: Ratings, path: Path) -> Path:
    """Ratings with their intervals (left), the head-to-head matrix (right)."""
    from simsym.report.plots import plt, save

    labels = played.labels
    S = len(labels)
    order = r.order
    fig, (ax, hx) = plt.subplots(1, 2, figsize=(6 + 1.1 * S, 1.6 + 0.55 * S),
                                 gridspec_kw={"width_ratios": [1, 1.1]})
    y = np.arange(S)[::-1]
    mu = r.mu[order]
    half = Z95 * r.sigma[order]
    ax.errorbar(mu, y + 0.12, xerr=half, fmt="o", color="#2a6f97", capsize=3,
                label="openskill (mu ± 1.96 sigma)")
    bt = r.batch_rating(r.theta[order])
    lo, hi = interval(r.batch_rating(r.theta_boot[:, order]))
    ax.errorbar(bt, y - 0.12, xerr=np.vstack([bt - lo, hi - bt]), fmt="s", mfc="white",
                color="#e07a1f", capsize=3, label="batch fit (bootstrap over deals)")
    ax.set_yticks(y, [labels[i] for i in order])
    ax.set_xlabel("rating (95% interval)")
    ax.set_title("Ladder, best at the top")
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    m = 100 * r.head[np.ix_(order, order)]
    np.fill_diagonal(m, np.nan)
    hx.imshow(m, cmap="RdBu", vmin=0, vmax=100)
    for i in range(S):
        for j in range(S):
            if i != j:
                hx.text(j, i, f"{m[i, j]:.0f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(m[i, j] - 50) > 30 else "black")
    short = [labels[i] for i in order]
    hx.set_xticks(range(S), short, rotation=30, ha="right", fontsize=7)
    hx.set_yticks(range(S), short, fontsize=7)
    hx.set_title("Row's win share against column (%)")
    fig.suptitle(f"{played.scenario.name}: {played.games:,} games a pair, same deals, "
                 f"seed {played.seed}", fontsize=9)
    fig.tight_layout()
    return save(fig, path)
