"""Cards as data: the notation parser, the card model, YAML loading and integer encoding."""

from simsym.model.cards.model import Card, CardSet, Option
from simsym.model.cards.notation import NotationError, parse_notation

__all__ = ["Card", "CardSet", "Option", "NotationError", "parse_notation"]
