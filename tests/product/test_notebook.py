"""docs/notebook.ipynb runs from top to bottom in a real Jupyter kernel (it cannot rot)."""

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "notebook.ipynb"


def _text(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif "data" in o:
            out.append(o["data"].get("text/html", o["data"].get("text/plain", "")))
    return "\n".join(out)


def test_the_example_notebook_runs_and_shows_its_results(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")  # kept clean
    # The kernel is this interpreter (ipykernel's own spec), in an empty folder.
    env = {**os.environ, "MPLBACKEND": "Agg"}
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.km = client.create_kernel_manager()
    client.km.kernel_spec.argv[0] = sys.executable
    client.execute(env=env)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not any(o["output_type"] == "error" for c in code for o in c["outputs"])
    shown = {c.source.splitlines()[-1]: _text(c) for c in code}
    assert "('base', 4, 75)" in shown['base.name, base.players, len(base.cards)']
    assert "['4I; IO']" in shown['[c.text for c in nerf.cards if c.name == "Plato"]']
    assert "base-variant: 2,000 games, seed 1" in shown["res"]
    assert "<li>Plato: 5I; IO → 4I; IO</li>" in shown["cmp"]
    assert "Plato" in shown['cmp.cards[cmp.cards.metric == "gih_wr"].head(3)']
    assert "seat gap (pp)" in shown["sweep"] and "6I; IO" in shown["sweep"]
    # a temporary run leaves nothing in the folder the notebook runs in
    assert list(tmp_path.iterdir()) == []
