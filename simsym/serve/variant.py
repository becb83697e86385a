"""A variant of the served scenario: what the page's form says, written as a scenario YAML.

The page edits a variant of the scenario `simsym serve` started with (the base): card
notations and copies, rule options, players, seating and strategies. A variant is a scenario
that ``extends`` the base and restates only what the form changed, so it is checked by
:func:`simsym.model.scenario.load_scenario` -- the code `simsym validate` runs, with the same
messages -- and saved exactly as it was checked.

A form field counts as changed when its text differs from the base's (after trimming), so
an untouched form is the base itself and retyping a value is no change.

A base judged by two tables (`judges:`) has a `judges` field instead of a table in
`strategies` (left empty): a variant keeps the base's judges unless it changes them, so each
judge's table of the variant differs from the base's only by what the form changed. Typing
strategies gives the variant one table of its own, as `strategies:` does in a file.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from simsym.errors import InputError, SimsymError
from simsym.model.rules import RuleOptions
from simsym.model.scenario import JUDGE_ROLES, Scenario, load_scenario
from simsym.model.yamlsyntax import explain

VARIANT_FILE = "variant.yaml"  # how an unsaved variant's file is named in messages
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
NAME_RULE = ("1 to 64 letters, digits, '-' or '_', starting with a letter or digit "
             "(it becomes NAME.yaml in the scenarios folder)")


def flow(value) -> str:
    """A value as the one-line YAML the form shows (true, 9, [3, 5], null, greedy)."""
    if isinstance(value, tuple):
        value = list(value)
    return yaml.safe_dump(plain(value), default_flow_style=True, width=10**6).strip() \
        .removesuffix("\n...").removesuffix("...").strip()


def plain(value):
    """Plain dicts, lists and scalars (YAML's line-remembering dicts and tuples unwrapped)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def base_fields(base: Scenario) -> dict[str, str]:
    """Every form field of the base, by field name, as the text the form shows."""
    out = {}
    for i, card in enumerate(base.cards):
        out[f"text-{i}"] = card.text
        out[f"copies-{i}"] = str(card.copies)
    for name in RuleOptions.names():
        out[f"rule-{name}"] = flow(getattr(base.rules, name))
    out["players"] = str(base.players)
    out["seating"] = base.seating
    if base.judges:
        out["judges"] = flow({r: _strategy_entry(base.judges[r]) for r in JUDGE_ROLES})
        out["strategies"] = ""  # the judges' tables; a list here replaces them
    else:
        out["strategies"] = flow([_strategy_entry(s) for s in base.strategies])
    return out


def _strategy_entry(s):
    """A strategy as the shortest YAML entry: its family name, or family plus the parameters
    it sets away from their defaults."""
    from simsym.model.strategies import parameters

    spec = parameters(s.family)
    changed = {k: v for k, v in s.params if k in spec and v != spec[k][0]}
    return {"family": s.family, **changed} if changed else s.family


@dataclass
class Variant:
    """The form's changes to the base. ``fields``: every field's text as submitted."""

    fields: dict[str, str]
    changed: dict[str, str] = field(default_factory=dict)  # the fields that differ from the base

    @classmethod
    def from_form(cls, base: Scenario, form) -> "Variant":
        ref = base_fields(base)
        fields = {k: str(form.get(k, v)) for k, v in ref.items()}
        changed = {k: v for k, v in fields.items() if v.strip() != ref[k].strip()}
        return cls(fields, changed)

    @property
    def key(self) -> str:
        return json.dumps(self.changed, sort_keys=True)

    def describe(self, base: Scenario) -> list[str]:
        """One line per change: 'Krater: "1W, Container" -> "2W, Container"'."""
        ref = base_fields(base)
        out = []
        for k, v in self.changed.items():
            label = _label(base, k)
            was = ref[k] or ("the judges" if k == "strategies" else "(empty)")
            out.append(f"{label}: {was} \u2192 {v.strip() or '(empty)'}")
        return out


def _label(base: Scenario, field_name: str) -> str:
    kind, _, rest = field_name.partition("-")
    if kind in ("text", "copies"):
        name = base.cards[int(rest)].name
        return name if kind == "text" else f"{name} copies"
    if kind == "rule":
        return f"rules.{rest}"
    return field_name


def _parse(text: str, key: str):
    """A field's text read as YAML (so 9 is a number and [3, 5] a list), or a clear error."""
    try:
        return yaml.safe_load(text) if text.strip() else None
    except yaml.MarkedYAMLError as e:
        what = explain(e, text.strip(), whole="the text").message.split("; the line reads")[0]
    except yaml.YAMLError as e:
        what = str(getattr(e, "problem", None) or e).splitlines()[0]
    raise InputError(f"cannot read it: {what}; write a YAML value (true, 9, [3, 5], null)",
                     VARIANT_FILE, None, key) from None


def to_mapping(base: Scenario, variant: Variant, extends: str, name: str) -> dict:
    """The variant as a scenario mapping: ``extends`` the base, plus what changed."""
    problems = []
    data: dict = {"name": name, "extends": extends}
    overrides: dict = {}
    for k, v in variant.changed.items():
        kind, _, rest = k.partition("-")
        try:
            if kind in ("text", "copies"):
                card = base.cards[int(rest)]
                entry = overrides.setdefault(card.name, {})
                if kind == "text":
                    entry["text"] = v.strip()
                else:
                    entry["copies"] = _parse(v, f"cards.overrides.{card.name}.copies")
            elif kind == "rule":
                data.setdefault("rules", {})[rest] = _parse(v, f"rules.{rest}")
            elif k == "seating":
                data["seating"] = v.strip()
            else:
                data[k] = _parse(v, k)
        except InputError as e:
            problems.append(e)
    if problems:
        from simsym.errors import InputErrors

        raise InputErrors(problems)
    if overrides:
        data["cards"] = {"overrides": {n: (e["text"] if list(e) == ["text"] else e)
                                       for n, e in overrides.items()}}
    return data


def to_yaml(mapping: dict) -> str:
    return yaml.safe_dump(mapping, sort_keys=False, allow_unicode=True, width=100)


@dataclass
class Checked:
    """A variant after validation: its YAML text, the scenario (None when it has problems),
    the problems as `simsym validate` prints them, and which field each problem is about."""

    text: str
    scenario: Scenario | None
    problems: list[str]
    field_problems: dict[str, str]


def check(base: Scenario, variant: Variant, name: str = "variant") -> Checked:
    """Validate the variant through ``load_scenario``, as `simsym validate` would the file."""
    base_path = str(Path(base.path).resolve())
    try:
        mapping = to_mapping(base, variant, base_path, name)
    except InputError as e:
        return _problems(base, variant, "", e.errors)
    text = to_yaml(mapping)
    with tempfile.TemporaryDirectory(prefix="simsym-serve-") as tmp:
        path = Path(tmp) / VARIANT_FILE
        path.write_text(text)
        try:
            scenario = load_scenario(path)
        except SimsymError as e:
            return _problems(base, variant, text, getattr(e, "errors", [e]), str(path))
    scenario.path = base.path  # a python strategy's file is looked for beside the base
    return Checked(text, scenario, [], {})


def _problems(base: Scenario, variant: Variant, text: str, errors, path: str = "") -> Checked:
    """The variant's problems as the page shows them: each about a field the designer edited
    names that field (Plato: notation "5X; IO": ...), not the file the form was written to."""
    lines, by_field = [], {}
    for e in errors:
        target, msg = _for_page(base, variant, e, path)
        lines.append(msg)
        if target:
            by_field[target] = by_field.get(target, "") + ("\n" if target in by_field else "") \
                + msg
    return Checked(text, None, lines, by_field)


def _field_of(base: Scenario, key: str) -> str | None:
    """The form field a problem's key is about (text-3, copies-3, rule-hand_size, players)."""
    names = {c.name.casefold(): i for i, c in enumerate(base.cards)}
    m = re.match(r"^cards\.overrides\.(.+?)(\.copies|\.text)?$", key)
    if m and m[1].casefold() in names:
        i = names[m[1].casefold()]
        return f"copies-{i}" if m[2] == ".copies" else f"text-{i}"
    if key.startswith("rules."):
        return "rule-" + key.split(".")[1].split("[")[0]
    if key.split(".")[0].split("[")[0] in ("players", "seating", "strategies", "judges"):
        return key.split(".")[0].split("[")[0]
    return None


def _is_variant_file(file, path: str) -> bool:
    if file == VARIANT_FILE:
        return True
    return bool(file and path) and Path(file).resolve() == Path(path).resolve()


def _for_page(base: Scenario, variant: Variant, e, path: str) -> tuple[str | None, str]:
    """(the field ``e`` is about, its message naming that field and what was typed there)."""
    if not isinstance(e, InputError):
        return None, str(e)
    key = e.key or ""
    target = _field_of(base, key)
    if not _is_variant_file(e.file, path):  # the base's own files: where they say
        return target, e.format()
    message = e.message
    if target is None:
        return None, f"{key}: {message}" if key else message
    kind, _, rest = target.partition("-")
    typed = variant.fields.get(target, "").strip()
    if kind in ("text", "copies"):
        card = base.cards[int(rest)].name
        message = message.removeprefix(f"card {card!r}: ")
        label = f"{card}: {'notation' if kind == 'text' else 'copies'}"
    else:
        label = _label(base, target)
    own = {"text": None, "copies": None, "rule": f"rules.{rest}"}.get(kind, target)
    if key and key != own and not key.startswith("cards.overrides."):
        message = f"{key}: {message}"  # a part of the field: strategies[1].family
    return target, f'{label} "{typed}": {message}'


def categories(base: Scenario, checked: Checked) -> list[str]:
    """Each base card's category as the variant has it (the base's while it has problems)."""
    cards = checked.scenario.cards if checked.scenario is not None else None
    out = []
    for c in base.cards:
        k = cards.index(c.name) if cards is not None else None
        out.append(cards[k].category if k is not None else c.category)
    return out


def save_path(folder: Path, name: str) -> Path:
    """``folder/NAME.yaml`` for a valid name; anything else (a path, '..') is refused."""
    name = name.strip()
    if not NAME.match(name):
        raise SimsymError(f"scenario name {name!r}: allowed: {NAME_RULE}")
    folder = folder.resolve()
    path = (folder / f"{name}.yaml").resolve()
    if path.parent != folder:  # pragma: no cover - the pattern already excludes it
        raise SimsymError(f"scenario name {name!r}: outside the scenarios folder {folder}")
    return path


def saved_text(base: Scenario, variant: Variant, folder: Path, name: str) -> str:
    """The YAML saved as ``folder/NAME.yaml``: ``extends`` the base by a relative path, or by
    its packaged name (``simsym:base``) when the base is a scenario installed with simsym."""
    from simsym.model import packaged

    rel = os.path.relpath(Path(base.path).resolve(), folder.resolve())
    if packaged.installed_name(base.path):
        rel = packaged.installed_name(base.path)
    header = f"# A variant of {Path(base.path).name}, saved by `simsym serve`.\n"
    return header + to_yaml(to_mapping(base, variant, rel, name))
