"""The workbench's session: one a server (a local tool for one designer).

It holds the base scenario, the variants tried (the history), the judge the page has
picked and the job manager (:mod:`simsym.serve.jobs`). The app keeps it in
``app.state.session``; a route receives it as a dependency, ``Depends(get_session)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fastapi import Request

from simsym.errors import SimsymError
from simsym.model.scenario import JUDGE_ROLES, Scenario, table_words
from simsym.serve import variant as V
from simsym.serve.jobs import JobManager, Warm


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

    def entry_at(self, vid: int) -> Entry:
        """History entry ``vid``, or a clear refusal."""
        if not 0 <= vid < len(self.history):
            raise SimsymError(f"no variant {vid} in this session's history (0..."
                              f"{len(self.history) - 1})")
        return self.history[vid]

    def job(self, job_id: int):
        """Job ``job_id``'s state, or a clear refusal."""
        st = self.manager.jobs.get(job_id) if self.manager else None
        if st is None:
            raise SimsymError(f"no job {job_id} on this server")
        return st


def get_session(request: Request) -> Session:
    """The app's session (the routes' dependency)."""
    return request.app.state.session


def role_of(text) -> str:
    """A judge's role from a form or an option, or a clear refusal."""
    role = str(text).strip()
    if role not in JUDGE_ROLES:
        raise SimsymError(f"judge {role!r}: allowed: strong (the verdict to trust) or fast")
    return role
