"""What a legal Symposion is, and what it scores: the rules text and rulings 11-21, spelled out.

A *play* is a list of (card, option index, Either points given to Intellectual, declared woman).
The brute-force search below tries every subset of the hand, every type and every choice, and
keeps the first best play in the canonical order (see :func:`play_key`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from simsym.model.cards.model import Card, CardSet
from simsym.model.rules import RuleOptions

TYPES = ("intellectual", "social", "hedonistic")


@dataclass(frozen=True)
class PlayedCard:
    position: int  # position in the hand
    kind: int  # index of the card in the card set
    option: int  # which alternative of "x or y" was chosen
    either_to_intellectual: int  # how many of the option's E points go to Intellectual
    woman: bool  # counted as a woman (WC, or MW declared a woman)


@dataclass(frozen=True)
class Play:
    type: str | None
    cards: tuple[PlayedCard, ...]
    wine: int  # scored wine
    intellectual: int
    hedonistic: int
    bonus: int

    @property
    def score(self) -> int:
        return self.wine + self.intellectual + self.hedonistic + self.bonus

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(sorted(p.kind for p in self.cards))

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(sorted(p.position for p in self.cards))


NO_PLAY = Play(None, (), 0, 0, 0, 0)


def play_key(play: Play):
    """Canonical order of plays (smaller is better): highest score, then fewest cards, then the
    lexicographically smallest sorted list of card kinds (card-file order), then type in the
    order intellectual, social, hedonistic, then the smallest list of option indices taken
    card by card in card-file order (so "1W or 2E" played as 1W comes first)."""
    t = TYPES.index(play.type) if play.type else 3
    options = tuple(pc.option for pc in sorted(play.cards, key=lambda pc: (pc.kind, pc.position)))
    return (-play.score, len(play.cards), play.kinds, t, options)


def counted_wine(card: Card, option: int, rules: RuleOptions) -> int:
    """The Wine a card counts towards requirements (ruling 12: printed by default)."""
    o = card.options[option]
    return o.wine_scored if rules.wine_counts == "scored" else o.wine


def check(type_: str, chosen: list[tuple[Card, int, int, bool]], rules: RuleOptions):
    """Score of a Symposion of ``type_`` made of ``chosen`` = [(card, option, E to I, woman)],
    or None when it is not legal. Each line is one rule."""
    if not chosen:
        return None
    cards = [c for c, _, _, _ in chosen]
    opts = [c.options[o] for c, o, _, _ in chosen]
    for (card, o, e_i, woman), opt in zip(chosen, opts):
        # Ruling 15: the E points are split only if allowed; woman only if WC or MW.
        if not 0 <= e_i <= opt.either:
            return None
        if not rules.either_split and e_i not in (0, opt.either):
            return None
        if woman and not (card.woman or card.maybe_woman):
            return None
        if card.woman and not woman:
            return None
    e_h = [opt.either - e_i for (_, _, e_i, _), opt in zip(chosen, opts)]
    e_i = [e for (_, _, e, _) in chosen]
    # Ruling 16: type limits.
    if type_ == "intellectual":
        for card, opt, eh in zip(cards, opts, e_h):
            if opt.hedonistic > 0 or eh > 0:  # no card that gives Hedonistic points
                return None
            if card.not_intellectual or card.hedonistic_only or card.social_only:
                return None
    elif type_ == "hedonistic":
        for card, opt, ei in zip(cards, opts, e_i):
            if opt.intellectual > 0 or ei > 0:  # no card that gives Intellectual points
                return None
            if card.not_hedonistic or card.intellectual_only or card.social_only:
                return None
    else:
        for card in cards:
            if card.intellectual_only or card.hedonistic_only:
                return None
    # Ruling 17: an IO card bars WC and MW cards (MW even if declared not a woman).
    if any(c.intellectual_only for c in cards):
        for card, _, _, woman in chosen:
            if card.woman or woman or (card.maybe_woman and rules.io_bars_mw):
                return None
    # Ruling 12: the wine requirement, counting printed wine by default.
    wine_counted = sum(counted_wine(c, o, rules) for c, o, _, _ in chosen)
    lo, hi = rules.wine_window(TYPES.index(type_))
    if not lo <= wine_counted <= hi:
        return None
    # Ruling 13: some wine from a card that is not a Container.
    non_container = sum(counted_wine(c, o, rules) for c, o, _, _ in chosen if not c.container)
    if non_container < rules.non_container_wine:
        return None
    # Ruling 14: at most one Vintage card, whichever way it is played.
    if sum(c.vintage for c in cards) > rules.max_vintage:
        return None
    # Ruling 18 and "Requires 7+ Wine Points": per-card requirements.
    women = sum(woman for _, _, _, woman in chosen)
    for card in cards:
        if women < card.requires_women or wine_counted < card.requires_wine:
            return None
    # Ruling 20: score what was applied.
    wine = sum(opt.wine_scored for opt in opts)
    intellectual = sum(opt.intellectual for opt in opts) + sum(e_i)
    hedonistic = sum(opt.hedonistic for opt in opts) + sum(e_h)
    bonus = 0
    if type_ == "social":  # Ruling 21
        bonus_wine = wine if rules.bonus_wine == "scored" else \
            sum(opt.wine for opt in opts)
        if intellectual == hedonistic:
            bonus = rules.social_bonus_equal
            if intellectual == bonus_wine:
                bonus = (bonus + rules.social_bonus_all_equal if rules.social_bonus_stacks
                         else max(rules.social_bonus_all_equal, bonus))
    return wine, intellectual, hedonistic, bonus


def _card_choices(card: Card, type_: str, rules: RuleOptions):
    """Every (option, E to Intellectual, woman) a card can be played with."""
    for o, opt in enumerate(card.options):
        if opt.either == 0:
            e_splits = [0]
        elif type_ == "intellectual":
            e_splits = [opt.either]
        elif type_ == "hedonistic":
            e_splits = [0]
        elif rules.either_split:
            e_splits = list(range(opt.either, -1, -1))
        else:
            e_splits = [opt.either, 0]
        womanhood = [True] if card.woman else [True, False] if card.maybe_woman else [False]
        for e in e_splits:
            for w in womanhood:
                yield o, e, w


def best_play(hand: list[int], cards: CardSet, rules: RuleOptions,
              types=TYPES, required: frozenset[int] = frozenset()) -> Play:
    """The best legal Symposion in ``hand`` (kind indices), by brute force over everything.

    ``types`` restricts the declared type; ``required`` holds hand positions that must be played.
    Returns NO_PLAY when nothing is legal.
    """
    best = None
    n = len(hand)
    for type_ in types:
        for size in range(1, n + 1):
            for subset in itertools.combinations(range(n), size):
                if not required <= set(subset):
                    continue
                subset = sorted(subset, key=lambda p: (hand[p], p))  # card-file order
                cs = [cards[hand[p]] for p in subset]
                # Cheap, obviously-safe filter: the wine window cannot be met at all.
                lo, hi = rules.wine_window(TYPES.index(type_))
                wmin = sum(min(counted_wine(c, o, rules) for o in range(len(c.options)))
                           for c in cs)
                wmax = sum(max(counted_wine(c, o, rules) for o in range(len(c.options)))
                           for c in cs)
                if wmax < lo or wmin > hi:
                    continue
                for combo in itertools.product(*[list(_card_choices(c, type_, rules))
                                                 for c in cs]):
                    chosen = [(c, o, e, w) for c, (o, e, w) in zip(cs, combo)]
                    result = check(type_, chosen, rules)
                    if result is None:
                        continue
                    play = Play(type_, tuple(PlayedCard(p, hand[p], o, e, w)
                                             for p, (o, e, w) in zip(subset, combo)), *result)
                    if best is None or play_key(play) < play_key(best):
                        best = play
    return best or NO_PLAY
