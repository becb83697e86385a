"""`simsym sweep`: vary one card's notation, one rule option, the player count or the
strategy table over a list of values, run every variant on the same seed, and plot the
metrics against the value.

In a scenario::

    sweep:
      card: Plato                 # or  rule: hand_size   or  players: [2, 3, 4, 5, 6]
      values: ["3I; IO", "4I; IO", "5I; IO", "6I; IO"]

or ``strategies: [greedy, {family: patient, threshold: 15}]``: mirror tables, side by side
(simsym.studies.table_sweep). The scenario loader checks the `sweep:` mapping
(simsym.model.scenario).

sweep.md opens with each value's answer to "Balanced?" under the scenario's `balance:`
criteria (simsym.studies.paired.balance_of), then the glossary, then every metric per value.
A swept card's strength is its IWD minus the table's average IWD, in pp, as in every report.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from simsym.analysis.balance import Criteria
from simsym.analysis.quality import MEASURES, SHARES, digits, in_percent
from simsym.errors import InputError, SimsymError
from simsym.model.cards.model import CardSet
from simsym.model.cards.notation import parse_notation
from simsym.model.rules import rules_from_mapping
from simsym.run.output import atomic_write_text
from simsym.studies.paired import (balance_of, card_metric, interval, paired, quality_metric,
                                   run_batched, seat_metric)


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


def _mean_score(run, batch):
    return float(np.mean(seat_metric(run, batch, "mean_score")))


def _mean_turns(run, batch):
    t = run.totals if batch is None else run.batch_totals[batch]
    return float(t["turns"][0] / t["games"][0])


def _card_strength(run, batch, kinds):
    """A card's strength: its IWD minus the table's average IWD (the plain mean over the
    cards, as the card report's average)."""
    iwd = card_metric(run, batch, "iwd")
    return iwd[kinds] - np.nanmean(iwd)


def _with_interval(row, name, value, lo, hi, scale=1.0):
    row[name] = float(scale * value)
    row[f"{name}_lo"] = float(scale * lo)
    row[f"{name}_hi"] = float(scale * hi)


def run_sweep(scenario, kind, target, values, games, seed, jobs=1, progress=None, on_run=None):
    """One row of metrics per value; ``on_run(label, variant, run)`` sees each BatchedRun.
    Each row opens with the value's answer to "Balanced?"
    (simsym.report.table_sweep.balance_row: ``balanced``, each criterion's state, the cards
    outside the band, the seat spread with the interval the seat criterion reads). Each metric
    has its 95% batch-means interval (``_lo``, ``_hi``); unless the sweep is over the player
    count, the seat gap's change from the first value has a paired one too (every value plays
    the same deals)."""
    from simsym.report.table_sweep import balance_row

    rows = []
    done_before = 0
    first = None
    for v, label in zip(values, value_labels(kind, values)):
        sc = variant(scenario, kind, target, v)
        run = run_batched(sc, games, seed, jobs,
                          on_progress=progress and (lambda d, o=done_before: progress(o + d)))
        done_before += games
        if on_run:
            on_run(label, sc, run)
        row = {"value": label, "players": sc.players, **balance_row(balance_of(run, label))}
        gap, lo, hi = interval(seat_metric, run, {"name": "seat_gap"})
        _with_interval(row, "seat_gap", gap[0], lo[0], hi[0])
        if kind != "players":
            first = first or run
            d = paired(seat_metric, first, run, {"name": "seat_gap"})
            _with_interval(row, "seat_gap_change_pp", d.diff[0], d.lo[0], d.hi[0], 100)
        _with_interval(row, "mean_score", *interval(_mean_score, run))
        _with_interval(row, "mean_turns", *interval(_mean_turns, run))
        row["stalled"] = int(run.totals["stalled"][0])
        fair = 1 / sc.players
        wr, lo, hi = interval(seat_metric, run, {"name": "win_rate"})
        for i, w in enumerate(wr):
            _with_interval(row, f"seat{i}_win_rate", w, lo[i], hi[i])
            _with_interval(row, f"seat{i}_vs_fair_pp", w - fair, lo[i] - fair, hi[i] - fair,
                           100)
        if kind == "card":
            k = sc.cards.index(str(target))
            for name in ("gih_wr", "iwd", "play_rate"):
                cv, clo, chi = interval(card_metric, run, {"name": name, "kinds": [k]})
                _with_interval(row, f"card_{name}", cv[0], clo[0], chi[0])
            cv, clo, chi = interval(_card_strength, run, {"kinds": [k]})
            _with_interval(row, "card_strength", cv[0], clo[0], chi[0])
        if "q_turns" in run.totals:  # how the game plays (the turns are mean_turns)
            qv, qlo, qhi = interval(quality_metric, run)
            for i, (measure, _) in enumerate(MEASURES[1:], start=1):
                _with_interval(row, _quality_column(measure), qv[i], qlo[i], qhi[i])
        labels = [x.label for x in sc.strategies]
        if len(labels) > 1:
            for j, lab in enumerate(labels):
                row[f"{lab}_win_rate"] = float(run.totals["strat_wins"][j] / 60
                                               / run.totals["strat_games"][j])
        rows.append(row)
    return pd.DataFrame(rows)


# The sweep's metrics as sweep.md and sweep_long.csv name them: column -> (header, unit,
# scale from the stored value to that unit).
def _metrics(df: pd.DataFrame) -> list[tuple[str, str, str, float]]:
    out = [("seat_gap", "seat gap", "pp", 100)]
    if "seat_gap_change_pp" in df:
        out.append(("seat_gap_change_pp", "seat gap change from the first value (paired)", "pp",
                    1))
    seats = sorted({c.removesuffix("_win_rate") for c in df if c.startswith("seat")
                    and c.endswith("_win_rate")}, key=lambda c: int(c[4:]))
    out += [(f"{c}_win_rate", f"seat {c[4:]} win share", "%", 100) for c in seats]
    out += [("mean_score", "mean score", "points", 1), ("mean_turns", "game length", "turns", 1)]
    if "card_gih_wr" in df:
        out += [("card_strength", "card strength (IWD minus the table's average)", "pp", 100),
                ("card_gih_wr", "card GIH win rate", "%", 100),
                ("card_iwd", "card IWD, raw", "pp", 100),
                ("card_play_rate", "card play rate", "%", 100)]
    return out


def _quality_column(measure: str) -> str:
    return "q_" + "".join(ch if ch.isalnum() else "_" for ch in measure).strip("_")


def _quality_metrics(df: pd.DataFrame) -> list[tuple[str, str, str, float]]:
    """The measures of how the game plays the sweep holds (all but the turns, which are the
    game length), as _metrics names them."""
    return [(_quality_column(m), m, "%" if u in SHARES else u, in_percent(u)[0])
            for m, u in MEASURES[1:] if _quality_column(m) in df]


def _cell(v: float, lo: float, hi: float, d: int, sign: str = "") -> str:
    """A figure and its interval, to ``d`` decimals: "21.30 (21.20 to 21.40)"."""
    return f"{v:{sign}.{d}f} ({lo:{sign}.{d}f} to {hi:{sign}.{d}f})"


def long_table(df: pd.DataFrame) -> pd.DataFrame:
    """sweep_long.csv: one row per value and metric, in the metric's unit, with its 95%
    interval (tidy: for pandas' groupby or a plotting library)."""
    rows = []
    for _, r in df.iterrows():
        for col, header, unit, scale in _metrics(df) + _quality_metrics(df):
            if pd.isna(r[col]):
                continue
            rows.append({"value": r["value"], "players": r["players"], "metric": header,
                         "unit": unit, "estimate": scale * r[col],
                         "lo": scale * r[f"{col}_lo"], "hi": scale * r[f"{col}_hi"]})
    return pd.DataFrame(rows)


def write_sweep(df: pd.DataFrame, scenario, kind, target, games, seed, out: Path) -> Path:
    import matplotlib.pyplot as plt

    from simsym.report.plots import save
    from simsym.report.table_sweep import balanced_and_glossary

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "sweep.csv", df.to_csv(index=False, lineterminator="\n"))
    atomic_write_text(out / "sweep_long.csv",
                      long_table(df).to_csv(index=False, lineterminator="\n"))
    x = np.arange(len(df))
    label = "players" if kind == "players" else f"{kind} {target}"
    seat_cols = [c for c in df if c.endswith("_vs_fair_pp") and not c.endswith(("_lo", "_hi"))]
    panels = [("seat advantage (pp vs fair share, 95% intervals)",
               [(c, c.removesuffix("_vs_fair_pp").replace("seat", "seat "), 1) for c in
                seat_cols])]
    if kind == "card":
        panels.append((f"{target}: GIH win rate and strength (%, pp; 95% intervals)",
                       [("card_gih_wr", "GIH win rate", 100),
                        ("card_strength", "strength (IWD minus the table's average)", 100)]))
    panels.append(("mean score (points, 95% intervals)", [("mean_score", "mean score", 1)]))
    panels.append(("mean game length (turns, 95% intervals)", [("mean_turns", "turns", 1)]))
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.6 * len(panels)), sharex=True)
    for ax, (title, cols) in zip(np.atleast_1d(axes), panels):
        for c, name, scale in cols:
            y = scale * df[c].to_numpy()
            err = [y - scale * df[f"{c}_lo"].to_numpy(), scale * df[f"{c}_hi"].to_numpy() - y]
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=name)
        if "pp" in title:
            ax.axhline(0, color="k", lw=1, ls="--")
        ax.set_title(title, fontsize=10)
        if len(cols) > 1:
            ax.legend(fontsize=7)
    np.atleast_1d(axes)[-1].set_xticks(x, df["value"], rotation=20)
    np.atleast_1d(axes)[-1].set_xlabel(label)
    fig.suptitle(f"Sweep of {label} ({games:,} games a value, seed {seed})")
    fig.tight_layout()
    save(fig, out / "sweep.png")
    metrics = _metrics(df)
    paired_note = ("" if kind == "players" else
                   " The seat gap's change from the first value has a paired interval: every "
                   "value plays the same deals, so the change is measured far more precisely "
                   "than either value alone.")
    lines = [f"# Sweep: {label} ({scenario.name})", ""]
    lines += balanced_and_glossary(Criteria.from_pp(scenario.balance), df.to_dict("records"),
                                   "value", "[sweep.csv](sweep.csv) (its columns `balanced` "
                                   "to `seat_spread_hi`)")
    lines += ["## Every metric per value", "",
             f"Every value runs {games:,} games on the same seed ({seed}) and game indices, so "
             "the differences between values come from the change, not the deals. Each "
             "figure is followed by its 95% interval (batch means over 40 batches of games)."
             + paired_note + " An interval that overlaps the next value's means the sweep "
             "cannot tell them apart at this many games.", "",
             "| value | " + " | ".join(f"{h} ({u})" for _, h, u, _ in metrics)
             + " | stalled games |", "| --- |" + " ---: |" * (len(metrics) + 1)]
    for _, r in df.iterrows():
        cells = []
        for col, header, unit, scale in metrics:
            if pd.isna(r[col]):
                cells.append("–")
                continue
            d = 2 if unit in ("points", "turns") else 1
            v, lo, hi = (scale * r[col], scale * r[f"{col}_lo"], scale * r[f"{col}_hi"])
            sign = "+" if any(w in header for w in ("change", "IWD", "strength")) else ""
            cells.append(_cell(v, lo, hi, d, sign))
        lines.append(f"| {r['value']} | " + " | ".join(cells) + f" | {int(r['stalled'])} |")
    quality = _quality_metrics(df)
    if quality:
        lines += ["", "## How the game plays per value", "",
                  "Beside who wins, how the games went (`simsym docs guide`, \"How the game "
                  "plays\"; the game length is in the table above), each with its 95% "
                  "interval.", "",
                  "| value | " + " | ".join(f"{h} ({u})" for _, h, u, _ in quality) + " |",
                  "| --- |" + " ---: |" * len(quality)]
        for _, r in df.iterrows():
            lines.append(f"| {r['value']} | " + " | ".join(
                "–" if pd.isna(r[c]) else _cell(k * r[c], k * r[f"{c}_lo"], k * r[f"{c}_hi"],
                                                digits(u))
                for c, _, u, k in quality) + " |")
    lines += ["", "![Sweep](sweep.png)", "",
              "Data: [sweep.csv](sweep.csv) (one row a value), "
              "[sweep_long.csv](sweep_long.csv) (one row a value and metric).", ""]
    atomic_write_text(out / "sweep.md", "\n".join(lines))
    return out / "sweep.md"
