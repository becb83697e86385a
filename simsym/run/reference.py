"""Chunks played by the plain-Python reference engine, reduced like the numba engine's.

The rows and per-card counts take the same shape as simsym.engine.compiled.run_chunk's, so totals
and summary.json come out of the same aggregation whichever engine played the games."""

from __future__ import annotations

from dataclasses import astuple

import numpy as np

from simsym.core import enums as E
from simsym.core import game_nb as G


def row_size(P: int) -> int:
    """Entries of a per-game row (as simsym.engine.compiled.Setup.row_size)."""
    return E.ROW.FIXED + 6 * P


# the record row's fields of the game-quality measures, in simsym.reference.quality.Quality's
# order
QUALITY_FIELDS = ("RUN1", "RUN2", "CHANGES", "DECIDED", "DEF1", "DEF2", "DRAMA", "MARGIN",
                  "WINNERS", "WIN_BY", "WINNER")


def quality_of(row):
    """How the game of a record row played (a simsym.reference.quality.Quality)."""
    from simsym.reference.quality import Quality

    return Quality(*(int(row[getattr(E.ROW, f)]) for f in QUALITY_FIELDS))


def record_row(rec, P: int) -> np.ndarray:
    row = np.zeros(row_size(P), np.int64)
    row[E.ROW.DEAL] = rec.deal
    row[E.ROW.TURNS] = rec.turns
    row[E.ROW.STALLED] = rec.stalled
    row[E.ROW.TRADES] = rec.trades
    # docs/game-engine.md section 8, simsym.reference.quality
    row[[getattr(E.ROW, f) for f in QUALITY_FIELDS]] = astuple(rec.quality)
    for i in range(P):
        row[E.ROW.FIXED + i] = rec.scores[i]
        row[E.ROW.FIXED + P + i] = rec.seat_strategy[i]
        row[E.ROW.FIXED + 2 * P + i] = rec.symposia[i]
        for t in range(3):
            row[E.ROW.FIXED + 3 * P + 3 * i + t] = rec.points_by_type[i][t]
    return row


def run_chunk_reference(scenario, g0: int, g1: int, search=None):
    from simsym.reference.game import play_game

    P = scenario.players
    rows = np.zeros((g1 - g0, row_size(P)), np.int64)
    agg = np.zeros((len(scenario.strategies), len(scenario.cards), E.AGG.SIZE), np.int64)
    scores = np.zeros(P, np.int64)
    units = np.zeros(P, np.int64)
    for g in range(g0, g1):
        rec = play_game(scenario, g, search=search)
        rows[g - g0] = record_row(rec, P)
        G.accumulate_nb(np.ascontiguousarray(rec.card_stats, np.int64), rows[g - g0], P, agg,
                        scores, units)
    return rows, agg
