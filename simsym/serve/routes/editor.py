"""The variant editor: the page, validation as you type, a variant of the history loaded
back into the form."""

from __future__ import annotations

from dataclasses import fields

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from simsym.model.rules import RuleOptions
from simsym.model.scenario import PLAYERS, SEATINGS
from simsym.serve import variant as V
from simsym.serve.forms import DEFAULT_BLOCK, DEFAULT_DELTA, DEFAULT_MAX_GAMES
from simsym.serve.pages import page
from simsym.serve.session import Session, get_session

router = APIRouter()


def _rule_fields():
    """Each rule option for the side panel: name, doc, and its input (a choice or text)."""
    out = []
    for f in fields(RuleOptions):
        m = f.metadata
        choices = m.get("choices") or (("true", "false") if isinstance(f.default, bool)
                                       else None)
        out.append({"name": f.name, "doc": m.get("doc", ""), "choices": choices})
    return out


def form_ctx(session: Session, variant: V.Variant, checked: V.Checked) -> dict:
    base = session.base
    return {"f": variant.fields, "checked": checked,
            "categories": V.categories(base, checked), "rules": _rule_fields(),
            "seatings": SEATINGS, "players": range(PLAYERS[0], PLAYERS[1] + 1),
            "defaults": {"delta": DEFAULT_DELTA, "max_games": DEFAULT_MAX_GAMES,
                         "seed": base.seed, "block": DEFAULT_BLOCK, "metric": ""}}


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, session: Session = Depends(get_session)):
    v = V.Variant(V.base_fields(session.base))
    return page(request, "index.html", **form_ctx(session, v, V.check(session.base, v)))


@router.post("/validate", response_class=HTMLResponse)
async def validate(request: Request, session: Session = Depends(get_session)):
    v = V.Variant.from_form(session.base, await request.form())
    checked = V.check(session.base, v)
    return page(request, "_validate.html", **form_ctx(session, v, checked))


@router.get("/variants/{vid}", response_class=HTMLResponse)
async def load_variant(request: Request, vid: int, session: Session = Depends(get_session)):
    e = session.entry_at(vid)
    return page(request, "_form.html",
                **form_ctx(session, e.variant, V.check(session.base, e.variant)))
