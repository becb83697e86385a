"""`simsym compare A B`: did my change make the game better? Both on the same deals.

A and B run on the same seed and game indices (common random numbers); every difference
gets a paired 95% interval (batch means over 40 batches of games), and per-card
differences are called beyond noise only after Holm's correction for testing every card.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simsym.errors import SimsymError
from simsym.studies.paired import (BatchedRun, card_metric, diff_frame, paired, run_batched,
                                   seat_metric)
from simsym.run.output import atomic_write_text
from simsym.model.scenario import Scenario, load_scenario, scenario_changes, table_name

FAIL_METRICS = {
    "seat-gap": "B's gap between its best and worst seat's win rate",
    "seat-gap-change": "B's seat gap minus A's",
    "win-rate-change": "the largest change of a seat's win rate, beyond noise",
    "card-change": "the largest change of a card's GIH win rate, beyond noise (Holm)",
}
_FAIL = re.compile(r"^\s*([a-z-]+)\s*(>=|>)\s*(-?[0-9]*\.?[0-9]+)\s*(pp)?\s*$")


@dataclass
class Comparison:
    a_name: str
    b_name: str
    games: int
    seed: int
    seats: pd.DataFrame
    gap: pd.DataFrame
    cards: pd.DataFrame
    batches: int = 40
    # `compare --until-decided`: the sequential test's verdict lines, shown first
    sequential: list[str] | None = None
    tables: tuple = ("", "")  # who played each side, in words (scenario.table_name)
    # what B changes against A (scenario.scenario_changes): Markdown lines, changed cards
    changes: tuple = ((), ())

    def value(self, metric: str) -> float:
        if metric == "seat-gap":
            return float(self.gap["B"].iloc[0])
        if metric == "seat-gap-change":
            return float(self.gap["diff"].iloc[0])
        if metric == "win-rate-change":
            s = self.seats[(self.seats["metric"] == "win_rate") & self.seats["beyond_noise"]]
            return float(s["diff"].abs().max()) if len(s) else 0.0
        c = self.cards[(self.cards["metric"] == "gih_wr") & self.cards["beyond_noise"]]
        return float(c["diff"].abs().max()) if len(c) else 0.0


def parse_fail_on(specs) -> list[tuple[str, str, float]]:
    """``METRIC>VALUE`` -> (metric, op, limit as a fraction). Every metric is a rate: VALUE in
    percentage points (``2pp``) or as a fraction (``0.02``); a bare number above 1 is
    refused, since a rate never exceeds it and the gate could never fire."""
    out = []
    for spec in specs:
        m = _FAIL.match(spec)
        if not m or m[1] not in FAIL_METRICS:
            raise SimsymError(f"--fail-on {spec!r}: expected METRIC>VALUE with METRIC one of "
                              + ", ".join(FAIL_METRICS) + " and VALUE in percentage points "
                              "or as a fraction (e.g. seat-gap>5pp, seat-gap>0.05)")
        value = float(m[3])
        if m[4] == "pp":
            value /= 100
        elif abs(value) > 1:
            raise SimsymError(f"--fail-on {spec!r}: {m[1]} is a rate, so {m[3]} as a fraction "
                              f"could never be crossed; for {m[3]} percentage points write "
                              f"{m[1]}{m[2]}{m[3]}pp (or {m[1]}{m[2]}{value / 100:g})")
        out.append((m[1], m[2], value))
    return out


def resolve(path, judge: str | None = None):
    """A scenario file, or a run directory (its scenario file, games and seed), or a loaded
    Scenario; a judged scenario as the table of ``judge`` (default: the strong one)."""
    if isinstance(path, Scenario):
        sc = path.judge(judge)
        return sc, sc.games, sc.seed
    p = Path(path)
    if p.is_dir():
        run = p / "run.json"
        if not run.exists():
            raise SimsymError(f"{p}: not a run directory (no run.json) and not a scenario file")
        meta = json.loads(run.read_text())
        sc = load_scenario(meta["scenario_file"]).judge(judge or meta.get("judge"))
        return sc, meta["games"], meta["seed"]
    sc = load_scenario(p).judge(judge)
    return sc, sc.games, sc.seed


def compare(a_path, b_path, games=None, seed=None, jobs=1, progress=None,
            judge: str | None = None):
    A_sc, a_games, a_seed = resolve(a_path, judge)
    B_sc, _, _ = resolve(b_path, judge)
    if A_sc.players != B_sc.players:
        raise SimsymError(f"A has {A_sc.players} players and B {B_sc.players}: compare tables "
                          "of the same size (use simsym sweep over players)")
    games = games or a_games
    seed = a_seed if seed is None else seed
    A = run_batched(A_sc, games, seed, jobs,
                    on_progress=progress and (lambda done: progress(done)))
    B = run_batched(B_sc, games, seed, jobs,
                    on_progress=progress and (lambda done: progress(games + done)))
    return comparison_of(A, B)


def comparison_of(A: BatchedRun, B: BatchedRun) -> Comparison:
    """Seat, seat-gap and card differences B - A of two paired batched runs, with intervals
    (also used by `simsym serve` on the blocks a sequential test played)."""
    A_sc, B_sc, games, seed = A.scenario, B.scenario, A.games, A.seed
    P = A_sc.players
    seats = []
    for name in ("win_rate", "mean_score"):
        f = diff_frame([f"seat {i}" for i in range(P)], paired(seat_metric, A, B,
                                                               {"name": name}))
        f.insert(0, "metric", name)
        seats.append(f)
    gap = diff_frame(["seat gap"], paired(seat_metric, A, B, {"name": "seat_gap"}))
    names = [c.name for c in A_sc.cards if B_sc.cards.index(c.name) is not None]
    ka = np.array([A_sc.cards.index(n) for n in names])
    kb = np.array([B_sc.cards.index(n) for n in names])
    cards = []
    for name in ("gih_wr", "iwd", "play_rate"):
        f = diff_frame(names, paired(card_metric, A, B, {"name": name, "kinds": ka},
                                     {"name": name, "kinds": kb}), adjust=True)
        f.insert(0, "metric", name)
        cards.append(f)
    return Comparison(A_sc.name, B_sc.name, games, seed, pd.concat(seats, ignore_index=True),
                      gap, pd.concat(cards, ignore_index=True),
                      batches=min(len(A.batch_totals), len(B.batch_totals)),
                      tables=(table_name(A_sc), table_name(B_sc)),
                      changes=tuple(map(tuple, scenario_changes(A_sc, B_sc))))


def changed_first(c: Comparison) -> pd.DataFrame:
    """The GIH rows of the cards, the cards B changes first (in deck order), then the others
    by the size of their change, largest first."""
    g = c.cards[c.cards["metric"] == "gih_wr"].copy()
    changed = list(c.changes[1])
    g["_changed"] = g["name"].map(lambda n: changed.index(n) if n in changed else len(changed))
    g["_size"] = -g["diff"].abs()
    return g.sort_values(["_changed", "_size"], kind="stable").drop(columns=["_changed",
                                                                              "_size"])


def plain_changes(c: Comparison) -> list[str]:
    """B's changes as plain text, without compare.md's Markdown (the terminal, --json, the
    workbench)."""
    return [line.replace("`", "") for line in c.changes[0]]


def plain_row(r, *cols, digits: int | None = None) -> dict:
    """Columns ``cols`` of a comparison's row as plain JSON values: NaN as None, numpy
    scalars as Python's, floats rounded to ``digits`` when given."""
    out = {}
    for k in cols:
        v = r[k]
        v = v.item() if hasattr(v, "item") else v
        if isinstance(v, float):
            v = None if math.isnan(v) else (v if digits is None else round(v, digits))
        out[k] = v
    return out


def change_lines(c: Comparison) -> list[str]:
    """The "What changed" section's bullet lines."""
    if not c.changes[0]:
        return ["- Nothing: the same cards, rules and table on both sides."]
    return [f"- {line}" for line in c.changes[0]]


def _pct(x):
    return "–" if pd.isna(x) else f"{100 * x:.1f}"


def _pp(x):
    return "–" if pd.isna(x) else f"{100 * x:+.1f}"


def verdict(c: Comparison, fails: list[str]) -> list[str]:
    """The verdict lines of compare.md (also gathered by `simsym compare-tree`)."""
    gap = c.gap.iloc[0]
    lines = []
    lines.append(f"- **Seat gap** (best minus worst seat's win rate): A {_pct(gap['A'])}%, "
                 f"B {_pct(gap['B'])}%, change {_pp(gap['diff'])} pp "
                 f"({_pp(gap['lo'])} to {_pp(gap['hi'])})"
                 + (" — beyond noise." if gap["beyond_noise"] else " — within noise."))
    moved = c.cards[(c.cards["metric"] == "gih_wr") & c.cards["beyond_noise"]]
    if len(moved):
        lines.append("- **Cards whose strength moved beyond noise** (GIH WR): " + ", ".join(
            f"{r['name']} {_pp(r['diff'])} pp" for _, r in moved.iterrows()) + ".")
    else:
        lines.append("- No card's GIH win rate moved beyond noise.")
    for f in fails:
        lines.append(f"- **FAILED** `--fail-on {f}`")
    return lines


def write_report(c: Comparison, out: Path, fails: list[str]) -> Path:
    from simsym.report.plots import save

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "compare_seats.csv", c.seats.to_csv(index=False))
    atomic_write_text(out / "compare_cards.csv", c.cards.to_csv(index=False))
    save(seat_figure(c), out / "compare-seats.png")
    save(card_figure(c), out / "compare-cards.png")

    lines = [f"# Compare: A = {c.a_name}, B = {c.b_name}", "", "## What changed (B against A)",
             "", *change_lines(c), ""]
    if c.sequential:
        lines += ["## Sequential test", "", *c.sequential, ""]
    lines += [f"{c.games:,} games each on the same deals (seed {c.seed}, game indices "
             f"0..{c.games - 1}); intervals are paired 95% intervals from {c.batches} "
             "batches of games; per-card changes are beyond noise only after Holm's "
             "correction for testing every card.", ""]
    if c.tables[0]:
        lines += [f"Played by {c.tables[0]} on both sides." if c.tables[0] == c.tables[1]
                  else f"A played by {c.tables[0]}; B by {c.tables[1]}.", ""]
    lines += ["## Verdict", "", *verdict(c, fails)]
    lines += ["", "## Seats", "", "| seat | metric | A | B | B - A (95% CI) | p |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for _, r in c.seats.iterrows():
        if r["metric"] == "win_rate":
            lines.append(f"| {r['name']} | win share % | {_pct(r['A'])} | {_pct(r['B'])} | "
                         f"{_pp(r['diff'])} ({_pp(r['lo'])} to {_pp(r['hi'])}) | {r['p']:.3g} |")
        else:
            lines.append(f"| {r['name']} | mean score | {r['A']:.2f} | {r['B']:.2f} | "
                         f"{r['diff']:+.2f} ({r['lo']:+.2f} to {r['hi']:+.2f}) | {r['p']:.3g} |")
    lines += ["", "![Win share per seat](compare-seats.png)", "", "## Cards", "",
              "GIH WR: win rate of players who held the card; IWD: GIH WR minus the win rate "
              "of players who never held it; all in %, changes in percentage points. The cards "
              "B changes come first, then the others by the size of their change; ** marks a "
              "change beyond noise after Holm's correction.", "",
              *([] if not c.sequential else [
                  "The sequential test above is the decision: it tested one metric, chosen "
                  "before the games, until it was decided. This table is exploratory: it "
                  "tests all the cards at once, so each needs a larger change to count, and "
                  "a card the test decided may still read as within noise here.", ""]),
              "| card | GIH A | GIH B | change (95% CI) | Holm p | IWD A | IWD B | IWD change |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    iwd = c.cards[c.cards["metric"] == "iwd"].set_index("name")
    for _, r in changed_first(c).iterrows():
        i = iwd.loc[r["name"]]
        star = " **" if r["beyond_noise"] else ""
        lines.append(f"| {r['name']}{star} | {_pct(r['A'])} | {_pct(r['B'])} | {_pp(r['diff'])} "
                     f"({_pp(r['lo'])} to {_pp(r['hi'])}) | {r['p_adjusted']:.3g} | "
                     f"{_pp(i['A'])} | {_pp(i['B'])} | {_pp(i['diff'])} |")
    lines += ["", "![Card strength change](compare-cards.png)", "",
              "Data: [compare_seats.csv](compare_seats.csv), "
              "[compare_cards.csv](compare_cards.csv).", ""]
    path = out / "compare.md"
    atomic_write_text(path, "\n".join(lines))
    return path


def seat_figure(c: Comparison):
    """Win share per seat, A beside B, with the fair share."""
    import matplotlib.pyplot as plt

    wr = c.seats[c.seats["metric"] == "win_rate"]
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(wr))
    for side, dx in (("A", -0.2), ("B", 0.2)):
        share = wr[side].to_numpy()
        half = 196 * np.sqrt(share * (1 - share) / c.games)  # 95% normal interval, in %
        ax.bar(x + dx, 100 * share, 0.4, yerr=half, capsize=3,
               label=f"{side}: {c.a_name if side == 'A' else c.b_name}")
    ax.axhline(100 / len(wr), color="k", ls="--", lw=1, label="fair share")
    ax.set_xticks(x, wr["name"])
    ax.set_ylabel("win share (%, 95% interval)")
    ax.set_title(f"Win share per seat, A vs B ({c.games:,} paired games)")
    ax.legend()
    fig.tight_layout()
    return fig


def card_figure(c: Comparison):
    """Each card's GIH win-rate change with its paired interval (red: beyond noise)."""
    import matplotlib.pyplot as plt

    g = c.cards[c.cards["metric"] == "gih_wr"].sort_values("diff")
    fig, ax = plt.subplots(figsize=(7, max(4, 0.16 * len(g))))
    y = np.arange(len(g))
    colors = np.where(g["beyond_noise"], "tab:red", "tab:gray")
    ax.errorbar(100 * g["diff"], y, xerr=[100 * (g["diff"] - g["lo"]), 100 * (g["hi"] -
                g["diff"])], fmt="none", ecolor="lightgray")
    ax.scatter(100 * g["diff"], y, c=colors, s=12, zorder=3)
    ax.axvline(0, color="k", lw=1)
    ax.set_yticks(y, g["name"], fontsize=6)
    ax.set_xlabel("change of GIH win rate, B - A (percentage points, 95% paired CI)")
    ax.set_title("Card strength change (red: beyond noise after Holm's correction)")
    fig.tight_layout()
    return fig


def verdict_json(c: Comparison, fails: list[str], path: Path) -> str:
    """`simsym compare --json`: the verdict as one JSON object (rates as fractions)."""
    def row(r, *keys):
        return plain_row(r, *keys, digits=6)

    gap = c.gap.iloc[0]
    wr = c.seats[c.seats["metric"] == "win_rate"]
    moved = changed_first(c)
    moved = moved[moved["beyond_noise"]]
    return json.dumps({
        "a": c.a_name, "b": c.b_name, "games": c.games, "seed": c.seed,
        "tables": {"a": c.tables[0], "b": c.tables[1]},
        "changes": plain_changes(c),
        "changed_cards": list(c.changes[1]),
        "sequential": [line.removeprefix("- ").replace("**", "")
                       for line in c.sequential or ()],
        "seat_gap": row(gap, "A", "B", "diff", "lo", "hi", "beyond_noise"),
        "seats": [row(r, "name", "A", "B", "diff", "lo", "hi", "beyond_noise")
                  for _, r in wr.iterrows()],
        "cards_beyond_noise": [row(r, "name", "A", "B", "diff", "lo", "hi", "p_adjusted")
                               for _, r in moved.iterrows()],
        "failed": fails, "report": str(path)}, indent=1)


def check_fail_on(c: Comparison, rules) -> list[str]:
    failed = []
    for metric, op, limit in rules:
        v = c.value(metric)
        if (v > limit) if op == ">" else (v >= limit):
            failed.append(f"{metric}{op}{100 * limit:g}pp (value {100 * v:.2f} pp)")
    return failed
