"""Per-chunk totals: integer arrays that merge by addition, in any order, to the same sums.

A chunk's rows (one per game, see simsym.core.enums ROW) are reduced here, so memory stays
bounded whatever the number of games; the rows themselves are kept only with --save-games.
"""

from __future__ import annotations

import numpy as np

from simsym.core import enums as E

SCORE_BINS = 400  # scores above are counted in the last bin
LENGTH_BINS = 400


def win_units(scores: np.ndarray) -> np.ndarray:
    """(games, P) scores -> win units (60 a whole win, split evenly between tied winners)."""
    best = scores.max(axis=1, keepdims=True)
    top = scores == best
    k = top.sum(axis=1, keepdims=True)
    return np.where(top, E.WIN_UNITS // k, 0).astype(np.int64)


def reduce_rows(rows: np.ndarray, players: int, n_strategies: int) -> dict:
    P = players
    F = E.ROW.FIXED
    scores = rows[:, F:F + P]
    strat = rows[:, F + P:F + 2 * P]
    symposia = rows[:, F + 2 * P:F + 3 * P]
    by_type = rows[:, F + 3 * P:F + 6 * P].reshape(-1, P, 3)
    units = win_units(scores)
    others_best = np.stack([np.delete(scores, i, axis=1).max(axis=1) for i in range(P)], axis=1)
    margin = scores - others_best
    out = {
        "games": np.array([len(rows)], np.int64),
        "stalled": np.array([rows[:, E.ROW.STALLED].sum()], np.int64),
        "turns": np.array([rows[:, E.ROW.TURNS].sum()], np.int64),
        "trades": np.array([rows[:, E.ROW.TRADES].sum()], np.int64),
        "seat_wins": units.sum(axis=0),
        "seat_score": scores.sum(axis=0),
        "seat_score_sq": (scores * scores).sum(axis=0),
        "seat_margin": margin.sum(axis=0),
        "seat_symposia": symposia.sum(axis=0),
        "seat_points_by_type": by_type.sum(axis=0),
        "score_hist": np.stack([np.bincount(np.clip(scores[:, i], 0, SCORE_BINS - 1),
                                            minlength=SCORE_BINS) for i in range(P)]),
        "length_hist": np.bincount(np.clip(rows[:, E.ROW.TURNS], 0, LENGTH_BINS - 1),
                                   minlength=LENGTH_BINS),
    }
    S = n_strategies
    for key, values in (("strat_games", np.ones_like(scores)), ("strat_wins", units),
                        ("strat_score", scores), ("strat_score_sq", scores * scores),
                        ("strat_margin", margin), ("strat_symposia", symposia)):
        out[key] = _int_bincount(strat.ravel(), values.ravel(), S)
    out["strat_points_by_type"] = np.stack(
        [_int_bincount(strat.ravel(), by_type[:, :, t].ravel(), S) for t in range(3)], axis=1)
    return out


def _int_bincount(idx, values, n):
    out = np.zeros(n, np.int64)
    np.add.at(out, idx, values)
    return out


def merge(a: dict | None, b: dict) -> dict:
    if a is None:
        return {k: v.copy() for k, v in b.items()}
    for k, v in b.items():
        a[k] += v
    return a
