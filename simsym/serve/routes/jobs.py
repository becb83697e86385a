"""The jobs: a variant played against the base (or two variants against each other) until
the sequential test decides, the tables' warm-up, the judge the page picks, and a job's
panel, its progress as server-sent events and its plots."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from simsym.errors import InputError, SimsymError
from simsym.model.scenario import Scenario, table_name
from simsym.serve import variant as V
from simsym.serve.forms import DEFAULT_BLOCK, DEFAULT_DELTA, DEFAULT_MAX_GAMES, whole_number
from simsym.serve.jobs import JobSpec
from simsym.serve.pages import page, templates
from simsym.serve.session import Entry, Session, get_session, role_of

router = APIRouter()


def judged_under(a: Scenario, b: Scenario) -> str:
    """The table that judged a comparison, as every verdict names it: "under learned players
    (strong table)"; both when A and B are played by different tables."""
    if table_name(a) == table_name(b):
        return f"under {table_name(a)}"
    return f"A under {table_name(a)}, B under {table_name(b)}"


def default_metric(a: Scenario, b: Scenario) -> str:
    """The metric a comparison follows when the form names none: the strength (IWD minus the
    table's average) of the one card whose notation or copies changed, else the seat gap."""
    changed = [c.name for c in b.cards
               if a.cards.index(c.name) is not None
               and (a.cards[a.cards.index(c.name)].text, a.cards[a.cards.index(c.name)].copies)
               != (c.text, c.copies)]
    return f"card:{changed[0]}" if len(changed) == 1 else "seat-gap"


def _scenario_of(base: Scenario, e: Entry) -> Scenario:
    checked = V.check(base, e.variant)
    if checked.scenario is None:  # pragma: no cover - only checked variants enter the history
        raise InputError("; ".join(checked.problems))
    checked.scenario.name = f"variant {e.id}" if e.id else base.name
    return checked.scenario


def _picked(session: Session, form) -> str:
    """The judge the form picked (remembered for the page), else the page's current."""
    session.judge = role_of(form.get("judge") or session.judge)
    if session.manager is not None:
        session.manager.warm_order(session.judge)
    return session.judge


def _spec_of(session: Session, form, a: Scenario, b: Scenario, title: str) -> JobSpec:
    from simsym.studies.sequential import parse_delta, parse_metric

    role = _picked(session, form)
    a, b = a.judge(role), b.judge(role)  # one table each: the judge's (the same deals)
    metric = (form.get("metric") or "").strip() or default_metric(a, b)
    delta = parse_delta(form.get("delta") or DEFAULT_DELTA,
                        parse_metric(metric, a, b))  # a clear error now, not in the worker
    seed = whole_number(form.get("seed"), "seed", session.base.seed, 0, 2**63 - 1)
    cap = whole_number(form.get("max_games"), "max games", DEFAULT_MAX_GAMES, 1, 10**9)
    block = whole_number(form.get("block"), "block", DEFAULT_BLOCK, 1, 10**6)
    return JobSpec(a, b, metric, delta, seed, cap, block, session.jobs, title,
                   judged_under(a, b))


def _start(request, session: Session, spec: JobSpec, entry: Entry | None):
    if session.manager is None:
        raise SimsymError("this server runs no jobs (started without a worker)")
    st = session.manager.submit(spec)
    if entry is not None:
        entry.job = st.id
    return page(request, "_job.html", st=st, live=not st.finished)


def _sse(event: str, data: str) -> str:
    return f"event: {event}\n" + "".join(f"data: {line}\n" for line in data.splitlines()) + "\n"


@router.post("/run", response_class=HTMLResponse)
async def run(request: Request, session: Session = Depends(get_session)):
    base = session.base
    form = await request.form()
    v = V.Variant.from_form(base, form)
    checked = V.check(base, v)
    if checked.scenario is None:
        return page(request, "_problems.html", 400, problems=checked.problems,
                    title="Fix the variant first")
    entry = session.entry(v)
    checked.scenario.name = f"variant {entry.id}" if entry.id else base.name
    title = f"variant {entry.id} against the base" if entry.id else "the base against itself"
    return _start(request, session, _spec_of(session, form, base, checked.scenario, title),
                  entry)


@router.post("/compare", response_class=HTMLResponse)
async def compare_two(request: Request, session: Session = Depends(get_session)):
    form = await request.form()
    ids = form.getlist("pick")
    if len(ids) != 2:
        raise SimsymError(f"pick exactly two variants to compare, picked {len(ids)}")
    ea, eb = (session.entry_at(whole_number(i, "variant", 0, 0, 10**6)) for i in ids)
    sa, sb = (_scenario_of(session.base, e) for e in (ea, eb))
    return _start(request, session,
                  _spec_of(session, form, sa, sb, f"variant {eb.id} against variant {ea.id}"),
                  None)


@router.get("/warm", response_class=HTMLResponse)
async def warm(request: Request):
    return page(request, "_warm.html")


@router.post("/judge", response_class=HTMLResponse)
async def pick_judge(request: Request, session: Session = Depends(get_session)):
    _picked(session, await request.form())
    return page(request, "_warm.html")


@router.post("/cancel", response_class=HTMLResponse)
async def cancel(request: Request, session: Session = Depends(get_session)):
    st = session.manager.cancel() if session.manager else None
    if st is None:
        return HTMLResponse("<p class='note'>No job is running.</p>")
    return page(request, "_job.html", st=st, live=False)


@router.get("/jobs/{job_id}", response_class=HTMLResponse)
async def job(request: Request, job_id: int, session: Session = Depends(get_session)):
    return page(request, "_job.html", st=session.job(job_id), live=False)


@router.get("/jobs/{job_id}/events")
async def events(request: Request, job_id: int, session: Session = Depends(get_session)):
    st = session.job(job_id)

    async def stream():
        seen = -1
        while True:
            if st.version != seen:
                seen = st.version
                html = templates.get_template("_job_body.html").render(st=st, s=session)
                yield _sse("update", html)
            if st.finished:
                yield _sse("done", "finished")
                return
            if session.manager is None or session.manager.closing:
                return
            if await request.is_disconnected():
                return
            await asyncio.sleep(0.2)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache"})


@router.get("/jobs/{job_id}/plots/{name}.png")
async def plot(job_id: int, name: str, session: Session = Depends(get_session)):
    st = session.job(job_id)
    if name not in st.plots:
        raise SimsymError(f"job {job_id} has no plot {name!r} (yet)")
    return Response(st.plots[name], media_type="image/png")
