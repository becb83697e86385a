"""What the reference engine's seats reckon with: the best-Symposion oracle's answer (Best),
keep values and discard order (docs/game-engine.md §6.1), hands as multisets.

Read by the game (simsym.reference.game) and by its lookahead seats
(simsym.reference.lookahead), which decide from a game's state.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

from simsym.reference.symposion import TYPES, best_play

ALL_TYPES = TYPES  # ("intellectual", "social", "hedonistic"), the canonical type order


@dataclass(frozen=True)
class Best:
    """What best(cards, types, required) found: score, type (None when nothing is legal) and the
    sorted kinds played."""

    score: int
    type: str | None
    kinds: tuple[int, ...]

    @property
    def legal(self) -> bool:
        return self.type is not None


NONE = Best(0, None, ())


def brute_force_oracle(cards, rules):
    """The default `search`: simsym.reference.symposion.best_play, cached on the multiset.

    Keyed on (sorted hand, types, sorted kinds of the required positions): correct because the
    search is order-independent (its tie-break is on kinds, never positions).
    """

    @functools.lru_cache(maxsize=None)
    def cached(hand: tuple[int, ...], types: tuple[str, ...], req_kinds: tuple[int, ...]):
        play = best_play(list(hand), cards, rules, types=types,
                         required=frozenset(_positions_of(hand, req_kinds)))
        return play.score, play.type, play.kinds

    def search(hand, types, required=()):
        hand = [int(k) for k in hand]
        return cached(tuple(sorted(hand)), tuple(types),
                      tuple(sorted(hand[p] for p in required)))

    search.cache_info = cached.cache_info
    return search


def _positions_of(sorted_hand: tuple[int, ...], req_kinds) -> list[int]:
    """Positions in sorted_hand holding the multiset req_kinds (first unused position each)."""
    used = set()
    out = []
    for k in req_kinds:
        for p, h in enumerate(sorted_hand):
            if h == k and p not in used:
                used.add(p)
                out.append(p)
                break
        else:
            raise ValueError(f"required kind {k} not in hand {sorted_hand}")
    return out


# --- spec §6.1: keep values, discard order ----------------------------------------------------

def usable(card, type_: str) -> bool:
    """May the card be played in a Symposion of type_ (for specialists, spec §6.1)."""
    if type_ == "intellectual":
        card_ok = not (card.not_intellectual or card.hedonistic_only or card.social_only)
    elif type_ == "hedonistic":
        card_ok = not (card.not_hedonistic or card.intellectual_only or card.social_only)
    else:  # social
        card_ok = not (card.intellectual_only or card.hedonistic_only)
    return card_ok and any(option_usable(o, type_) for o in card.options)


def option_usable(o, type_: str) -> bool:
    """intellectual: an option with H = 0; hedonistic: an option with I = 0; social: any."""
    if type_ == "intellectual":
        return o.hedonistic == 0
    if type_ == "hedonistic":
        return o.intellectual == 0
    return True


def option_value(o, wine_weight: int) -> int:
    """wine_scored(o) + I(o) + H(o) + E(o) + wine_weight * wine_printed(o)."""
    return o.wine_scored + o.intellectual + o.hedonistic + o.either + wine_weight * o.wine


def keep_values(cards, cfg) -> list[int]:
    """keep[k] for every kind, computed once per game from the seat's configuration."""
    # AMBIGUITY: "specialist: keep[k] = (max over usable options) + focus if usable(k,
    # favours), else 0" is read as ((max over usable options) + focus) when usable(k, favours)
    # and 0 otherwise (a card barred from the favoured type, e.g. an HO card for a social
    # specialist, keeps 0 even though all its options are "usable" for social). The other
    # parse, max + (focus if usable else 0), would give such a card its points.
    ww = cfg.get("wine_weight")
    keep = []
    for card in cards:
        if cfg.family == "specialist":
            fav = cfg.get("favours")
            if usable(card, fav):
                keep.append(max(option_value(o, ww) for o in card.options
                                if option_usable(o, fav)) + cfg.get("focus"))
            else:
                keep.append(0)
        else:
            keep.append(max(option_value(o, ww) for o in card.options))
    return keep


def discard_order(cards_: list[int], keep: list[int]) -> list[int]:
    """Ascending keep, ties by descending kind."""
    return sorted(cards_, key=lambda k: (keep[k], -k))


def multiset_minus(a, b) -> list[int]:
    """a - b as multisets (sorted)."""
    left = Counter(a)
    left.subtract(Counter(b))
    return sorted(left.elements())
