"""The scenarios and the card file that ship with simsym, named ``simsym:NAME``.

There is one copy of them: the files of ``scenarios/`` in a checkout. ``setup.py`` maps that
folder into the package as ``simsym/data/``, so a wheel (``pip install .``, pipx) carries the
base scenario, its card file and every example scenario as package data, read here through
:mod:`importlib.resources`. Running from a checkout (an editable install, ``PYTHONPATH``) there
is no ``simsym/data/`` and the same files are read from ``scenarios/`` beside the package.

A scenario file names a packaged scenario as ``extends: simsym:base``; the commands take
``simsym:NAME`` wherever they take a scenario path (``simsym run simsym:plato-nerf``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from simsym.errors import InputError, SimsymError, closest

PREFIX = "simsym:"
CHECKOUT_SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CARD_FILE = Path("cards") / "symposion.yaml"  # the deck, relative to the scenarios


CHECKOUT_DOCS = Path(__file__).resolve().parents[2] / "docs"


def doc_text(name: str) -> str:
    """A document that ships with simsym (``docs/NAME`` of a checkout, mapped into the package
    as ``simsym/docs/``): the rulings, the rules text, the rule-option table."""
    packaged = files("simsym") / "docs" / name
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (CHECKOUT_DOCS / name).read_text(encoding="utf-8")


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

