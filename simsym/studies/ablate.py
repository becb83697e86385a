"""Leave-one-out importance: replay the same seeds with one card removed from the deck.

For each card, the change in mean score, game length, the seats' gap and (with several
strategies) each strategy's win share, against the full deck on the same game indices,
with paired batch-means intervals (simsym.studies.paired)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from simsym.core import enums as E
from simsym.errors import SimsymError
from simsym.model.cards.model import CardSet
from simsym.run.output import atomic_write_text
from simsym.studies.paired import paired, run_batched


def _mean_score(run, batch):
    t = run.totals if batch is None else run.batch_totals[batch]
    return np.array([t["seat_score"].sum() / t["games"][0] / run.scenario.players])


def _turns(run, batch):
    t = run.totals if batch is None else run.batch_totals[batch]
    return np.array([t["turns"][0] / t["games"][0]])


def _gap(run, batch):
    t = run.totals if batch is None else run.batch_totals[batch]
    wr = t["seat_wins"] / E.WIN_UNITS / t["games"][0]
    return np.array([wr.max() - wr.min()])


def _strategy_wr(run, batch):
    t = run.totals if batch is None else run.batch_totals[batch]
    return t["strat_wins"] / E.WIN_UNITS / t["strat_games"]


def without(scenario, name: str):
    k = scenario.cards.lookup(name, key="--cards")
    cards = [c for i, c in enumerate(scenario.cards) if i != k]
    sc = replace(scenario, cards=CardSet(cards, source=scenario.cards.source))
    if sc.cards.deck_size < scenario.players * scenario.rules.hand_size:
        raise SimsymError(f"without {name!r} the deck is too small to deal")
    return sc


def ablate(scenario, names, games: int, seed: int, jobs: int = 1, progress=None):
    full = run_batched(scenario, games, seed, jobs)
    if progress:
        progress(games)
    labels = [s.label for s in scenario.strategies]
    rows = []
    for j, name in enumerate(names):
        run = run_batched(without(scenario, name), games, seed, jobs)
        if progress:
            progress(games * (j + 2))
        row = {"card": scenario.cards[scenario.cards.lookup(name)].name}
        for metric, fn in (("mean_score", _mean_score), ("mean_turns", _turns),
                           ("seat_gap", _gap)):
            d = paired(fn, full, run)
            row.update({f"{metric}_full": d.a[0], f"{metric}_without": d.b[0],
                        f"{metric}_change": d.diff[0], f"{metric}_lo": d.lo[0],
                        f"{metric}_hi": d.hi[0], f"{metric}_p": d.p[0]})
        if len(labels) > 1:
            d = paired(_strategy_wr, full, run)
            for i, lab in enumerate(labels):
                row[f"{lab}_win_rate_change"] = d.diff[i]
                row[f"{lab}_win_rate_lo"] = d.lo[i]
                row[f"{lab}_win_rate_hi"] = d.hi[i]
        rows.append(row)
    return pd.DataFrame(rows)


def write_ablation(df: pd.DataFrame, scenario, games, seed, out: Path) -> Path:
    import matplotlib.pyplot as plt

    from simsym.report.plots import save

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "ablation.csv", df.to_csv(index=False, lineterminator="\n"))
    d = df.sort_values("mean_score_change")
    fig, ax = plt.subplots(figsize=(7, max(3, 0.17 * len(d) + 1)))
    y = np.arange(len(d))
    ax.errorbar(d["mean_score_change"], y, xerr=[d["mean_score_change"] - d["mean_score_lo"],
                d["mean_score_hi"] - d["mean_score_change"]], fmt="o", ms=3)
    ax.axvline(0, color="k", lw=1)
    ax.set_yticks(y, d["card"], fontsize=6)
    ax.set_xlabel("change of the mean score when the card is removed (95% paired CI)")
    ax.set_title(f"Leave-one-out importance ({games:,} paired games a card)")
    fig.tight_layout()
    save(fig, out / "ablation.png")
    lines = [f"# Leave-one-out importance: {scenario.name}", "",
             f"Each card is removed from the deck and the same {games:,} games (seed {seed}, "
             "same game indices) are replayed; changes are against the full deck, with paired "
             "95% intervals. A card whose removal lowers the mean score most is the one the "
             "game leans on most.", "",
             "| card | mean score change (95% CI) | game length change | seat gap change (pp) |",
             "| --- | ---: | ---: | ---: |"]
    for _, r in d.iterrows():
        lines.append(f"| {r['card']} | {r['mean_score_change']:+.2f} ({r['mean_score_lo']:+.2f}"
                     f" to {r['mean_score_hi']:+.2f}) | {r['mean_turns_change']:+.2f} | "
                     f"{100 * r['seat_gap_change']:+.1f} ({100 * r['seat_gap_lo']:+.1f} to "
                     f"{100 * r['seat_gap_hi']:+.1f}) |")
    lines += ["", "![Leave-one-out importance](ablation.png)", "",
              "Data: [ablation.csv](ablation.csv)", ""]
    atomic_write_text(out / "ablation.md", "\n".join(lines))
    return out / "ablation.md"
