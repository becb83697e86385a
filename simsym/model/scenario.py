"""Scenarios: a YAML file naming the cards, the rule options, the table and the run.

``extends: other.yaml`` loads that file first; mappings are merged key by key, anything else
is replaced, so a variant restates only what it changes. ``extends: simsym:base`` (or any
``simsym:NAME``, :mod:`simsym.model.packaged`) loads a scenario that ships with simsym instead.

Loading validates the whole file (and the files it extends) before anything runs: every
problem found is reported at once (:class:`simsym.errors.InputErrors`), each naming its file,
line and key path, what was found and what is allowed. Only problems after which the rest
cannot be checked (unreadable YAML, an ``extends`` that is missing or circular) stop early.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from simsym.errors import InputError, Problems, did_you_mean, show
from simsym.model import packaged
from simsym.model.cards.loader import apply_overrides, load_card_file
from simsym.model.cards.model import CardSet
from simsym.model.rules import RuleOptions, rules_from_mapping
from simsym.model.strategies import BUILT_IN, FAMILIES, StrategyConfig, make_strategy
from simsym.model.yamlio import LineDict, line_of, line_of_item, load_yaml_file

REPO_ROOT = packaged.CHECKOUT_SCENARIOS.parent  # a checkout's root; site-packages if installed
BASE_SCENARIO = packaged.data_dir() / "base.yaml"

TOP_KEYS = ("name", "description", "extends", "cards", "rules", "players", "strategies",
            "judges", "seating", "games", "seed", "balance", "sweep", "ladder", "tune", "train")
# `balance:` the criteria every report answers "Balanced?" by, in percentage points
# (simsym.analysis.balance): every card's strength within card_band of the table's average,
# the best seat's win share within seat_band of the worst's.
BALANCE_KEYS = ("card_band", "seat_band")
BALANCE_DEFAULT = 3.0
BALANCE_MAX = 50.0
CARD_KEYS = ("file", "overrides", "add", "remove")
LADDER_KEYS = ("strategies",)
MAX_EXTENDS_DEPTH = 32
SEATINGS = ("mirror", "rotate", "random")
PLAYERS = (2, 6)
# The two mirror tables a scenario with `judges:` is judged by, on the same deals: a fast
# scripted table and a strong one; a role the file leaves out takes its default here.
JUDGE_ROLES = ("fast", "strong")
DEFAULT_JUDGES = {"fast": "greedy", "strong": "learned"}
MAX_GAMES = 10**12
MAX_SEED = 2**63 - 1
SWEEP_KINDS = ("card", "rule", "players", "strategies")


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
    # `sweep:` checked: (kind, target, values); a strategies sweep's values are its tables,
    # one StrategyConfig each (a mirror table). None when the scenario has no sweep.
    sweep: tuple | None = None
    ladder: list[StrategyConfig] = field(default_factory=list)  # `ladder: {strategies: ...}`
    # `judges:` {"fast": ..., "strong": ...} (one strategy each, a mirror table); its
    # `strategies` is then the strong judge's table.
    judges: dict | None = None
    judged_by: str | None = None  # the role of the table this scenario is (see judge())
    # the scenario file and the files it extends, nearest first (as loaded)
    files: tuple = ()
    # `balance:` as written, in pp ({"card_band": 3.0, "seat_band": 3.0}); None: the defaults
    balance: dict | None = None

    def judge(self, role: str | None = None) -> "Scenario":
        """This scenario as the mirror table of one judge (``role`` "fast" or "strong",
        default the strong one); a scenario that names its own `strategies:` is its one
        table."""
        if not self.judges:
            return self
        role = role or "strong"
        return replace(self, strategies=[self.judges[role]], judges=None, judged_by=role)


def _merge(base: dict, over: dict) -> dict:
    out = LineDict(base)
    out.line = getattr(over, "line", getattr(base, "line", 1))
    out.key_lines = dict(getattr(base, "key_lines", {}))
    out.key_lines.update(getattr(over, "key_lines", {}))
    out.item_lines = {**getattr(base, "item_lines", {}), **getattr(over, "item_lines", {})}
    out.origin = dict(getattr(base, "origin", {}))
    out.origin.update(getattr(over, "origin", {}))
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _stamp(data, file: str) -> None:
    """Record on every mapping of ``data`` which file each of its keys came from."""
    stack, seen = [data], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            if isinstance(node, LineDict):
                node.origin = {k: file for k in node}
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def file_of(mapping, key, default: str) -> str:
    """The file ``key`` of ``mapping`` was written in (mappings merge across ``extends``)."""
    origin = getattr(mapping, "origin", None)
    if origin:
        try:
            return origin.get(key, default)
        except TypeError:  # an unhashable key
            pass
    return default


def _load_raw(path: Path, chain: tuple[Path, ...], problems: Problems,
              files: list | None = None) -> dict:
    """The file's YAML merged over the files it extends; ``files`` collects their paths,
    this one first."""
    file = str(path)
    if files is not None:
        files.append(path)
    try:
        data = load_yaml_file(path)
    except InputError as e:
        problems.fatal(e)
    if data is None:
        problems.fatal(InputError("the file is empty; a scenario is a mapping of keys to "
                                  "values (see scenarios/base.yaml)", file, 1))
    if not isinstance(data, dict):
        problems.fatal(InputError(f"a scenario must be a mapping of keys to values "
                                  f"(name: ..., rules: ...), found {_a(data)}", file,
                                  getattr(data, "line", 1) or 1))
    for k in list(data):
        if k not in TOP_KEYS:
            problems.add(InputError(f"unknown key {show(k)}{did_you_mean(str(k), TOP_KEYS)}; "
                                    "allowed: " + ", ".join(TOP_KEYS), file, line_of(data, k),
                                    str(k)))
            del data[k]
    # A card file path is relative to the scenario that names it: resolve it before merging.
    cards = data.get("cards")
    if isinstance(cards, str):
        spec = LineDict(file=str(path.parent / cards))
        spec.line, spec.key_lines = line_of(data, "cards", 1), {"file": line_of(data, "cards")}
        data["cards"] = spec
    elif isinstance(cards, dict) and isinstance(cards.get("file"), str):
        cards["file"] = str(path.parent / cards["file"])
    _stamp(data, file)
    if "extends" in data:
        parent = data["extends"]
        eline = line_of(data, "extends")
        if not isinstance(parent, str) or not parent.strip():
            problems.fatal(InputError(f"expected the path of another scenario file or "
                                      f"simsym:NAME, found {show(parent)}", file, eline,
                                      "extends"))
        if packaged.is_packaged(parent):
            try:
                parent = str(packaged.scenario_file(parent, file, eline, "extends"))
            except InputError as e:
                problems.fatal(e)
        try:
            ppath = (path.parent / parent).resolve()
            me = path.resolve()
            exists = ppath.is_file()
        except (OSError, ValueError) as e:
            problems.fatal(InputError(f"cannot use {show(parent)} as a path: {e}", file, eline,
                                      "extends"))
        if ppath in chain or ppath == me:
            names = " -> ".join(p.name for p in (*chain, me, ppath))
            problems.fatal(InputError(f"'extends' is circular: {names}; a scenario may not "
                                      "extend itself", file, eline, "extends"))
        if not exists:
            what = "is a directory" if ppath.is_dir() else "not found"
            problems.fatal(InputError(f"{parent!r} {what} (looked for {ppath}); allowed: the "
                                      "path of a scenario file, relative to this one, or "
                                      "simsym:NAME", file, eline, "extends"))
        if len(chain) + 1 > MAX_EXTENDS_DEPTH:
            problems.fatal(InputError(f"'extends' nests deeper than {MAX_EXTENDS_DEPTH} files "
                                      f"(from {chain[0].name if chain else path.name}); "
                                      f"allowed at most {MAX_EXTENDS_DEPTH}", file, eline,
                                      "extends"))
        base = _load_raw(ppath, (*chain, me), problems, files)
        base.pop("extends", None)
        base.pop("name", None)
        # A variant that names its own table replaces the judges it extends, and the other
        # way round: the two keys are two ways of naming the tables, not one merged spec.
        # A seating alone keeps the judges (their tables are mirror tables: _judges refuses
        # any other seating, where the variant sets it).
        if "strategies" in data:
            base.pop("judges", None)
        if "judges" in data:
            base.pop("strategies", None)
        data = _merge(base, data)
    return data


def _a(value) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {show(value)}"
    return f"{type(value).__name__} {show(value)}"


def _int(data, key, lo, hi, default, file, problems):
    """``data[key]`` as a whole number in [lo, hi]; None (and a problem) if it is not."""
    if key not in data:
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        what = "true/false" if isinstance(v, bool) else show(v)
        problems.add(InputError(f"expected a whole number from {lo} to {hi:,}, found {what}",
                                file_of(data, key, file), line_of(data, key), key))
        return None
    return v


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate a scenario file (or a packaged ``simsym:NAME``). Every problem found is
    raised at once, as an InputError (one problem) or InputErrors (several), each naming file,
    line and key."""
    given = str(path)  # a packaged scenario keeps its portable name (run.json, reports)
    path = packaged.scenario_file(given) if packaged.is_packaged(given) else Path(path)
    problems = Problems()
    files: list[Path] = []
    data = _load_raw(path, (), problems, files)
    file = str(path)

    def where(key):
        return file_of(data, key, file)

    cards = _load_cards(data, path, where, problems)
    rules_map = data.get("rules")
    rules = rules_from_mapping(
        rules_map, file=where("rules"), problems=problems,
        file_of=lambda k: file_of(rules_map, k, where("rules")),
        line_of=lambda k: line_of(rules_map if isinstance(rules_map, dict) else {}, k,
                                  line_of(data, "rules")))
    bad_rule = {e.key for e in problems.items}
    players = _int(data, "players", *PLAYERS, 4, file, problems)
    games = _int(data, "games", 1, MAX_GAMES, 100_000, file, problems)
    seed = _int(data, "seed", 0, MAX_SEED, 0, file, problems)
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        problems.add(InputError(f"expected non-empty text, found {show(name)}", where("name"),
                                line_of(data, "name"), "name"))
        name = path.stem
    description = data.get("description", "")
    if description is None:
        description = ""
    if not isinstance(description, str):
        problems.add(InputError(f"expected text, found {show(description)}",
                                where("description"), line_of(data, "description"),
                                "description"))
    comp = rules.seat_compensation
    if players is not None and comp and len(comp) != players:
        rmap = data.get("rules")
        problems.add(InputError(f"{len(comp)} values for {players} players; allowed: one a "
                                "seat", file_of(rmap, "seat_compensation", where("rules")),
                                line_of(rmap, "seat_compensation", line_of(data, "rules")),
                                "rules.seat_compensation"))
    if cards is not None and players is not None and "rules.hand_size" not in bad_rule:
        need = players * rules.hand_size
        if cards.deck_size < need:
            problems.add(InputError(
                f"the deck has {cards.deck_size} cards, too few to deal {rules.hand_size} to "
                f"each of {players} players; allowed: at least {need} cards (add copies or "
                "cards, or lower players or rules.hand_size)",
                *_deck_site(data, file)))
    seating = data.get("seating", "mirror")
    if not isinstance(seating, str) or seating not in SEATINGS:
        problems.add(InputError(f"unknown seating {show(seating)}"
                                f"{did_you_mean(str(seating), SEATINGS)}; allowed: "
                                + ", ".join(SEATINGS), where("seating"),
                                line_of(data, "seating"), "seating"))
        seating = None
    judges = _judges(data, where, seating, problems, files)
    strategies = ([judges["strong"]] if judges and "strong" in judges
                  else _strategies(data, where, players, seating, problems))
    sweep = _sweep(data, where, problems)
    ladder = _ladder(data, where, problems)
    balance = _balance(data, where, problems)
    problems.raise_if_any()
    return Scenario(name=name.strip(), path=given if packaged.is_packaged(given) else file,
                    cards=cards, rules=rules, players=players,
                    games=games, seed=seed, seating=seating, strategies=strategies,
                    description=description, raw=data, sweep=sweep, ladder=ladder,
                    judges=judges if judges and len(judges) == len(JUDGE_ROLES) else None,
                    files=tuple(files), balance=balance)


def _balance(data, where, problems: Problems) -> dict | None:
    """`balance:` checked: each band a number of percentage points above 0 (``3``, ``2.5``
    or ``"3pp"``); the bands it leaves out take the default. None without the key."""
    if "balance" not in data:
        return None
    raw = data["balance"]
    file, line = where("balance"), line_of(data, "balance")
    if not isinstance(raw, dict):
        problems.add(InputError(f"expected a mapping of the balance criteria, found {_a(raw)}; "
                                "allowed: e.g. {card_band: 3pp, seat_band: 3pp}", file, line,
                                "balance"))
        return None
    _unknown_keys(raw, BALANCE_KEYS, file, line, "balance", problems)
    out = {}
    for k in BALANCE_KEYS:
        if k not in raw:
            out[k] = BALANCE_DEFAULT
            continue
        v = raw[k]
        text = v.strip().removesuffix("pp").strip() if isinstance(v, str) else None
        try:
            num = float(text) if text is not None else (
                float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None)
        except ValueError:
            num = None
        if num is None or not 0 < num <= BALANCE_MAX:
            problems.add(InputError(
                f"expected percentage points above 0 and at most {BALANCE_MAX:g}, found "
                f"{show(v)}; allowed: a number such as 3 or 2.5, or 3pp", file_of(raw, k, file),
                line_of(raw, k, line), f"balance.{k}"))
            continue
        out[k] = num
    return out


def _deck_site(data, file):
    """Where to report a deck too small for the table: the first of cards, players and
    rules.hand_size that the scenario itself sets (the others may be inherited)."""
    rmap = data.get("rules")
    sites = [(file_of(data, "cards", file), line_of(data, "cards"), "cards"),
             (file_of(data, "players", file), line_of(data, "players"), "players"),
             (file_of(rmap, "hand_size", ""), line_of(rmap, "hand_size"), "rules.hand_size")]
    for site in sites:
        if site[0] == file and site[1] is not None:
            return site
    return sites[0]


def _load_cards(data, path: Path, where, problems: Problems) -> CardSet | None:
    """The scenario's deck: its card file with overrides, additions and removals applied.
    None when a problem leaves no deck to check further."""
    cfile = where("cards")
    cline = line_of(data, "cards")
    default = str(path.parent / "cards" / "symposion.yaml")
    spec = data.get("cards", default)
    if isinstance(spec, str):
        spec = LineDict(file=spec)
        spec.line, spec.key_lines = line_of(data, "cards", 1), {}
    if not isinstance(spec, dict):
        problems.add(InputError(f"expected a card file path or a mapping with file/overrides/"
                                f"add/remove, found {show(spec)}", cfile, cline, "cards"))
        return None
    for k in spec:
        if k not in CARD_KEYS:
            problems.add(InputError(f"unknown key {show(k)}{did_you_mean(str(k), CARD_KEYS)}; "
                                    "allowed: " + ", ".join(CARD_KEYS),
                                    file_of(spec, k, cfile), line_of(spec, k), f"cards.{k}"))
    changes = {}
    for key, kind in (("overrides", dict), ("add", dict), ("remove", list)):
        value = spec.get(key)
        if value is not None and not isinstance(value, kind):
            want = "mapping of card name to notation" if kind is dict else "list of card names"
            problems.add(InputError(f"expected a {want}, found {show(value)}",
                                    file_of(spec, key, cfile), line_of(spec, key, cline),
                                    f"cards.{key}"))
            value = None
        changes[key] = value
    full = spec.get("file", default)
    fline = line_of(spec, "file", cline)
    if not isinstance(full, str) or not full.strip():
        problems.add(InputError(f"expected the path of a card file, found {show(full)}",
                                file_of(spec, "file", cfile), fline, "cards.file"))
        return None
    try:
        found = Path(full).is_file()
    except (OSError, ValueError):
        found = False
    if not found:
        problems.add(InputError(f"card file not found: {full}", file_of(spec, "file", cfile),
                                fline, "cards.file"))
        return None
    before = len(problems)
    cards = load_card_file(full, problems)
    if cards is None or len(problems) > before:
        return None  # fix the card file first: its cards are what the rest is checked against
    before = len(problems)
    cards = apply_overrides(cards, changes["overrides"], changes["add"], changes["remove"],
                            file_of(spec, "overrides", cfile),
                            line_of(spec, "overrides", cline), problems=problems,
                            remove_at=(file_of(spec, "remove", cfile),
                                       line_of(spec, "remove", cline)))
    if len(problems) > before:
        return None
    if not len(cards):
        problems.add(InputError("the deck has no cards left; allowed: at least one card",
                                cfile, cline, "cards"))
        return None
    return cards


def _strategies(data, where, players, seating, problems: Problems):
    raw = data.get("strategies", ["greedy"])
    sfile = where("strategies")
    sline = line_of(data, "strategies")
    if isinstance(raw, (str, dict)):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        problems.add(InputError("expected a non-empty list of strategies (family names: "
                                + ", ".join(FAMILIES) + f"; or mappings), found {show(raw)}",
                                sfile, sline, "strategies"))
        return []
    if players is not None and len(raw) > players:
        problems.add(InputError(f"{len(raw)} strategies for {players} players; allowed: at "
                                "most one a seat", sfile, sline, "strategies"))
    if seating == "mirror" and len(raw) != 1:
        problems.add(InputError(f"seating 'mirror' puts one strategy in every seat, found "
                                f"{len(raw)}; list exactly one (or use seating 'rotate' or "
                                "'random' to mix strategies)", sfile, sline, "strategies"))
    return _strategy_entries(raw, sfile, sline, "strategies", problems, data, "strategies")


def _unknown_keys(mapping: dict, allowed, file, line, parent: str, problems: Problems):
    """A problem for each key of ``mapping`` (the value of ``parent``) not in ``allowed``."""
    for k in mapping:
        if k not in allowed:
            problems.add(InputError(f"unknown key {show(k)}{did_you_mean(str(k), allowed)}"
                                    "; allowed: " + ", ".join(allowed),
                                    file_of(mapping, k, file), line_of(mapping, k, line),
                                    f"{parent}.{k}"))


def _judges(data, where, seating, problems: Problems, files=()) -> dict | None:
    """The two judges' strategies, {"fast": ..., "strong": ...}, or None when the scenario
    has no `judges:` (its table is `strategies:`). ``files``: the scenario's files, nearest
    first (a seating that is not mirror is reported where the nearer of the two keys is)."""
    if "strategies" in data:
        if "judges" in data:
            problems.add(InputError(
                "a scenario names its tables either with `strategies:` (one table, as written) "
                "or with `judges:` (a fast and a strong mirror table on the same deals), not "
                "both; allowed: remove one of the two keys", where("judges"),
                line_of(data, "judges"), "judges"))
        return None
    if "judges" not in data:
        return None
    raw = data["judges"]
    jfile, jline = where("judges"), line_of(data, "judges")
    if seating not in (None, "mirror"):
        problems.add(_seating_under_judges(data, where, seating, files))
        return None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        problems.add(InputError(f"expected a mapping of {' and '.join(JUDGE_ROLES)} to a "
                                f"strategy each, found {_a(raw)}; allowed: e.g. "
                                "{fast: greedy, strong: learned}", jfile, jline, "judges"))
        return {}
    out = {}
    _unknown_keys(raw, JUDGE_ROLES, jfile, jline, "judges", problems)
    for role in JUDGE_ROLES:
        entry = raw.get(role, DEFAULT_JUDGES[role])
        line = line_of(raw, role, jline)
        if isinstance(entry, list):
            problems.add(InputError(f"a judge is one strategy (its mirror table), found a list "
                                    f"of {len(entry)}; allowed: a family name or a mapping",
                                    file_of(raw, role, jfile), line, f"judges.{role}"))
            continue
        try:
            out[role] = make_strategy(entry, file_of(raw, role, jfile), line,
                                      f"judges.{role}",
                                      base_dir=Path(file_of(raw, role, jfile)).parent)
        except InputError as e:
            problems.add(e)
    return out


def _seating_under_judges(data, where, seating, files) -> InputError:
    """The problem of a seating other than mirror beside `judges:`, at the key the nearer
    file sets: a variant's `seating:` over the judges it extends, else the `judges:`."""
    jfile, sfile = where("judges"), where("seating")
    order = [str(f) for f in files]

    def rank(f):
        return order.index(f) if f in order else len(order)

    if sfile != jfile and rank(sfile) < rank(jfile):
        return InputError(
            f"seating {show(seating)} seats several strategies at one table, but this "
            f"scenario is judged by the mirror tables (one strategy in every seat) of the "
            f"`judges:` it extends ({jfile}:{line_of(data, 'judges')}); allowed: seating "
            "'mirror' (or no `seating:`) to keep the judges, or `strategies:` beside it to "
            "name the table to seat (e.g. strategies: [greedy, learned])", sfile,
            line_of(data, "seating"), "seating")
    inherited = f" (from {sfile}:{line_of(data, 'seating')})" if sfile != jfile else ""
    return InputError(
        f"the judges are mirror tables (one strategy in every seat), found seating "
        f"{show(seating)}{inherited}; allowed: seating 'mirror', or `strategies:` to mix "
        "strategies", jfile, line_of(data, "judges"), "judges")


def _strategy_entries(raw: list, sfile, sline, key: str, problems: Problems, parent, pkey):
    """Each entry of the strategy list ``parent[pkey]`` as a StrategyConfig (a problem for each
    bad one)."""
    out = []
    for i, entry in enumerate(raw):
        line = line_of_item(parent, pkey, i, sline)
        line = line_of(entry, "family", line) if isinstance(entry, dict) else line
        try:
            out.append(make_strategy(entry, sfile, line, f"{key}[{i}]",
                                     base_dir=Path(sfile).parent))
        except InputError as e:
            problems.add(e)
    return out


def _sweep(data, where, problems: Problems):
    """`sweep:` (read by `simsym sweep`): one of card/rule (with values), players (a list of
    counts) or strategies (a list of mirror tables). Returns (kind, target, values) or None.

    The values of a card, rule or players sweep are checked when the sweep builds each
    variant; a strategies sweep's tables are checked here, each like a `strategies:` entry.
    """
    if "sweep" not in data:
        return None
    spec = data["sweep"]
    file, line = where("sweep"), line_of(data, "sweep")
    allowed = ("allowed: card: NAME or rule: NAME with values: [...]; players: [2, 3, ...]; "
               "or strategies: [a mirror table each]")
    if not isinstance(spec, dict):
        problems.add(InputError(f"expected a mapping, found {_a(spec)}; {allowed}", file, line,
                                "sweep"))
        return None
    kinds = [k for k in spec if k in SWEEP_KINDS]
    takes_values = kinds in (["card"], ["rule"])
    for k in spec:
        if k not in SWEEP_KINDS and not (k == "values" and takes_values):
            what = ("'values' go with card or rule only" if k == "values" else
                    f"unknown key {show(k)}{did_you_mean(str(k), (*SWEEP_KINDS, 'values'))}")
            problems.add(InputError(f"{what}; {allowed}", file_of(spec, k, file),
                                    line_of(spec, k, line), f"sweep.{k}"))
            return None
    if len(kinds) != 1:
        problems.add(InputError(f"found {len(kinds)} of {', '.join(SWEEP_KINDS)}; a sweep "
                                f"varies exactly one; {allowed}", file, line, "sweep"))
        return None
    kind = kinds[0]
    kfile, kline = file_of(spec, kind, file), line_of(spec, kind, line)
    if kind == "strategies":
        tables = _sweep_tables(spec, kfile, problems)
        return None if tables is None else ("strategies", "strategies", tables)
    if kind == "players":
        vals = spec["players"]
        if not isinstance(vals, list) or not vals:
            problems.add(InputError(f"expected a non-empty list of player counts, found "
                                    f"{show(vals)}", kfile, kline, "sweep.players"))
            return None
        return "players", "players", vals
    vals = spec.get("values")
    if not isinstance(vals, list) or not vals:
        problems.add(InputError(f"expected a non-empty list of values for {kind} "
                                f"{show(spec[kind])}, found {show(vals)}",
                                file_of(spec, "values", file), line_of(spec, "values", line),
                                "sweep.values"))
        return None
    return kind, spec[kind], vals


def _sweep_tables(spec, file, problems: Problems):
    """The tables of a strategies sweep: a non-empty list, each a mirror table (one strategy
    of a family the numba engine runs, as a name, a mapping or a list of one)."""
    raw, line = spec["strategies"], line_of(spec, "strategies")
    one = ("a family name (" + ", ".join(BUILT_IN) + "), a {family: ..., parameter: value} "
           "mapping, or a list of one of those")
    if not isinstance(raw, list) or not raw:
        problems.add(InputError(f"expected a non-empty list of tables, each {one}; found "
                                f"{show(raw)}", file, line, "sweep.strategies"))
        return None
    tables = []
    for i, entry in enumerate(raw):
        key = f"sweep.strategies[{i}]"
        if isinstance(entry, list) and len(entry) == 1:
            entry = entry[0]
        eline = line_of_item(spec, "strategies", i, line)
        eline = line_of(entry, "family", eline) if isinstance(entry, dict) else eline
        if isinstance(entry, list):
            problems.add(InputError(f"a table of the sweep is a mirror table (one strategy in "
                                    f"every seat), found a list of {len(entry)}; allowed: "
                                    f"{one}", file, eline, key))
            continue
        family = entry.get("family") if isinstance(entry, dict) else entry
        if isinstance(family, str) and family not in BUILT_IN:
            what = (f"the sweep plays its tables on the numba engine, which has no {family!r} "
                    "strategies" if family in FAMILIES else f"unknown strategy {show(family)}"
                    f"{did_you_mean(family, BUILT_IN)}")
            problems.add(InputError(f"{what}; allowed: " + ", ".join(BUILT_IN), file, eline,
                                    f"{key}.family" if isinstance(entry, dict) else key))
            continue
        with problems.collect():
            tables.append(make_strategy(entry, file, eline, key, base_dir=Path(file).parent))
    return tables if len(tables) == len(raw) else None


def _ladder(data, where, problems: Problems) -> list[StrategyConfig]:
    """`ladder: {strategies: [...]}`, the entrants of `simsym ladder` when they are more
    than the table has seats (any number from 2; each meets every other at its own table)."""
    if "ladder" not in data:
        return []
    spec = data["ladder"]
    file, line = where("ladder"), line_of(data, "ladder")
    if not isinstance(spec, dict):
        problems.add(InputError(f"expected a mapping with strategies: [...], found "
                                f"{show(spec)}", file, line, "ladder"))
        return []
    _unknown_keys(spec, LADDER_KEYS, file, line, "ladder", problems)
    raw = spec.get("strategies")
    sfile, sline = file_of(spec, "strategies", file), line_of(spec, "strategies", line)
    if not isinstance(raw, list) or len(raw) < 2:
        problems.add(InputError("expected a list of at least 2 strategies (family names: "
                                + ", ".join(FAMILIES) + f"; or mappings), found {show(raw)}",
                                sfile, sline, "ladder.strategies"))
        return []
    return _strategy_entries(raw, sfile, sline, "ladder.strategies", problems, spec,
                             "strategies")


def table_words(sc: "Scenario") -> str:
    """A scenario's one table in words: "learned players", "greedy, patient(threshold=12)
    players (rotate seating)"."""
    labels = [s.label for s in sc.strategies]
    seating = "" if sc.seating == "mirror" else f" ({sc.seating} seating)"
    return f"{', '.join(labels)} players{seating}"


def table_name(sc: "Scenario") -> str:
    """Which table plays ``sc``: "learned players (strong table)", or "greedy players (its
    own table)" for a scenario that names its own strategies."""
    return f"{table_words(sc)} ({sc.judged_by} table)" if sc.judged_by else \
        f"{table_words(sc)} (its own table)"


def _plain_value(v) -> str:
    """A rule option's value as a scenario file writes it: true, null, [3, 5]."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(map(_plain_value, v)) + "]"
    return str(v)


def scenario_changes(a: "Scenario", b: "Scenario") -> tuple[list[str], list[str]]:
    """What B changes against A, exactly, as Markdown lines ("Plato: `5I; IO` -> `4I; IO`"),
    and the names of the cards it changes (changed, added or removed), in A's deck order then
    B's. Cards first (notation, copies, added, removed), then rule options, players and the
    table that plays each side."""
    lines, changed = [], []
    for card in a.cards:
        i = b.cards.index(card.name)
        if i is None:
            lines.append(f"{card.name}: removed (was `{card.text}`)")
            changed.append(card.name)
            continue
        other = b.cards[i]
        what = []
        if other.text != card.text:
            what.append(f"`{card.text}` → `{other.text}`")
        if other.copies != card.copies:
            what.append(f"{card.copies} → {other.copies} copies")
        if what:
            lines.append(f"{card.name}: " + "; ".join(what))
            changed.append(card.name)
    for card in b.cards:
        if a.cards.index(card.name) is None:
            lines.append(f"{card.name}: added, `{card.text}`"
                         + (f", {card.copies} copies" if card.copies != 1 else ""))
            changed.append(card.name)
    ra, rb = a.rules.as_dict(), b.rules.as_dict()
    lines += [f"rules.{k}: {_plain_value(ra[k])} → {_plain_value(rb[k])}"
              for k in ra if ra[k] != rb[k]]
    if a.players != b.players:
        lines.append(f"players: {a.players} → {b.players}")
    if table_name(a) != table_name(b):
        lines.append(f"table: {table_name(a)} → {table_name(b)}")
    return lines, changed
