"""Cards as data: the notation parser, the card model, YAML loading and integer encoding."""

from simsym.cards.model import Card, CardSet, Option
from simsym.cards.notation import NotationError, parse_notation

__all__ = ["Card", "CardSet", "Option", "NotationError", "parse_notation"]
