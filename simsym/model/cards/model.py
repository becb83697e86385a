"""The typed card model that the notation parser produces."""

from __future__ import annotations

from dataclasses import dataclass, field

from simsym.errors import InputError, closest


@dataclass(frozen=True)
class Option:
    """One way to play a card: the points it gives when played this way.

    ``wine`` is the printed Wine (what the wine requirements count, ruling 12);
    ``wine_scored`` what it scores ("1W (Worth 2W for Scoring)" has wine=1, wine_scored=2).
    ``either`` points go whole to Intellectual or Hedonistic, the player's choice (ruling 15).
    """

    wine: int = 0
    wine_scored: int = 0
    intellectual: int = 0
    hedonistic: int = 0
    either: int = 0

    def describe(self) -> str:
        parts = []
        if self.wine or self.wine_scored:
            w = f"{self.wine}W"
            if self.wine_scored != self.wine:
                w += f" (worth {self.wine_scored}W for scoring)"
            parts.append(w)
        for value, letter in ((self.intellectual, "I"), (self.hedonistic, "H"), (self.either, "E")):
            if value:
                parts.append(f"{value}{letter}")
        return " and ".join(parts) or "0"


@dataclass(frozen=True)
class Card:
    """A card kind. ``copies`` physical cards of it are in the deck."""

    name: str
    text: str
    options: tuple[Option, ...]
    copies: int = 1
    container: bool = False
    vintage: bool = False
    woman: bool = False  # WC
    maybe_woman: bool = False  # MW
    intellectual_only: bool = False  # IO (also: no WC or MW in the same Symposion)
    hedonistic_only: bool = False  # HO
    not_intellectual: bool = False  # NI
    not_hedonistic: bool = False  # NH
    social_only: bool = False
    requires_women: int = 0  # "Requires 3+ WC"
    requires_wine: int = 0  # "Requires 7+ Wine Points"
    draws: int = 0  # "Draw 1 card when Played"
    draw_usable: bool = False  # the "*": the drawn card may join the same Symposion

    @property
    def category(self) -> str:
        """A coarse category for reports: wine, intellectual, hedonistic, either, woman, mixed."""
        if self.woman or self.maybe_woman:
            return "woman"
        kinds = set()
        for o in self.options:
            if o.wine:
                kinds.add("wine")
            if o.intellectual:
                kinds.add("intellectual")
            if o.hedonistic:
                kinds.add("hedonistic")
            if o.either:
                kinds.add("either")
        if len(kinds) == 1:
            return kinds.pop()
        if kinds == {"wine", "either"}:
            return "wine"
        return "mixed"


@dataclass
class CardSet:
    """The cards of a scenario, in file order. A card's index here is its *kind* code."""

    cards: list[Card]
    source: str = "<cards>"
    _by_name: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._by_name = {c.name.casefold(): i for i, c in enumerate(self.cards)}

    def __len__(self):
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def __getitem__(self, i):
        return self.cards[i]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.cards]

    @property
    def deck_size(self) -> int:
        return sum(c.copies for c in self.cards)

    def index(self, name: str) -> int | None:
        return self._by_name.get(name.strip().casefold())

    def lookup(self, name: str, *, file: str | None = None, line: int | None = None,
               key: str | None = None) -> int:
        """Kind index of ``name`` (case-insensitive), or an InputError suggesting close names.

        The one place card names typed by a user are matched, for hands and overrides alike.
        """
        i = self.index(name)
        if i is not None:
            return i
        hint = closest(name.strip(), self.names)
        msg = f"unknown card {name.strip()!r}"
        if hint:
            msg += "; closest: " + ", ".join(hint)
        else:
            msg += f"; the deck has {len(self.cards)} cards (see {self.source})"
        raise InputError(msg, file=file, line=line, key=key)
