"""The workbench's simulation jobs: one at a time, in a worker process the server owns.

The worker (started with ``spawn``: the server has threads, and a forked copy of them is
unsafe) runs the sequential test of :mod:`simsym.studies.sequential` and reports each look to
the server through a queue: games played, the test's state, and the seat and card differences
with their paired intervals over the blocks played so far
(:func:`simsym.studies.compare.comparison_of` on the blocks, so the numbers are `simsym
compare`'s). At the end it also renders the plots.

Cancel ends the worker process (SIGTERM; its own pool, if any, dies with it) and starts a
fresh one. A worker that dies or raises turns the job into an error the page shows; the
server goes on. Workers run :func:`simsym.run.lifeline.die_with_parent`, so none outlives the
server however it ends; on a normal stop (SIGINT/SIGTERM to uvicorn) :meth:`JobManager.close`
ends it first.

At start the worker warms the tables the page may run, the chosen one first: it plays one
game of each (compiling its kernels, or loading them from numba's cache), and reports each
table as warming and then ready, which the page shows. A learned table's kernels take about
half a minute to compile cold; done here, before the first Run, the first verdict is quick.
A job sent while a later table is still waiting its turn runs first.

Finished results are cached by what they depend on: both scenarios' cards, rules and table
(the judge that plays them), the seed, the cap, the block size, the metric and delta.
"""

from __future__ import annotations

import io
import itertools
import math
import multiprocessing as mp
import queue
import threading
import time
from dataclasses import dataclass, field

from simsym.errors import SimsymError

PROGRESS_EVERY = 0.25  # seconds between progress messages from the worker


@dataclass
class JobSpec:
    """What to run: B against A, both Scenario objects, on the same deals."""

    a: object
    b: object
    metric: str
    delta: float
    seed: int
    max_games: int
    block: int
    jobs: int
    title: str = ""
    table: str = ""  # which table judges it, as the page names it ("learned players ...")

    def cache_key(self) -> tuple:
        from simsym.run.worker import fingerprint

        # the fingerprints hold each side's table (a judge's strategy); the judge's role is
        # in the key as well, so two judges never share a result
        roles = (getattr(self.a, "judged_by", None), getattr(self.b, "judged_by", None))
        return (fingerprint(self.a), fingerprint(self.b), roles, self.seed, self.max_games,
                self.block, self.metric, self.delta)


@dataclass
class Warm:
    """A table the worker warms at start: ``key`` names it to the page ("strong", "fast", or
    "table" for a scenario without judges), ``label`` in words, ``scenario`` its one table."""

    key: str
    label: str
    scenario: object


@dataclass
class JobState:
    """Where a job stands, as the page shows it; ``version`` grows with every change."""

    id: int
    title: str
    total: int  # games of A and B together at the cap
    table: str = ""  # which table judged it
    status: str = "starting"  # starting, running, done, cancelled, error
    done_games: int = 0
    looks: list = field(default_factory=list)  # one summary dict per look
    plots: dict = field(default_factory=dict)  # name -> PNG bytes
    error: str = ""
    cached: bool = False
    started: float = field(default_factory=time.monotonic)
    first_look_s: float | None = None
    seconds: float | None = None
    version: int = 0

    @property
    def finished(self) -> bool:
        return self.status in ("done", "cancelled", "error")

    @property
    def last(self) -> dict | None:
        return self.looks[-1] if self.looks else None


class Busy(SimsymError):
    def __init__(self):
        super().__init__("a comparison is already running: wait for it or cancel it (one "
                         "job at a time)")


# --- in the worker process ------------------------------------------------------------------

def worker_main(inbox, outbox, parent: int, warm):
    """The worker's loop: warm the tables of ``warm`` (a list of Warm, the chosen first; or a
    scenario, or None), then run jobs in turn. A job waiting when one table is warmed runs
    before the next table is."""
    import sys

    from simsym.run.lifeline import die_with_parent

    die_with_parent(parent)
    if sys.platform.startswith("linux"):
        # A spawned process inherits "spawn" as its default: the pools of a job with jobs > 1
        # would re-import simsym and reload the kernels at every look (4.5 s against 1.2 s
        # for 2,000 games here). Fork them from this warm, single-job process as the CLI does.
        mp.set_start_method("fork", force=True)
    if warm is not None and not isinstance(warm, list):
        warm = [Warm("table", "", warm)]
    # the first table, matplotlib (needed only at a job's end), then the other tables
    pending = list(warm or [])
    if pending:
        pending.insert(1, None)
    outbox.put(("ready", None, None))
    while True:
        if pending:
            try:
                item = inbox.get_nowait()
            except queue.Empty:
                table = pending.pop(0)
                if table is None:
                    _warm_plots()
                    continue
                outbox.put(("warming", None, table.key))
                error = _warm_table(table.scenario)
                outbox.put(("warm", None, (table.key, error)))
                continue
        else:
            item = inbox.get()
        if item is None:
            return
        job_id, spec = item
        try:
            _run(job_id, spec, outbox)
        except SimsymError as e:
            outbox.put(("error", job_id, _one_line(e)))
        except Exception as e:  # noqa: BLE001 - a bug: say so, and go on with the next job
            outbox.put(("error", job_id, f"internal error (a bug in simsym, not in your "
                                         f"input): {type(e).__name__}: {e}"))


def _warm_plots():
    """matplotlib, for the plots at a job's end (a second sooner)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
    except Exception:  # noqa: BLE001 - the first job will report whatever is wrong
        pass


def _warm_table(scenario) -> str:
    """Play one game of ``scenario``'s table in this process: its kernels are compiled (or
    loaded from numba's cache) now, not in the first job, and the modules a comparison
    needs are imported. Returns "" or what went wrong (the first job on that table reports
    it in full)."""
    try:
        from simsym.engine.compiled import run_chunk, setup_for

        run_chunk(setup_for(scenario), 0, 1)
        import simsym.run.executor  # noqa: F401
        import simsym.studies.compare  # noqa: F401
        import simsym.studies.sequential  # noqa: F401
        return ""
    except Exception as e:  # noqa: BLE001 - reported to the page as the table's state
        return f"{type(e).__name__}: {e}".splitlines()[0]


def _one_line(e: SimsymError) -> str:
    errors = getattr(e, "errors", None) or [e]
    return "\n".join(x.format() if hasattr(x, "format") else str(x) for x in errors)


def _run(job_id: int, spec: JobSpec, outbox):
    from simsym.studies.compare import comparison_of
    from simsym.studies.sequential import SPRT, batched, parse_metric, run_until_decided

    metric = parse_metric(spec.metric, spec.a, spec.b)
    test = SPRT(spec.delta)
    last = [0.0]

    def on_games(done):
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            outbox.put(("progress", job_id, done))

    trace = []
    c = None
    for look in run_until_decided(spec.a, spec.b, metric, test, seed=spec.seed,
                                  block=spec.block, max_games=spec.max_games, jobs=spec.jobs,
                                  on_games=on_games):
        c = comparison_of(batched(spec.a, look.a_blocks, spec.seed),
                          batched(spec.b, look.b_blocks, spec.seed))
        d = look.decision
        trace.append((look.games, d.mean, d.lo, d.hi))
        outbox.put(("look", job_id, summarise(c, look, metric, spec.delta)))
    outbox.put(("done", job_id, plots(c, trace, metric.spec, spec.delta)))


def summarise(c, look, metric, delta: float) -> dict:
    """One look as plain data for the page: the headline (the tested metric's difference
    judged by the one rule), Balanced? for A and B, the test, then seats and cards."""
    from simsym.studies.compare import (changed_first, criteria_moves, plain_changes,
                                        plain_row, quality_cells)
    from simsym.studies.sequential import subject_words

    d = look.decision
    seats = c.seats[c.seats["metric"] == "win_rate"]
    cards = changed_first(c)
    r, words = subject_words(c, metric)
    a, b = c.balance
    return {
        "games": look.games, "blocks": d.blocks, "verdict": d.verdict, "metric": metric.spec,
        "delta": delta, "mean": d.mean, "lo": d.lo, "hi": d.hi,
        "subject": dict(plain_row(r, "A", "B", "diff", "lo", "hi", "p_adjusted",
                                  "beyond_noise"), words=words),
        "tested": c.tested,
        "balanced": {"a": a.answer, "b": b.answer, "a_cards": a.cards_state,
                     "a_seats": a.seats_state, "b_cards": b.cards_state,
                     "b_seats": b.seats_state, "moves": criteria_moves(a, b),
                     "b_changes": b.changes()[:6]},
        "gap": plain_row(c.gap.iloc[0], "A", "B", "diff", "lo", "hi", "beyond_noise"),
        "seats": [plain_row(r, "name", "A", "B", "diff", "lo", "hi", "beyond_noise")
                  for _, r in seats.iterrows()],
        "cards": [dict(plain_row(r, "name", "A", "B", "diff", "lo", "hi", "p_adjusted",
                                 "beyond_noise"), changed=r["name"] in c.changes[1])
                  for _, r in cards.iterrows()],
        "changes": plain_changes(c),
        "quality": [] if c.quality is None else [
            dict(zip(("name", "a", "b", "change"), (r["name"], *quality_cells(r))),
                 real=bool(r["beyond_noise"])) for _, r in c.quality.iterrows()],
    }


def plots(c, trace, metric: str, delta: float) -> dict:
    """The result's plots as PNG bytes: the interval narrowing look by look, seats, cards."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simsym.report.plots import DPI
    from simsym.studies.compare import card_figure, seat_figure

    fig, ax = plt.subplots(figsize=(7, 3.2))
    g = [t[0] for t in trace]
    ax.fill_between(g, [100 * t[2] for t in trace], [100 * t[3] for t in trace],
                    color="tab:blue", alpha=0.2, label="95% interval")
    ax.plot(g, [100 * t[1] for t in trace], "o-", color="tab:blue", label="B - A")
    for y in (-delta, delta):
        ax.axhline(100 * y, color="tab:red", ls="--", lw=1)
    ax.axhline(0, color="k", lw=1)
    ax.set_xlabel("games each")
    ax.set_ylabel(f"{metric}, B - A (pp)")
    ax.set_title(f"The sequential test look by look (red: \u00b1{100 * delta:g} pp)")
    ax.legend(loc="upper right")
    fig.tight_layout()
    out = {}
    for name, f in (("trace", fig), ("seats", seat_figure(c)), ("cards", card_figure(c))):
        buf = io.BytesIO()
        f.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
        plt.close(f)
        out[name] = buf.getvalue()
    return out


# --- in the server --------------------------------------------------------------------------

class JobManager:
    """Owns the worker process and the jobs' states; one job runs at a time.

    ``warm``: the tables the worker warms at its start (a list of Warm, the chosen first; a
    scenario; or None). ``warmth`` maps each table's key to its state: "waiting", "warming",
    "ready", or "failed: why"; a fresh worker (after a cancel or a crash) warms them again."""

    def __init__(self, warm=None):
        self._ctx = mp.get_context("spawn")
        if warm is not None and not isinstance(warm, list):
            warm = [Warm("table", "", warm)]
        self._warm = warm
        self.warmth: dict[str, str] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.jobs: dict[int, JobState] = {}
        self.cache: dict[tuple, JobState] = {}
        self._keys: dict[int, tuple] = {}
        self.current: int | None = None
        self.closing = False
        self._proc = None
        self._start_worker()
        self._reader = threading.Thread(target=self._read, name="simsym-serve-jobs",
                                        daemon=True)
        self._reader.start()

    # the worker process
    def _start_worker(self):
        import os

        self._inbox, self._outbox = self._ctx.Queue(), self._ctx.Queue()
        # the first table warms as soon as the worker is up; the others wait their turn
        self.warmth = {t.key: "warming" if i == 0 else "waiting"
                       for i, t in enumerate(self._warm or [])}
        self._proc = self._ctx.Process(target=worker_main, name="simsym-serve-worker",
                                       args=(self._inbox, self._outbox, os.getpid(),
                                             self._warm))
        # not a daemon: a daemon may not start the pool of processes a job with jobs > 1
        # plays on. close() ends it; die_with_parent ends it should the server be killed.
        self._proc.start()

    @property
    def worker_pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _stop_worker(self, grace: float = 3.0):
        p = self._proc
        if p is None:
            return
        p.terminate()
        p.join(grace)
        if p.is_alive():
            p.kill()
            p.join()
        for q in (self._inbox, self._outbox):
            q.cancel_join_thread()
            q.close()

    def _read(self):
        while not self.closing:
            outbox, proc = self._outbox, self._proc
            try:
                kind, job_id, payload = outbox.get(timeout=0.2)
            except (queue.Empty, OSError, ValueError, EOFError):
                with self._lock:
                    if self.closing or proc is not self._proc:
                        continue  # a cancel replaced the worker meanwhile
                    if not proc.is_alive():
                        self._lost(proc.exitcode)
                continue
            with self._lock:
                self._take(kind, job_id, payload)

    def _lost(self, code):
        """The worker died (killed from outside, out of memory, a crash in native code)."""
        if self.current is not None:
            self._finish(self.current, "error", error=f"the worker process died (exit code "
                         f"{code}); the server goes on: run again, or cancel and change "
                         "something")
        self._start_worker()

    @property
    def warm(self) -> bool:
        """Whether every table has been warmed (ready or failed)."""
        return all(v == "ready" or v.startswith("failed") for v in self.warmth.values())

    def warm_order(self, first: str):
        """Warm table ``first`` first in a fresh worker (after a cancel or a crash)."""
        if self._warm:
            self._warm.sort(key=lambda t: t.key != first)

    def _take(self, kind, job_id, payload):
        if kind == "warming":
            self.warmth[payload] = "warming"
            return
        if kind == "warm":
            key, error = payload
            self.warmth[key] = f"failed: {error}" if error else "ready"
            return
        st = self.jobs.get(job_id)
        if st is None or st.finished:
            return
        if kind == "progress":
            st.done_games = max(st.done_games, payload)
            st.status = "running"
        elif kind == "look":
            st.looks.append(payload)
            st.done_games = max(st.done_games, 2 * payload["games"])
            st.status = "running"
            if st.first_look_s is None:
                st.first_look_s = time.monotonic() - st.started
        elif kind == "done":
            st.plots = payload
            self._finish(job_id, "done")
            self.cache[self._keys[job_id]] = st
            return
        elif kind == "error":
            self._finish(job_id, "error", error=payload)
            return
        st.version += 1

    def _finish(self, job_id, status, error=""):
        st = self.jobs[job_id]
        st.status, st.error = status, error
        st.seconds = time.monotonic() - st.started
        st.version += 1
        if self.current == job_id:
            self.current = None

    # what the app calls
    def submit(self, spec: JobSpec) -> JobState:
        key = spec.cache_key()
        with self._lock:
            if self.current is not None:
                raise Busy()
            job_id = next(self._ids)
            hit = self.cache.get(key)
            if hit is not None:
                st = JobState(job_id, spec.title, hit.total, spec.table, status="done",
                              done_games=hit.total, looks=hit.looks, plots=hit.plots,
                              cached=True, first_look_s=0.0, seconds=0.0, version=1)
                self.jobs[job_id] = st
                return st
            st = JobState(job_id, spec.title, 2 * _cap(spec), spec.table)
            self.jobs[job_id] = st
            self._keys[job_id] = key
            self.current = job_id
            self._inbox.put((job_id, spec))
            return st

    def cancel(self) -> JobState | None:
        with self._lock:
            job_id = self.current
            if job_id is None:
                return None
            self._stop_worker()
            self._finish(job_id, "cancelled")
            self._start_worker()
            return self.jobs[job_id]

    def close(self):
        with self._lock:
            self.closing = True
            try:
                self._inbox.put(None)
            except (OSError, ValueError):
                pass
            self._stop_worker(grace=1.0)
            self._proc = None


def _cap(spec: JobSpec) -> int:
    """Games per side at the cap (whole blocks, at least the test's first look)."""
    from simsym.studies.sequential import SPRT, block_size

    block = block_size(spec.a.players, spec.a.seating, spec.block)
    return max(SPRT(spec.delta).min_blocks, math.ceil(spec.max_games / block)) * block
