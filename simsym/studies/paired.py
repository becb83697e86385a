"""Paired runs: two scenarios on the same seeds and game indices (common random numbers).

Both runs are cut into the same batches of game indices; a metric's difference is estimated
on the whole runs and its interval from the spread of the per-batch differences (paired
batch means), so the luck of the deal largely cancels. Used by `simsym compare`,
`simsym sweep` and `simsym ablate`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from simsym.analysis.stats import holm
from simsym.core import enums as E
from simsym.run.executor import run_games

BATCHES = 40


@dataclass
class BatchedRun:
    """A run's totals and card counts, whole and per batch of game indices."""

    scenario: object
    games: int
    seed: int
    totals: dict
    agg: np.ndarray  # (strategies, kinds, AGG.SIZE)
    batch_totals: list[dict]
    batch_agg: list[np.ndarray]


def run_batched(scenario, games: int, seed: int, jobs: int = 1, batches: int = BATCHES,
                on_progress=None, **play) -> BatchedRun:
    """``games`` games of ``scenario`` on the deals of ``seed`` in ``batches`` batches of game
    indices; ``play``: run_games' engine, search, executor and scheduler."""
    batches = max(2, min(batches, games))
    size = math.ceil(games / batches)
    parts = {}

    def on_chunk(res, done):
        parts[res.index] = res
        if on_progress:
            on_progress(done)

    totals, agg = run_games(scenario, games, seed, jobs=jobs, chunk_size=size,
                            on_chunk=on_chunk, **play)
    order = sorted(parts)
    return BatchedRun(scenario, games, seed, totals, agg, [parts[i].totals for i in order],
                      [parts[i].agg for i in order])


# --- metrics of one run (or batch) ---------------------------------------------------------

def seat_metrics(totals: dict, players: int) -> dict[str, np.ndarray]:
    n = totals["games"][0]
    wr = totals["seat_wins"] / E.WIN_UNITS / n
    return {"win_rate": wr, "mean_score": totals["seat_score"] / n,
            "seat_gap": np.array([wr.max() - wr.min()])}


def card_metrics(agg: np.ndarray, totals: dict) -> dict[str, np.ndarray]:
    """Per card, pooled over strategies: GIH WR, GNS WR, IWD, play rate and strength (IWD
    minus the table's average IWD, the frame every report names a card in); NaN where
    empty."""
    a = agg.sum(axis=0).astype(float)
    player_games = float(totals["strat_games"].sum())
    player_wins = totals["strat_wins"].sum() / E.WIN_UNITS
    held_n = a[:, E.AGG.GIH_N]
    held_w = a[:, E.AGG.GIH_W] / E.WIN_UNITS
    with np.errstate(invalid="ignore", divide="ignore"):
        gih = held_w / held_n
        gns = (player_wins - held_w) / (player_games - held_n)
        play = a[:, E.AGG.PLAYED_N] / held_n
    iwd = gih - gns
    mean = float(np.nanmean(iwd)) if np.isfinite(iwd).any() else np.nan
    return {"gih_wr": gih, "gns_wr": gns, "iwd": iwd, "play_rate": play,
            "strength": iwd - mean}


@dataclass
class Diff:
    a: np.ndarray
    b: np.ndarray
    diff: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    p: np.ndarray


def paired(metric, A: BatchedRun, B: BatchedRun, kw_a=None, kw_b=None) -> Diff:
    """Difference B - A of ``metric(run, batch, **kw)`` with a paired batch-means interval
    (``kw_b`` defaults to ``kw_a``: e.g. the same card under its kind code in each run)."""
    kw_a = kw_a or {}
    kw_b = kw_a if kw_b is None else kw_b
    a = metric(A, None, **kw_a)
    b = metric(B, None, **kw_b)
    nb = min(len(A.batch_totals), len(B.batch_totals))
    d = np.array([metric(B, i, **kw_b) - metric(A, i, **kw_a) for i in range(nb)], dtype=float)
    return _diff(a, b, d)


def paired_moves(metric, A: BatchedRun, B: BatchedRun, A2: BatchedRun, B2: BatchedRun,
                 kw_a=None, kw_b=None) -> Diff:
    """How far the difference B - A of ``metric`` moves from one pair of tables (A2, B2) to
    another (A, B), all four on the same deals: ``a`` the difference under (A2, B2), ``b``
    under (A, B), ``diff`` b - a with a batch-means interval over the batches of all four."""
    kw_a = kw_a or {}
    kw_b = kw_a if kw_b is None else kw_b

    def change(x, y, i):
        return metric(y, i, **kw_b) - metric(x, i, **kw_a)

    nb = min(len(r.batch_totals) for r in (A, B, A2, B2))
    d = np.array([change(A, B, i) - change(A2, B2, i) for i in range(nb)], dtype=float)
    return _diff(change(A2, B2, None), change(A, B, None), d)


def _diff(a, b, d) -> Diff:
    """b - a with the batch-means interval and p-value of its per-batch values ``d``."""
    diff = b - a
    nb = len(d)
    se, t = _batch_se(d)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = diff / se
        p = np.where(se > 0, 2 * sps.t.sf(np.abs(z), max(nb - 1, 1)),
                     np.where(diff == 0, 1.0, 0.0))
    return Diff(a, b, diff, diff - t * se, diff + t * se, p)


def _batch_se(per: np.ndarray):
    """The batch-means standard error of per-batch values ``per`` (batches x metrics; NaN
    batches left out) and the t quantile of a two-sided 95% interval."""
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.nanstd(per, axis=0, ddof=1) / np.sqrt(np.sum(~np.isnan(per), axis=0))
    return se, sps.t.ppf(0.975, max(len(per) - 1, 1))


def interval(metric, run: BatchedRun, kw=None):
    """``metric(run, None, **kw)`` with its 95% batch-means interval: the whole run's value
    plus or minus t times the standard error of the metric over the run's batches (for one
    run, as :func:`paired` is for a difference). Returns (value, lo, hi), arrays."""
    kw = kw or {}
    value = np.asarray(metric(run, None, **kw), dtype=float)
    per = np.array([metric(run, i, **kw) for i in range(len(run.batch_totals))], dtype=float)
    se, t = _batch_se(per)
    return value, value - t * se, value + t * se


def seat_metric(run: BatchedRun, batch, name: str):
    totals = run.totals if batch is None else run.batch_totals[batch]
    return seat_metrics(totals, run.scenario.players)[name]


def card_metric(run: BatchedRun, batch, name: str, kinds=None):
    totals = run.totals if batch is None else run.batch_totals[batch]
    agg = run.agg if batch is None else run.batch_agg[batch]
    values = card_metrics(agg, totals)[name]
    return values if kinds is None else values[kinds]


def quality_metric(run: BatchedRun, batch):
    """The game-quality estimates of the run or one batch of it, in the order and units of
    simsym.analysis.quality.quality_frame (shares as fractions); NaN without the measures."""
    from simsym.analysis.quality import MEASURES, quality_frame
    from simsym.run.summary import quality_block

    totals = run.totals if batch is None else run.batch_totals[batch]
    if "q_turns" not in totals:
        return np.full(len(MEASURES), np.nan)
    return quality_frame(quality_block(totals))["estimate"].to_numpy(dtype=float)


def diff_frame(names, d: Diff, alpha: float = 0.05, adjust: bool = False) -> pd.DataFrame:
    p_adj = holm(d.p) if adjust else d.p
    return pd.DataFrame({"name": names, "A": d.a, "B": d.b, "diff": d.diff, "lo": d.lo,
                         "hi": d.hi, "p": d.p, "p_adjusted": p_adj,
                         "beyond_noise": p_adj < alpha})


def balance_of(run: BatchedRun, label: str | None = None):
    """"Balanced?" for one batched run (:mod:`simsym.analysis.balance`): its cards pooled over
    its strategies, its seats as played (with the scenario's seat compensation), by the
    scenario's `balance:` criteria. ``label`` names the table (default: its strategies)."""
    from simsym.analysis.balance import Criteria, judge_balance
    from simsym.analysis.cards import card_averages, card_strength, pooled_counts
    from simsym.model.scenario import table_name
    from simsym.run.summary import card_table

    sc = run.scenario
    cards = card_table(sc, run.agg, run.totals)
    strength = card_strength(cards, sc.players)
    average = float(card_averages(pooled_counts(cards)).iloc[0]["iwd"])
    n = int(run.totals["games"][0])
    rates = run.totals["seat_wins"] / E.WIN_UNITS / n
    comp = list(sc.rules.seat_compensation or []) or None
    return judge_balance(label or table_name(sc), strength, average, rates, n,
                         Criteria.from_pp(sc.balance), comp)
