"""`simsym compare A B`: did my change make the game better? Both on the same deals.

A and B run on the same seed and game indices (common random numbers); every difference
gets a paired 95% interval (batch means over 40 batches of games). The one rule for a real
change: the Holm-corrected paired test over everything the comparison tests (the seat gap,
each seat's win share, each card's strength: IWD minus the table's average).
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
from simsym.analysis.balance import MET, NOT_MET, balance_lines, fmt_pp
from simsym.analysis.quality import MEASURES, SHARES, digits, in_percent
from simsym.analysis.stats import ALPHA, holm
from simsym.studies.generations import previous_pair
from simsym.studies.paired import (BatchedRun, balance_of, card_metric, diff_frame, paired,
                                   paired_moves, quality_metric, run_batched, seat_metric)
from simsym.run.output import atomic_write_text
from simsym.model.scenario import Scenario, load_scenario, scenario_changes, table_name

FAIL_METRICS = {
    "seat-gap": "B's gap between its best and worst seat's win rate",
    "seat-gap-change": "B's seat gap minus A's",
    "win-rate-change": "the largest change of a seat's win rate, beyond noise",
    "card-change": "the largest real change of a card's strength (IWD minus the table's "
                   "average)",
}
GENERATIONS_HEADING = "Does the change hold for better players?"
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
    # "Balanced?" of A and of B (simsym.analysis.balance.Balance), under the judge compared
    balance: tuple = ()
    # the same under the other judge of a judged scenario: (label, A's, B's), or ()
    other_balance: tuple = ()
    tested: int = 0  # the family the one rule's Holm correction counts
    # how the game plays (simsym.analysis.quality.MEASURES), B - A paired, or None
    quality: pd.DataFrame | None = None
    # whether the change holds under the generation before the shipped model
    # (simsym.studies.convergence.change_convergence), or None
    convergence: dict | None = None

    def value(self, metric: str) -> float:
        if metric == "seat-gap":
            return float(self.gap["B"].iloc[0])
        if metric == "seat-gap-change":
            return float(self.gap["diff"].iloc[0])
        if metric == "win-rate-change":
            s = self.seats[(self.seats["metric"] == "win_rate") & self.seats["beyond_noise"]]
            return float(s["diff"].abs().max()) if len(s) else 0.0
        c = self.cards[(self.cards["metric"] == "strength") & self.cards["beyond_noise"]]
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


def other_judge(path, judge: str | None):
    """The other judge's role and label of a judged scenario (file or Scenario) compared
    under ``judge``, or None when the scenario has one table (or is a run directory)."""
    if not isinstance(path, Scenario):
        p = Path(path)
        if p.is_dir():
            return None
        path = load_scenario(p)
    if not path.judges:
        return None
    role = "fast" if (judge or "strong") == "strong" else "strong"
    return role, f"{role} table ({path.judges[role].label})"


def compare(a_path, b_path, games=None, seed=None, jobs=1, progress=None,
            judge: str | None = None, both_judges: bool = True, generations: bool = True):
    """A against B under ``judge`` (default the strong one); with ``both_judges`` and a
    judged scenario, A and B are also played under the other judge on the same deals, for
    its "Balanced?" answers (``progress`` then counts four sides' games); with
    ``generations``, when the learned player with the shipped model plays both, they are also
    played by the generation before it, for whether the change holds for better players
    (:func:`sides` lists every side in order)."""
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
    c = comparison_of(A, B)
    other = other_judge(a_path, judge) if both_judges else None
    if other:
        role, label = other
        oa = run_batched(resolve(a_path, role)[0], games, seed, jobs, on_progress=progress and (
            lambda done: progress(2 * games + done)))
        ob = run_batched(resolve(b_path, role)[0], games, seed, jobs, on_progress=progress and (
            lambda done: progress(3 * games + done)))
        c.other_balance = (label, balance_of(oa, f"A, {label}"), balance_of(ob, f"B, {label}"))
    pair = generations and previous_pair(A_sc, B_sc)
    if pair:
        done = 2 * games * (2 if other else 1)
        A2 = run_batched(pair[0], games, seed, jobs,
                         on_progress=progress and (lambda n: progress(done + n)))
        B2 = run_batched(pair[1], games, seed, jobs,
                         on_progress=progress and (lambda n: progress(done + games + n)))
        c.convergence = change_convergence(c, A, B, A2, B2, pair[2:])
    return c


def sides(a_path, b_path, judge: str | None = None, a_sc=None, b_sc=None) -> list[str]:
    """The sides :func:`compare` plays, in order, for its progress."""
    a_sc = a_sc or resolve(a_path, judge)[0]
    b_sc = b_sc or resolve(b_path, judge)[0]
    out = [f"A {a_sc.name}", f"B {b_sc.name}"]
    other = other_judge(a_path, judge)
    if other:
        out += [f"A {a_sc.name}, {other[1]}", f"B {b_sc.name}, {other[1]}"]
    pair = previous_pair(a_sc, b_sc)
    if pair:
        out += [f"A {a_sc.name}, generation {pair[2]}", f"B {b_sc.name}, generation {pair[2]}"]
    return out


def comparison_of(A: BatchedRun, B: BatchedRun) -> Comparison:
    """Seat, seat-gap and card differences B - A of two paired batched runs, with intervals
    (also used by `simsym serve` on the blocks a sequential test played).

    The one rule for a real change: the seat gap, each seat's win share and each card's
    strength are one family of tests, Holm-corrected together (``p_adjusted``,
    ``beyond_noise``); the other rows (mean scores, GIH WR, raw IWD, play rate) are shown
    with their intervals and not tested (``p_adjusted`` NaN, ``beyond_noise`` False)."""
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
    for name in ("strength", "gih_wr", "iwd", "play_rate"):
        f = diff_frame(names, paired(card_metric, A, B, {"name": name, "kinds": ka},
                                     {"name": name, "kinds": kb}))
        f.insert(0, "metric", name)
        cards.append(f)
    seats, cards = pd.concat(seats, ignore_index=True), pd.concat(cards, ignore_index=True)
    family = [(gap, np.ones(len(gap), bool)),
              (seats, (seats["metric"] == "win_rate").to_numpy()),
              (cards, (cards["metric"] == "strength").to_numpy())]
    quality = None
    if "q_turns" in A.totals and "q_turns" in B.totals:
        quality = diff_frame([m for m, _ in MEASURES], paired(quality_metric, A, B))
        quality.insert(1, "unit", [u for _, u in MEASURES])
        family.append((quality, np.ones(len(quality), bool)))
    tested = _one_rule(family)
    return Comparison(A_sc.name, B_sc.name, games, seed, seats, gap, cards,
                      batches=min(len(A.batch_totals), len(B.batch_totals)),
                      tables=(table_name(A_sc), table_name(B_sc)),
                      changes=tuple(map(tuple, scenario_changes(A_sc, B_sc))),
                      balance=(balance_of(A, f"A, {table_name(A_sc)}"),
                               balance_of(B, f"B, {table_name(B_sc)}")),
                      tested=tested, quality=quality)


def _one_rule(parts) -> int:
    """Holm over the rows of each ``(frame, mask)`` of ``parts`` together: sets
    ``p_adjusted`` and ``beyond_noise`` there, and NaN / False on the frames' other rows (not
    tested); returns the family's size."""
    p = np.concatenate([f["p"].to_numpy(dtype=float)[m] for f, m in parts])
    adj = holm(p)
    i = 0
    for f, m in parts:
        n = int(m.sum())
        col = np.full(len(f), np.nan)
        col[m] = adj[i:i + n]
        f["p_adjusted"] = col
        f["beyond_noise"] = col < ALPHA  # NaN compares False
        i += n
    return int(np.sum(~np.isnan(p)))


def changed_first(c: Comparison) -> pd.DataFrame:
    """The strength rows of the cards, the cards B changes first (in deck order), then the
    others by the size of their change, largest first."""
    g = c.cards[c.cards["metric"] == "strength"].copy()
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


def terminal_lines(c: Comparison, fails=()) -> list[str]:
    """What `simsym compare` prints: Balanced? first, then what changed and the verdict, as
    compare.md says them, without its Markdown."""
    def plain(line):
        return line.removeprefix("- ").replace("**", "").replace("`", "")

    out = []
    if c.balance:
        a, b = c.balance
        out.append(f"Balanced? A: {a.answer} (cards {a.cards_state}, seats {a.seats_state}); "
                   f"B: {b.answer} (cards {b.cards_state}, seats {b.seats_state}); "
                   f"{criteria_moves(a, b)}")
        if c.other_balance:
            label, oa, ob = c.other_balance
            out.append(f"  under the {label}: A {oa.answer}, B {ob.answer}; "
                       f"{criteria_moves(oa, ob)}")
    out.append("changed: " + ("; ".join(plain_changes(c)) or "nothing"))
    out += [plain(x) for x in c.sequential or ()]
    out += [plain(x) for x in verdict(c, list(fails))]
    if c.convergence:
        from simsym.analysis.convergence import change_summary

        out.append(change_summary(c.convergence))
    return out


def rule_words(r, tested: int) -> str:
    """One difference judged by the one rule, in words."""
    if r["beyond_noise"]:
        return "a real change"
    if r["lo"] > 0 or r["hi"] < 0:
        return (f"its interval excludes 0, but not told apart from noise once {tested} "
                "changes are tested")
    return "within noise"


def criteria_moves(a, b) -> str:
    """Which balance criteria B fixed or broke against A."""
    out = []
    for name, x, y in (("cards", a.cards_state, b.cards_state),
                       ("seats", a.seats_state, b.seats_state)):
        if x == y:
            out.append(f"{name} {x} on both")
        else:
            word = ("fixed" if y == MET else "broke" if x == MET
                    else "now beyond noise" if y == NOT_MET else "no longer beyond noise")
            out.append(f"{name}: {x} -> {y} ({word})")
    return "; ".join(out)


def balanced_lines(c: Comparison) -> list[str]:
    """"Balanced?" of A and B under the judge compared, what B fixed or broke, and the
    answers under the other judge."""
    if not c.balance:
        return []
    a, b = c.balance
    lines = []
    for x in (a, b):
        bl = balance_lines(x)
        lines += [f"- {bl[0]}", *(f"  - {t}" for t in bl[1:])]
    lines.append(f"- **What B changed in the answer:** {criteria_moves(a, b)}.")
    if c.other_balance:
        label, oa, ob = c.other_balance
        lines.append(f"- **Under the {label}** (same deals): A {oa.answer}, B {ob.answer}; "
                     f"{criteria_moves(oa, ob)}. Its full answers: balance.json.")
    return lines


def _change(r) -> str:
    return fmt_pp(r["diff"], r["lo"], r["hi"])


def verdict(c: Comparison, fails: list[str]) -> list[str]:
    """The verdict lines of compare.md (also gathered by `simsym compare-tree`): every
    difference in pp with its interval, judged by the one rule."""
    gap = c.gap.iloc[0]
    lines = [f"- **Seat gap** (best minus worst seat's win share): A {_pct(gap['A'])} pp, "
             f"B {_pct(gap['B'])} pp, change {_change(gap)}: {rule_words(gap, c.tested)}."]
    st = changed_first(c)
    changed = st[st["name"].isin(c.changes[1])]
    for _, r in changed.iterrows():
        lines.append(f"- **{r['name']}** (changed by B): strength {_pp(r['A'])} -> "
                     f"{_pp(r['B'])} pp, change {_change(r)}: {rule_words(r, c.tested)}.")
    moved = st[st["beyond_noise"] & ~st["name"].isin(c.changes[1])]
    if len(moved):
        lines.append("- **Other cards whose strength really changed:** " + "; ".join(
            f"{r['name']} {_change(r)}" for _, r in moved.iterrows()) + ".")
    elif not len(changed):
        lines.append("- No card's strength really changed.")
    near = st[~st["beyond_noise"] & ((st["lo"] > 0) | (st["hi"] < 0))
              & ~st["name"].isin(c.changes[1])]
    if len(near):
        lines.append(f"- Not told apart from noise once {c.tested} changes are tested, though "
                     "each interval excludes 0: " + "; ".join(
                         f"{r['name']} {_change(r)}" for _, r in near.iterrows()) + ".")
    if c.quality is not None:
        real = c.quality[c.quality["beyond_noise"]]
        lines.append("- **How the game plays:** " + ("; ".join(
            f"{r['name']} {quality_change(r)}" for _, r in real.iterrows()) + " (real changes)"
            if len(real) else "no measure really changed") + ".")
    for f in fails:
        lines.append(f"- **FAILED** `--fail-on {f}`")
    return lines


def quality_cells(r) -> tuple[str, str, str]:
    """One measure's A, B and change with its paired interval, each in its unit (shares in %,
    their change in pp), as compare.md's table and the workbench show them."""
    u = r["unit"]
    k, _ = in_percent(u)
    d = digits(u)
    unit = "%" if u in SHARES else f" {u}"

    def q(x, sign=""):
        return f"{k * x:{sign}.{d}f}"

    return (f"{q(r['A'])}{unit}", f"{q(r['B'])}{unit}",
            f"{q(r['diff'], '+')}{' pp' if u in SHARES else ''} "
            f"({q(r['lo'], '+')} to {q(r['hi'], '+')})")


def quality_change(r) -> str:
    """One measure's change, A -> B with its paired interval: "21.03 turns -> 21.30 turns,
    change +0.27 (+0.20 to +0.34)"; shares in %, their change in pp."""
    a, b, change = quality_cells(r)
    return f"{a} -> {b}, change {change}"


def write_report(c: Comparison, out: Path, fails: list[str]) -> Path:
    from simsym.report.plots import save

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "compare_seats.csv", c.seats.to_csv(index=False))
    atomic_write_text(out / "compare_cards.csv", c.cards.to_csv(index=False))
    save(seat_figure(c), out / "compare-seats.png")
    save(card_figure(c), out / "compare-cards.png")

    from simsym.report.markdown import GLOSSARY

    atomic_write_text(out / "balance.json", balance_json(c))
    lines = [f"# Compare: A = {c.a_name}, B = {c.b_name}", ""]
    if c.balance:
        crit = c.balance[0].criteria
        lines += ["## Balanced?", "",
                  f"Criteria (the scenario's `balance:`): every card's strength within "
                  f"±{crit.card_band * 100:g} pp of the table's average; the best seat's win "
                  f"share within {crit.seat_band * 100:g} pp of the worst's, each side's "
                  f"seats as its scenario plays them. Terms in the [glossary](#glossary).",
                  "",
                  *balanced_lines(c), ""]
    lines += ["## What changed (B against A)", "", *change_lines(c), ""]
    quality_words = ", each measure of how the game plays" if c.quality is not None else ""
    if c.sequential:
        lines += ["## Sequential test", "", *c.sequential, ""]
    lines += [f"{c.games:,} games each on the same deals (seed {c.seed}, game indices "
              f"0..{c.games - 1}); intervals are paired 95% intervals from {c.batches} "
              f"batches of games; a real change is one the Holm-corrected paired test "
              f"calls so over the {c.tested} changes this comparison tests (the seat gap, "
              f"each seat's win share, each card's strength{quality_words}); every "
              f"difference of shares is in pp.", ""]
    if c.tables[0]:
        lines += [f"Played by {c.tables[0]} on both sides." if c.tables[0] == c.tables[1]
                  else f"A played by {c.tables[0]}; B by {c.tables[1]}.", ""]
    lines += ["## Verdict", "", *verdict(c, fails), ""]
    if c.convergence:
        from simsym.analysis.convergence import change_section

        lines += [f"## {GENERATIONS_HEADING}", "", *change_section(c.convergence), ""]
    lines += [GLOSSARY]
    lines += ["", "## Seats", "", "| seat | metric | A | B | B - A (95% CI) | Holm p |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for _, r in c.seats.iterrows():
        if r["metric"] == "win_rate":
            star = " **" if r["beyond_noise"] else ""
            lines.append(f"| {r['name']}{star} | win share % | {_pct(r['A'])} | {_pct(r['B'])} "
                         f"| {_pp(r['diff'])} pp ({_pp(r['lo'])} to {_pp(r['hi'])}) | "
                         f"{r['p_adjusted']:.3g} |")
        else:
            lines.append(f"| {r['name']} | mean score | {r['A']:.2f} | {r['B']:.2f} | "
                         f"{r['diff']:+.2f} points ({r['lo']:+.2f} to {r['hi']:+.2f}) | "
                         f"not tested |")
    lines += ["", "![Win share per seat](compare-seats.png)", "", "## Cards", "",
              "Strength: IWD minus the table's average, in pp (the frame every report names "
              "a card in); GIH WR and raw IWD beside it, not tested. The cards B changes "
              "come first, then the others by the size of their change; ** marks a real "
              "change (Holm over every change tested).", "",
              *([] if not c.sequential else [
                  "The sequential test above chose when to stop playing: it followed one "
                  "metric, chosen before the games. Every verdict, that metric's included, "
                  "is the one rule's, over every change tested.", ""]),
              "| card | strength A | strength B | change (95% CI) | Holm p | GIH A % | "
              "GIH B % | IWD A | IWD B |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    gih = c.cards[c.cards["metric"] == "gih_wr"].set_index("name")
    iwd = c.cards[c.cards["metric"] == "iwd"].set_index("name")
    for _, r in changed_first(c).iterrows():
        g, i = gih.loc[r["name"]], iwd.loc[r["name"]]
        star = " **" if r["beyond_noise"] else ""
        lines.append(f"| {r['name']}{star} | {_pp(r['A'])} | {_pp(r['B'])} | {_pp(r['diff'])} "
                     f"({_pp(r['lo'])} to {_pp(r['hi'])}) | {r['p_adjusted']:.3g} | "
                     f"{_pct(g['A'])} | {_pct(g['B'])} | {_pp(i['A'])} | {_pp(i['B'])} |")
    if c.quality is not None:
        lines += ["", "## How the game plays", "",
                  "Each measure of the run reports' section (`simsym docs guide`, \"How the "
                  "game plays\"), A and B on the same deals; ** marks a real change.", "",
                  "| measure | A | B | change (95% CI) | Holm p |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for _, r in c.quality.iterrows():
            star = " **" if r["beyond_noise"] else ""
            a, b, change = quality_cells(r)
            lines.append(f"| {r['name']}{star} | {a} | {b} | {change} | "
                         f"{r['p_adjusted']:.3g} |")
    lines += ["", "![Card strength change](compare-cards.png)", "",
              "Data: [compare_seats.csv](compare_seats.csv), "
              "[compare_cards.csv](compare_cards.csv), [balance.json](balance.json).", ""]
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
    """Each card's strength change with its paired interval (red: a real change)."""
    import matplotlib.pyplot as plt

    g = c.cards[c.cards["metric"] == "strength"].sort_values("diff")
    fig, ax = plt.subplots(figsize=(7, max(4, 0.16 * len(g))))
    y = np.arange(len(g))
    colors = np.where(g["beyond_noise"], "tab:red", "tab:gray")
    ax.errorbar(100 * g["diff"], y, xerr=[100 * (g["diff"] - g["lo"]), 100 * (g["hi"] -
                g["diff"])], fmt="none", ecolor="lightgray")
    ax.scatter(100 * g["diff"], y, c=colors, s=12, zorder=3)
    ax.axvline(0, color="k", lw=1)
    ax.set_yticks(y, g["name"], fontsize=6)
    ax.set_xlabel("change of card strength (IWD minus the table's average), B - A "
                  "(pp, 95% paired CI)")
    ax.set_title("Card strength change (red: a real change, Holm over every change tested)")
    fig.tight_layout()
    return fig


def balance_json(c: Comparison) -> str:
    """balance.json of a comparison: A's and B's answers, and the other judge's."""
    doc = {"units": "pp", "tables": [b.as_dict() for b in c.balance]}
    if c.other_balance:
        doc["other_judge"] = {"judge": c.other_balance[0],
                              "tables": [b.as_dict() for b in c.other_balance[1:]]}
    return json.dumps(doc, indent=1) + "\n"


def quality_row(r) -> dict:
    """One measure of how the game plays for --json: shares in % (changes in pp), the others
    in their unit."""
    out = plain_row(r, "name", "unit", "A", "B", "diff", "lo", "hi", "p_adjusted",
                    "beyond_noise", digits=6)
    scale, out["unit"] = in_percent(r["unit"])
    if scale != 1.0:
        for k in ("A", "B", "diff", "lo", "hi"):
            if out[k] is not None:
                out[k] = round(out[k] * scale, 4)
    out["real"] = out.pop("beyond_noise")
    return out


def verdict_json(c: Comparison, fails: list[str], path: Path) -> str:
    """`simsym compare --json`: the verdict as one JSON object, every difference and share in
    pp (``"units": "pp"``), judged by the one rule (``real``)."""
    def row(r, *keys):
        out = plain_row(r, *keys, digits=6)
        for k in ("A", "B", "diff", "lo", "hi"):
            if k in out and out[k] is not None:
                out[k] = round(out[k] * 100, 4)
        if "beyond_noise" in out:
            out["real"] = out.pop("beyond_noise")
        return out

    gap = c.gap.iloc[0]
    wr = c.seats[c.seats["metric"] == "win_rate"]
    st = changed_first(c)
    balanced = {}
    if c.balance:
        balanced = {"a": c.balance[0].as_dict(), "b": c.balance[1].as_dict(),
                    "moves": criteria_moves(*c.balance)}
        if c.other_balance:
            label, oa, ob = c.other_balance
            balanced["other_judge"] = {"judge": label, "a": oa.answer, "b": ob.answer,
                                       "moves": criteria_moves(oa, ob)}
    return json.dumps({
        "a": c.a_name, "b": c.b_name, "games": c.games, "seed": c.seed, "units": "pp",
        "tables": {"a": c.tables[0], "b": c.tables[1]},
        "balanced": balanced,
        "changes": plain_changes(c),
        "changed_cards": list(c.changes[1]),
        "sequential": [line.removeprefix("- ").replace("**", "")
                       for line in c.sequential or ()],
        "tested": c.tested,
        "seat_gap": row(gap, "A", "B", "diff", "lo", "hi", "p_adjusted", "beyond_noise"),
        "seats": [row(r, "name", "A", "B", "diff", "lo", "hi", "p_adjusted", "beyond_noise")
                  for _, r in wr.iterrows()],
        "changed_cards_strength": [row(r, "name", "A", "B", "diff", "lo", "hi", "p_adjusted",
                                       "beyond_noise")
                                   for _, r in st[st["name"].isin(c.changes[1])].iterrows()],
        "cards_beyond_noise": [row(r, "name", "A", "B", "diff", "lo", "hi", "p_adjusted")
                               for _, r in st[st["beyond_noise"]].iterrows()],
        "quality": [] if c.quality is None else [quality_row(r) for _, r in
                                                 c.quality.iterrows()],
        "for_better_players": c.convergence,
        "failed": fails, "report": str(path)}, indent=1)


def check_fail_on(c: Comparison, rules) -> list[str]:
    failed = []
    for metric, op, limit in rules:
        v = c.value(metric)
        if (v > limit) if op == ">" else (v >= limit):
            failed.append(f"{metric}{op}{100 * limit:g}pp (value {100 * v:.2f} pp)")
    return failed


# --- for better players: the change under the generation before the shipped model ----------

def pp_row(f, i: int = 0) -> dict:
    """One tested row of a paired frame as pp: previous (A), newest (B), move, interval."""
    r = f.iloc[i]
    return {"previous": round(100 * float(r["A"]), 4), "newest": round(100 * float(r["B"]), 4),
            "move": round(100 * float(r["diff"]), 4), "lo": round(100 * float(r["lo"]), 4),
            "hi": round(100 * float(r["hi"]), 4),
            "p_adjusted": round(float(r["p_adjusted"]), 6), "real": bool(r["beyond_noise"])}


def measure_row(r, unit: str) -> dict:
    """A measure's tested row in its unit as shown (shares in %, their moves in pp)."""
    k, shown = in_percent(unit)
    out = {key: round(k * float(r[col]), 4) for key, col in
           (("previous", "A"), ("newest", "B"), ("move", "diff"), ("lo", "lo"), ("hi", "hi"))}
    return {**out, "unit": shown, "p_adjusted": round(float(r["p_adjusted"]), 6),
            "real": bool(r["beyond_noise"])}


def change_convergence(c, A, B, A2, B2, generations: tuple[int, int]) -> dict:
    """Whether comparison ``c`` (B - A under the shipped model) holds under the generation
    before it (A2, B2: the same sides played by it, on the same deals): for each tested row
    (the seat gap, each seat's win share, each card's strength, each measure of how the game
    plays), its change under each generation, whether that change is real by the one rule
    under each, and how far it moves (a paired difference of the two changes, Holm over this
    check's tests). A change's verdict holds when it is real under both generations in the
    same direction, or real under neither."""
    old = comparison_of(A2, B2)
    names = [n for n in c.cards[c.cards["metric"] == "strength"]["name"]]
    ka = np.array([A.scenario.cards.index(n) for n in names])
    kb = np.array([B.scenario.cards.index(n) for n in names])
    P = A.scenario.players
    parts = [("seat gap", "seats", ["seat gap"], c.gap, old.gap,
              paired_moves(seat_metric, A, B, A2, B2, {"name": "seat_gap"})),
             ("win_rate", "seats", [f"seat {i}" for i in range(P)],
              c.seats[c.seats["metric"] == "win_rate"], old.seats[old.seats["metric"] ==
                                                                   "win_rate"],
              paired_moves(seat_metric, A, B, A2, B2, {"name": "win_rate"})),
             ("strength", "cards", names, c.cards[c.cards["metric"] == "strength"],
              old.cards[old.cards["metric"] == "strength"],
              paired_moves(card_metric, A, B, A2, B2, {"name": "strength", "kinds": ka},
                           {"name": "strength", "kinds": kb}))]
    if c.quality is not None and old.quality is not None:
        parts.append(("quality", "quality", [m for m, _ in MEASURES], c.quality, old.quality,
                      paired_moves(quality_metric, A, B, A2, B2)))
    frames = [(diff_frame(n, d), new.reset_index(drop=True), prev.reset_index(drop=True), kind)
              for _, kind, n, new, prev, d in parts]
    tested = _one_rule([(f, np.ones(len(f), bool)) for f, *_ in frames])
    units = dict(MEASURES)
    rows = []
    for f, new, prev, kind in frames:
        for i in range(len(f)):
            name = f.iloc[i]["name"]
            r = pp_row(f, i) if kind != "quality" else measure_row(f.iloc[i], units[name])
            rn, rp = bool(new.iloc[i]["beyond_noise"]), bool(prev.iloc[i]["beyond_noise"])
            same_way = np.sign(new.iloc[i]["diff"]) == np.sign(prev.iloc[i]["diff"])
            rows.append({"kind": kind, "name": name, **r, "real_previous": rp,
                         "real_newest": rn, "holds": rn == rp and (not rn or bool(same_way))})
    return {"games": c.games, "seed": c.seed, "units": "pp", "tested": tested,
            "previous": {"generation": generations[0], "judge": A2.scenario.strategies[0].label},
            "newest": {"generation": generations[1], "judge": A.scenario.strategies[0].label},
            "rows": rows}
