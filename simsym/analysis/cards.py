"""Card strength: 17lands-style win-rate metrics adapted to Symposion, one row per card.

Input is cards.csv (one row per (strategy, card) of raw counts). Every win count is a win
share: a tie between k winners gives each 1/k, so wins can be fractional.

Metrics (each rate with a 95% Wilson interval, NaN when its denominator is 0):

- ``oh_wr``  opening-hand win rate: opening_wins / opening_n (dealt the card in the opening 9).
- ``gd_wr``  drawn win rate: drawn_wins / drawn_n (drawn later, not in the opening hand).
- ``gih_wr`` games-in-hand win rate: held_wins / held_n (held at any time).
- ``gns_wr`` games-not-seen win rate: (player_wins - held_wins) / (player_games - held_n).
- ``iwd``    improvement when drawn: gih_wr - gns_wr, interval by Newcombe's hybrid score
  method (difference of two independent proportions from their Wilson intervals).
- ``play_rate`` played_n / held_n (player-games where it was played, of those where held).
- ``mean_points`` points_when_played / played (mean score of the Symposia it was played in).
- ``dead_rate`` held_unplayed_n / held_n (held but never played; 1 - play_rate).
- ``*_fs``   a win rate divided by the fair share 1/players (1.0 = an average player), so
  tables of different player counts compare.
- ``strength`` = iwd - the table's average IWD, with ``strength_lo``/``strength_hi``: card
  strength in the one frame every report uses, and ``verdict`` ('strong'/'weak'/''), the
  Holm-corrected test of every card of the table against its average
  (:func:`simsym.analysis.balance.strength_columns`); ``iwd_mark`` is '+'/'-' exactly there.
- ``*_mark`` of the other rates: '+' / '-' where the 95% interval lies wholly above / below
  the table's average (see :func:`card_averages`), '' where it does not exclude it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simsym.analysis import stats
from simsym.analysis.balance import strength_columns

ALL = "all"  # the strategy label of rows pooled over every strategy

COUNT_COLUMNS = ["player_games", "player_wins", "opening_n", "opening_wins", "drawn_n",
                 "drawn_wins", "held_n", "held_wins", "played", "played_n",
                 "points_when_played", "at_end", "discarded", "received_by_trade",
                 "held_unplayed_n"]

# name -> (successes column, trials column) of each rate that gets a Wilson interval
RATES = {
    "oh_wr": ("opening_wins", "opening_n"),
    "gd_wr": ("drawn_wins", "drawn_n"),
    "gih_wr": ("held_wins", "held_n"),
    "gns_wr": ("gns_wins", "gns_n"),
    "play_rate": ("played_n", "held_n"),
    "dead_rate": ("held_unplayed_n", "held_n"),
}
WIN_RATES = ["oh_wr", "gd_wr", "gih_wr", "gns_wr"]


def pooled_counts(cards: pd.DataFrame) -> pd.DataFrame:
    """Sum the per-strategy rows of each card into one row (strategy = 'all').

    player_games/player_wins are per strategy on every row, so their sum over strategies is
    the whole run's player-games and wins. Card order is kept as in the file.
    """
    order = list(dict.fromkeys(cards["card"]))
    cat = cards.groupby("card", sort=False)["category"].first()
    sums = cards.groupby("card", sort=False)[COUNT_COLUMNS].sum()
    out = sums.loc[order].reset_index()
    out.insert(0, "strategy", ALL)
    out.insert(2, "category", cat.loc[order].to_numpy())
    return out


def _with_gns(df: pd.DataFrame) -> pd.DataFrame:
    df = df.copy()
    df["gns_n"] = df["player_games"] - df["held_n"]
    df["gns_wins"] = df["player_wins"] - df["held_wins"]
    return df


def card_averages(counts: pd.DataFrame) -> pd.DataFrame:
    """The table's average of every rate, one row per strategy label in ``counts``.

    A rate's average is pooled over the table's cards (sum of successes / sum of trials), so
    e.g. the average GIH WR weighs each card by how often it was held; the IWD average is the
    plain mean of the cards' IWDs.
    """
    df = _with_gns(counts)
    rows = []
    for label, g in df.groupby("strategy", sort=False):
        row = {"strategy": label}
        for name, (s, n) in RATES.items():
            row[name] = float(stats.rate(g[s].sum(), g[n].sum()))
        d, _, _ = stats.newcombe_diff(g["held_wins"], g["held_n"], g["gns_wins"], g["gns_n"])
        row["iwd"] = float(np.nanmean(d)) if np.isfinite(d).any() else float("nan")
        row["mean_points"] = float(stats.rate(g["points_when_played"].sum(), g["played"].sum()))
        rows.append(row)
    return pd.DataFrame(rows).set_index("strategy")


def strength_table(counts: pd.DataFrame, players: int) -> pd.DataFrame:
    """Metrics for every row of ``counts`` (cards.csv rows, or pooled_counts), same order."""
    df = _with_gns(counts)
    avg = card_averages(counts)
    ref = avg.loc[df["strategy"]]  # each row's own table average
    for name, (s, n) in RATES.items():
        df[name] = stats.rate(df[s], df[n])
        lo, hi = stats.wilson(df[s], df[n])
        df[f"{name}_lo"], df[f"{name}_hi"] = lo, hi
        df[f"{name}_mark"] = stats.marker(lo, hi, ref[name].to_numpy())
    for name in WIN_RATES:
        df[f"{name}_fs"] = df[name] * players
    d, lo, hi = stats.newcombe_diff(df["held_wins"], df["held_n"], df["gns_wins"], df["gns_n"])
    df["iwd"], df["iwd_lo"], df["iwd_hi"] = d, lo, hi
    df["mean_points"] = stats.rate(df["points_when_played"], df["played"])
    parts = [strength_columns(g, avg.at[label, "iwd"])
             for label, g in df.groupby("strategy", sort=False)]
    df = pd.concat(parts).loc[df.index] if parts else df
    df["iwd_mark"] = np.where(df["verdict"] == "strong", "+",
                              np.where(df["verdict"] == "weak", "-", ""))
    return df


def card_strength(cards: pd.DataFrame, players: int, by_strategy: bool = False) -> pd.DataFrame:
    """One row per card (pooled over strategies), or per (strategy, card) with by_strategy.

    Rows are ranked by IWD, highest first (cards without an IWD last; ties keep file order).
    """
    counts = cards[["strategy", "card", "category", *COUNT_COLUMNS]] if by_strategy \
        else pooled_counts(cards)
    df = strength_table(counts.reset_index(drop=True), players)
    if by_strategy:
        df["_s"] = pd.Categorical(df["strategy"], list(dict.fromkeys(df["strategy"])))
        df = df.sort_values(["_s", "iwd"], ascending=[True, False], kind="mergesort",
                            na_position="last").drop(columns="_s")
    else:
        df = df.sort_values("iwd", ascending=False, kind="mergesort", na_position="last")
    return df.reset_index(drop=True)


def iwd_verdicts(strength: pd.DataFrame, average: float) -> pd.DataFrame:
    """Each card's IWD against the table's average under the one rule (Holm over every card):
    the rows of :func:`strength_table` / :func:`card_strength` (one table) with ``iwd_p``,
    ``iwd_p_holm`` and ``iwd_verdict`` ('strong', 'weak' or '' within noise) named for the
    IWD they test."""
    df = strength_columns(strength, average)
    df["iwd_p"], df["iwd_p_holm"], df["iwd_verdict"] = (df["strength_p"], df["strength_p_holm"],
                                                        df["verdict"])
    return df
