"""Totals -> summary.json (deterministic) and the per-card table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simsym.core import enums as E
from simsym.core.enums import TYPE_NAMES

DIGITS = 6


def _r(x) -> float:
    return round(float(x), DIGITS)


def wilson(wins: float, n: int) -> list[float]:
    """95% Wilson interval of a win rate (wins may be fractional: shared ties)."""
    if n == 0:
        return [0.0, 1.0]
    # Imported here: statsmodels (with scipy) takes a second or more to import, and a run
    # needs it only once its games are played (simsym.run.job imports it meanwhile).
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return [_r(lo), _r(hi)]


def _block(n, wins_units, score, score_sq, margin, symposia, by_type):
    wins = wins_units / E.WIN_UNITS
    mean = score / n if n else 0.0
    var = max(score_sq / n - mean * mean, 0.0) if n else 0.0
    return {
        "games": int(n),
        "wins": _r(wins),
        "win_rate": _r(wins / n if n else 0.0),
        "ci95": wilson(wins, n),
        "mean_score": _r(mean),
        "sd_score": _r(var ** 0.5),
        "mean_margin": _r(margin / n if n else 0.0),
        "symposia_per_game": _r(symposia / n if n else 0.0),
        "points_by_type": {t: _r(by_type[i] / n if n else 0.0)
                           for i, t in enumerate(TYPE_NAMES)},
    }


def build_summary(scenario, totals: dict, games: int, seed: int) -> dict:
    P = scenario.players
    n = int(totals["games"][0])
    assert n == games, (n, games)
    labels = [s.label for s in scenario.strategies]
    base = [labels[i % len(labels)] for i in range(P)]
    seats = []
    for i in range(P):
        b = _block(n, totals["seat_wins"][i], totals["seat_score"][i],
                   totals["seat_score_sq"][i], totals["seat_margin"][i],
                   totals["seat_symposia"][i], totals["seat_points_by_type"][i])
        strategy = base[i] if scenario.seating == "mirror" else \
            ("rotating" if scenario.seating == "rotate" else "random")
        seats.append({"seat": i, "strategy": strategy, **b})
    strategies = []
    for s, label in enumerate(labels):
        g = int(totals["strat_games"][s])
        b = _block(g, totals["strat_wins"][s], totals["strat_score"][s],
                   totals["strat_score_sq"][s], totals["strat_margin"][s],
                   totals["strat_symposia"][s], totals["strat_points_by_type"][s])
        b["player_games"] = b.pop("games")
        strategies.append({"strategy": label, **b})
    return {
        "scenario": scenario.name,
        "games": n,
        "seed": seed,
        "players": P,
        "seating": scenario.seating,
        "stalled": int(totals["stalled"][0]),
        "mean_turns": _r(totals["turns"][0] / n),
        "trades_per_game": _r(totals["trades"][0] / n),
        "fair_share": _r(1 / P),
        "seats": seats,
        "strategies": strategies,
        "rules": scenario.rules.as_dict(),
        # the balance criteria, where the scenario sets them (the reports' defaults otherwise)
        **({"balance": scenario.balance} if getattr(scenario, "balance", None) else {}),
        **({"quality": quality_block(totals)} if "q_changes" in totals else {}),
    }


def _ints(a) -> list:
    return [int(x) for x in np.asarray(a).ravel()]


def quality_block(totals: dict) -> dict:
    """summary.json's "quality": the run's game-quality totals (docs/game-engine.md
    section 8), integers only, so the file is the same whatever the chunking or engine.
    simsym.analysis.quality.quality_frame turns it into estimates with intervals."""
    def sums(key):
        total, sq = _ints(totals[key])
        return {"sum": total, "sum_sq": sq}

    drama = _ints(totals["q_drama"])
    win_by = _ints(totals["q_win_by"])
    return {
        "games": int(totals["games"][0]),
        "turns": sums("q_turns"),
        "lead_changes": {**sums("q_changes"), "hist": _ints(totals["q_changes_hist"])},
        "decided_permille": sums("q_decided_permille"),
        "decided_tenths_hist": _ints(totals["q_decided_tenths_hist"]),
        "run_end": [{"run": r + 1, "games": row[0], "winner_behind": row[1],
                     "deficit_sum": row[2], "deficit_sum_sq": row[3], "turn_sum": row[4]}
                    for r, row in enumerate(np.asarray(totals["q_run_end"]).tolist())],
        "drama": {"sum": drama[0], "sum_sq": drama[1], "positive": drama[2]},
        "margin": {**sums("q_margin"), "hist": _ints(totals["q_margin_hist"])},
        "winners_hist": _ints(totals["q_winners_hist"]),
        "win_by": {name.lower(): win_by[code] for name, code in E.WIN_BY._asdict().items()},
    }


CARD_COLUMNS = {
    E.AGG.OH_N: "opening_n", E.AGG.OH_W: "opening_wins", E.AGG.GD_N: "drawn_n",
    E.AGG.GD_W: "drawn_wins", E.AGG.GIH_N: "held_n", E.AGG.GIH_W: "held_wins",
    E.AGG.PLAYED: "played", E.AGG.PLAYED_N: "played_n", E.AGG.POINTS: "points_when_played",
    E.AGG.END: "at_end", E.AGG.DISCARDED: "discarded", E.AGG.TRADED: "received_by_trade",
    E.AGG.HELD_UNPLAYED_N: "held_unplayed_n",
}


def card_table(scenario, agg: np.ndarray, totals: dict) -> pd.DataFrame:
    """One row per (strategy, card): the raw counts the reports need (wins in whole wins)."""
    rows = []
    labels = [s.label for s in scenario.strategies]
    for s, label in enumerate(labels):
        pg = int(totals["strat_games"][s])
        pw = totals["strat_wins"][s] / E.WIN_UNITS
        for k, card in enumerate(scenario.cards):
            row = {"strategy": label, "card": card.name, "category": card.category,
                   "player_games": pg, "player_wins": _r(pw)}
            for col, name in CARD_COLUMNS.items():
                v = agg[s, k, col]
                row[name] = _r(v / E.WIN_UNITS) if name.endswith("_wins") else int(v)
            rows.append(row)
    return pd.DataFrame(rows)
