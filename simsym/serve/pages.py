"""The workbench's pages: the Jinja2 templates, what they are rendered with, and the words
they show (the verdict's headline, why the play stopped, a scenario's tables)."""

from __future__ import annotations

from pathlib import Path

from fastapi import Request
from fastapi.templating import Jinja2Templates

from simsym.errors import SimsymError
from simsym.model.scenario import JUDGE_ROLES, Scenario, table_words
from simsym.serve.session import get_session

HERE = Path(__file__).resolve().parent


def _pct(x):
    return "\u2013" if x is None else f"{100 * x:.1f}"


def _pp(x):
    return "\u2013" if x is None else f"{100 * x:+.1f}"


def _subject(metric: str) -> tuple[str, str]:
    """The tested metric in words: (what, its unit's words)."""
    kind, _, name = metric.partition(":")
    if metric == "seat-gap":
        return "the seat gap", "best minus worst seat's win share"
    if kind == "seat":
        return f"seat {name}", "win share"
    return name, {"card": "strength against the table's average", "gih": "GIH win rate",
                  "iwd": "raw IWD", "play": "play rate"}[kind]


def verdict_text(look: dict | None, finished: bool) -> str:
    """The headline, first thing on the result: the tested metric's change B - A with its
    interval, judged by the one rule (the Holm-corrected paired test over every change the
    comparison tests), as compare.md and the API judge it."""
    if look is None:
        return "playing the first blocks\u2026"
    r = look.get("subject")
    if not r or r.get("diff") is None:
        return f"no estimate yet ({look['games']:,} games each)"
    what, unit = _subject(look["metric"])
    change = (f"{_pp(r['diff'])} pp ({_pp(r['lo'])} to {_pp(r['hi'])})")
    if look["metric"].startswith("card:"):
        return (f"{what}: {unit} {_pp(r['A'])} \u2192 {_pp(r['B'])} pp, a change of "
                f"{change}: {r['words']}")
    return f"{what} ({unit}): a change of {change}: {r['words']}"


def stop_text(look: dict | None, finished: bool) -> str:
    """Why the play stopped (or goes on): the sequential test, which chooses when to stop;
    the verdict is the headline's."""
    if look is None:
        return ""
    d = f"{100 * look['delta']:g} pp"
    v = look["verdict"]
    said = {"greater": f"it found a rise of at least {d}",
            "less": f"it found a fall of at least {d}",
            "no-change": f"it found no change of {d}"}.get(v)
    if said:
        return (f"Stopped after {look['games']:,} games each: the sequential test on "
                f"{look['metric']} decided ({said}).")
    if finished:
        return (f"Stopped at the cap ({look['games']:,} games each): the sequential test on "
                f"{look['metric']} could not tell a change of {d} from none.")
    return f"Playing on: the sequential test on {look['metric']} has not decided yet."


def tables_text(sc: Scenario) -> str:
    """A checked scenario's tables, for the problems box: its judges, or its strategies."""
    if sc.judges:
        return "judged by " + " and ".join(f"{sc.judges[r].label} ({r})"
                                           for r in reversed(JUDGE_ROLES))
    return "strategies " + ", ".join(s.label for s in sc.strategies)


templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals.update(pct=_pct, pp=_pp, verdict_text=verdict_text, stop_text=stop_text,
                             table_words=table_words, tables_text=tables_text,
                             roles=JUDGE_ROLES)


def page(request: Request, template: str, status: int = 200, **ctx):
    """``template`` rendered for ``request``, with the session as ``s``."""
    return templates.TemplateResponse(request, template,
                                      {"s": get_session(request), **ctx},
                                      status_code=status)


def problem_lines(e: SimsymError) -> list[str]:
    """An error's lines for the problems box (one a problem of an input error)."""
    errors = getattr(e, "errors", None) or [e]
    return [x.format() if hasattr(x, "format") else str(x) for x in errors]
