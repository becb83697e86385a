"""docs/notebook.ipynb runs from top to bottom in a real Jupyter kernel (it cannot rot), in the
workspace `simsym init my-game --notebook` writes, as its first cell says; and the README's
notebook lines run in that workspace too."""

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from click.testing import CliRunner
from nbclient import NotebookClient

from simsym.cli.main import main

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "docs" / "notebook.ipynb"


def _text(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif "data" in o:
            out.append(o["data"].get("text/html", o["data"].get("text/plain", "")))
    return "\n".join(out)


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """`simsym init my-game --notebook`, then a (short) `simsym run game.yaml` in it, as the
    notebook's first cell and the README suppose."""
    root = tmp_path_factory.mktemp("nb")
    here = os.getcwd()
    try:
        os.chdir(root)
        r = CliRunner().invoke(main, ["init", "my-game", "--notebook"])
        assert r.exit_code == 0, r.output
        os.chdir(root / "my-game")
        r = CliRunner().invoke(main, ["run", "game.yaml", "--games", "200", "--jobs", "1",
                                      "-q", "--no-report"])
        assert r.exit_code == 0, r.output
    finally:
        os.chdir(here)
    return root / "my-game"


def test_the_example_notebook_runs_in_a_workspace_and_shows_its_results(workspace):
    assert (workspace / "notebook.ipynb").read_bytes() == NOTEBOOK.read_bytes()
    nb = nbformat.read(workspace / "notebook.ipynb", as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")  # kept clean
    # What the first cell says of a workspace, checked in the same kernel by one more cell.
    said = nb.cells[0].source
    assert 'ss.scenario("game.yaml")' in said and 'ss.load("reports/my-game")' in said
    check = 'ss.scenario("game.yaml").name, ss.load("reports/my-game").summary["games"]'
    nb.cells.append(nbformat.v4.new_code_cell(check))
    before = _files(workspace)
    # The kernel is this interpreter (ipykernel's own spec), in the workspace.
    env = {**os.environ, "MPLBACKEND": "Agg"}
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(workspace)}})
    client.km = client.create_kernel_manager()
    client.km.kernel_spec.argv[0] = sys.executable
    client.execute(env=env)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not any(o["output_type"] == "error" for c in code for o in c["outputs"])
    shown = {c.source.splitlines()[-1]: _text(c) for c in code}
    assert "('base', 4, 75)" in shown['base.name, base.players, len(base.cards)']
    assert "['4I; IO']" in shown['[c.text for c in nerf.cards if c.name == "Plato"]']
    assert shown["res.balanced"].strip() in ("'yes'", "'no'", "'not decided'")
    assert "base-variant: 2,000 games, seed 1" in shown["res"] and "Balanced? " in shown["res"]
    assert "strength" in shown['res.cards[["card", "strength", "strength_lo", "strength_hi", '
                               '"verdict"]].head()']
    assert "<li>Plato: 5I; IO → 4I; IO</li>" in shown["cmp"] and "Balanced?" in shown["cmp"]
    assert "Plato" in shown['cmp.cards[cmp.cards.metric == "strength"].head(3)']
    assert "seat gap (pp)" in shown["sweep"] and "6I; IO" in shown["sweep"]
    assert "('my-game', 200)" in shown[check]
    # a temporary run leaves nothing in the folder the notebook runs in
    assert _files(workspace) == before


def test_the_readme_notebook_lines_run_in_the_workspace(workspace):
    """The README's "In a notebook" block, in the quick start's workspace after its run; the
    game counts cut to 200 a side (the lines, not the counts, are what is checked)."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## In a notebook"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert 'ss.load("reports/my-game")' in block and 'ss.scenario("game.yaml")' in block
    assert block.count("20_000") == 1
    code = block.replace("20_000", "200") + "print(mine.name, len(res.seats))\n"
    before = _files(workspace)
    r = subprocess.run([sys.executable, "-c", code], cwd=workspace, capture_output=True,
                       text=True, timeout=900, env={**os.environ, "MPLBACKEND": "Agg"})
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.splitlines()[-1] == "my-game 4"
    assert _files(workspace) == before
