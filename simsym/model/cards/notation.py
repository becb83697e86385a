"""The rules' own card notation, e.g. ``1W or 2E; Vintage`` or ``5H; HO, Requires 3+ WC``.

Grammar (case-insensitive, whitespace free)::

    text     := points [sep property]*
    points   := option ("or" option)*
    option   := term ("and" term)*
    term     := INT ("W" ["(" "Worth" INT "W" "for" "Scoring" ")"] | "I" | "H" | "E")
    sep      := ";" | "," | nothing (``1W (Worth 2W for Scoring) Vintage``)
    property := Container | Vintage | WC | MW | IO | HO | NI | NH
              | Social Symposion Only | Intellectual Symposion Only | Hedonistic Symposion Only
              | Requires INT+ WC | Requires INT+ Women | Requires INT+ Wine [Points]
              | Draw INT card[s] when Played [*]
"""

from __future__ import annotations

import re
import unicodedata

from simsym.errors import InputError
from simsym.model.cards.model import Card, Option

MAX_OPTIONS = 4  # alternatives joined by "or"; the kernels' card table has room for this many
MAX_POINTS = 20  # per term; keeps every sum a kernel forms small and exact
MAX_OPTION_POINTS = 100  # one option's points together ("1W and 1E and ..."); the search
# packs sums over a hand into 16-bit lanes (see simsym.core.search_nb)


def option_points(o: Option) -> int:
    """What MAX_OPTION_POINTS bounds: an option's points for scoring, or its printed Wine if
    that is more."""
    return max(o.wine, o.wine_scored + o.intellectual + o.hedonistic + o.either)


class NotationError(InputError):
    pass


_TERM = re.compile(
    r"\s*(?P<n>\d+)\s*(?P<cat>[WIHE])(?![A-Z])"
    r"(?:\s*\(\s*worth\s+(?P<worth>\d+)\s*W\s+for\s+scoring\s*\))?",
    re.IGNORECASE,
)
_AND = re.compile(r"\s*and\b", re.IGNORECASE)
_OR = re.compile(r"\s*or\b", re.IGNORECASE)

_FLAGS = {
    "container": "container",
    "vintage": "vintage",
    "wc": "woman",
    "woman": "woman",
    "mw": "maybe_woman",
    "io": "intellectual_only",
    "intellectual symposion only": "intellectual_only",
    "ho": "hedonistic_only",
    "hedonistic symposion only": "hedonistic_only",
    "ni": "not_intellectual",
    "nh": "not_hedonistic",
    "so": "social_only",
    "social symposion only": "social_only",
}
_REQ = re.compile(
    r"requires\s+(?P<n>\d+)\s*\+\s*(?P<what>wc|women|woman cards?|wine(?:\s+points?)?)$",
    re.IGNORECASE,
)
_DRAW = re.compile(r"draw\s+(?P<n>\d+)\s+cards?\s+when\s+played\s*(?P<star>\*)?$", re.IGNORECASE)

ALLOWED = (
    "points like '2W', '1W or 2E', '1W and 1E', '1W (Worth 2W for Scoring)'; then, separated by "
    "';' or ',', any of: Container, Vintage, WC, MW, IO, HO, NI, NH, Social Symposion Only, "
    "Requires N+ WC, Requires N+ Wine Points, Draw N card when Played*"
)


def _fail(name, text, what, file=None, line=None):
    raise NotationError(
        f"card {name!r}: cannot read {what} in {_short(text)}; allowed: {ALLOWED}",
        file=file, line=line, key=f"cards.{name}",
    )


def _number(digits: str, name, text, file, line, what: str, most: int | None = None) -> int:
    """``int(digits)``, refusing numbers too long to be meant (and too long for int())."""
    significant = digits
    while len(significant) > 1 and unicodedata.decimal(significant[0], None) == 0:
        significant = significant[1:]
    if len(significant) > 18:
        limit = f" (at most {most})" if most is not None else ""
        raise NotationError(f"card {name!r}: {what} too large in {_short(text)}{limit}",
                            file=file, line=line, key=f"cards.{name}")
    return int(significant)


def _short(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:60]) + f"... ({len(text)} characters)"


def _parse_points(name, text, file, line):
    """Parse the leading points expression; return (options, rest of the text)."""
    pos = 0
    options = []
    while True:
        values = dict(wine=0, wine_scored=0, intellectual=0, hedonistic=0, either=0)
        while True:
            m = _TERM.match(text, pos)
            if not m:
                _fail(name, text, f"a point value at {text[pos:].strip()[:20]!r}", file, line)
            n = _number(m["n"], name, text, file, line, "point value", MAX_POINTS)
            worth = m["worth"]
            cat = m["cat"].upper()
            if worth is not None:
                worth = str(_number(worth, name, text, file, line, "point value", MAX_POINTS))
            if n > MAX_POINTS or (worth and int(worth) > MAX_POINTS):
                raise NotationError(
                    f"card {name!r}: point value too large in {_short(text)} "
                    f"(at most {MAX_POINTS})",
                    file=file, line=line, key=f"cards.{name}")
            if worth is not None and cat != "W":
                _fail(name, text, "'(Worth ... for Scoring)' after a non-Wine value", file, line)
            if cat == "W":
                values["wine"] += n
                values["wine_scored"] += int(worth) if worth is not None else n
            else:
                values[{"I": "intellectual", "H": "hedonistic", "E": "either"}[cat]] += n
            pos = m.end()
            a = _AND.match(text, pos)
            if not a:
                break
            pos = a.end()
        option = Option(**values)
        if option_points(option) > MAX_OPTION_POINTS:
            raise NotationError(
                f"card {name!r}: one option's points add up to {option_points(option)} in "
                f"{_short(text)} (at most {MAX_OPTION_POINTS} for one option)",
                file=file, line=line, key=f"cards.{name}")
        options.append(option)
        o = _OR.match(text, pos)
        if not o:
            break
        pos = o.end()
    if len(options) > MAX_OPTIONS:
        raise NotationError(f"card {name!r}: {len(options)} alternatives in {_short(text)}; "
                            f"at most {MAX_OPTIONS}", file=file, line=line, key=f"cards.{name}")
    return tuple(options), text[pos:]


def parse_notation(name: str, text: str, copies: int = 1, *, file: str | None = None,
                   line: int | None = None) -> Card:
    """Parse one card's notation into a :class:`Card`; a clear error names what it could not
    read."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"card {name!r}: empty notation; allowed: {ALLOWED}",
                            file=file, line=line, key=f"cards.{name}")
    options, rest = _parse_points(name, text, file, line)
    props: dict = {}
    for raw in re.split(r"[;,]", rest):
        token = " ".join(raw.split())
        if not token:
            continue
        low = token.lower()
        if low in _FLAGS:
            props[_FLAGS[low]] = True
            continue
        m = _REQ.match(token)
        if m:
            key = "requires_wine" if m["what"].lower().startswith("wine") else "requires_women"
            props[key] = _number(m["n"], name, text, file, line, "requirement")
            continue
        m = _DRAW.match(token)
        if m:
            props["draws"] = _number(m["n"], name, text, file, line, "number of draws")
            props["draw_usable"] = bool(m["star"])
            continue
        _fail(name, text, f"the property {token!r}", file, line)
    if props.get("woman") and props.get("maybe_woman"):
        _fail(name, text, "both WC and MW", file, line)
    exclusive = [k for k in ("intellectual_only", "hedonistic_only", "social_only") if props.get(k)]
    if len(exclusive) > 1:
        _fail(name, text, "more than one of IO, HO, Social Symposion Only", file, line)
    return Card(name=name, text=text, options=options, copies=copies, **props)
