"""A census of the Symposia actually made: replays the first games of a run with their event
logs and breaks every play down (type, Wine, Intellectual, Hedonistic, bonus).

It answers what the aggregate counts cannot: how often a Social Symposion scores its bonus
with Intellectual = Hedonistic = 0 (wine only), how often the +5 is reached, what each type
scores. Deterministic: game indices 0..n-1 of the run's seed.
"""

from __future__ import annotations

from collections import Counter

from simsym.core import enums as E
from simsym.core.enums import TYPE_NAMES

CENSUS_GAMES = 1000
CENSUS_GAMES_LOOKAHEAD = 200  # replaying a searching player's games costs what playing them did


def census_games(scenario) -> int:
    """How many games the census of a run replays (fewer when a seat searches)."""
    if any(s.family == "lookahead" for s in scenario.strategies):
        return CENSUS_GAMES_LOOKAHEAD
    return CENSUS_GAMES


def census(scenario, games: int = CENSUS_GAMES) -> dict:
    from simsym.engine.compiled import logged_games, setup_for
    from simsym.engine.search import Searcher

    setup = setup_for(scenario)
    searcher = Searcher(scenario.cards, scenario.rules)
    plays = Counter()
    points = Counter()
    wine_only_bonus = 0
    full_bonus = 0
    any_bonus = 0
    sizes = Counter()
    for events, _, _ in logged_games(setup, 0, games):
        in_play, ptype = [], None
        for code, a, b, c, d in events.tolist():
            if code == E.EV.PLAY:
                in_play, ptype = [], TYPE_NAMES[b]
            elif code in (E.EV.PLAYCARD, E.EV.JOIN):
                in_play.append(b)
            elif code == E.EV.SCORE:
                p = searcher.best_parts(in_play, types=(ptype,),
                                        required=tuple(range(len(in_play))))
                plays[ptype] += 1
                points[ptype] += p.score
                sizes[ptype] += len(in_play)
                if p.bonus:
                    any_bonus += 1
                    if p.intellectual == 0 and p.hedonistic == 0:
                        wine_only_bonus += 1
                    if p.bonus >= scenario.rules.social_bonus_equal + \
                            scenario.rules.social_bonus_all_equal and \
                            scenario.rules.social_bonus_stacks:
                        full_bonus += 1
    total = sum(plays.values())
    social = plays["social"]
    return {
        "games": games,
        "symposia": total,
        "by_type": {t: {"plays": plays[t], "share": round(plays[t] / total, 6) if total else 0,
                        "mean_score": round(points[t] / plays[t], 4) if plays[t] else None,
                        "mean_cards": round(sizes[t] / plays[t], 4) if plays[t] else None}
                    for t in TYPE_NAMES},
        "social_with_bonus": any_bonus,
        "social_wine_only_bonus": wine_only_bonus,
        "social_full_bonus": full_bonus,
        "wine_only_bonus_share_of_social": round(wine_only_bonus / social, 6) if social else 0,
    }


def census_findings(c: dict) -> list[str]:
    out = []
    social = c["by_type"]["social"]["plays"]
    if social and c["wine_only_bonus_share_of_social"] >= 0.05:
        out.append(f"{100 * c['wine_only_bonus_share_of_social']:.1f}% of Social Symposia "
                   f"({c['social_wine_only_bonus']:,} of {social:,} in the census) are wine "
                   "only and score the Social bonus with Intellectual = Hedonistic = 0: the "
                   "bonus rewards playing no points at all.")
    for t, v in c["by_type"].items():
        if c["symposia"] and v["share"] < 0.01:
            out.append(f"Hardly anyone makes {t} Symposia: {v['plays']:,} of "
                       f"{c['symposia']:,} in the census.")
    return out
