"""summary.json's "quality" block as a tidy table: one row a measure, with its 95% interval.

The block holds integer totals (simsym.run.summary.quality_block; the measures are defined
in docs/game-engine.md section 8). A mean gets the normal approximation, mean +- z s / sqrt(n)
with s the sample standard deviation (from the sum and the sum of squares); a proportion gets
the Wilson score interval (simsym.analysis.stats.wilson). Fewer than two games (one, for a
proportion) give no interval.
"""

from __future__ import annotations

import math

import pandas as pd

from simsym.analysis.balance import Z95
from simsym.analysis.stats import wilson

COLUMNS = ["measure", "estimate", "low", "high", "unit"]
NAN = float("nan")
SHARES = {"share of games", "share of games reaching it"}
# (measure, unit) of quality_frame's rows, in its order
MEASURES = [("turns", "turns"), ("lead changes", "changes"),
            ("decided turn / turns", "fraction of the game"),
            ("decided in the first half", "share of games"),
            ("winner behind at the end of run 1", "share of games reaching it"),
            ("winner behind at the end of run 2", "share of games reaching it"),
            ("winner behind at some end of turn", "share of games"),
            ("winner's largest deficit (drama)", "points"), ("winning margin", "points"),
            ("shared win", "share of games")]


# the measures as a designer names them in a scenario or on the command line (targets.quality
# of a tune, compare --metric quality:KEY), each with its row's measure name
KEYS = {"turns": "turns", "lead_changes": "lead changes",
        "decided_fraction": "decided turn / turns",
        "decided_first_half": "decided in the first half",
        "behind_run1": "winner behind at the end of run 1",
        "behind_run2": "winner behind at the end of run 2",
        "behind_any": "winner behind at some end of turn",
        "drama": "winner's largest deficit (drama)", "margin": "winning margin",
        "shared_win": "shared win"}


def in_percent(unit: str) -> tuple[float, str]:
    """How a measure in ``unit`` is shown to a designer: (scale, unit), a share in % ("% of
    games", its differences in pp), any other measure as it is."""
    return (100.0, unit.replace("share of", "% of")) if unit in SHARES else (1.0, unit)


def digits(unit: str) -> int:
    """The decimals a measure is printed with: a fraction of the game 3, a share in % 1,
    turns, changes and points 2."""
    if unit == "fraction of the game":
        return 3
    return 1 if unit in SHARES or unit.startswith("%") else 2


def mean_interval(total: float, sum_sq: float, n: int) -> tuple[float, float, float]:
    """(mean, low, high) of n values with this sum and sum of squares."""
    if n == 0:
        return NAN, NAN, NAN
    mean = total / n
    if n < 2:
        return mean, NAN, NAN
    var = max(sum_sq - total * total / n, 0.0) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def wilson_interval(k: int, n: int) -> tuple[float, float, float]:
    """(k / n, low, high): the Wilson score interval of a proportion. The estimate lies in
    its interval: statsmodels' upper end of n of n comes out a rounding below 1."""
    if n == 0:
        return NAN, NAN, NAN
    p = k / n
    lo, hi = wilson(k, n)
    return p, min(float(lo), p), max(float(hi), p)


def quality_frame(block: dict) -> pd.DataFrame:
    """One row a measure (columns measure, estimate, low, high, unit) of a run's "quality"
    block, in the order of MEASURES."""
    n = block["games"]
    rows = []

    def mean(name, sums, unit, scale=1.0):
        m, lo, hi = mean_interval(sums["sum"], sums["sum_sq"], n)
        rows.append((name, m / scale, lo / scale, hi / scale, unit))

    def share(name, k, of, unit="share of games"):
        rows.append((name, *wilson_interval(k, of), unit))

    mean("turns", block["turns"], "turns")
    mean("lead changes", block["lead_changes"], "changes")
    mean("decided turn / turns", block["decided_permille"], "fraction of the game", 1000.0)
    share("decided in the first half", sum(block["decided_tenths_hist"][:5]), n)
    for run in block["run_end"]:
        share(f"winner behind at the end of run {run['run']}", run["winner_behind"],
              run["games"], "share of games reaching it")
    share("winner behind at some end of turn", block["drama"]["positive"], n)
    mean("winner's largest deficit (drama)", block["drama"], "points")
    mean("winning margin", block["margin"], "points")
    share("shared win", block["win_by"]["shared"], n)
    return pd.DataFrame(rows, columns=COLUMNS)


def quality_tables(tables: dict) -> pd.DataFrame:
    """The measures of several tables, one tidy table: ``tables`` maps a table's label (a
    judge: "strong", "fast") to its summary's "quality" block; columns judge, then
    quality_frame's."""
    frames = [quality_frame(block).assign(judge=label) for label, block in tables.items()]
    if not frames:
        return pd.DataFrame(columns=["judge", *COLUMNS])
    return pd.concat(frames, ignore_index=True)[["judge", *COLUMNS]]


def fmt_measure(estimate: float, low: float, high: float, unit: str) -> str:
    """A measure as the report prints it: a share in % ("38.2% (37.9 to 38.5)"), a mean with
    its interval ("21.3 (21.2 to 21.4)")."""
    if math.isnan(estimate):
        return "-"
    k, _ = in_percent(unit)
    d = digits(unit)
    text = f"{k * estimate:.{d}f}" + ("%" if unit in SHARES else "")
    if math.isnan(low):
        return text
    return f"{text} ({k * low:.{d}f} to {k * high:.{d}f})"


def decided_by(block: dict) -> list[float]:
    """The share of games decided within each tenth of the game: element i (0 to 9), the
    games whose decided turn is under (i + 1) / 10 of their length, the last element every
    game (docs/game-engine.md section 8)."""
    hist = block["decided_tenths_hist"]
    n = max(sum(hist), 1)
    out, acc = [], 0
    for k in hist[:10]:
        acc += k
        out.append(acc / n)
    if len(hist) > 10:  # a last bin for the whole game (fraction 1.0) counts as the tenth tenth
        out[-1] = (acc + sum(hist[10:])) / n
    return out
