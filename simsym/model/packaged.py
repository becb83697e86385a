"""The scenarios, the card file and the docs that ship with simsym.

There is one copy of them: the files of ``scenarios/`` in a checkout. ``setup.py`` maps that
folder into the package as ``simsym/data/``, so a wheel (``pip install .``, pipx) carries the
base scenario, its card file and every example scenario as package data, read here through
:mod:`importlib.resources`. Running from a checkout (an editable install, ``PYTHONPATH``) there
is no ``simsym/data/`` and the same files are read from ``scenarios/`` beside the package.

A scenario file names a packaged scenario as ``extends: simsym:base``; the commands take
``simsym:NAME`` wherever they take a scenario path (``simsym run simsym:plato-nerf``).

The files of ``docs/`` ship the same way, as ``simsym/docs/``; DOCS gives each a topic, the
name ``simsym docs TOPIC`` takes.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import NamedTuple

from simsym.errors import InputError, SimsymError, closest

PREFIX = "simsym:"
CHECKOUT_SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CARD_FILE = Path("cards") / "symposion.yaml"  # the deck, relative to the scenarios


CHECKOUT_DOCS = Path(__file__).resolve().parents[2] / "docs"


class Doc(NamedTuple):
    file: str  # its name in docs/ (simsym/docs/ of an installed simsym)
    about: str  # what it is, in a line
    maintainer: bool = False  # for those who work on simsym itself, not on the game


# Every document of docs/, by topic (`simsym docs TOPIC`), in the order `simsym docs` lists
# them, the designer's first; each `about` fits a line of an 80-column terminal there
# (tests/product/test_docs_cmd.py checks both, and that each file of docs/ has a topic).
DOCS = {
    "guide": Doc("designer-guide.md", "the designer's guide: from a card's value to the "
                 "verdict"),
    "cards": Doc("cards.md", "the card notation: \"5I; IO\", \"1W or 2E; Vintage\", copies"),
    "scenarios": Doc("scenarios.md", "the scenario file: every key, `extends`, how it is "
                     "checked"),
    "options": Doc("rule-options.md", "the rule options a scenario's `rules:` may set"),
    "rulings": Doc("rulings.md", "the rulings on what the rules text leaves open"),
    "rules": Doc("symposion-rules.txt", "the rules text of Symposion"),
    "strategies": Doc("strategies.md", "the players: scripted, search and learned; how "
                      "strong each is"),
    "workbench": Doc("workbench.md", "the workbench in the browser, `simsym serve`"),
    "notebook": Doc("notebook.ipynb", "the notebook API, a worked example (--path: the "
                    ".ipynb file)"),
    "reliability": Doc("reliability.md", "stopped, resumed and failed runs; the exit codes"),
    "cluster": Doc("cluster.md", "big runs on a Dask cluster"),
    "engine": Doc("game-engine.md", "the game engine's contract, which both engines "
                  "implement", maintainer=True),
    "performance": Doc("performance.md", "how the compiled engine is made fast, and measured",
                       maintainer=True),
}


def doc_file(name: str) -> Path:
    """The file of a document that ships with simsym: ``simsym/docs/NAME`` of an installed
    simsym, else ``docs/NAME`` of a checkout."""
    packaged = files("simsym") / "docs" / name
    if packaged.is_file():
        if not isinstance(packaged, Path):  # a zip import: no file to name
            raise SimsymError("simsym is installed inside an archive; its docs need a normal "
                              "install (pip install simsym, not a zipped package)")
        return packaged
    path = CHECKOUT_DOCS / name
    if not path.is_file():
        raise SimsymError(f"{name}: not installed with simsym (looked in {path}); reinstall "
                          "simsym (pip install simsym)")
    return path


def doc_text(name: str) -> str:
    """A document that ships with simsym (``docs/NAME`` of a checkout, mapped into the package
    as ``simsym/docs/``): the rulings, the rules text, the rule-option table, ..."""
    return doc_file(name).read_text(encoding="utf-8")


def doc_topic(topic: str) -> Doc:
    """DOCS[topic]; an InputError naming the topics (and the closest) when there is none."""
    if topic not in DOCS:
        hint = " or ".join(repr(t) for t in closest(topic, list(DOCS)))
        raise InputError(f"no document {topic!r}" + (f" (did you mean {hint}?)" if hint else "")
                         + "; allowed: " + ", ".join(DOCS))
    return DOCS[topic]


def data_dir() -> Path:
    """The folder of the packaged scenarios: ``simsym/data/`` of an installed simsym, else a
    checkout's ``scenarios/``."""
    packaged = files("simsym") / "data"
    if packaged.is_dir():
        if not isinstance(packaged, Path):  # a zip import: the scenarios need real files
            raise SimsymError("simsym is installed inside an archive; its scenarios need a "
                              "normal install (pip install simsym, not a zipped package)")
        return packaged
    return CHECKOUT_SCENARIOS


def names() -> list[str]:
    """The packaged scenarios, without the ``simsym:`` prefix (``base``, ``plato-nerf``, ...)."""
    return sorted(p.stem for p in data_dir().glob("*.yaml"))


def is_packaged(spec) -> bool:
    return isinstance(spec, str) and spec.startswith(PREFIX)


def scenario_file(spec: str, file: str | None = None, line: int | None = None,
                  key: str | None = None) -> Path:
    """The file of ``simsym:NAME``; an InputError at file/line/key naming the allowed names when
    no such scenario ships with simsym."""
    name, allowed = spec[len(PREFIX):].strip(), names()
    if name not in allowed:
        hint = " or ".join(repr(PREFIX + n) for n in closest(name, allowed))
        raise InputError(f"no packaged scenario {spec!r}" + (f" (did you mean {hint}?)" if hint
                                                              else "")
                         + "; allowed: " + ", ".join(PREFIX + n for n in allowed), file, line,
                         key)
    return data_dir() / f"{name}.yaml"


def card_file() -> Path:
    """The packaged deck (what ``simsym init`` copies)."""
    return data_dir() / CARD_FILE


def installed_name(path) -> str | None:
    """``simsym:NAME`` when ``path`` is a scenario of an installed simsym's package data (not
    a checkout's ``scenarios/``, which is the user's own folder): a place to read, never to
    write or to point at by a relative path."""
    folder = data_dir()
    if folder == CHECKOUT_SCENARIOS:
        return None
    p = Path(path).resolve()
    return PREFIX + p.stem if p.parent == Path(folder).resolve() else None

