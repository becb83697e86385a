"""Load a card file (``cards: {Name: "notation"}``) and apply a scenario's overrides.

Every problem of the file is collected (one per card entry at most) and raised together.
"""

from __future__ import annotations

import re
from pathlib import Path

from simsym.errors import InputError, Problems, did_you_mean, show
from simsym.model.cards.model import Card, CardSet
from simsym.model.cards.notation import example, parse_notation
from simsym.model.yamlio import line_of, load_yaml_file

MAX_COPIES = 1000
MAX_REQUIRES = 1000  # "Requires N+ WC / Wine Points": beyond this no Symposion could qualify
MAX_DRAWS = 10  # "Draw N cards when Played"
_ENTRY_KEYS = ("text", "copies")


def _entry(name, value, file, line, key, base: Card | None = None) -> Card:
    """One card entry: a notation string, or {text: ..., copies: ...} (text optional when
    overriding an existing card). Raises every problem of the entry together."""
    problems = Problems()
    if not isinstance(name, str) or not name.strip():
        problems.fatal(InputError(f"a card name must be non-empty text, found {show(name)}",
                                  file, line, key))
    text, copies = None, (base.copies if base else 1)
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict):
        for k in value:
            if k not in _ENTRY_KEYS:
                problems.add(InputError(
                    f"unknown card field {show(k)}{did_you_mean(str(k), _ENTRY_KEYS)}; "
                    "allowed: text, copies", file, line_of(value, k, line), f"{key}.{k}"))
        if "text" not in value and base is None:
            problems.add(InputError("a new card needs its notation: text: \"...\"", file, line,
                                    key))
        text = value.get("text", base.text if base else None)
        copies = value.get("copies", copies)
        if isinstance(copies, bool) or not isinstance(copies, int) \
                or not 0 <= copies <= MAX_COPIES:
            problems.add(InputError(f"copies must be a whole number from 0 to {MAX_COPIES}, "
                                    f"found {show(copies)}", file,
                                    line_of(value, "copies", line), f"{key}.copies"))
            copies = 1
        if text is None and "text" not in value:
            problems.raise_if_any()
    else:
        problems.fatal(InputError(
            f"expected the card's notation as text (e.g. \"1W or 2E; Vintage\") or a mapping "
            f"with text/copies, found {show(value)}", file, line, key))
    if not isinstance(text, str):
        problems.fatal(InputError(f"the notation must be text, found {show(text)}", file,
                                  line_of(value, "text", line), f"{key}.text"
                                  if isinstance(value, dict) else key))
    card = None
    try:
        card = parse_notation(name.strip(), text, copies, file=file, line=line)
        _check_ranges(card, file, line)
    except InputError as e:  # name the entry where it is written (e.g. cards.overrides.X)
        problems.add(type(e)(e.message, file, line_of(value, "text", line), key))
    problems.raise_if_any()
    return card


def _check_ranges(card: Card, file, line) -> None:
    """Values the grammar reads but no game could use (and the engine's arrays cannot hold)."""
    for what, value, most, number in (
            ("Requires N+ WC", card.requires_women, MAX_REQUIRES,
             r"(requires\s+)\d+(\s*\+\s*w(?:c|om))"),
            ("Requires N+ Wine Points", card.requires_wine, MAX_REQUIRES,
             r"(requires\s+)\d+(\s*\+\s*wine)"),
            ("Draw N cards when Played", card.draws, MAX_DRAWS, r"(draw\s+)\d+()")):
        if value > most:
            fix = re.sub(number, lambda m: f"{m[1]}{most}{m[2]}", card.text, count=1,
                         flags=re.IGNORECASE)
            raise InputError(f"card {card.name!r}: {what} with N = {show(value)}; allowed N "
                             f"from 0 to {most}; e.g. {example([fix])!r}", file, line,
                             f"cards.{card.name}")


def load_card_file(path: str | Path, problems: Problems | None = None) -> CardSet | None:
    """The cards of a card file. With ``problems``, record every problem there and return the
    cards that were read (None if the file could not be read at all); without, raise them."""
    own = problems is None
    problems = Problems() if own else problems
    file = str(path)
    head = Problems()  # problems with the file as a whole: no card can be read after them
    try:
        data = load_yaml_file(path)
        if not isinstance(data, dict) or "cards" not in data:
            head.fatal(InputError("a card file is a mapping with a 'cards:' mapping of name to "
                                  "notation", file, getattr(data, "line", 1) or 1))
        for k in data:
            if k != "cards":
                head.add(InputError(f"unknown key {show(k)}; a card file holds only 'cards'",
                                    file, line_of(data, k), str(k)))
        entries = data["cards"]
        if not isinstance(entries, dict) or not entries:
            head.fatal(InputError("'cards' must be a non-empty mapping of card name to "
                                  f"notation, found {show(entries)}", file,
                                  line_of(data, "cards"), "cards"))
    except InputError as e:
        problems.add(e)
        if own:
            problems.raise_if_any()
        return None
    for e in head.items:
        problems.add(e)
    cards = []
    seen = {}
    for name, value in entries.items():
        line = line_of(entries, name)
        folded = name.strip().casefold() if isinstance(name, str) else None
        if folded and folded in seen:
            problems.add(InputError(f"card {name.strip()!r} is listed twice (also line "
                                    f"{seen[folded]}); names are matched case-insensitively",
                                    file, line, f"cards.{name}"))
            continue
        if folded:
            seen[folded] = line
        try:
            cards.append(_entry(name, value, file, line, f"cards.{name}"))
        except InputError as e:
            problems.add(e)
    if own:
        problems.raise_if_any()
    return CardSet(cards, source=file)


def _origin(mapping, key, default):
    """The file an entry was written in, when ``extends`` merged mappings from several."""
    try:
        return getattr(mapping, "origin", {}).get(key, default)
    except TypeError:
        return default


def apply_overrides(cards: CardSet, overrides, add, remove, file, lines,
                    problems: Problems | None = None, remove_at=None) -> CardSet:
    """Scenario-level changes: ``overrides`` of existing cards, ``add`` new ones, ``remove``.

    Card names are matched by :meth:`CardSet.lookup` (case-insensitive, closest-name hints).
    With ``problems``, every problem is recorded and the valid changes applied; without, they
    are raised together. ``remove_at``: (file, line) of the ``remove`` list, if not ``lines``.
    """
    own = problems is None
    problems = Problems() if own else problems
    out = list(cards.cards)
    for name, value in (overrides or {}).items():
        line = line_of(overrides, name, lines)
        key = f"cards.overrides.{name}"
        where = _origin(overrides, name, file)
        with problems.collect():
            k = cards.lookup(str(name), file=where, line=line, key=key)
            out[k] = _entry(out[k].name, value, where, line, key, base=out[k])
    current = CardSet(out, source=cards.source)
    for name, value in (add or {}).items():
        line = line_of(add, name, lines)
        where = _origin(add, name, file)
        with problems.collect():
            if current.index(str(name)) is not None:
                raise InputError(f"card {show(name)} already exists; change it under overrides",
                                 where, line, f"cards.add.{name}")
            out.append(_entry(name, value, where, line, f"cards.add.{name}"))
            current = CardSet(out, source=cards.source)
    drop = set()
    file, lines = remove_at or (file, lines)
    for i, name in enumerate(remove or []):
        with problems.collect():
            if not isinstance(name, (str, int, float)) or isinstance(name, bool):
                raise InputError(f"expected a card name, found {show(name)}", file,
                                 line_of(remove, i, lines), f"cards.remove[{i}]")
            drop.add(current.lookup(str(name), file=file, line=lines, key=f"cards.remove[{i}]"))
    if own:
        problems.raise_if_any()
    return CardSet([c for i, c in enumerate(out) if i not in drop], source=cards.source)
