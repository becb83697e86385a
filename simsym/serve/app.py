"""`simsym serve`'s web app: the balance workbench (FastAPI, Jinja2 templates, htmx).

The page is server-rendered HTML; htmx swaps in fragments (validation as you type, the job
panel, the history) and the job's progress arrives as server-sent events. There is one
session per server (a local tool for one designer, :mod:`simsym.serve.session`): the base
scenario, the variants tried (the history) and the job manager (:mod:`simsym.serve.jobs`).
This module makes the app and its guards; the routes are FastAPI routers by concern in
:mod:`simsym.serve.routes`, the templates and their words in :mod:`simsym.serve.pages`.

Safe by default: requests whose Host header is not the server's own are refused (a DNS
rebinding page cannot reach it), POSTs must come from the page itself (htmx's HX-Request
header, which a cross-site form cannot send, and a matching Origin when there is one), files
are written only as ``NAME.yaml`` inside the scenarios folder and read only inside the
reports folder, and bad input gets the command line's messages, never a stack trace.

A scenario judged by two tables (`judges:`, docs/scenarios.md) is compared under the judge
the page picks (strong by default, or `simsym serve --judge`): base and variant both as that
judge's mirror table, on the same deals; every verdict names the table that judged it. A
scenario that names its own `strategies:` has one table, and the page says which.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from simsym.errors import SimsymError
from simsym.model import packaged
from simsym.model.scenario import load_scenario
from simsym.serve import variant as V
from simsym.serve.jobs import Busy, JobManager
from simsym.serve.pages import HERE, page, problem_lines
from simsym.serve.routes import editor, history, reports
from simsym.serve.routes import jobs as job_routes
from simsym.serve.session import Session, role_of


def create_app(scenario_path, *, scenarios_dir=None, reports_dir=None, host="127.0.0.1",
               port=8765, allowed_hosts=(), jobs=1, start_worker=True, judge="strong"):
    """The app for ``scenario_path``. ``allowed_hosts``: extra Host header values accepted
    besides host:port, localhost:port and 127.0.0.1:port. ``judge``: the judge the page
    starts with, for a scenario judged by two tables (ignored by one that is not)."""
    judge = role_of(judge)
    base = load_scenario(scenario_path)
    if scenarios_dir is None:  # the base's folder, unless that is simsym's installed package
        scenarios_dir = Path(scenario_path).resolve().parent
        if packaged.installed_name(base.path):
            scenarios_dir = Path("scenarios")
            scenarios_dir.mkdir(exist_ok=True)
    scenarios_dir = Path(scenarios_dir).resolve()
    if not scenarios_dir.is_dir():
        raise SimsymError(f"--scenarios {scenarios_dir}: not a directory")

    reports_dir = Path(reports_dir or "reports").resolve()
    session = Session(base, scenarios_dir, reports_dir, jobs, judge=judge)
    session.entry(V.Variant(V.base_fields(base))).label = "base"
    shown = f"[{host}]" if ":" in host else host
    hosts = {f"{h}:{port}" for h in (shown, "127.0.0.1", "localhost", "[::1]")}
    hosts |= set(allowed_hosts)
    origins = {f"http://{h}" for h in hosts}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if start_worker:  # the worker warms every table at once, the picked one first
            session.manager = JobManager(warm=session.tables())
        try:
            yield
        finally:
            if session.manager is not None:
                session.manager.close()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.session = session
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for routes in (editor, job_routes, history, reports):
        app.include_router(routes.router)

    @app.middleware("http")
    async def guard(request: Request, call_next):
        host_header = request.headers.get("host", "")
        if host_header not in hosts:
            return PlainTextResponse(
                f"refused: Host {host_header!r} is not this server's ({', '.join(sorted(hosts))})"
                "; open the address `simsym serve` printed", status_code=400)
        if request.method not in ("GET", "HEAD"):
            origin = request.headers.get("origin")
            if origin is not None and origin not in origins:
                return PlainTextResponse(f"refused: a request from {origin}", status_code=403)
            if request.headers.get("hx-request") != "true":
                return PlainTextResponse("refused: changes come from the workbench page",
                                         status_code=403)
        return await call_next(request)

    @app.exception_handler(SimsymError)
    async def bad_input(request, e: SimsymError):
        status = 409 if isinstance(e, Busy) else 400
        return page(request, "_problems.html", status, problems=problem_lines(e),
                    title="Refused")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request, e):
        what = "; ".join(f"{'.'.join(str(x) for x in err['loc'][1:])}: {err['msg']}"
                         for err in e.errors())
        return PlainTextResponse(f"bad request: {what}", status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, e):
        return PlainTextResponse(str(e.detail), status_code=e.status_code)

    @app.exception_handler(Exception)
    async def bug(request, e):
        return PlainTextResponse(f"internal error (a bug in simsym, not in your input): "
                                 f"{type(e).__name__}: {e}", status_code=500)

    return app
