"""`simsym sweep`: vary one card's notation, one rule option, the player count or the
strategy table over a list of values, run every variant on the same seed, and plot the
metrics against the value.

In a scenario::

    sweep:
      card: Plato                 # or  rule: hand_size   or  players: [2, 3, 4, 5, 6]
      values: ["3I; IO", "4I; IO", "5I; IO", "6I; IO"]

or ``strategies: [greedy, {family: patient, threshold: 15}]``: mirror tables, side by side
(simsym.table_sweep). The scenario loader checks the `sweep:` mapping (simsym.scenario).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from simsym.cards.model import CardSet
from simsym.cards.notation import parse_notation
from simsym.errors import InputError, SimsymError
from simsym.paired import card_metrics, run_batched, seat_metrics
from simsym.rules import rules_from_mapping
from simsym.run.output import atomic_write_text


def sweep_spec(scenario, card=None, rule=None, players=None, values=None):
    """(kind, target, values) from CLI arguments, else from the scenario's `sweep:`."""
    if card or rule or players:
        if players:
            return "players", "players", [int(v) for v in players]
        if not values:
            raise SimsymError("--values: give the values to sweep over")
        return ("card", card, list(values)) if card else ("rule", rule, list(values))
    if scenario.sweep is None:
        raise InputError("no sweep: give --card/--rule/--players, or a `sweep:` mapping "
                         "in the scenario (card: NAME or rule: NAME, values: [...]; "
                         "players: [2, 3, ...]; or strategies: [a mirror table each])",
                         scenario.path, None, "sweep")
    return scenario.sweep


def value_labels(kind, values) -> list[str]:
    """How the report names each value: the text, or a table's strategy label (a repeated
    table gets ' #2', ' #3', ...)."""
    if kind != "strategies":
        return [str(v) for v in values]
    out, seen = [], {}
    for v in values:
        seen[v.label] = seen.get(v.label, 0) + 1
        out.append(v.label + (f" #{seen[v.label]}" if seen[v.label] > 1 else ""))
    return out


def variant(scenario, kind, target, value):
    if kind == "strategies":  # a mirror table of one strategy (a StrategyConfig)
        return replace(scenario, seating="mirror", strategies=[value])
    if kind == "players":
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 6:
            raise SimsymError(f"sweep players: {value!r} is not a player count from 2 to 6")
        need = value * scenario.rules.hand_size
        if scenario.cards.deck_size < need:
            raise SimsymError(f"sweep players {value}: the deck is too small to deal")
        comp = scenario.rules.seat_compensation
        rules = replace(scenario.rules, seat_compensation=()) if comp else scenario.rules
        return replace(scenario, players=value, rules=rules,
                       strategies=scenario.strategies[:value])
    if kind == "card":
        k = scenario.cards.lookup(str(target), key="sweep.card")
        cards = list(scenario.cards.cards)
        cards[k] = parse_notation(cards[k].name, str(value), cards[k].copies)
        return replace(scenario, cards=CardSet(cards, source=scenario.cards.source))
    rules = rules_from_mapping({target: value}, base=scenario.rules, file=scenario.path)
    return replace(scenario, rules=rules)


def run_sweep(scenario, kind, target, values, games, seed, jobs=1, progress=None, on_run=None):
    """One row of metrics per value; ``on_run(label, variant, run)`` sees each BatchedRun."""
    rows = []
    done_before = 0
    for v, label in zip(values, value_labels(kind, values)):
        sc = variant(scenario, kind, target, v)
        run = run_batched(sc, games, seed, jobs,
                          on_progress=progress and (lambda d, o=done_before: progress(o + d)))
        done_before += games
        if on_run:
            on_run(label, sc, run)
        s = seat_metrics(run.totals, sc.players)
        row = {"value": label, "players": sc.players, "seat_gap": float(s["seat_gap"][0]),
               "mean_score": float(np.mean(s["mean_score"])),
               "mean_turns": float(run.totals["turns"][0] / games),
               "stalled": int(run.totals["stalled"][0])}
        fair = 1 / sc.players
        for i, w in enumerate(s["win_rate"]):
            row[f"seat{i}_win_rate"] = float(w)
            row[f"seat{i}_vs_fair_pp"] = float(100 * (w - fair))
        if kind == "card":
            k = sc.cards.index(str(target))
            cm = card_metrics(run.agg, run.totals)
            row["card_gih_wr"] = float(cm["gih_wr"][k])
            row["card_iwd"] = float(cm["iwd"][k])
            row["card_play_rate"] = float(cm["play_rate"][k])
        labels = [x.label for x in sc.strategies]
        if len(labels) > 1:
            for j, lab in enumerate(labels):
                row[f"{lab}_win_rate"] = float(run.totals["strat_wins"][j] / 60
                                               / run.totals["strat_games"][j])
        rows.append(row)
    return pd.DataFrame(rows)


def write_sweep(df: pd.DataFrame, scenario, kind, target, games, seed, out: Path) -> Path:
    import matplotlib.pyplot as plt

    from simsym.report.plots import save

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "sweep.csv", df.to_csv(index=False, lineterminator="\n"))
    x = np.arange(len(df))
    label = "players" if kind == "players" else f"{kind} {target}"
    panels = [("seat advantage (pp vs fair share)", [c for c in df if c.endswith("_vs_fair_pp")])]
    if kind == "card":
        panels.append((f"{target}: GIH win rate and IWD", ["card_gih_wr", "card_iwd"]))
    panels.append(("mean score", ["mean_score"]))
    panels.append(("mean game length (turns)", ["mean_turns"]))
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.6 * len(panels)), sharex=True)
    for ax, (title, cols) in zip(np.atleast_1d(axes), panels):
        for c in cols:
            ax.plot(x, df[c], marker="o", label=c.replace("_vs_fair_pp", "").replace("_", " "))
        if "pp" in title:
            ax.axhline(0, color="k", lw=1, ls="--")
        ax.set_title(title)
        if len(cols) > 1:
            ax.legend(fontsize=7)
    np.atleast_1d(axes)[-1].set_xticks(x, df["value"], rotation=20)
    np.atleast_1d(axes)[-1].set_xlabel(label)
    fig.suptitle(f"Sweep of {label} ({games:,} games a value, seed {seed})")
    fig.tight_layout()
    save(fig, out / "sweep.png")
    cols = [c for c in df.columns if c not in ("players",)]
    lines = [f"# Sweep: {label} ({scenario.name})", "",
             f"Every value runs {games:,} games on the same seed ({seed}) and game indices, so "
             "the differences between values come from the change, not the deals.", "",
             "| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    for _, r in df.iterrows():
        lines.append("| " + " | ".join(
            f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    lines += ["", "![Sweep](sweep.png)", "", "Data: [sweep.csv](sweep.csv)", ""]
    atomic_write_text(out / "sweep.md", "\n".join(lines))
    return out / "sweep.md"
