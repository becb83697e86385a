"""Per-chunk totals: integer arrays that merge by addition, in any order, to the same sums.

A chunk's rows (one per game, see simsym.core.enums ROW) are reduced here, so memory stays
bounded whatever the number of games; the rows themselves are kept only with --save-games.
"""

from __future__ import annotations

import numpy as np

from simsym.core import enums as E

SCORE_BINS = 400  # scores above are counted in the last bin
LENGTH_BINS = 400
# Game quality (docs/game-engine.md section 8): lead changes and margins 0 .. 9 and 10 or more
# in the last bin; the decided turn as a fraction of the game's turns, in whole tenths (0 ..
# 10: 10 is a game decided only at its last turn, or its only one).
CHANGE_BINS = 11
MARGIN_BINS = 11
TENTHS_BINS = 11


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
    out.update(quality_totals(rows))
    return out


def _sums(x: np.ndarray) -> np.ndarray:
    return np.array([x.sum(), (x * x).sum()], np.int64)


def _hist(x: np.ndarray, bins: int) -> np.ndarray:
    return np.bincount(np.clip(x, 0, bins - 1), minlength=bins).astype(np.int64)


def quality_totals(rows: np.ndarray) -> dict:
    """The game-quality fields of a chunk's rows as integer totals (``q_*``): sums, sums of
    squares and histograms, so that chunks merge by addition to the same totals whatever the
    chunking (simsym.run.summary's "quality" block; docs/game-engine.md section 8)."""
    turns = rows[:, E.ROW.TURNS]
    changes = rows[:, E.ROW.CHANGES]
    decided = rows[:, E.ROW.DECIDED]
    length = np.maximum(turns, 1)
    drama = rows[:, E.ROW.DRAMA]
    margin = rows[:, E.ROW.MARGIN]
    run_end = np.zeros((2, 5), np.int64)  # per run: games it ended in, the winner behind,
    for r, (turn, deficit) in enumerate(((E.ROW.RUN1, E.ROW.DEF1),  # deficit's sum and sum of
                                         (E.ROW.RUN2, E.ROW.DEF2))):  # squares, turns' sum
        ended = rows[:, turn] >= 0
        d = rows[ended, deficit]
        run_end[r] = (ended.sum(), (d > 0).sum(), d.sum(), (d * d).sum(),
                      rows[ended, turn].sum())
    return {
        "q_turns": _sums(turns),
        "q_changes": _sums(changes),
        "q_changes_hist": _hist(changes, CHANGE_BINS),
        "q_decided_permille": _sums(decided * 1000 // length),
        "q_decided_tenths_hist": _hist(decided * 10 // length, TENTHS_BINS),
        "q_run_end": run_end,
        "q_drama": np.array([drama.sum(), (drama * drama).sum(), (drama > 0).sum()], np.int64),
        "q_margin": _sums(margin),
        "q_margin_hist": _hist(margin, MARGIN_BINS),
        "q_winners_hist": np.bincount(rows[:, E.ROW.WINNERS],
                                      minlength=E.MAX_PLAYERS + 1).astype(np.int64),
        "q_win_by": np.bincount(rows[:, E.ROW.WIN_BY], minlength=len(E.WIN_BY)).astype(np.int64),
    }


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
