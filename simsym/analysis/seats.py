"""Seats: win share per seat against the fair share, a test that all seats are equal, and a
suggested seat compensation (starting points, like komi in Go)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simsym.analysis import stats

TYPES = ("intellectual", "social", "hedonistic")


def _rows(blocks: list[dict], key: str, games_key: str, players: int) -> pd.DataFrame:
    fair = 1.0 / players
    rows = []
    for b in blocks:
        n = b[games_key]
        rows.append({key: b[key], **({"strategy": b["strategy"]} if key != "strategy" else {}),
                     "games": n, "wins": b["wins"],
                     "mean_score": b["mean_score"], "sd_score": b["sd_score"],
                     "mean_margin": b["mean_margin"],
                     "symposia_per_game": b["symposia_per_game"],
                     **{f"points_{t}": b["points_by_type"][t] for t in TYPES}})
    df = pd.DataFrame(rows)
    df["win_rate"] = stats.rate(df["wins"], df["games"])
    df["win_rate_lo"], df["win_rate_hi"] = stats.wilson(df["wins"], df["games"])
    df["fair_share"] = fair
    df["wr_fs"] = df["win_rate"] / fair
    df["diff_pp"] = (df["win_rate"] - fair) * 100.0
    df["mark"] = stats.marker(df["win_rate_lo"], df["win_rate_hi"], fair)
    return df


def seat_table(summary: dict) -> pd.DataFrame:
    """One row per seat: win share with its 95% Wilson interval, against the fair share.

    wins are win shares (a tie between k winners gives each 1/k); win_rate = wins / games;
    wr_fs = win_rate / fair share; diff_pp = win_rate - fair share in percentage points;
    mark '+'/'-' where the interval lies wholly above/below the fair share; mean_score,
    sd_score, mean_margin (own score - best other score) and points by Symposion type a game.
    """
    return _rows(summary["seats"], "seat", "games", summary["players"])


def strategy_table(summary: dict) -> pd.DataFrame:
    """The same per strategy label (games = player-games of that strategy)."""
    return _rows(summary["strategies"], "strategy", "player_games", summary["players"])


@dataclass(frozen=True)
class EqualityTest:
    """Chi-square goodness of fit of the seats' win shares against games/players each."""

    statistic: float
    dof: int
    p_value: float
    observed: list[float]
    expected: float

    @property
    def rejects(self) -> bool:
        return self.p_value < stats.ALPHA


def seat_equality_test(summary: dict) -> EqualityTest:
    """H0 "every seat wins 1/players of the games": Pearson's chi-square goodness of fit.

    Observed = each seat's wins (shared ties fractional), expected = games / players each,
    players - 1 degrees of freedom (scipy.stats.chisquare).
    """
    wins = [float(s["wins"]) for s in summary["seats"]]
    chi2, dof, p = stats.chi_square_equal(wins)
    return EqualityTest(chi2, dof, p, wins, sum(wins) / len(wins))


def compensation(summary: dict) -> list[int]:
    """Starting points per seat that would even the seats' mean scores.

    Seat i gets round(best seat's mean score - seat i's mean score), added to any
    seat_compensation the run already had (its scores include it), then shifted so that the
    smallest is 0: the strongest seat gets 0. A first-order estimate; verify by a re-run with
    `rules: {seat_compensation: [...]}`.
    """
    means = np.array([s["mean_score"] for s in summary["seats"]], dtype=float)
    current = list(summary.get("rules", {}).get("seat_compensation") or [])
    current = np.array(current if current else [0] * len(means), dtype=float)
    total = current + (means.max() - means)
    total -= total.min()
    return [int(round(v)) for v in total]


def refine_compensation(before: dict, after: dict) -> list[int]:
    """A second estimate of the compensation, from the win shares it gave.

    ``before`` is the summary of a table without compensation, ``after`` of the same table
    played with the seat_compensation ``c`` it records (on other deals). Evening the mean
    scores does not even the win shares exactly: a point is worth more to some seats than to
    others. The win shares the two runs measured give the price of a point in win share
    (the least-squares slope, over the seats, of each seat's change of win share against its
    change of starting points, both centred); the compensation moves each seat by its
    remaining distance from the fair share divided by that price. Of the integer vectors
    next to that (each seat rounded down or up), the one whose win shares the same line
    predicts closest together is returned, shifted so that the smallest is 0. Like the first
    estimate, it is checked by playing it on fresh deals.
    """
    n = len(after["seats"])
    c = np.array(after.get("rules", {}).get("seat_compensation") or [0] * n, dtype=float)
    c0 = np.array(before.get("rules", {}).get("seat_compensation") or [0] * n, dtype=float)
    w0 = np.array([s["win_rate"] for s in before["seats"]], dtype=float)
    w1 = np.array([s["win_rate"] for s in after["seats"]], dtype=float)
    dc = (c - c0) - (c - c0).mean()
    dw = (w1 - w0) - (w1 - w0).mean()
    if not np.any(dc) or float(dc @ dw) <= 0:
        return [int(v) for v in c - c.min()]  # no usable price of a point: keep it
    price = float(dc @ dw) / float(dc @ dc)
    target = c + (w1.mean() - w1) / price
    best, best_spread = None, np.inf
    for ups in itertools.product((0, 1), repeat=len(c)):
        cand = np.floor(target) + np.array(ups)
        cand -= cand.min()
        moved = cand - c
        pred = w1 + price * (moved - moved.mean())
        spread = float(pred.max() - pred.min())
        if spread < best_spread - 1e-12:
            best, best_spread = cand, spread
    return [int(v) for v in best]
