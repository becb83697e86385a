"""The pandas/CLI-facing wrapper of the best-Symposion search: names in, a described play out.

``engine="numba"`` runs the compiled kernel; ``engine="python"`` runs the same kernel's
``.py_func`` as plain Python (for debugging); ``engine="reference"`` the brute force in
:mod:`simsym.reference.symposion`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from simsym.core import enums as E
from simsym.core.search_nb import best_symposion_nb
from simsym.errors import SimsymError
from simsym.model.cards.encode import encode_cards
from simsym.model.cards.model import CardSet
from simsym.model.rules import RuleOptions, encode_rules

TYPES = E.TYPE_NAMES


@dataclass(frozen=True)
class CardChoice:
    name: str
    position: int  # in the hand as given
    option: int  # which alternative of "x or y"
    played_as: str  # the option's points, e.g. "2E"
    either_to_intellectual: int
    either_to_hedonistic: int
    woman: bool

    def describe(self) -> str:
        parts = [self.played_as]
        if self.either_to_intellectual or self.either_to_hedonistic:
            if self.either_to_hedonistic == 0:
                parts.append("E as Intellectual")
            elif self.either_to_intellectual == 0:
                parts.append("E as Hedonistic")
            else:
                parts.append(f"E split {self.either_to_intellectual}I/"
                             f"{self.either_to_hedonistic}H")
        if self.woman:
            parts.append("woman")
        return ", ".join(parts)


@dataclass(frozen=True)
class BestPlay:
    score: int
    type: str | None
    wine: int
    intellectual: int
    hedonistic: int
    bonus: int
    choices: tuple[CardChoice, ...] = field(default=())

    @property
    def cards(self) -> list[str]:
        return [c.name for c in self.choices]

    def as_json(self) -> dict:
        return {
            "score": self.score, "type": self.type, "cards": self.cards,
            "wine": self.wine, "intellectual": self.intellectual,
            "hedonistic": self.hedonistic, "bonus": self.bonus,
            "choices": [{"card": c.name, "played_as": c.played_as,
                         "either_to_intellectual": c.either_to_intellectual,
                         "either_to_hedonistic": c.either_to_hedonistic,
                         "woman": c.woman} for c in self.choices],
        }


class Searcher:
    """Holds the encoded card table and rules; answers best-Symposion questions."""

    def __init__(self, cards: CardSet, rules: RuleOptions, engine: str = "numba"):
        if engine not in ("numba", "python", "reference"):
            raise ValueError(engine)
        self.cards = cards
        self.rules = rules
        self.engine = engine
        self.table = encode_cards(cards)
        self.rule_array = encode_rules(rules)
        self._res = np.zeros(E.RES.SIZE, dtype=np.int64)
        # "python": the kernel as plain Python (under NUMBA_DISABLE_JIT=1 it has no .py_func,
        # being plain already, and so are the helpers it calls).
        self._kernel = (best_symposion_nb if engine == "numba"
                        else getattr(best_symposion_nb, "py_func", best_symposion_nb))

    def best(self, hand: list[int], types=TYPES, required=()) -> BestPlay:
        """Best legal Symposion in ``hand`` (kind codes). ``types``: the types that may be
        declared; ``required``: hand positions that must be played."""
        self._check(hand, types)
        if self.engine == "reference":
            return self._from_reference(hand, types, required)
        self._search(hand, types, required)
        return self.describe(hand, self._res)

    @staticmethod
    def _check(hand, types):
        if len(hand) > E.MAX_HAND:
            raise SimsymError(f"a hand of {len(hand)} cards is too large; at most {E.MAX_HAND}")
        bad = [t for t in types if t not in TYPES]
        if bad:
            raise SimsymError(f"unknown Symposion type {bad[0]!r}; one of {', '.join(TYPES)}")

    def best_parts(self, hand: list[int], types=TYPES, required=()) -> BestPlay:
        """The best play's figures without its cards (``choices`` empty): what
        :meth:`best` says, for callers that ask many times and need only the numbers."""
        self._check(hand, types)
        if self.engine == "reference":
            return replace(self._from_reference(hand, types, required), choices=())
        return _figures(self._search(hand, types, required))

    def _search(self, hand, types, required):
        type_mask = sum(1 << TYPES.index(t) for t in types)
        req = 0
        for p in required:
            req |= 1 << p
        arr = np.asarray(hand, dtype=np.int64)
        self._kernel(arr, len(hand), self.table, self.rule_array, req, type_mask, self._res)
        return self._res

    def describe(self, hand, res) -> BestPlay:
        if res[E.RES.TYPE] < 0:
            return _figures(res)
        mask = int(res[E.RES.MASK])
        positions = [p for p in range(len(hand)) if (mask >> p) & 1]
        # Show the play in card-file order.
        positions.sort(key=lambda p: (hand[p], p))
        choices = []
        for p in positions:
            code = int(res[E.RES.PER_CARD + p])
            o = code % E.CH_E_SHIFT
            e_i = (code % E.CH_WOMAN) // E.CH_E_SHIFT
            card = self.cards[hand[p]]
            opt = card.options[o]
            choices.append(CardChoice(card.name, p, o, opt.describe(), e_i, opt.either - e_i,
                                      bool(code & E.CH_WOMAN)))
        return _figures(res, tuple(choices))

    def _from_reference(self, hand, types, required) -> BestPlay:
        from simsym.reference.symposion import best_play

        play = best_play(list(hand), self.cards, self.rules, types=tuple(types),
                         required=frozenset(required))
        if play.type is None:
            return BestPlay(0, None, 0, 0, 0, 0)
        choices = []
        for pc in sorted(play.cards, key=lambda pc: (pc.kind, pc.position)):
            card = self.cards[pc.kind]
            opt = card.options[pc.option]
            choices.append(CardChoice(card.name, pc.position, pc.option, opt.describe(),
                                      pc.either_to_intellectual,
                                      opt.either - pc.either_to_intellectual, pc.woman))
        return BestPlay(play.score, play.type, play.wine, play.intellectual, play.hedonistic,
                        play.bonus, tuple(choices))


def _figures(res, choices=()) -> BestPlay:
    """The BestPlay a search result ``res`` holds, with the cards ``choices``."""
    t = int(res[E.RES.TYPE])
    if t < 0:
        return BestPlay(0, None, 0, 0, 0, 0)
    return BestPlay(int(res[E.RES.SCORE]), TYPES[t], int(res[E.RES.WINE]), int(res[E.RES.I]),
                    int(res[E.RES.H]), int(res[E.RES.BONUS]), choices)
