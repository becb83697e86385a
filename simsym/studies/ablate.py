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
    """One row a card of ``names``; ``progress(games played)`` counts over every deck."""
    def counted(j):
        return progress and (lambda done: progress(j * games + done))

    full = run_batched(scenario, games, seed, jobs, on_progress=counted(0))
    labels = [s.label for s in scenario.strategies]
    rows = []
    for j, name in enumerate(names):
        run = run_batched(without(scenario, name), games, seed, jobs, on_progress=counted(j + 1))
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
                row[f"{lab}_win_rate_full"] = d.a[i]
                row[f"{lab}_win_rate_without"] = d.b[i]
                row[f"{lab}_win_rate_change"] = d.diff[i]
                row[f"{lab}_win_rate_lo"] = d.lo[i]
                row[f"{lab}_win_rate_hi"] = d.hi[i]
        rows.append(row)
    return pd.DataFrame(rows)


# ablation.csv's metrics as ablation.md and ablation_long.csv name them: column prefix ->
# (header, unit, scale from the stored value to that unit).
METRICS = (("mean_score", "mean score", "points", 1), ("mean_turns", "game length", "turns", 1),
           ("seat_gap", "seat gap", "pp", 100))


def _metrics(df: pd.DataFrame) -> list[tuple[str, str, str, float]]:
    out = list(METRICS)
    out += [(c.removesuffix("_change"), f"{c.removesuffix('_win_rate_change')} win share",
             "pp", 100) for c in df if c.endswith("_win_rate_change")]
    return out


def long_table(df: pd.DataFrame) -> pd.DataFrame:
    """ablation_long.csv: one row per card and metric, in the metric's unit: with the card
    and without it, the change and its paired 95% interval (tidy: for pandas' groupby or a
    plotting library)."""
    rows = []
    for _, r in df.iterrows():
        for col, header, unit, scale in _metrics(df):
            full = r.get(f"{col}_full")
            rows.append({"card": r["card"], "metric": header, "unit": unit,
                         "with_card": scale * full if full is not None else None,
                         "without_card": scale * r[f"{col}_without"]
                         if f"{col}_without" in r else None,
                         "change": scale * r[f"{col}_change"], "lo": scale * r[f"{col}_lo"],
                         "hi": scale * r[f"{col}_hi"], "p": r.get(f"{col}_p")})
    return pd.DataFrame(rows)


def _cell(r, col, scale, digits) -> str:
    v, lo, hi = (scale * r[f"{col}_change"], scale * r[f"{col}_lo"], scale * r[f"{col}_hi"])
    return f"{v:+.{digits}f} ({lo:+.{digits}f} to {hi:+.{digits}f})"


def write_ablation(df: pd.DataFrame, scenario, games, seed, out: Path) -> Path:
    import matplotlib.pyplot as plt

    from simsym.report.plots import save

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "ablation.csv", df.to_csv(index=False, lineterminator="\n"))
    atomic_write_text(out / "ablation_long.csv",
                      long_table(df).to_csv(index=False, lineterminator="\n"))
    d = df.sort_values("mean_score_change")
    panels = [("mean_score", "mean score change (points)", 1),
              ("seat_gap", "seat gap change (pp)", 100)]
    fig, axes = plt.subplots(1, 2, figsize=(9, max(3, 0.17 * len(d) + 1)), sharey=True)
    y = np.arange(len(d))
    for ax, (col, title, scale) in zip(axes, panels):
        v = scale * d[f"{col}_change"]
        ax.errorbar(v, y, xerr=[v - scale * d[f"{col}_lo"], scale * d[f"{col}_hi"] - v],
                    fmt="o", ms=3, capsize=2)
        ax.axvline(0, color="k", lw=1)
        ax.set_xlabel(f"{title}, 95% paired interval", fontsize=8)
    axes[0].set_yticks(y, d["card"], fontsize=6)
    fig.suptitle(f"Without each card, against the full deck ({games:,} paired games a card)")
    fig.tight_layout()
    save(fig, out / "ablation.png")
    metrics = _metrics(df)
    lines = [f"# Leave-one-out importance: {scenario.name}", "",
             f"Each card is removed from the deck and the same {games:,} games (seed {seed}, "
             "same game indices) are replayed; each change is without the card minus with "
             "it, followed by its paired 95% interval (batch means over 40 batches of "
             "games). A card whose removal lowers the mean score most is the one the game "
             "leans on most; an interval that holds 0 means the removal changes that "
             "metric within noise.", "",
             "| card | " + " | ".join(f"{h} change ({u})" for _, h, u, _ in metrics) + " |",
             "| --- |" + " ---: |" * len(metrics)]
    for _, r in d.iterrows():
        cells = [_cell(r, col, scale, 2 if unit in ("points", "turns") else 1)
                 for col, _, unit, scale in metrics]
        lines.append(f"| {r['card']} | " + " | ".join(cells) + " |")
    lines += ["", "![Leave-one-out importance](ablation.png)", "",
              "Data: [ablation.csv](ablation.csv) (one row a card), "
              "[ablation_long.csv](ablation_long.csv) (one row a card and metric).", ""]
    atomic_write_text(out / "ablation.md", "\n".join(lines))
    return out / "ablation.md"
