"""The session's history of variants, and a variant saved as a scenario file."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from simsym.model.scenario import load_scenario
from simsym.serve import variant as V
from simsym.serve.pages import page
from simsym.serve.session import Session, get_session

router = APIRouter()


@router.get("/history", response_class=HTMLResponse)
async def history(request: Request):
    return page(request, "_history.html")


@router.post("/save", response_class=HTMLResponse)
async def save(request: Request, session: Session = Depends(get_session)):
    from simsym.run.output import atomic_write_text

    base = session.base
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
