"""`simsym docs`: every shipped document by a topic, printed as written, its installed path;
the wheel carries them all (the notebook too); and text shown to a user that cites a document
names the command that shows it."""

import json
import re
import subprocess
import sys
import zipfile

import pytest
from click.testing import CliRunner

from simsym.cli.main import COMMANDS, main
from simsym.model.packaged import DOCS
from simsym.model.scenario import REPO_ROOT

DOCS_DIR = REPO_ROOT / "docs"
SHIPPED = ("*.md", "*.txt", "*.ipynb")  # setup.py's package data of simsym.docs


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_every_file_of_docs_has_a_topic():
    files = sorted(p.name for pattern in SHIPPED for p in DOCS_DIR.glob(pattern))
    assert sorted(d.file for d in DOCS.values()) == files


def test_docs_lists_the_topics_a_line_each_the_maintainers_apart():
    r = cli("docs")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    rows = [line.split(None, 1) for line in lines if line.startswith("  ")]
    assert [name for name, _ in rows] == list(DOCS)
    assert all(about == DOCS[name].about for name, about in rows)
    heading = lines.index("For simsym's maintainers:")
    below = {line.split()[0] for line in lines[heading:] if line.startswith("  ")}
    assert below == {name for name, d in DOCS.items() if d.maintainer} == {"engine",
                                                                           "performance"}
    for name in ("guide", "cards", "options", "rulings", "rules", "scenarios", "strategies",
                 "workbench", "notebook"):
        assert not DOCS[name].maintainer and f"  {name} " in r.output


@pytest.mark.parametrize("topic", [t for t in DOCS if not DOCS[t].file.endswith(".ipynb")])
def test_each_topic_prints_its_document_as_written(topic):
    r = cli("docs", topic)
    assert r.exit_code == 0, r.output
    text = (DOCS_DIR / DOCS[topic].file).read_text(encoding="utf-8")
    assert r.output == text + ("" if text.endswith("\n") else "\n")  # the last line ended


def test_the_notebook_prints_as_its_cells_in_order():
    r = cli("docs", "notebook")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].startswith(f"The notebook {DOCS_DIR / 'notebook.ipynb'},")
    at = 0
    for cell in json.loads((DOCS_DIR / "notebook.ipynb").read_text())["cells"]:
        text = "".join(cell["source"])
        shown = f"```python\n{text}\n```" if cell["cell_type"] == "code" else text
        found = r.output.find(shown, at)
        assert found >= at, text
        at = found + len(shown)
    assert '"cell_type"' not in r.output  # text, not the file's JSON


def test_names_the_guide_topics():
    """The designer's topics: the guide, the card notation, the rule options, the rulings, the
    rules text, the scenarios and the notebook, each with its file."""
    assert {t: DOCS[t].file for t in ("guide", "cards", "options", "rulings", "rules",
                                      "scenarios", "notebook")} == {
        "guide": "designer-guide.md", "cards": "cards.md", "options": "rule-options.md",
        "rulings": "rulings.md", "rules": "symposion-rules.txt", "scenarios": "scenarios.md",
        "notebook": "notebook.ipynb"}


def test_an_unknown_topic_is_one_line_naming_the_topics():
    r = cli("docs", "gide")
    assert r.exit_code == 2
    assert r.output == ("simsym: error: no document 'gide' (did you mean 'guide' or "
                        "'engine'?); allowed: " + ", ".join(DOCS) + "\n")
    r = cli("docs", "nothing-like-it", "--path")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.endswith("; allowed: " + ", ".join(DOCS) + "\n")


def test_path_prints_the_file_or_the_folder():
    for topic, doc in DOCS.items():
        r = cli("docs", "--path", topic)
        assert r.exit_code == 0, r.output
        assert r.output == f"{DOCS_DIR / doc.file}\n"  # a checkout reads its own docs/
    r = cli("docs", "--path")
    assert r.exit_code == 0 and r.output == f"{DOCS_DIR}\n"


def test_the_wheel_ships_every_document_and_simsym_docs_reads_it_there(tmp_path):
    """The wheel's simsym.docs holds every topic's file (the notebook too), importlib.resources
    finds them, and `simsym docs` of that package prints them from there."""
    from tests.product.test_install import _build_wheel

    wheel = _build_wheel(tmp_path)
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        for doc in DOCS.values():
            assert z.read(f"simsym/docs/{doc.file}") == (DOCS_DIR / doc.file).read_bytes()
        z.extractall(site)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    names = json.dumps([d.file for d in DOCS.values()])
    code = ("import json\nfrom importlib.resources import files\n"
            "import simsym\nprint(simsym.__file__)\n"
            f"print(all((files('simsym.docs') / n).is_file() for n in json.loads({names!r})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=work, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [str(site / "simsym" / "__init__.py"), "True"]

    def simsym(*args):
        return subprocess.run([sys.executable, "-m", "simsym.cli.main", *args], cwd=work,
                              env=env, capture_output=True, text=True)

    r = simsym("docs", "--path", "notebook")
    assert r.returncode == 0 and r.stdout == f"{site / 'simsym' / 'docs' / 'notebook.ipynb'}\n"
    r = simsym("docs", "cards")
    assert r.returncode == 0 and r.stdout == (DOCS_DIR / "cards.md").read_text()
    r = simsym("docs", "notebook")
    assert r.returncode == 0 and "import simsym.api as ss" in r.stdout


# --- text shown to a user names `simsym docs TOPIC` -------------------------------------------

def _help(name):
    return " ".join(cli(name, "--help").output.split()) if name else " ".join(
        cli("--help").output.split())


@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_a_help_that_cites_a_document_names_the_command_that_shows_it(name):
    """The group's help, each command's help and each of its options' help: any that cites a
    file of docs/ names the `simsym docs TOPIC` that shows it, in the same text."""
    cmd = main if name is None else main.get_command(None, name)
    texts = [cmd.help or ""] + [getattr(p, "help", None) or "" for p in cmd.params]
    for text in texts:
        text = " ".join(text.split())
        for topic, doc in DOCS.items():
            if doc.file in text:
                assert f"simsym docs {topic}" in text, (name, text)


def test_the_designer_commands_help_point_at_the_docs():
    assert "simsym docs rulings" in _help("options") and "simsym docs rules" in _help("options")
    assert "simsym docs guide" in _help("run") and "simsym docs workbench" in _help("serve")
    assert "simsym docs scenarios" in _help("validate")
    rulings = next(p.help for p in main.get_command(None, "options").params
                   if p.name == "rulings")
    assert "`simsym docs rulings`" in rulings and "`simsym docs rules`" in rulings


def test_every_cited_topic_exists():
    """Each `simsym docs TOPIC` the package, the README, the docs or the notebook cite is a
    topic."""
    texts = [p.read_text(encoding="utf-8") for p in (REPO_ROOT / "simsym").rglob("*.py")]
    texts += [(REPO_ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for pattern in SHIPPED
              for p in DOCS_DIR.glob(pattern)]
    cited = {m.group(1) for t in texts
             for m in re.finditer(r"simsym\s+docs\s+(?:--path\s+)?([a-z][a-z-]*)", t)}
    assert cited - {"docs"} and cited <= set(DOCS), sorted(cited - set(DOCS))
