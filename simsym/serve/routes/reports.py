"""The reports folder: its run directories, a report rendered, and the files it links (read
only inside the reports folder)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, HTMLResponse

from simsym.errors import SimsymError
from simsym.serve.pages import page
from simsym.serve.session import Session, get_session

router = APIRouter()


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


@router.get("/reports", response_class=HTMLResponse)
async def reports(request: Request, session: Session = Depends(get_session)):
    return page(request, "reports.html", runs=_run_dirs(session.reports_dir))


@router.get("/reports/view", response_class=HTMLResponse)
async def report_view(request: Request, dir: str, file: str = "",
                      session: Session = Depends(get_session)):
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


@router.get("/reports/file")
async def report_file(dir: str, name: str, session: Session = Depends(get_session)):
    path = _inside(_inside(session.reports_dir, dir), name)
    if not path.is_file():
        raise SimsymError(f"{dir}/{name}: no such file")
    return FileResponse(path)
