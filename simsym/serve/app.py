"""`simsym serve`'s web app: the balance workbench (FastAPI, Jinja2 templates, htmx).

The page is server-rendered HTML; htmx swaps in fragments (validation as you type, the job
panel, the history) and the job's progress arrives as server-sent events. There is one
session per server (a local tool for one designer): the base scenario, the variants tried
(the history) and the job manager (:mod:`simsym.serve.jobs`).

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

import asyncio
import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (FileResponse, HTMLResponse, PlainTextResponse, Response,
                               StreamingResponse)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from simsym.model import packaged
from simsym.errors import InputError, SimsymError
from simsym.model.rules import RuleOptions
from simsym.model.scenario import (JUDGE_ROLES, PLAYERS, SEATINGS, Scenario, load_scenario,
                                   table_name, table_words)
from simsym.serve import variant as V
from simsym.serve.jobs import Busy, JobManager, JobSpec, Warm

HERE = Path(__file__).resolve().parent
DEFAULT_MAX_GAMES = 20_000
DEFAULT_BLOCK = 100
DEFAULT_DELTA = "2pp"


@dataclass
class Entry:
    """A variant tried in this session: its form, its changes, its latest verdict."""

    id: int
    variant: V.Variant
    changes: list[str]
    job: int | None = None
    label: str = ""


@dataclass
class Session:
    base: Scenario
    scenarios_dir: Path
    reports_dir: Path
    jobs: int
    manager: JobManager | None = None
    history: list[Entry] = field(default_factory=list)
    judge: str = "strong"  # the judge the page has picked (a judged base only)

    def tables(self) -> list[Warm]:
        """The tables a comparison may be played under, the picked one first: each judge's
        mirror table, or the base's one table when it names its own strategies."""
        if not self.base.judges:
            return [Warm("table", f"the table ({table_words(self.base)})", self.base)]
        roles = sorted(JUDGE_ROLES, key=lambda r: r != self.judge)
        return [Warm(r, f"the {r} table ({table_words(self.base.judge(r))})",
                     self.base.judge(r)) for r in roles]

    def warmth(self) -> list[tuple[Warm, str]]:
        """Each table with its warm-up state (waiting, warming, ready, failed: why)."""
        states = self.manager.warmth if self.manager is not None else {}
        return [(t, states.get(t.key, "")) for t in self.tables()]

    def entry(self, variant: V.Variant) -> Entry:
        """The history entry of this variant (the same changes are the same entry)."""
        for e in self.history:
            if e.variant.key == variant.key:
                return e
        e = Entry(len(self.history), variant, variant.describe(self.base))
        self.history.append(e)
        return e


def create_app(scenario_path, *, scenarios_dir=None, reports_dir=None, host="127.0.0.1",
               port=8765, allowed_hosts=(), jobs=1, start_worker=True, judge="strong"):
    """The app for ``scenario_path``. ``allowed_hosts``: extra Host header values accepted
    besides host:port, localhost:port and 127.0.0.1:port. ``judge``: the judge the page
    starts with, for a scenario judged by two tables (ignored by one that is not)."""
    judge = _role(judge)
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
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(pct=_pct, pp=_pp, verdict_text=verdict_text,
                                 stop_text=stop_text,
                                 table_words=table_words, tables_text=tables_text,
                                 roles=JUDGE_ROLES)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def page(request, template, status=200, **ctx):
        return templates.TemplateResponse(request, template, {"s": session, **ctx},
                                          status_code=status)

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
        return page(request, "_problems.html", status, problems=_lines(e), title="Refused")

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

    def form_ctx(variant: V.Variant, checked: V.Checked):
        return {"f": variant.fields, "checked": checked,
                "categories": V.categories(base, checked), "rules": _rule_fields(),
                "seatings": SEATINGS, "players": range(PLAYERS[0], PLAYERS[1] + 1),
                "defaults": {"delta": DEFAULT_DELTA, "max_games": DEFAULT_MAX_GAMES,
                             "seed": base.seed, "block": DEFAULT_BLOCK, "metric": ""}}

    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request):
        v = V.Variant(V.base_fields(base))
        return page(request, "index.html", **form_ctx(v, V.check(base, v)))

    @app.post("/validate", response_class=HTMLResponse)
    async def validate(request: Request):
        v = V.Variant.from_form(base, await request.form())
        checked = V.check(base, v)
        return page(request, "_validate.html", **form_ctx(v, checked))

    @app.get("/variants/{vid}", response_class=HTMLResponse)
    async def load_variant(request: Request, vid: int):
        e = _entry(session, vid)
        return page(request, "_form.html", **form_ctx(e.variant, V.check(base, e.variant)))

    def picked(form) -> str:
        """The judge the form picked (remembered for the page), else the page's current."""
        session.judge = _role(form.get("judge") or session.judge)
        if session.manager is not None:
            session.manager.warm_order(session.judge)
        return session.judge

    def spec_of(form, a: Scenario, b: Scenario, title: str) -> JobSpec:
        from simsym.studies.sequential import parse_delta, parse_metric

        role = picked(form)
        a, b = a.judge(role), b.judge(role)  # one table each: the judge's (the same deals)
        delta = parse_delta(form.get("delta") or DEFAULT_DELTA)
        metric = (form.get("metric") or "").strip() or default_metric(a, b)
        parse_metric(metric, a, b)  # a clear error now, not in the worker
        seed = _whole(form.get("seed"), "seed", base.seed, 0, 2**63 - 1)
        cap = _whole(form.get("max_games"), "max games", DEFAULT_MAX_GAMES, 1, 10**9)
        block = _whole(form.get("block"), "block", DEFAULT_BLOCK, 1, 10**6)
        return JobSpec(a, b, metric, delta, seed, cap, block, session.jobs, title,
                       judged_under(a, b))

    def start(request, spec: JobSpec, entry: Entry | None):
        if session.manager is None:
            raise SimsymError("this server runs no jobs (started without a worker)")
        st = session.manager.submit(spec)
        if entry is not None:
            entry.job = st.id
        return page(request, "_job.html", st=st, live=not st.finished)

    @app.post("/run", response_class=HTMLResponse)
    async def run(request: Request):
        form = await request.form()
        v = V.Variant.from_form(base, form)
        checked = V.check(base, v)
        if checked.scenario is None:
            return page(request, "_problems.html", 400, problems=checked.problems,
                        title="Fix the variant first")
        entry = session.entry(v)
        checked.scenario.name = f"variant {entry.id}" if entry.id else base.name
        title = f"variant {entry.id} against the base" if entry.id else "the base against itself"
        return start(request, spec_of(form, base, checked.scenario, title), entry)

    @app.post("/compare", response_class=HTMLResponse)
    async def compare_two(request: Request):
        form = await request.form()
        ids = form.getlist("pick")
        if len(ids) != 2:
            raise SimsymError(f"pick exactly two variants to compare, picked {len(ids)}")
        ea, eb = (_entry(session, _whole(i, "variant", 0, 0, 10**6)) for i in ids)
        sa, sb = (_scenario_of(base, e) for e in (ea, eb))
        return start(request, spec_of(form, sa, sb, f"variant {eb.id} against variant "
                                                    f"{ea.id}"), None)

    @app.get("/warm", response_class=HTMLResponse)
    async def warm(request: Request):
        return page(request, "_warm.html")

    @app.post("/judge", response_class=HTMLResponse)
    async def pick_judge(request: Request):
        picked(await request.form())
        return page(request, "_warm.html")

    @app.post("/cancel", response_class=HTMLResponse)
    async def cancel(request: Request):
        st = session.manager.cancel() if session.manager else None
        if st is None:
            return HTMLResponse("<p class='note'>No job is running.</p>")
        return page(request, "_job.html", st=st, live=False)

    @app.get("/jobs/{job_id}", response_class=HTMLResponse)
    async def job(request: Request, job_id: int):
        return page(request, "_job.html", st=_job(session, job_id), live=False)

    @app.get("/jobs/{job_id}/events")
    async def events(request: Request, job_id: int):
        st = _job(session, job_id)

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

    @app.get("/jobs/{job_id}/plots/{name}.png")
    async def plot(job_id: int, name: str):
        st = _job(session, job_id)
        if name not in st.plots:
            raise SimsymError(f"job {job_id} has no plot {name!r} (yet)")
        return Response(st.plots[name], media_type="image/png")

    @app.get("/history", response_class=HTMLResponse)
    async def history(request: Request):
        return page(request, "_history.html")

    @app.post("/save", response_class=HTMLResponse)
    async def save(request: Request):
        from simsym.run.output import atomic_write_text

        form = await request.form()
        name = str(form.get("save_name", ""))
        path = V.save_path(session.scenarios_dir, name)
        v = V.Variant.from_form(base, form)
        checked = V.check(base, v, name.strip())
        if checked.scenario is None:
            return page(request, "_problems.html", 400, problems=checked.problems,
                        title="Fix the variant first")
        if path.exists() and form.get("overwrite") != "yes":
            return page(request, "_save.html", 409, path=path, exists=True, name=name.strip())
        atomic_write_text(path, V.saved_text(base, v, session.scenarios_dir, name.strip()))
        load_scenario(path)  # what was written loads as what was checked
        return page(request, "_save.html", path=path, exists=False, name=name.strip())

    @app.get("/reports", response_class=HTMLResponse)
    async def reports(request: Request):
        return page(request, "reports.html", runs=_run_dirs(session.reports_dir))

    @app.get("/reports/view", response_class=HTMLResponse)
    async def report_view(request: Request, dir: str, file: str = ""):
        from simsym.serve.reports import render

        folder = _inside(session.reports_dir, dir)
        mds = sorted(p.name for p in folder.glob("*.md"))
        if not mds:
            raise SimsymError(f"{dir}: no report in this run directory (no .md file)")
        name = file or ("report.md" if "report.md" in mds else mds[0])
        if name not in mds:
            raise SimsymError(f"{dir}: no report {name!r}; reports here: {', '.join(mds)}")
        html = render((folder / name).read_text(), dir)
        return page(request, "report_view.html", html=html, dir=dir, name=name, mds=mds)

    @app.get("/reports/file")
    async def report_file(dir: str, name: str):
        path = _inside(_inside(session.reports_dir, dir), name)
        if not path.is_file():
            raise SimsymError(f"{dir}/{name}: no such file")
        return FileResponse(path)

    return app


# --- helpers --------------------------------------------------------------------------------

def _sse(event: str, data: str) -> str:
    return f"event: {event}\n" + "".join(f"data: {line}\n" for line in data.splitlines()) + "\n"


def _lines(e: SimsymError) -> list[str]:
    errors = getattr(e, "errors", None) or [e]
    return [x.format() if hasattr(x, "format") else str(x) for x in errors]


def _whole(text, what, default, lo, hi) -> int:
    if text is None or not str(text).strip():
        return default
    try:
        v = int(str(text).strip().replace("_", "").replace(",", ""))
    except ValueError:
        raise SimsymError(f"{what}: expected a whole number from {lo} to {hi:,}, found "
                          f"{str(text).strip()!r}") from None
    if not lo <= v <= hi:
        raise SimsymError(f"{what}: expected a whole number from {lo} to {hi:,}, found {v}")
    return v


def _entry(session: Session, vid: int) -> Entry:
    if not 0 <= vid < len(session.history):
        raise SimsymError(f"no variant {vid} in this session's history (0..."
                          f"{len(session.history) - 1})")
    return session.history[vid]


def _job(session: Session, job_id: int):
    st = session.manager.jobs.get(job_id) if session.manager else None
    if st is None:
        raise SimsymError(f"no job {job_id} on this server")
    return st


def _scenario_of(base: Scenario, e: Entry) -> Scenario:
    checked = V.check(base, e.variant)
    if checked.scenario is None:  # pragma: no cover - only checked variants enter the history
        raise InputError("; ".join(checked.problems))
    checked.scenario.name = f"variant {e.id}" if e.id else base.name
    return checked.scenario


def _role(text) -> str:
    role = str(text).strip()
    if role not in JUDGE_ROLES:
        raise SimsymError(f"judge {role!r}: allowed: strong (the verdict to trust) or fast")
    return role


def judged_under(a: Scenario, b: Scenario) -> str:
    """The table that judged a comparison, as every verdict names it: "under learned players
    (strong table)"; both when A and B are played by different tables."""
    if table_name(a) == table_name(b):
        return f"under {table_name(a)}"
    return f"A under {table_name(a)}, B under {table_name(b)}"


def tables_text(sc: Scenario) -> str:
    """A checked scenario's tables, for the problems box: its judges, or its strategies."""
    if sc.judges:
        return "judged by " + " and ".join(f"{sc.judges[r].label} ({r})"
                                           for r in reversed(JUDGE_ROLES))
    return "strategies " + ", ".join(s.label for s in sc.strategies)


def default_metric(a: Scenario, b: Scenario) -> str:
    """The metric a comparison follows when the form names none: the strength (IWD minus the
    table's average) of the one card whose notation or copies changed, else the seat gap."""
    changed = [c.name for c in b.cards
               if a.cards.index(c.name) is not None
               and (a.cards[a.cards.index(c.name)].text, a.cards[a.cards.index(c.name)].copies)
               != (c.text, c.copies)]
    return f"card:{changed[0]}" if len(changed) == 1 else "seat-gap"


def _rule_fields():
    """Each rule option for the side panel: name, doc, and its input (a choice or text)."""
    from dataclasses import fields

    out = []
    for f in fields(RuleOptions):
        m = f.metadata
        choices = m.get("choices") or (("true", "false") if isinstance(f.default, bool)
                                       else None)
        out.append({"name": f.name, "doc": m.get("doc", ""), "choices": choices})
    return out


def _inside(root: Path, rel: str) -> Path:
    """``root/rel`` when it stays inside ``root``; a clear refusal otherwise."""
    p = (root / rel).resolve()
    if p != root and root not in p.parents:
        raise SimsymError(f"{rel!r}: outside the reports folder {root}; allowed: a run "
                          "directory inside it")
    return p


def _run_dirs(root: Path) -> list[str]:
    if not root.is_dir():
        return []
    return sorted(str(p.parent.relative_to(root)) for p in root.glob("**/*.md")
                  if p.parent != root)


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
