"""Scenarios: a YAML file naming the cards, the rule options, the table and the run.

``extends: other.yaml`` loads that file first; mappings are merged key by key, anything else
is replaced, so a variant restates only what it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from simsym.cards.loader import apply_overrides, load_card_file
from simsym.cards.model import CardSet
from simsym.errors import InputError, did_you_mean
from simsym.rules import RuleOptions, rules_from_mapping
from simsym.strategies import StrategyConfig, make_strategy
from simsym.yamlio import LineDict, line_of, load_yaml_file

REPO_ROOT = Path(__file__).resolve().parent.parent
BASE_SCENARIO = REPO_ROOT / "scenarios" / "base.yaml"

TOP_KEYS = ("name", "description", "extends", "cards", "rules", "players", "strategies",
            "seating", "games", "seed", "sweep")
CARD_KEYS = ("file", "overrides", "add", "remove")
MAX_EXTENDS_DEPTH = 32
SEATINGS = ("mirror", "rotate", "random")


@dataclass
class Scenario:
    name: str
    path: str
    cards: CardSet
    rules: RuleOptions
    players: int = 4
    games: int = 100_000
    seed: int = 0
    seating: str = "mirror"
    strategies: list[StrategyConfig] = field(default_factory=list)
    description: str = ""
    raw: dict = field(default_factory=dict, repr=False)


def _merge(base: dict, over: dict) -> dict:
    out = LineDict(base)
    out.line = getattr(over, "line", getattr(base, "line", 1))
    out.key_lines = dict(getattr(base, "key_lines", {}))
    out.key_lines.update(getattr(over, "key_lines", {}))
    out.origin = dict(getattr(base, "origin", {}))
    out.origin.update(getattr(over, "origin", {}))
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _load_raw(path: Path, chain: tuple[Path, ...]) -> dict:
    if len(chain) > MAX_EXTENDS_DEPTH:
        raise InputError(f"'extends' nests deeper than {MAX_EXTENDS_DEPTH} files", str(path))
    data = load_yaml_file(path)
    file = str(path)
    if data is None:
        raise InputError("the file is empty; a scenario is a mapping (see scenarios/base.yaml)",
                         file, 1)
    if not isinstance(data, dict):
        raise InputError(f"a scenario must be a mapping of keys to values, found a "
                         f"{type(data).__name__}", file, 1)
    for k in data:
        if k not in TOP_KEYS:
            raise InputError(f"unknown key {k!r}{did_you_mean(str(k), TOP_KEYS)}; allowed: "
                             + ", ".join(TOP_KEYS), file, line_of(data, k), str(k))
    data.origin = {k: file for k in data}
    # A card file path is relative to the scenario that names it: resolve it before merging.
    cards = data.get("cards")
    if isinstance(cards, str):
        spec = LineDict(file=str(path.parent / cards))
        spec.line, spec.key_lines = line_of(data, "cards", 1), {"file": line_of(data, "cards")}
        data["cards"] = spec
    elif isinstance(cards, dict) and isinstance(cards.get("file"), str):
        cards["file"] = str(path.parent / cards["file"])
    if "extends" in data:
        parent = data["extends"]
        if not isinstance(parent, str) or not parent:
            raise InputError("extends must be the path of another scenario file", file,
                             line_of(data, "extends"), "extends")
        ppath = (path.parent / parent).resolve()
        if ppath in chain or ppath == path.resolve():
            names = " -> ".join(p.name for p in (*chain, path.resolve(), ppath))
            raise InputError(f"'extends' is circular: {names}", file, line_of(data, "extends"),
                             "extends")
        if not ppath.exists():
            raise InputError(f"extends: {parent!r} not found (looked for {ppath})", file,
                             line_of(data, "extends"), "extends")
        base = _load_raw(ppath, (*chain, path.resolve()))
        base.pop("extends", None)
        base.pop("name", None)
        data = _merge(base, data)
    return data


def _int(data, key, lo, hi, default, file):
    if key not in data:
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise InputError(f"expected a whole number from {lo} to {hi}, found {v!r}", file,
                         line_of(data, key), key)
    return v


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate a scenario file; every problem is an InputError naming file and key."""
    path = Path(path)
    data = _load_raw(path, ())
    origin = getattr(data, "origin", {})

    def where(key):
        return origin.get(key, str(path))

    # Cards.
    cfile = where("cards")
    spec = data.get("cards", str(path.parent / "cards" / "symposion.yaml"))
    if isinstance(spec, str):
        spec = LineDict(file=spec)
        spec.line, spec.key_lines = line_of(data, "cards", 1), {}
    if not isinstance(spec, dict):
        raise InputError("cards must be a card file path or a mapping with file/overrides/add/"
                         "remove", cfile, line_of(data, "cards"), "cards")
    for k in spec:
        if k not in CARD_KEYS:
            raise InputError(f"unknown key {k!r}{did_you_mean(str(k), CARD_KEYS)}; allowed: "
                             + ", ".join(CARD_KEYS), cfile, line_of(spec, k), f"cards.{k}")
    full = spec.get("file", str(path.parent / "cards" / "symposion.yaml"))
    if not isinstance(full, str):
        raise InputError("cards.file must be a path", cfile, line_of(spec, "file"), "cards.file")
    if not Path(full).is_file():
        raise InputError(f"card file not found: {full}", cfile, line_of(spec, "file"),
                         "cards.file")
    cards = load_card_file(full)
    for key, kind in (("overrides", dict), ("add", dict), ("remove", list)):
        if key in spec and spec[key] is not None and not isinstance(spec[key], kind):
            raise InputError(f"cards.{key} must be a {'mapping' if kind is dict else 'list'}",
                             cfile, line_of(spec, key), f"cards.{key}")
    cards = apply_overrides(cards, spec.get("overrides"), spec.get("add"), spec.get("remove"),
                            cfile, line_of(spec, "overrides", line_of(data, "cards")))
    if not len(cards):
        raise InputError("the deck has no cards left", cfile, line_of(data, "cards"), "cards")

    rules = rules_from_mapping(data.get("rules"), file=where("rules"),
                               line_of=lambda k: line_of(data.get("rules") or {}, k,
                                                         line_of(data, "rules")))
    file = str(path)
    players = _int(data, "players", 2, 6, 4, where("players"))
    games = _int(data, "games", 1, 10**12, 100_000, where("games"))
    seed = _int(data, "seed", 0, 2**63 - 1, 0, where("seed"))
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise InputError("name must be non-empty text", file, line_of(data, "name"), "name")
    if rules.seat_compensation and len(rules.seat_compensation) != players:
        raise InputError(f"seat_compensation has {len(rules.seat_compensation)} values for "
                         f"{players} players; give one a seat", where("rules"),
                         line_of(data.get("rules") or {}, "seat_compensation"),
                         "rules.seat_compensation")
    need = players * rules.hand_size
    if cards.deck_size < need:
        raise InputError(f"the deck has {cards.deck_size} cards, too few to deal "
                         f"{rules.hand_size} to each of {players} players ({need} needed)",
                         cfile, line_of(data, "cards"), "cards")
    seating = data.get("seating", "mirror")
    if seating not in SEATINGS:
        raise InputError(f"unknown seating {seating!r}{did_you_mean(str(seating), SEATINGS)}; "
                         "allowed: " + ", ".join(SEATINGS), where("seating"),
                         line_of(data, "seating"), "seating")
    raw_strats = data.get("strategies", ["greedy"])
    sfile = where("strategies")
    if isinstance(raw_strats, (str, dict)):
        raw_strats = [raw_strats]
    if not isinstance(raw_strats, list) or not raw_strats:
        raise InputError("strategies must be a non-empty list of strategy families or "
                         "mappings", sfile, line_of(data, "strategies"), "strategies")
    if len(raw_strats) > players:
        raise InputError(f"{len(raw_strats)} strategies for {players} seats; at most one a "
                         "seat", sfile, line_of(data, "strategies"), "strategies")
    strategies = [make_strategy(e, sfile, line_of(e, "family", line_of(data, "strategies"))
                                if isinstance(e, dict) else line_of(data, "strategies"),
                                f"strategies[{i}]", base_dir=Path(sfile).parent)
                  for i, e in enumerate(raw_strats)]
    if seating == "mirror" and len(strategies) != 1:
        raise InputError("seating 'mirror' puts one strategy in every seat: list exactly one "
                         "(use 'rotate' or 'random' to mix strategies)", sfile,
                         line_of(data, "strategies"), "strategies")
    return Scenario(name=name.strip(), path=file, cards=cards, rules=rules, players=players,
                    games=games, seed=seed, seating=seating, strategies=strategies,
                    description=str(data.get("description", "")), raw=data)
