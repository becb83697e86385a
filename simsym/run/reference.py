"""Chunks played by the plain-Python reference engine, reduced like the numba engine's.

The rows and per-card counts take the same shape as simsym.engine.compiled.run_chunk's, so totals
and summary.json come out of the same aggregation whichever engine played the games."""

from __future__ import annotations

import numpy as np

from simsym.core import enums as E
from simsym.core import game_nb as G


def row_size(P: int) -> int:
    """Entries of a per-game row (as simsym.engine.compiled.Setup.row_size)."""
    return E.ROW.FIXED + 6 * P


def record_row(rec, P: int) -> np.ndarray:
    row = np.zeros(row_size(P), np.int64)
    row[E.ROW.DEAL] = rec.deal
    row[E.ROW.TURNS] = rec.turns
    row[E.ROW.STALLED] = rec.stalled
    row[E.ROW.TRADES] = rec.trades
    q = rec.quality  # docs/game-engine.md section 8, simsym.reference.quality
    row[E.ROW.RUN1] = q.run1_turn
    row[E.ROW.RUN2] = q.run2_turn
    row[E.ROW.CHANGES] = q.lead_changes
    row[E.ROW.DECIDED] = q.decided_turn
    row[E.ROW.DEF1] = q.deficit_run1
    row[E.ROW.DEF2] = q.deficit_run2
    row[E.ROW.DRAMA] = q.drama
    row[E.ROW.MARGIN] = q.margin
    row[E.ROW.WINNERS] = q.winners
    row[E.ROW.WIN_BY] = q.win_by
    row[E.ROW.WINNER] = q.winner
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
