"""Degenerate play the numbers reveal, as plain sentences."""

from __future__ import annotations

import pandas as pd

TYPE_SHARE_MIN = 0.01  # a Symposion type under 1% of a strategy's points is "not played"
RARE_WIN_FRACTION = 0.25  # a strategy whose win-rate interval stays under 1/4 of fair share
DEAD_RATE_MIN = 0.95  # a card held but unplayed in at least 95% of the games it was held
MIN_HELD = 20  # ... judged only once held in this many player-games


def degenerate_findings(summary: dict, strength: pd.DataFrame) -> list[str]:
    """Sentences for: a Symposion type nobody plays, a strategy that (almost) never wins,
    cards (almost) never played when held, cards never held, stalled games.

    ``strength`` is the card table of simsym.analysis.cards.card_strength (pooled, or per
    strategy with a 'strategy' column).
    """
    out: list[str] = []
    fair = 1.0 / summary["players"]
    strategies = summary["strategies"]
    pooled = _pooled_points(strategies)
    for t, (v, share) in pooled.items():
        if share < TYPE_SHARE_MIN:
            who = "Nobody" if v == 0 else "Almost nobody"
            out.append(f"{who} scores {t.capitalize()} Symposia: {v:.2f} points a "
                       f"player-game, {share:.1%} of all points.")
    if len(strategies) > 1:
        for st in strategies:
            pts = st["points_by_type"]
            total = sum(pts.values())
            for t, v in pts.items():
                share = v / total if total > 0 else 0.0
                if share < TYPE_SHARE_MIN and pooled[t][1] >= TYPE_SHARE_MIN:
                    out.append(f"Strategy {st['strategy']} almost never scores "
                               f"{t.capitalize()} Symposia: {v:.2f} points a player-game, "
                               f"{share:.1%} of its points.")
    for st in strategies:
        lo, hi = st["ci95"]
        if st["wins"] == 0:
            out.append(f"Strategy {st['strategy']} never wins ({st['player_games']:,} "
                       f"player-games).")
        elif hi < RARE_WIN_FRACTION * fair:
            out.append(f"Strategy {st['strategy']} almost never wins: {st['win_rate']:.1%} of "
                       f"its games (95% CI {lo:.1%}-{hi:.1%}) against a fair share of "
                       f"{fair:.1%}.")
    multi = "strategy" in strength.columns and strength["strategy"].nunique() > 1
    for _, r in strength.iterrows():
        who = f" (strategy {r['strategy']})" if multi else ""
        if r["held_n"] == 0:
            out.append(f"{r['card']}{who} is never held.")
        elif r["held_n"] >= MIN_HELD and r["dead_rate"] >= DEAD_RATE_MIN:
            never = "never" if r["played_n"] == 0 else "almost never"
            out.append(f"{r['card']}{who} is {never} played when held: dead in "
                       f"{r['dead_rate']:.0%} of the {int(r['held_n']):,} player-games "
                       f"that held it.")
    if summary.get("stalled", 0) > 0:
        cap = summary.get("rules", {}).get("turn_cap")
        cap_text = f" (reached the turn cap of {cap})" if cap is not None else ""
        out.append(f"{summary['stalled']:,} of {summary['games']:,} games stalled{cap_text}.")
    return out


def _pooled_points(strategies: list[dict]) -> dict[str, tuple[float, float]]:
    """Symposion type -> (points a player-game, share of all points), over every strategy."""
    games = sum(st["player_games"] for st in strategies)
    sums: dict[str, float] = {}
    for st in strategies:
        for t, v in st["points_by_type"].items():
            sums[t] = sums.get(t, 0.0) + v * st["player_games"]
    total = sum(sums.values())
    return {t: (v / games if games else 0.0, v / total if total > 0 else 0.0)
            for t, v in sums.items()}
