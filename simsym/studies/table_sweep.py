"""`simsym sweep` over strategy tables: are the verdicts facts about the game, or about greedy?

    sweep:
      strategies:                       # each value a mirror table: every seat plays it
        - greedy
        - {family: patient, threshold: 15}

Every table plays the same deals (the scenario's seed, game indices 0..games-1: common
random numbers), cut into the same blocks of games (simsym.studies.paired, 40 blocks). The report
opens with each table's answer to "Balanced?" (simsym.studies.paired.balance_of, under the
scenario's `balance:` criteria), then sets the tables side by side:

- **seats**: each table's win share per seat with its 95% Wilson interval (the figures
  `simsym run` gives for that table, seed and games), and the seat spread (best - worst
  seat) with a 95% bootstrap interval;
- **card ranking agreement** between every pair of tables: Spearman's rho and Kendall's
  tau-b of the per-card IWD (the same ranks as the cards' strength, IWD minus the table's
  average), each with a 95% bootstrap interval. The tables share their
  deals, so their noise is correlated: the bootstrap resamples whole blocks of deals, the
  same blocks for every table (scipy.stats.bootstrap over the block indices). The interval
  is BCa (bias-corrected and accelerated): noise in the IWDs pulls a rank correlation toward
  0 and a best-minus-worst spread up, and a resample adds noise of its own, so the plain
  percentile interval would sit off-centre;
- **verdict flips**: a card's verdict under a table is the card report's: its strength (IWD
  minus that table's average IWD) beyond noise, with Holm's correction for testing every
  card: 'strong', 'weak' or '' (within noise). A flip is a card whose
  verdict differs between two tables. Each flip also carries the paired change of the card's
  strength between the two tables (batch means over the shared blocks,
  Holm over the cards), which says whether the card's standing itself moved or only crossed
  the line of noise. (Relative to the average, because the average itself moves with the
  table: longer games raise every card's IWD.)
"""

from __future__ import annotations

import itertools
import json
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from simsym.analysis.cards import card_averages, card_strength, iwd_verdicts, pooled_counts
from simsym.run.output import atomic_write_text
from simsym.run.summary import _r, build_summary, card_table
from simsym.studies.paired import (balance_of, card_metric, card_metrics, diff_frame, paired,
                                   seat_metrics)
from simsym.studies.sweep import run_sweep

RESAMPLES = 2000  # bootstrap resamples of the blocks of deals
CONFIDENCE = 0.95
TOTAL_KEYS = ("games", "seat_wins", "seat_score", "strat_games", "strat_wins")
AGREEMENT_COLUMNS = ["a", "b", "cards", "spearman", "spearman_lo", "spearman_hi", "kendall",
                     "kendall_lo", "kendall_hi"]
FLIP_COLUMNS = ["a", "b", "card", "verdict_a", "verdict_b", "iwd_a", "iwd_b", "strength_a",
                "strength_b", "change", "change_lo", "change_hi", "change_p_holm", "moved"]


@dataclass
class Table:
    """One mirror table's run: its summary (as `simsym run` writes it) and card verdicts."""

    label: str
    strategy: object  # StrategyConfig
    run: object  # simsym.studies.paired.BatchedRun
    summary: dict
    cards: pd.DataFrame  # one row per card in file order (iwd_*, strength_*, iwd_verdict)
    average_iwd: float
    balance: object  # simsym.analysis.balance.Balance: "Balanced?" for this table


@dataclass
class TableSweep:
    scenario_name: str
    games: int
    seed: int
    blocks: int
    tables: list[Table]
    rows: pd.DataFrame  # the generic sweep metrics, one row per table (sweep.csv)
    spread: pd.DataFrame  # table, spread, lo, hi
    agreement: pd.DataFrame  # one row per pair of tables
    flips: pd.DataFrame  # one row per (pair, card) whose verdicts differ
    resamples: int = RESAMPLES


def _table(label, sc, run, games, seed) -> Table:
    counts = card_table(sc, run.agg, run.totals)
    average = float(card_averages(pooled_counts(counts))["iwd"].iloc[0])
    strength = card_strength(counts, sc.players).set_index("card")
    cards = iwd_verdicts(strength, average).loc[[c.name for c in sc.cards]]
    return Table(label, sc.strategies[0], run, build_summary(sc, run.totals, games, seed),
                 cards, average, balance_of(run, label))


def run_tables(scenario, tables, games: int, seed: int, jobs: int = 1, progress=None,
               resamples: int = RESAMPLES) -> TableSweep:
    """Play every table (a StrategyConfig each, as a mirror table) on the same deals."""
    out: list[Table] = []
    rows = run_sweep(scenario, "strategies", "strategies", tables, games, seed, jobs,
                     progress=progress,
                     on_run=lambda label, sc, run: out.append(_table(label, sc, run, games,
                                                                     seed)))
    spread, agreement = _bootstrap(out, scenario.players, seed, resamples)
    flips = _flips(out)
    counts = flips.groupby(["a", "b"]).agg(flips=("card", "size"), moved=("moved", "sum"))
    agreement = agreement.join(counts, on=["a", "b"])
    agreement[["flips", "moved"]] = agreement[["flips", "moved"]].fillna(0).astype(int)
    return TableSweep(scenario.name, games, seed, len(out[0].run.batch_totals), out, rows,
                      spread, agreement, flips, resamples)


# --- agreement and spread: a bootstrap over blocks of deals ------------------------------

def _blocks(run):
    """A run's per-block totals and card counts, stacked (block first)."""
    return ({k: np.stack([t[k] for t in run.batch_totals]) for k in TOTAL_KEYS},
            np.stack(run.batch_agg))


def _resampled(blocks, weights):
    """Totals and card counts with block b counted weights[b] times."""
    totals, agg = blocks
    return ({k: np.tensordot(weights, v, axes=1) for k, v in totals.items()},
            np.tensordot(weights, agg, axes=1))


def _orders(iwd):
    """What the rank correlations need of one table's card IWDs: average ranks and the sign
    of every pairwise difference (None when a card has no IWD: see _rank_agreement)."""
    if not np.isfinite(iwd).all():
        return None
    return sps.rankdata(iwd), np.sign(iwd[:, None] - iwd[None, :])


def _rank_agreement(x, y, ox=None, oy=None) -> tuple[float, float]:
    """Spearman's rho and Kendall's tau-b of two tables' card IWDs, over the cards with an IWD
    under both (NaN below 3 cards or for a constant vector).

    With both tables' _orders (every card has an IWD): rho is the correlation of the average
    ranks, tau-b = sum(sx * sy) / sqrt(sum(sx^2) * sum(sy^2)) over the pairwise order signs,
    the definitions scipy's spearmanr and kendalltau compute (tests check that they agree), in
    a fraction of the time; the bootstrap calls this thousands of times. Otherwise scipy's.
    """
    if ox is not None and oy is not None:
        (rx, sx), (ry, sy) = ox, oy
        den = np.sqrt(np.sum(sx * sx) * np.sum(sy * sy))
        with np.errstate(invalid="ignore", divide="ignore"):
            rho = np.corrcoef(rx, ry)[0, 1] if rx.std() > 0 and ry.std() > 0 else np.nan
            return float(rho), float(np.sum(sx * sy) / den) if den > 0 else np.nan
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3:
        return np.nan, np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input gives NaN, which is what we report
        return (float(sps.spearmanr(x[ok], y[ok]).statistic),
                float(sps.kendalltau(x[ok], y[ok]).statistic))


def _bootstrap(tables: list[Table], players: int, seed: int, resamples: int):
    nb = len(tables[0].run.batch_totals)
    pairs = list(itertools.combinations(range(len(tables)), 2))

    stacked = [_blocks(t.run) for t in tables]

    def statistic(blocks, axis=-1):
        w = np.bincount(blocks.astype(np.int64), minlength=nb)
        iwd, spread = [], []
        for b in stacked:
            totals, agg = _resampled(b, w)
            iwd.append(card_metrics(agg, totals)["iwd"])
            spread.append(seat_metrics(totals, players)["seat_gap"][0])
        orders = [_orders(x) for x in iwd]
        ranks = [_rank_agreement(iwd[a], iwd[b], orders[a], orders[b]) for a, b in pairs]
        return np.array(spread + [v for r in ranks for v in r])

    whole = statistic(np.arange(nb))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a degenerate resample distribution (equal tables)
        boot = sps.bootstrap((np.arange(nb),), statistic, n_resamples=resamples,
                             vectorized=False, method="BCa", confidence_level=CONFIDENCE,
                             rng=np.random.default_rng(seed))
    lo, hi = np.asarray(boot.confidence_interval.low), np.asarray(boot.confidence_interval.high)
    # BCa is undefined where every resample gives the same value (e.g. two equal tables):
    # the interval is then that value.
    dist = np.asarray(boot.bootstrap_distribution)
    same = np.all(dist == dist[:, :1], axis=1) & np.isclose(dist[:, 0], whole)
    lo, hi = np.where(same, whole, lo), np.where(same, whole, hi)
    T = len(tables)
    spread = pd.DataFrame({"table": [t.label for t in tables], "spread": whole[:T],
                           "lo": lo[:T], "hi": hi[:T]})
    rows = []
    for j, (a, b) in enumerate(pairs):
        s, k = T + 2 * j, T + 2 * j + 1
        rows.append({"a": tables[a].label, "b": tables[b].label,
                     "cards": int(np.sum(np.isfinite(tables[a].cards["iwd"].to_numpy())
                                         & np.isfinite(tables[b].cards["iwd"].to_numpy()))),
                     "spearman": whole[s], "spearman_lo": lo[s], "spearman_hi": hi[s],
                     "kendall": whole[k], "kendall_lo": lo[k], "kendall_hi": hi[k]})
    return spread, pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)


# --- flips ---------------------------------------------------------------------------------

def relative_iwd(run, batch) -> np.ndarray:
    """Each card's IWD minus the table's average IWD (the plain mean over the cards, as the
    card report's average), in a whole run (batch None) or one block: what a verdict reads."""
    iwd = card_metric(run, batch, "iwd")
    return iwd - np.nanmean(iwd)


def _flips(tables: list[Table]) -> pd.DataFrame:
    frames = []
    for A, B in itertools.combinations(tables, 2):
        names = list(A.cards.index)
        change = diff_frame(names, paired(relative_iwd, A.run, B.run),
                            adjust=True).set_index("name")
        va, vb = A.cards["iwd_verdict"], B.cards["iwd_verdict"]
        flip = [n for n in names if va[n] != vb[n]]
        frames.append(pd.DataFrame({
            "a": A.label, "b": B.label, "card": flip,
            "verdict_a": [va[n] for n in flip], "verdict_b": [vb[n] for n in flip],
            "iwd_a": [A.cards.at[n, "iwd"] for n in flip],
            "iwd_b": [B.cards.at[n, "iwd"] for n in flip],
            "strength_a": [A.cards.at[n, "strength"] for n in flip],
            "strength_b": [B.cards.at[n, "strength"] for n in flip],
            "change": change.loc[flip, "diff"].to_numpy(),
            "change_lo": change.loc[flip, "lo"].to_numpy(),
            "change_hi": change.loc[flip, "hi"].to_numpy(),
            "change_p_holm": change.loc[flip, "p_adjusted"].to_numpy(),
            "moved": change.loc[flip, "beyond_noise"].to_numpy(dtype=bool)}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=FLIP_COLUMNS)


# --- writing -------------------------------------------------------------------------------

def _num(x):
    """A float for JSON: 6 decimals like summary.json; NaN as null."""
    return None if x is None or not np.isfinite(x) else _r(x)


def as_json(res: TableSweep) -> dict:
    tables = []
    for t, (_, sp) in zip(res.tables, res.spread.iterrows()):
        c = t.cards
        tables.append({
            "table": t.label, "strategy": t.strategy.as_dict(),
            "seats": [{k: s[k] for k in ("seat", "wins", "win_rate", "ci95")}
                      for s in t.summary["seats"]],
            "seat_spread": _num(sp["spread"]), "seat_spread_ci95": [_num(sp["lo"]),
                                                                    _num(sp["hi"])],
            "mean_turns": t.summary["mean_turns"], "average_iwd": _num(t.average_iwd),
            "strong": [n for n in c.index if c.at[n, "iwd_verdict"] == "strong"],
            "weak": [n for n in c.index if c.at[n, "iwd_verdict"] == "weak"],
            "balanced": t.balance.as_dict(),
            "cards": [{"card": n, "strength": _num(c.at[n, "strength"]),
                       "strength_ci95": [_num(c.at[n, "strength_lo"]),
                                         _num(c.at[n, "strength_hi"])],
                       "iwd": _num(c.at[n, "iwd"]),
                       "ci95": [_num(c.at[n, "iwd_lo"]), _num(c.at[n, "iwd_hi"])],
                       "p_holm": _num(c.at[n, "iwd_p_holm"]), "verdict": c.at[n, "iwd_verdict"]}
                      for n in c.index]})
    agreement = [{"a": r["a"], "b": r["b"], "cards": int(r["cards"]),
                  "spearman": _num(r["spearman"]),
                  "spearman_ci95": [_num(r["spearman_lo"]), _num(r["spearman_hi"])],
                  "kendall": _num(r["kendall"]),
                  "kendall_ci95": [_num(r["kendall_lo"]), _num(r["kendall_hi"])],
                  "flips": int(r["flips"]), "flips_moved": int(r["moved"])}
                 for _, r in res.agreement.iterrows()]
    flips = [{"a": r["a"], "b": r["b"], "card": r["card"], "verdict_a": r["verdict_a"],
              "verdict_b": r["verdict_b"], "iwd_a": _num(r["iwd_a"]), "iwd_b": _num(r["iwd_b"]),
              "strength_a": _num(r["strength_a"]), "strength_b": _num(r["strength_b"]),
              "iwd_change": _num(r["change"]),
              "iwd_change_ci95": [_num(r["change_lo"]), _num(r["change_hi"])],
              "iwd_change_p_holm": _num(r["change_p_holm"]), "moved": bool(r["moved"])}
             for _, r in res.flips.iterrows()]
    return {"scenario": res.scenario_name, "axis": "strategies", "games": res.games,
            "seed": res.seed, "players": res.tables[0].summary["players"],
            "fair_share": res.tables[0].summary["fair_share"], "blocks": res.blocks,
            "bootstrap_resamples": res.resamples,
            "verdicts": "strength (IWD minus the table's average IWD), Newcombe interval, "
                        "Holm's correction over the cards, 5% level",
            "tables": tables, "agreement": agreement, "flips": flips}


def write_tables(res: TableSweep, out: Path) -> Path:
    """sweep.md, sweep.json, sweep.csv (the generic sweep metrics), sweep_cards.csv,
    sweep_flips.csv and two figures (sweep.png: the seats per table; sweep-iwd.png: IWD of
    each table against the first's) into ``out``. Same inputs, same bytes."""
    from simsym.report.table_sweep import markdown, plot_iwd, plot_seats

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "sweep.csv", res.rows.to_csv(index=False, lineterminator="\n"))
    cards = pd.concat([t.cards.reset_index()[["card", "category", "held_n", "strength",
                                              "strength_lo", "strength_hi", "iwd", "iwd_lo",
                                              "iwd_hi", "iwd_mark", "iwd_p", "iwd_p_holm",
                                              "iwd_verdict"]].assign(table=t.label)
                       for t in res.tables], ignore_index=True)
    cards = cards[["table", *cards.columns[:-1]]]
    atomic_write_text(out / "sweep_cards.csv",
                      cards.round(6).to_csv(index=False, lineterminator="\n"))
    atomic_write_text(out / "sweep_flips.csv",
                      res.flips.round(6).to_csv(index=False, lineterminator="\n"))
    atomic_write_text(out / "sweep.json", json.dumps(as_json(res), indent=1) + "\n")
    plot_seats(res, out / "sweep.png")
    plot_iwd(res, out / "sweep-iwd.png")
    path = out / "sweep.md"
    atomic_write_text(path, markdown(res))
    return path
