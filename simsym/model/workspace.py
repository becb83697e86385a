"""``simsym init DIR``: a starter workspace a designer edits, beside no simsym checkout.

Three files: ``game.yaml``, a scenario that extends the packaged base game and plays the deck
of ``cards/symposion.yaml``, an editable copy of the packaged card file (editing it changes
the game); and ``README.md``, what to run next. With ``notebook``, a fourth: ``notebook.ipynb``,
a copy of the example notebook (docs/notebook.ipynb). Existing files are never overwritten
unless asked (``--force``): a workspace holds the designer's own edits.
"""

from __future__ import annotations

import re
from pathlib import Path

from simsym.errors import SimsymError
from simsym.model import packaged

SCENARIO = "game.yaml"
NOTEBOOK = "notebook.ipynb"

_SCENARIO_TEXT = """\
# Your game: the base game as written (simsym:base, shipped with simsym), played with the
# deck of cards/symposion.yaml beside this file. Edit a card there, or restate here only
# what you change (every key: `simsym docs scenarios`; every rule: `simsym options`).
extends: simsym:base
name: {name}
cards: {cards}       # your copy of the deck: edit a value, run again
# rules:                        # every rule option: `simsym options`
#   hand_size: 9
# players: 4                    # 2 to 6
# seating: mirror               # mirror, rotate or random
# strategies: [greedy]          # greedy, patient, specialist, random, lookahead
# games: 100000
# seed: 20261130
"""

_README_TEXT = """\
# {name}: a simsym workspace

- `{scenario}`: your scenario. It `extends: simsym:base` (the game as written, shipped
  with simsym) and plays the deck of `{cards}`.
- `{cards}`: your copy of the 75 cards, in the rules' own notation
  (`Plato: "5I; IO"`). Edit a value, add a card or give one `copies: 2`.
{notebook_item}
What to run next, from this folder:

```sh
simsym validate {scenario}                   # check it: file, line and key of any problem
simsym run {scenario} --games 5000           # a quick look -> reports/{name}/report.md
simsym run {scenario}                        # the full count, for a verdict
simsym compare simsym:base {scenario} --games 20000   # your deck against the original
simsym best Plato Grapes Vines Krater        # the best Symposion of a hand
simsym docs guide                            # the designer's guide: how to read the report
```

The guide, the card notation, the rulings ship with simsym: `simsym docs` lists them.
Scenarios shipped with simsym, to extend or run by name: {names}.
"""

_NOTEBOOK_ITEM = """\
- `{notebook}`: the notebook API, a worked example; open it in Jupyter from this folder,
  where `ss.scenario("{scenario}")` is your game (Jupyter does not come with simsym:
  `pip install jupyterlab` into the same environment).
"""

_NO_NOTEBOOK_ITEM = """\
- The notebook API's worked example: `simsym docs notebook`; to run it here, copy it:
  `cp "$(simsym docs --path notebook)" .`
"""


def _slug(directory: Path) -> str:
    """A scenario name from the folder's name (letters, digits, '-', '_', '.'), else 'game'."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", directory.resolve().name).strip("-.")
    return name or "game"


def plan(directory: Path, notebook: bool = False) -> dict[Path, str]:
    """The files of a workspace in ``directory``, path -> text; with ``notebook``, the
    example notebook too."""
    name = _slug(directory)
    cards = packaged.CARD_FILE.as_posix()
    fields = {"name": name, "scenario": SCENARIO, "cards": cards, "notebook": NOTEBOOK,
              "names": ", ".join(f"`{packaged.PREFIX}{n}`" for n in packaged.names())}
    fields["notebook_item"] = (_NOTEBOOK_ITEM if notebook else _NO_NOTEBOOK_ITEM).format(
        **fields)
    files = {directory / SCENARIO: _SCENARIO_TEXT.format(**fields),
             directory / packaged.CARD_FILE: packaged.card_file().read_text(encoding="utf-8"),
             directory / "README.md": _README_TEXT.format(**fields)}
    if notebook:
        files[directory / NOTEBOOK] = packaged.doc_text(packaged.DOCS["notebook"].file)
    return files


def write_workspace(directory, force: bool = False, notebook: bool = False) -> list[Path]:
    """Write the workspace files into ``directory`` (created if missing); the paths written.

    Refuses (SimsymError, nothing written) when any of them exists, unless ``force``."""
    directory = Path(directory)
    files = plan(directory, notebook)
    if directory.exists() and not directory.is_dir():
        raise SimsymError(f"{directory}: exists and is not a directory; allowed: a new or "
                          "existing directory")
    taken = [p for p in files if p.exists()]
    if taken and not force:
        raise SimsymError(f"{directory}: would overwrite {', '.join(str(p) for p in taken)}; "
                          "allowed: a directory without them, or --force to overwrite")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
