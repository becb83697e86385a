"""PyYAML's syntax errors in a designer's words: what is wrong, the line and column, a hint.

PyYAML reports what its parser expected (``expected <block end>, but found '<block mapping
start>'``); :func:`explain` turns that into the mistake a person makes when editing a file by
hand -- a key indented unlike its siblings, a tab, a quote or a bracket never closed, text
after a closing quote -- with the offending line's text. What it does not recognise is still
said without PyYAML's token names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from simsym.errors import show

_TOKENS = {  # PyYAML's token names, as a reader sees them
    "<block end>": "the end of an indented block",
    "<block mapping start>": "a key",
    "<block sequence start>": "a list item",
    "<scalar>": "a value",
    "<stream end>": "the end of the file",
    "<document start>": "the start of the file",
    "<document end>": "the end of the document ('...')",
    "<directive>": "a directive ('%')",
    "<alias>": "an alias ('*name')",
    "<anchor>": "an anchor ('&name')",
    "<tag>": "a tag ('!name')",
    "?": "a key",
    "-": "a list item ('-')",
}
_OPEN = {yaml.FlowSequenceStartToken: ("list", "[", "]"),
         yaml.FlowMappingStartToken: ("mapping", "{", "}")}
_CLOSE = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)
_FOUND = re.compile(r"(?:but found|but got) (?P<what>.+)$")
_INDENT_HINT = ("the keys of one mapping, and the items of one list, start in the same "
                "column")


@dataclass
class Plain:
    """A syntax error explained: the line to report (1-based), and the sentence."""

    line: int | None
    message: str


def explain(e: yaml.MarkedYAMLError, text: str, whole: str = "the file") -> Plain:
    """``e`` (raised reading ``text``) as a plain sentence naming the line and column;
    ``whole``: what the text is, for the mistakes that run to its end."""
    lines = text.splitlines() or [""]
    mark = e.problem_mark or e.context_mark
    problem = str(e.problem or "")
    context = str(e.context or "")
    found = _FOUND.search(problem)
    what = found["what"].strip("'") if found else ""
    for rule in (_tab, _bad_start, _quote, _flow, _extra_closer, _after_quote, _indentation,
                 _two_keys, _dash_after_key, _no_colon, _other_constructs):
        out = rule(e, text, lines, mark, problem, context, what, whole)
        if out is not None:
            return out
    return _fallback(lines, mark, problem, context, whole)


# --- the rules, most specific first: each returns a Plain or None ----------------------------

def _tab(e, text, lines, mark, problem, context, what, whole):
    if "'\\t'" not in problem or mark is None:
        return None
    row = _line(lines, mark.line)
    col = mark.column
    if not row[:col].strip():
        return _say(lines, mark.line, f"a tab character at column {col + 1} indents this line; "
                    "YAML indents with spaces only: replace the tab with spaces")
    return _say(lines, mark.line, f"a tab character at column {col + 1}; YAML allows only "
                "spaces after a key's ':' or a list's '-': replace the tab with a space")


def _bad_start(e, text, lines, mark, problem, context, what, whole):
    """A value starting with a character YAML keeps for itself (@, `, %, |, >, *, &, ',')."""
    m = re.match(r"found character '(.+)' that cannot start any token", problem)
    at = mark
    if m:
        char = m[1]
    elif context in ("while scanning a block scalar", "while scanning an alias",
                     "while scanning an anchor", "while scanning a tag") and e.context_mark:
        at = e.context_mark
        char = text[at.index:at.index + 1]
    elif what == "," and ("<block end>" in problem or "node content" in problem):
        char = ","
    else:
        return None
    if at is None:
        return None
    return _say(lines, at.line, f"a value cannot start with {char!r} (column {at.column + 1}) "
                f"unless it is in quotes: write it as \"{char}...\"")


def _quote(e, text, lines, mark, problem, context, what, whole):
    """A quote never closed, or a backslash escape double quotes do not know."""
    if "quoted scalar" not in context or e.context_mark is None:
        return None
    start = e.context_mark
    if "escape" in problem:
        return _say(lines, mark.line, f"the backslash escape near column {mark.column + 1} is "
                    "not one YAML knows in double quotes: write '\\\\' for a backslash, or "
                    "use single quotes ('...')")
    if "end of stream" in problem or "document separator" in problem:
        return _unclosed_quote(lines, start.line, start.column, text[start.index])
    return None


def _unclosed_quote(lines, line, column, quote) -> Plain:
    return _say(lines, line, f"the quote {quote} opened at column {column + 1} is never "
                f"closed: end the text with {quote} on the same line")


def _flow(e, text, lines, mark, problem, context, what, whole):
    """Inside [...] or {...}: one never closed, a ',' missing, or closed by the other kind."""
    if mark is None or ("flow" not in context and what not in ("<stream end>", "<document start>")
                        and not problem.startswith("expected the node content")):
        return None
    opened = _open_flows(text, mark.index)
    if not opened:
        return None
    token = opened[-1]
    kind, left, right = _OPEN[type(token)]
    at = token.start_mark
    where = f"the {kind} {left} opened at column {at.column + 1}"
    if what in ("]", "}") and what != right:
        return _say(lines, mark.line, f"{where} of line {at.line + 1} is closed with {what} at "
                    f"column {mark.column + 1}: close it with {right}")
    if mark.line == at.line and what in (":", "<scalar>", "[", "{"):
        return _say(lines, mark.line, f"a ',' is missing between two items of {where} (near "
                    f"column {mark.column + 1}): separate its items with ', '")
    still = (f"{whole} ends inside it" if what == "<stream end>"
             else f"line {mark.line + 1} is still read as inside it")
    return _say(lines, at.line, f"{where} is never closed ({still}): end it with {right} after "
                "its last item, items separated by ','")


def _extra_closer(e, text, lines, mark, problem, context, what, whole):
    if what not in ("]", "}") or mark is None:
        return None
    left = "[" if what == "]" else "{"
    return _say(lines, mark.line, f"the {what} at column {mark.column + 1} closes nothing: "
                f"remove it, or open the list or mapping with {left}")


def _after_quote(e, text, lines, mark, problem, context, what, whole):
    """Text right after a closing quote, or a quote closed by the next value's opening one."""
    if not isinstance(e, yaml.parser.ParserError) or mark is None:
        return None
    before = [t for t in _tokens(text) if t.start_mark.index < mark.index]
    if not before:
        return None
    q = before[-1]
    if isinstance(q, _CLOSE) and q.end_mark.line == mark.line:
        return _say(lines, mark.line, f"text after the closing {text[q.start_mark.index]} at "
                    f"column {q.start_mark.column + 1}: a list or mapping in brackets ends "
                    "there; put the text inside it, or on a line of its own")
    if not isinstance(q, yaml.ScalarToken) or q.style not in ("'", '"'):
        return None
    if q.end_mark.line != mark.line:
        return None
    if q.start_mark.line != q.end_mark.line:
        return _unclosed_quote(lines, q.start_mark.line, q.start_mark.column, q.style)
    tip = ("to use ' inside single quotes write it twice ('it''s'), or quote the whole "
           "value with \"...\"") if q.style == "'" else "put the whole value inside the quotes"
    return _say(lines, mark.line, f"text after the closing quote {q.style} at column "
                f"{q.end_mark.column}: a quoted value ends at its closing quote; {tip}")


def _indentation(e, text, lines, mark, problem, context, what, whole):
    """A line that lines up with no line above it, or a key among list items (or the
    other way round)."""
    if mark is None or not (problem.startswith("expected <block end>")
                            or problem.startswith("expected '<document start>'")):
        return None
    row = _line(lines, mark.line)
    col = len(row) - len(row.lstrip(" "))
    above = _open_columns(lines, mark.line)
    me = _head(row)
    if col not in [c for c, _ in above]:
        around = ", ".join(f"{name} at column {c + 1}" for c, name in above[:3])
        return _say(lines, mark.line, f"{me} at column {col + 1} lines up with no line above it"
                    + (f" ({around})" if around else "") + f": {_INDENT_HINT}; indent it "
                    "like the one it belongs beside")
    sibling = next(name for c, name in above if c == col)
    item, among_items = me.startswith("'-"), sibling.startswith("'-")
    if what in ("?", "<block mapping start>") and among_items and not item:
        return _say(lines, mark.line, f"the key {me} at column {col + 1} is among list items "
                    f"({sibling}): a list holds items ('- ...'), a mapping keys; indent the "
                    "key under its item, or start it with '- '")
    if what in ("-", "<block sequence start>") and item and not among_items:
        return _say(lines, mark.line, f"the list item {me} at column {col + 1} is among keys "
                    f"({sibling}): put the list under its key, indented (key: then '  - item')")
    prev = _previous(lines, mark.line)
    if prev is not None and not re.match(r"\s*(- |-$|[^:]*:(\s|$))", lines[prev]):
        return _say(lines, prev, f"{show(lines[prev].strip(), 40)} is neither 'key: value' "
                    "nor a list item ('- ...'): a key needs ': ' (a colon, then a space) before"
                    " its value")
    return None


def _two_keys(e, text, lines, mark, problem, context, what, whole):
    """'mapping values are not allowed here': a ': ' where a value was being read."""
    if "mapping values are not allowed" not in problem or mark is None:
        return None
    row = _line(lines, mark.line)
    col = mark.column
    if re.search(r":(\s|$)", row[:col]):
        return _say(lines, mark.line, f"a second ':' at column {col + 1} on one line: a value "
                    "cannot hold 'key: value' unless it is in quotes; put each key on a line of"
                    " its own (a mapping's keys indented under its key), or quote the value")
    prev = _previous(lines, mark.line)
    me = _head(row)
    if prev is not None:
        prow = lines[prev]
        pcol = len(prow) - len(prow.lstrip(" "))
        col0 = len(row) - len(row.lstrip(" "))
        key, sep, value = prow.strip().removeprefix("- ").partition(":")
        if sep and value.strip() and col0 > pcol:
            return _say(lines, mark.line, f"{me} at column {col0 + 1} is indented more than "
                        f"'{key.strip()}' on line {prev + 1}, which has a value of its own: "
                        f"{_INDENT_HINT}; indent it like '{key.strip()}', or give "
                        f"'{key.strip()}' no value to nest keys under it")
        if not sep or not re.search(r":(\s|$)", prow):
            return _say(lines, prev, f"{show(prow.strip(), 40)} is not 'key: value': a key "
                        "needs ': ' (a colon, then a space) before its value")
    return _say(lines, mark.line, f"a ':' at column {col + 1} where a value was being read: "
                f"{_INDENT_HINT}; quote a value that holds ': '")


def _dash_after_key(e, text, lines, mark, problem, context, what, whole):
    if "sequence entries are not allowed here" not in problem or mark is None:
        return None
    return _say(lines, mark.line, f"a list item '- ' at column {mark.column + 1} on its key's "
                "line: put each item on a line of its own below the key, indented ('  - a'), "
                "or write the list as [a, b]")


def _no_colon(e, text, lines, mark, problem, context, what, whole):
    if "could not find expected ':'" not in problem or e.context_mark is None:
        return None
    line = e.context_mark.line
    return _say(lines, line, f"{show(_line(lines, line).strip(), 40)} is neither 'key: value' "
                "nor a list item ('- ...'): a key needs ': ' (a colon, then a space) before its "
                "value")


def _other_constructs(e, text, lines, mark, problem, context, what, whole):
    if mark is None:
        return None
    m = re.match(r"found undefined alias '(.*)'", problem)
    if m:
        return _say(lines, mark.line, f"'*{m[1]}' at column {mark.column + 1} names no anchor "
                    f"'&{m[1]}' above it: a value that starts with '*' must be in quotes")
    m = re.search(r"constructor for the tag '(?:tag:yaml\.org,2002:)?(.*)'", problem)
    if m:
        return _say(lines, mark.line, f"the tag '!!{m[1]}' at column {mark.column + 1} is not "
                    "read here: a file holds plain values (text, numbers, true/false, lists, "
                    "mappings); remove the tag, or quote a value that starts with '!'")
    if "single document" in context:
        return _say(lines, mark.line, "a second document starts here ('---'): a file holds "
                    "one; remove the '---' line and what follows it, or merge the two")
    return None


def _fallback(lines, mark, problem, context, whole) -> Plain:
    text = problem or context or "unreadable text"
    for token, words in _TOKENS.items():
        text = text.replace(f"'{token}'", words).replace(token, words)
    text = text.replace("but got", "but found")
    if mark is None:
        return Plain(None, f"YAML cannot read {whole}: {text}")
    return _say(lines, mark.line, f"YAML cannot read column {mark.column + 1}: {text}")


# --- helpers ---------------------------------------------------------------------------------

def _say(lines, line: int, message: str) -> Plain:
    """``message`` at the 0-based ``line``, ending with the line's text."""
    row = _line(lines, line).rstrip("\r")
    if row.strip():
        message += f"; the line reads {show(row, 80)}"
    return Plain(line + 1, message)


def _line(lines, i: int) -> str:
    return lines[i] if 0 <= i < len(lines) else ""


def _significant(row: str) -> bool:
    s = row.strip()
    return bool(s) and not s.startswith("#") and s != "---" and not s.startswith("%")


def _previous(lines, i: int) -> int | None:
    for j in range(i - 1, -1, -1):
        if _significant(lines[j]):
            return j
    return None


def _head(row: str) -> str:
    """How a line is named in a message: its key ('games'), or its item ('- random')."""
    s = row.strip()
    key, sep, _ = s.partition(": ") if ": " in s else s.partition(":")
    if s.startswith("- "):
        return f"'- {_head(s[2:]).strip(chr(39))}'"
    if sep or s.endswith(":"):
        return f"'{key.rstrip(':').strip()}'"
    return show(s, 30)


def _open_columns(lines, i: int) -> list[tuple[int, str]]:
    """The columns a line after line ``i - 1`` may start at, nearest first, each with the name
    of the line that opened it: the line above, then each line above with less indentation
    (a list item '- key: v' opens the dash's column and the key's)."""
    out: list[tuple[int, str]] = []
    limit = None
    for j in range(i - 1, -1, -1):
        row = lines[j]
        if not _significant(row):
            continue
        col = len(row) - len(row.lstrip(" "))
        if limit is not None and col >= limit:
            continue
        cols = []
        s = row.strip()
        at = col
        while s.startswith("- "):  # '- a: 1': the item's column, then its key's
            cols.append((at, f"'- {_head(s[2:]).strip(chr(39))}'"))
            rest = s[2:]
            at += 2 + len(rest) - len(rest.lstrip(" "))
            s = rest.strip()
            if not re.search(r":(\s|$)", s):  # '- greedy': nothing nests in a plain item
                s = ""
        if s:
            cols.append((at, _head(s)))
        for c, name in reversed(cols):
            if limit is None or c < limit:
                out.append((c, name))
                limit = c
        if limit == 0:
            break
    return out


def _tokens(text: str) -> list:
    """The tokens PyYAML's scanner reads from ``text`` before its first error."""
    loader = yaml.SafeLoader(text)
    out = []
    try:
        while loader.check_token():
            out.append(loader.get_token())
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return out


def _open_flows(text: str, index: int) -> list:
    """The '[' and '{' tokens still open at ``index``, outermost first."""
    stack = []
    for t in _tokens(text):
        if t.start_mark.index >= index:
            break
        if type(t) in _OPEN:
            stack.append(t)
        elif isinstance(t, _CLOSE) and stack:
            stack.pop()
    return stack
