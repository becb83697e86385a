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

from simsym.errors import InputError, closest
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

LETTERS = ("W (Wine), I (Intellectual), H (Hedonistic), E (Either: I or H, the player's "
           "choice)")
POINTS = (f"a point value is a number and a letter; allowed letters: {LETTERS}; values are "
          "joined by 'and' (the card gives both) or 'or' (the player picks one)")
PROPERTIES = ("Container, Vintage, WC (a Woman card), MW (may be a Woman), IO (Intellectual "
              "Symposion only), HO (Hedonistic Symposion only), NI (not in an Intellectual "
              "Symposion), NH (not in a Hedonistic one), Social Symposion Only, Requires N+ WC, "
              "Requires N+ Wine Points, Draw N card when Played (a * after it: the drawn card "
              "may join the same Symposion)")
ALLOWED_PROPERTIES = f"allowed after the points, separated by ';' or ',': {PROPERTIES}"
EXAMPLE = "1W or 2E; Vintage"  # when nothing closer to what was written reads
# The properties' own words, for the closest match to one misspelt.
_PROPERTY_NAMES = ("Container", "Vintage", "WC", "MW", "IO", "HO", "NI", "NH",
                   "Social Symposion Only", "Intellectual Symposion Only",
                   "Hedonistic Symposion Only")
_HINTS = {"io": "I", "intellectual symposion only": "I", "ho": "H", "nh": "I", "ni": "H",
          "hedonistic symposion only": "H", "vintage": "W", "container": "W"}


class _Bad(Exception):
    """What the parser could not read (``what``), what is accepted there, and texts close to
    the one written that might read (the first that does is the message's example)."""

    def __init__(self, what: str, accepted: str, fixes=()):
        super().__init__(what)
        self.what, self.accepted, self.fixes = what, accepted, list(fixes)


def _short(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:60]) + f"... ({len(text)} characters)"


def _number(digits: str, what: str, most: int | None, fix: str) -> int:
    """``int(digits)``, refusing numbers too long to be meant (and too long for int())."""
    significant = digits
    while len(significant) > 1 and unicodedata.decimal(significant[0], None) == 0:
        significant = significant[1:]
    if len(significant) > 18:
        limit = (f"each {what} is at most {most}" if most is not None
                 else f"a {what} is a small whole number")
        raise _Bad(f"{what} too large", limit, [fix])
    return int(significant)


def _spliced(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _without(text: str, start: int, end: int) -> str:
    """``text`` without ``text[start:end]`` (a property) and the separator before it (or,
    for the first property, after it)."""
    j = start
    while j > 0 and text[j - 1].isspace():
        j -= 1
    if j > 0 and text[j - 1] in ";,":
        return (text[:j - 1] + text[end:]).strip()
    k = end
    while k < len(text) and text[k].isspace():
        k += 1
    if k < len(text) and text[k] in ";,":
        k += 1
    return (text[:start] + text[k:].lstrip()).strip()


def _letter_fixes(text: str, typed: str) -> list[str]:
    """The letters to try for a point value written with ``typed`` (its first letter when it
    is one; else the one the card's properties suggest; then every letter)."""
    out = []
    if typed and typed[0].upper() in "WIHE":
        out.append(typed[0].upper())
    for token in re.split(r"[;,]", text):
        hint = _HINTS.get(" ".join(token.split()).lower())
        if hint:
            out.append(hint)
    return list(dict.fromkeys(out + ["W", "I", "H", "E"]))


def _term_fixes(text: str, pos: int) -> tuple[str, list[str]]:
    """The unreadable point value at ``pos``: its words for the message, and texts close to
    ``text`` that might read."""
    seg = text[pos:]
    lead = len(seg) - len(seg.lstrip())
    at = pos + lead
    seg = seg.lstrip()
    if not seg:
        last = re.search(r"(\w+)\s*$", text[:pos])
        joined = last[1] if last else ""
        return (f"a point value is missing after {joined!r}",
                [text[:last.start()].strip() if last else "", f"{text.strip()} 1E"])
    m = re.match(r"(\d+)\s*([^\W\d_]*)", seg)
    token = re.match(r"[^;,]*", seg)[0].strip()[:20] or seg[:20]
    if m:
        n, typed = m[1], m[2]
        end = at + m.end()
        return (f"cannot read a point value at {m[0].strip()!r}",
                [_spliced(text, at, end, f"{n}{c}") for c in _letter_fixes(text, typed)])
    word = re.match(r"[^\W\d_]+", seg)
    if word:
        w = word[0]
        if w[0].upper() in "WIHE" and len(w) == 1:
            return (f"cannot read a point value at {token!r} (its number comes first, as in "
                    f"'1{w.upper()}')", [_spliced(text, at, at, "1")])
        return (f"no point value before {token!r} (the points come first)",
                [_spliced(text, at, at, f"1{c}; ") for c in _letter_fixes(text, "")])
    junk = re.match(r"[^\w;,]+", seg)  # a sign or a stray character before the number
    return (f"cannot read a point value at {token!r}",
            [_spliced(text, at, at + junk.end(), "")] if junk else [])


def _parse_points(text):
    """Parse the leading points expression; return (options, rest of the text)."""
    pos = 0
    options = []
    ends = []  # where each option ends, for an example with fewer of them
    while True:
        values = dict(wine=0, wine_scored=0, intellectual=0, hedonistic=0, either=0)
        term_ends = []
        while True:
            m = _TERM.match(text, pos)
            if not m:
                what, fixes = _term_fixes(text, pos)
                raise _Bad(what, POINTS, fixes)
            n = _number(m["n"], "point value", MAX_POINTS,
                        _spliced(text, m.start("n"), m.end("n"), str(MAX_POINTS)))
            worth = m["worth"]
            cat = m["cat"].upper()
            if worth is not None:
                worth = str(_number(worth, "point value", MAX_POINTS,
                                    _spliced(text, m.start("worth"), m.end("worth"),
                                             str(MAX_POINTS))))
            if n > MAX_POINTS or (worth and int(worth) > MAX_POINTS):
                fix = text
                for g in ("worth", "n"):  # right to left, so the spans stay put
                    if m[g] is not None and int(m[g]) > MAX_POINTS:
                        fix = _spliced(fix, m.start(g), m.end(g), str(MAX_POINTS))
                raise _Bad(f"point value too large (at most {MAX_POINTS})",
                           f"each point value is at most {MAX_POINTS}", [fix])
            if worth is not None and cat != "W":
                raise _Bad("'(Worth ... for Scoring)' after a non-Wine value",
                           "'(Worth NW for Scoring)' follows a Wine value only, as in "
                           "'1W (Worth 2W for Scoring)'",
                           [_spliced(text, m.start("cat"), m.end("cat"), "W"),
                            _spliced(text, m.end("cat"), m.end(), "")])
            if cat == "W":
                values["wine"] += n
                values["wine_scored"] += int(worth) if worth is not None else n
            else:
                values[{"I": "intellectual", "H": "hedonistic", "E": "either"}[cat]] += n
            pos = m.end()
            term_ends.append(pos)
            a = _AND.match(text, pos)
            if not a:
                break
            pos = a.end()
        option = Option(**values)
        if option_points(option) > MAX_OPTION_POINTS:
            fixes = [text[:term_ends[k]] + text[pos:]
                     for k in range(len(term_ends) - 2, -1, -1)]
            raise _Bad(f"one option's points add up to {option_points(option)}",
                       f"one option's points add up to at most {MAX_OPTION_POINTS}", fixes)
        options.append(option)
        ends.append(pos)
        o = _OR.match(text, pos)
        if not o:
            break
        pos = o.end()
    if len(options) > MAX_OPTIONS:
        raise _Bad(f"{len(options)} alternatives", f"at most {MAX_OPTIONS} alternatives joined "
                   "by 'or'", [text[:ends[MAX_OPTIONS - 1]] + text[pos:]])
    return tuple(options), text[pos:]


def _property_fixes(text: str, token: str, start: int, end: int) -> list[str]:
    low = token.lower()
    names = list(_PROPERTY_NAMES)
    digits = re.search(r"\d+", token)
    n = digits[0] if digits else "1"
    if low.startswith("req"):
        names = [f"Requires {n}+ WC", f"Requires {n}+ Wine Points"]
    elif low.startswith("draw"):
        names = [f"Draw {n} card when Played*", f"Draw {n} card when Played"]
    near = closest(token, names)
    return [*(_spliced(text, start, end, c) for c in near), _without(text, start, end)], near


def _properties(text: str, rest: str) -> dict:
    props: dict = {}
    found: dict = {}  # property: (start, end) in text, for an example without it
    offset = len(text) - len(rest)
    for part in re.finditer(r"[^;,]+", rest):
        raw = part[0]
        token = " ".join(raw.split())
        if not token:
            continue
        start = offset + part.start() + len(raw) - len(raw.lstrip())
        end = offset + part.start() + len(raw.rstrip())
        low = token.lower()
        if low in _FLAGS:
            props[_FLAGS[low]] = True
            found[_FLAGS[low]] = (start, end)
            continue
        m = _REQ.match(token)
        if m:
            key = "requires_wine" if m["what"].lower().startswith("wine") else "requires_women"
            props[key] = _number(m["n"], "requirement", None,
                                 _spliced(text, start, end, re.sub(r"\d+", "3", token, 1)))
            continue
        m = _DRAW.match(token)
        if m:
            props["draws"] = _number(m["n"], "number of draws", None,
                                     _spliced(text, start, end, re.sub(r"\d+", "1", token, 1)))
            props["draw_usable"] = bool(m["star"])
            continue
        fixes, near = _property_fixes(text, token, start, end)
        mean = (" (did you mean " + " or ".join(repr(x) for x in near) + "?)") if near else ""
        raise _Bad(f"cannot read the property {token!r}{mean}", ALLOWED_PROPERTIES, fixes)
    if props.get("woman") and props.get("maybe_woman"):
        raise _Bad("both WC and MW", "a card is a Woman (WC) or may be one (MW), not both",
                   [_without(text, *found["maybe_woman"]), _without(text, *found["woman"])])
    exclusive = [k for k in ("intellectual_only", "hedonistic_only", "social_only") if props.get(k)]
    if len(exclusive) > 1:
        fix = text
        for k in sorted(exclusive[1:], key=lambda k: -found[k][0]):  # right to left
            fix = _without(fix, *found[k])
        raise _Bad("more than one of IO, HO, Social Symposion Only",
                   "at most one of IO, HO, Social Symposion Only", [fix])
    return props


def _read(text: str):
    """The options and properties of ``text``; raises _Bad."""
    if not isinstance(text, str) or not text.strip():
        raise _Bad("empty notation", f"write the points first ({POINTS}), then any "
                   "properties", [])
    options, rest = _parse_points(text)
    return options, _properties(text, rest)


def _reads(text: str) -> bool:
    try:
        _read(text)
    except _Bad:
        return False
    return True


def example(fixes) -> str:
    """The first of ``fixes`` that reads, else a plain valid notation."""
    return next((f for f in fixes if f and _reads(f)), EXAMPLE)


def parse_notation(name: str, text: str, copies: int = 1, *, file: str | None = None,
                   line: int | None = None) -> Card:
    """Parse one card's notation into a :class:`Card`; a clear error says what it could not
    read, what is accepted there, and a valid notation close to the one written."""
    try:
        options, props = _read(text)
    except _Bad as bad:
        shown = f" in {_short(text)}" if isinstance(text, str) and text.strip() else ""
        raise NotationError(f"card {name!r}: {bad.what}{shown}; {bad.accepted}; e.g. "
                            f"{example(bad.fixes)!r}", file=file, line=line,
                            key=f"cards.{name}") from None
    return Card(name=name, text=text, options=options, copies=copies, **props)
