"""Load a card file (``cards: {Name: "notation"}``) and apply a scenario's overrides."""

from __future__ import annotations

from pathlib import Path

from simsym.cards.model import Card, CardSet
from simsym.cards.notation import parse_notation
from simsym.errors import InputError, did_you_mean
from simsym.yamlio import line_of, load_yaml_file

MAX_COPIES = 1000
_ENTRY_KEYS = ("text", "copies")


def _entry(name, value, file, line, key, base: Card | None = None) -> Card:
    """One card entry: a notation string, or {text: ..., copies: ...} (text optional when
    overriding an existing card)."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a card name must be non-empty text, found {name!r}", file, line, key)
    if isinstance(value, str):
        text, copies = value, (base.copies if base else 1)
    elif isinstance(value, dict):
        for k in value:
            if k not in _ENTRY_KEYS:
                raise InputError(f"unknown card field {k!r}{did_you_mean(str(k), _ENTRY_KEYS)};"
                                 " allowed: text, copies", file, line_of(value, k, line),
                                 f"{key}.{k}")
        if "text" not in value and base is None:
            raise InputError("a new card needs its notation: text: \"...\"", file, line, key)
        text = value.get("text", base.text if base else None)
        copies = value.get("copies", base.copies if base else 1)
        if isinstance(copies, bool) or not isinstance(copies, int) \
                or not 0 <= copies <= MAX_COPIES:
            raise InputError(f"copies must be a whole number from 0 to {MAX_COPIES}, found "
                             f"{copies!r}", file, line_of(value, "copies", line), f"{key}.copies")
    else:
        raise InputError(f"expected the card's notation as text (e.g. \"1W or 2E; Vintage\") or "
                         f"a mapping with text/copies, found {value!r}", file, line, key)
    if not isinstance(text, str):
        raise InputError(f"the notation must be text, found {text!r}", file, line, key)
    card = parse_notation(name.strip(), text, copies, file=file, line=line)
    return card


def load_card_file(path: str | Path) -> CardSet:
    data = load_yaml_file(path)
    file = str(path)
    if not isinstance(data, dict) or "cards" not in data:
        raise InputError("a card file is a mapping with a 'cards:' mapping of name to notation",
                         file, getattr(data, "line", 1))
    extra = [k for k in data if k != "cards"]
    if extra:
        raise InputError(f"unknown key {extra[0]!r}; a card file holds only 'cards'", file,
                         line_of(data, extra[0]), str(extra[0]))
    entries = data["cards"]
    if not isinstance(entries, dict) or not entries:
        raise InputError("'cards' must be a non-empty mapping of card name to notation", file,
                         line_of(data, "cards"), "cards")
    cards = []
    seen = {}
    for name, value in entries.items():
        line = line_of(entries, name)
        card = _entry(name, value, file, line, f"cards.{name}")
        folded = card.name.casefold()
        if folded in seen:
            raise InputError(f"card {card.name!r} is listed twice (also line {seen[folded]}); "
                             "names are matched case-insensitively", file, line, f"cards.{name}")
        seen[folded] = line
        cards.append(card)
    return CardSet(cards, source=file)


def apply_overrides(cards: CardSet, overrides, add, remove, file, lines) -> CardSet:
    """Scenario-level changes: ``overrides`` of existing cards, ``add`` new ones, ``remove``."""
    out = list(cards.cards)
    for name, value in (overrides or {}).items():
        line = line_of(overrides, name, lines)
        k = cards.lookup(str(name), file=file, line=line, key=f"cards.overrides.{name}")
        out[k] = _entry(out[k].name, value, file, line, f"cards.overrides.{name}", base=out[k])
    current = CardSet(out, source=cards.source)
    for name, value in (add or {}).items():
        line = line_of(add, name, lines)
        if current.index(str(name)) is not None:
            raise InputError(f"card {name!r} already exists; change it under overrides", file,
                             line, f"cards.add.{name}")
        out.append(_entry(name, value, file, line, f"cards.add.{name}"))
        current = CardSet(out, source=cards.source)
    drop = set()
    for i, name in enumerate(remove or []):
        k = current.lookup(str(name), file=file, line=lines, key=f"cards.remove[{i}]")
        drop.add(k)
    return CardSet([c for i, c in enumerate(out) if i not in drop], source=cards.source)
