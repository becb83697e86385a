"""The `tune:` block of a scenario: what `simsym tune` may vary, what balanced means, and how
much it may spend. Checked like the rest of a scenario: every problem at once, each naming
file, line and key, what was found and what is allowed (exit 2).

    tune:
      vary:
        cards:
          # a number inside the notation: a template with {placeholders}, each a [lo, hi]
          Orgy: {text: "{points}H; HO, Requires {women}+ WC", points: [5, 10], women: [1, 3]}
          # or the card's alternative notations (the card's own is always one of them)
          Drunken Revelry: ["5H; HO, Requires 6+ Wine Points", "6H; HO"]
        rules:
          hand_size: [8, 10]           # a whole-number option: [lo, hi]
          wine_counts: [printed, scored]   # any other option: the values to choose from
        seat_compensation: [0, 12]     # starting points of seats 1..P-1 (seat 0 keeps 0)
      targets:
        seat_spread: 2pp               # best minus worst seat's win share at most this
        iwd_band: 3pp                  # each card's IWD within this of the table average
        iwd_cards: [Orgy, Drunken Revelry]   # only these cards (default: every card)
        play_rate: {Orgy: 20%}         # these cards played when held at least this often
        quality: {turns: [18, 30], behind_run1: ">= 30%"}  # how the game plays, in limits
        change_penalty: 1              # objective points (pp squared) per changed card
      budget: {trials: 40, games: 4000, block: 500, seed: 1, finalists: 3,
               holdout_games: 12000}

The objective (lower is better, 0 when every target is met and nothing changed) is the sum
of the squared overshoots beyond each band, in percentage points (a limit of how the game
plays in its measure's unit, a share's in pp), plus ``change_penalty``
for every card, rule option or compensation vector that differs from the scenario's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from simsym.analysis.quality import KEYS
from simsym.errors import InputError, Problems, did_you_mean, show
from simsym.model.cards.model import CardSet
from simsym.model.cards.notation import parse_notation
from simsym.model.rules import RuleOptions, rules_from_mapping
from simsym.model.scenario import file_of
from simsym.model.yamlio import line_of

TUNE_KEYS = ("vary", "targets", "budget")
VARY_KEYS = ("cards", "rules", "seat_compensation")
TARGET_KEYS = ("seat_spread", "iwd_band", "iwd_cards", "play_rate", "quality",
               "change_penalty")
# targets.quality's keys: the measures of how the game plays (simsym.analysis.quality.MEASURES)
QUALITY_KEYS = KEYS  # targets.quality: the measures by the names a designer writes
BUDGET = {  # key: (lo, hi, default; None: the scenario's seed)
    "trials": (1, 10_000, 30), "games": (10, 10**9, 4000), "block": (1, 10**8, 500),
    "seed": (0, 2**63 - 1, None), "finalists": (1, 20, 3), "holdout_games": (10, 10**9, None),
    "lookahead_games": (0, 10**9, 2000)}
MAX_COMPENSATION = 60
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Knob:
    """One parameter of the search: whole numbers lo..hi, or one of ``choices``."""

    name: str
    lo: int | None = None
    hi: int | None = None
    choices: tuple | None = None
    start: object = None  # the scenario's own value (None: it is not in the range)

    def suggest(self, trial):
        if self.choices is not None:
            return self.choices[trial.suggest_categorical(self.name, list(range(
                len(self.choices))))]
        return trial.suggest_int(self.name, self.lo, self.hi)

    def encode(self, value):
        """The value as the trial stores it (a choice by its index)."""
        return self.choices.index(value) if self.choices is not None else value


@dataclass(frozen=True)
class CardVary:
    card: str
    original: str
    template: str | None = None  # with {placeholders}; else ``choices`` of whole notations
    knobs: tuple = ()


@dataclass
class TuneSpec:
    cards: list[CardVary] = field(default_factory=list)
    rules: list[Knob] = field(default_factory=list)
    compensation: tuple | None = None  # (lo, hi) for seats 1..P-1
    seat_spread: float | None = None
    iwd_band: float | None = None
    iwd_cards: list[str] | None = None
    play_rate: dict = field(default_factory=dict)
    # how the game plays: QUALITY_KEYS key -> (lo, hi), None an open end; shares as fractions
    quality: dict = field(default_factory=dict)
    change_penalty: float = 1.0
    trials: int = 30
    games: int = 4000
    block: int = 500
    seed: int = 0
    finalists: int = 3
    holdout_games: int = 12000
    lookahead_games: int = 2000  # the winner confirmed under a lookahead table too (0: not)

    def knobs(self, players: int) -> list[Knob]:
        out = [k for c in self.cards for k in c.knobs] + list(self.rules)
        if self.compensation:
            lo, hi = self.compensation
            out += [Knob(f"seat_compensation[{i}]", lo, hi) for i in range(1, players)]
        return out

    @property
    def seats_only(self) -> bool:
        return bool(self.compensation) and not self.cards and not self.rules


def pp(value, file, line, key, problems, lo=0.0, hi=1.0):
    """``2pp``, ``20%`` or a fraction -> a fraction in [lo, hi]; None and a problem if not."""
    s = str(value).strip()
    try:
        if s.endswith("pp") or s.endswith("%"):
            v = float(s.rstrip("p%")) / 100
        elif isinstance(value, bool):
            raise ValueError
        else:
            v = float(s)
            if v > 1:
                raise ValueError
        if not lo <= v <= hi:
            raise ValueError
    except ValueError:
        problems.add(InputError(f"expected percentage points (2pp), a percentage (20%) or a "
                                f"fraction from {lo:g} to {hi:g}, found {show(value)}", file,
                                line, key))
        return None
    return v


def _range(value, lo, hi, file, line, key, problems):
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
          and lo <= value[0] <= value[1] <= hi)
    if not ok:
        problems.add(InputError(f"expected [lo, hi], whole numbers with {lo} <= lo <= hi <= "
                                f"{hi}, found {show(value)}", file, line, key))
        return None
    return tuple(value)


def parse_tune(sc) -> TuneSpec:
    """The scenario's `tune:` block, checked against its cards and rules."""
    data = sc.raw
    file = file_of(data, "tune", sc.path)
    line = line_of(data, "tune")
    problems = Problems()
    block = data.get("tune")
    if not isinstance(block, dict):
        raise InputError(f"expected a mapping with {', '.join(TUNE_KEYS)}, found "
                         f"{show(block)}; `simsym tune --help` shows one", file, line, "tune")
    _unknown(block, TUNE_KEYS, file, line, "tune", problems)
    spec = TuneSpec(seed=sc.seed)
    _vary(sc, block.get("vary"), spec, file, line_of(block, "vary", line), problems)
    _targets(sc, block.get("targets"), spec, file, line_of(block, "targets", line), problems)
    _budget(sc, block.get("budget", {}), spec, file, line_of(block, "budget", line), problems)
    problems.raise_if_any()
    return spec


def _unknown(mapping, allowed, file, line, key, problems):
    for k in mapping:
        if k not in allowed:
            problems.add(InputError(f"unknown key {show(k)}{did_you_mean(str(k), allowed)}; "
                                    "allowed: " + ", ".join(allowed), file,
                                    line_of(mapping, k, line), f"{key}.{k}"))


def _mapping(value, file, line, key, problems, what):
    if not isinstance(value, dict) or not value:
        problems.add(InputError(f"expected a non-empty mapping of {what}, found {show(value)}",
                                file, line, key))
        return None
    return value


def _vary(sc, vary, spec, file, line, problems):
    if _mapping(vary, file, line, "tune.vary", problems, ", ".join(VARY_KEYS)) is None:
        return
    _unknown(vary, VARY_KEYS, file, line, "tune.vary", problems)
    cards = vary.get("cards")
    if cards is not None and _mapping(cards, file, line_of(vary, "cards", line),
                                      "tune.vary.cards", problems, "card names") is not None:
        for name, v in cards.items():
            with problems.collect():
                spec.cards.append(_card(sc, name, v, file, line_of(cards, name, line),
                                        problems))
    rules = vary.get("rules")
    if rules is not None and _mapping(rules, file, line_of(vary, "rules", line),
                                      "tune.vary.rules", problems, "rule options") is not None:
        for name, v in rules.items():
            knob = _rule(sc, name, v, file, line_of(rules, name, line), problems)
            if knob:
                spec.rules.append(knob)
    if "seat_compensation" in vary:
        spec.compensation = _range(vary["seat_compensation"], 0, MAX_COMPENSATION, file,
                                   line_of(vary, "seat_compensation", line),
                                   "tune.vary.seat_compensation", problems)


def _card(sc, name, value, file, line, problems) -> CardVary:
    key = f"tune.vary.cards.{name}"
    k = sc.cards.lookup(str(name), file=file, line=line, key=key)
    card = sc.cards.cards[k]
    original = card.text
    if isinstance(value, list):
        texts = [original] + [v for v in value if v != original]
        for i, t in enumerate(texts[1:]):
            if not isinstance(t, str):
                raise InputError(f"expected notation text, found {show(t)}", file, line,
                                 f"{key}[{i}]")
            _notation(card.name, t, file, line, f"{key}[{i}]")
        return CardVary(card.name, original, None, (Knob(card.name, choices=tuple(texts),
                                                         start=original),))
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        raise InputError("expected a list of notations, or {text: \"...{x}...\", x: [lo, hi]} "
                         f"(a number inside the notation), found {show(value)}", file, line,
                         key)
    text = value["text"]
    names = _PLACEHOLDER.findall(text)
    ranges = {k: v for k, v in value.items() if k != "text"}
    if not names:
        raise InputError(f"the text {show(text)} has no {{placeholder}}; allowed: a notation "
                         "with {x} where a number varies, and x: [lo, hi]", file, line,
                         f"{key}.text")
    for n in names:
        if n not in ranges:
            problems.add(InputError(f"placeholder {{{n}}} has no range; add {n}: [lo, hi]",
                                    file, line, key))
    for n in ranges:
        if n not in names:
            problems.add(InputError(f"{show(n)} is not a placeholder of {show(text)}; allowed: "
                                    + ", ".join(names), file, line_of(value, n, line),
                                    f"{key}.{n}"))
    got = {n: _range(ranges[n], 0, 20, file, line_of(value, n, line), f"{key}.{n}", problems)
           for n in names if n in ranges}
    if None in got.values() or len(got) != len(names):
        return CardVary(card.name, original, text, ())
    for pick in (0, 1):  # both ends must read as notation
        _notation(card.name, fill(text, {n: r[pick] for n, r in got.items()}), file, line,
                  f"{key}.text")
    start = _match(text, original)
    knobs = tuple(Knob(f"{card.name}.{n}", lo, hi, start=start.get(n) if start and lo <=
                       start.get(n) <= hi else None) for n, (lo, hi) in got.items())
    return CardVary(card.name, original, text, knobs)


def _notation(name, text, file, line, key):
    """Parse ``text`` as ``name``'s notation; an error names the tune block's key."""
    try:
        parse_notation(name, text)
    except InputError as e:
        raise InputError(e.message, file, line, key) from None


def fill(template: str, values: dict) -> str:
    return _PLACEHOLDER.sub(lambda m: str(values[m[1]]), template)


def _match(template: str, text: str) -> dict | None:
    """The numbers of ``text`` in the template's placeholders, if ``text`` has its shape."""
    parts = _PLACEHOLDER.split(template)
    pattern = "".join(re.escape(p) if i % 2 == 0 else rf"(?P<{p}>\d+)"
                      for i, p in enumerate(parts))
    m = re.fullmatch(pattern, text.strip())
    return {k: int(v) for k, v in m.groupdict().items()} if m else None


def _rule(sc, name, value, file, line, problems) -> Knob | None:
    key = f"tune.vary.rules.{name}"
    names = RuleOptions.names()
    if name not in names:
        problems.add(InputError(f"unknown rule option {show(name)}"
                                f"{did_you_mean(str(name), names)}; allowed: "
                                + ", ".join(names), file, line, key))
        return None
    if name == "seat_compensation":
        problems.add(InputError("vary the compensation as tune.vary.seat_compensation: "
                                "[lo, hi]", file, line, key))
        return None
    meta = RuleOptions.__dataclass_fields__[name].metadata
    start = getattr(sc.rules, name)
    if meta["lo"] is not None:
        r = _range(value, meta["lo"], meta["hi"], file, line, key, problems)
        return r and Knob(f"rules.{name}", *r, start=start if r[0] <= start <= r[1] else None)
    if not isinstance(value, list) or not value:
        problems.add(InputError(f"expected a list of values to choose from, found "
                                f"{show(value)}", file, line, key))
        return None
    bad = Problems()
    for v in value:
        rules_from_mapping({name: v}, base=sc.rules, file=file, problems=bad,
                           line_of=lambda k: line)
    for e in bad.items:
        problems.add(InputError(e.message, file, line, key))
    if bad:
        return None
    choices = tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return Knob(f"rules.{name}", choices=choices, start=start if start in choices else None)


def _targets(sc, targets, spec, file, line, problems):
    if _mapping(targets, file, line, "tune.targets", problems, ", ".join(TARGET_KEYS)) is None:
        return
    _unknown(targets, TARGET_KEYS, file, line, "tune.targets", problems)

    def at(k):
        return line_of(targets, k, line)

    if "seat_spread" in targets:
        spec.seat_spread = pp(targets["seat_spread"], file, at("seat_spread"),
                              "tune.targets.seat_spread", problems)
    if "iwd_band" in targets:
        spec.iwd_band = pp(targets["iwd_band"], file, at("iwd_band"), "tune.targets.iwd_band",
                           problems)
    if "iwd_cards" in targets:
        v = targets["iwd_cards"]
        if not isinstance(v, list) or not v:
            problems.add(InputError(f"expected a list of card names, found {show(v)}", file,
                                    at("iwd_cards"), "tune.targets.iwd_cards"))
        else:
            with problems.collect():
                spec.iwd_cards = [sc.cards.cards[sc.cards.lookup(
                    str(n), file=file, line=at("iwd_cards"), key="tune.targets.iwd_cards")].name
                    for n in v]
            if "iwd_band" not in targets:
                problems.add(InputError("iwd_cards needs iwd_band (the band they must be in)",
                                        file, at("iwd_cards"), "tune.targets.iwd_cards"))
    if "play_rate" in targets:
        v = targets["play_rate"]
        if _mapping(v, file, at("play_rate"), "tune.targets.play_rate", problems,
                    "card names to the least play rate (20%)") is not None:
            for n, rate in v.items():
                with problems.collect():
                    k = sc.cards.lookup(str(n), file=file, line=line_of(v, n, at("play_rate")),
                                        key=f"tune.targets.play_rate.{n}")
                    r = pp(rate, file, line_of(v, n, at("play_rate")),
                           f"tune.targets.play_rate.{n}", problems)
                    if r is not None:
                        spec.play_rate[sc.cards.cards[k].name] = r
    if "quality" in targets:
        _quality(targets["quality"], spec, file, at("quality"), problems)
    if "change_penalty" in targets:
        v = targets["change_penalty"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1e6:
            problems.add(InputError(f"expected a number from 0 to 1000000 (objective points, "
                                    f"pp squared, per changed card), found {show(v)}", file,
                                    at("change_penalty"), "tune.targets.change_penalty"))
        else:
            spec.change_penalty = float(v)
    if not any(k in targets for k in ("seat_spread", "iwd_band", "play_rate", "quality")):
        problems.add(InputError("no target: give at least one of seat_spread, iwd_band, "
                                "play_rate, quality", file, line, "tune.targets"))


LIMIT_FORMS = '[lo, hi], ">= x" or "<= x"'


def _quality(value, spec, file, line, problems):
    """targets.quality: each measure of how the game plays within limits, e.g. ``turns:
    [18, 30]``, ``behind_run1: ">= 30%"``, ``decided_first_half: "<= 20%"``."""
    from simsym.analysis.quality import MEASURES, SHARES

    units = dict(MEASURES)
    if _mapping(value, file, line, "tune.targets.quality", problems,
                "measures of how the game plays to their limits: " + ", ".join(QUALITY_KEYS)) \
            is None:
        return
    for key, limit in value.items():
        at, where = line_of(value, key, line), f"tune.targets.quality.{key}"
        if key not in QUALITY_KEYS:
            problems.add(InputError(f"unknown measure {show(key)}{did_you_mean(str(key), QUALITY_KEYS)}; "
                                    f"allowed: {', '.join(QUALITY_KEYS)}", file, at, where))
            continue
        share = units[QUALITY_KEYS[key]] in SHARES
        bounds = _limit(limit, share)
        if isinstance(bounds, str):
            problems.add(InputError(f"expected {LIMIT_FORMS}, {bounds}, found {show(limit)}",
                                    file, at, where))
        else:
            spec.quality[key] = bounds


def _limit(limit, share: bool):
    """(lo, hi) of a limit (None: an open end), or the words of what a number must be."""
    what = ("each a share (\"20%\" or 0.2)" if share else "each a number")

    def number(x):
        if share and isinstance(x, str) and x.strip().endswith("%"):
            try:
                x = float(x.strip()[:-1]) / 100
            except ValueError:
                return None
        elif isinstance(x, str):
            try:
                x = float(x)
            except ValueError:
                return None
        if isinstance(x, bool) or not isinstance(x, (int, float)) or x != x:
            return None
        if share and not 0 <= x <= 1:
            return None
        return float(x)

    if isinstance(limit, list) and len(limit) == 2:
        lo, hi = number(limit[0]), number(limit[1])
        if lo is None or hi is None or lo > hi:
            return what + ", lo <= hi"
        return lo, hi
    if isinstance(limit, str):
        m = re.fullmatch(r"\s*(>=|<=)\s*(\S+)\s*", limit)
        x = m and number(m.group(2))
        if x is not None:
            return (x, None) if m.group(1) == ">=" else (None, x)
    return what


def _budget(sc, budget, spec, file, line, problems):
    if not isinstance(budget, dict):
        problems.add(InputError("expected a mapping of " + ", ".join(BUDGET) + f", found "
                                f"{show(budget)}", file, line, "tune.budget"))
        return
    _unknown(budget, tuple(BUDGET), file, line, "tune.budget", problems)
    for k, (lo, hi, default) in BUDGET.items():
        v = budget.get(k, default)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            problems.add(InputError(f"expected a whole number from {lo} to {hi:,}, found "
                                    f"{show(v)}", file, line_of(budget, k, line),
                                    f"tune.budget.{k}"))
            continue
        setattr(spec, k, v)
    if "holdout_games" not in budget:
        spec.holdout_games = 3 * spec.games


# --- a trial's scenario ---------------------------------------------------------------------

def apply(sc, spec: TuneSpec, values: dict):
    """The scenario with the knobs at ``values`` (knob name -> value); and its changes as a
    scenario fragment: {"cards": {name: notation}, "rules": {option: value}}."""
    cards = list(sc.cards.cards)
    changes = {"cards": {}, "rules": {}}
    for cv in spec.cards:
        if cv.template is None:
            text = values[cv.card]
        else:
            text = fill(cv.template, {k.name.split(".", 1)[1]: values[k.name] for k in cv.knobs})
        if text != cv.original:
            k = sc.cards.index(cv.card)
            cards[k] = parse_notation(cv.card, text, cards[k].copies)
            changes["cards"][cv.card] = text
    rules = {}
    for k in spec.rules:
        name = k.name.split(".", 1)[1]
        if values[k.name] != getattr(sc.rules, name):
            rules[name] = list(values[k.name]) if isinstance(values[k.name], tuple) \
                else values[k.name]
    if spec.compensation:
        comp = [0] + [values[f"seat_compensation[{i}]"] for i in range(1, sc.players)]
        if tuple(comp) != tuple(sc.rules.seat_compensation or (0,) * sc.players):
            rules["seat_compensation"] = comp
    changes["rules"] = rules
    new = replace(sc, cards=CardSet(cards, source=sc.cards.source))
    if rules:
        new = replace(new, rules=rules_from_mapping(rules, base=sc.rules, file=sc.path))
    return new, changes


def n_changes(changes: dict) -> int:
    """Changed cards, rule options and the compensation vector (one each)."""
    return len(changes["cards"]) + len(changes["rules"])


def start_values(sc, spec: TuneSpec) -> dict | None:
    """The knob values of the scenario itself, or None when its own value of some knob is
    outside the range searched."""
    out = {}
    for k in spec.knobs(sc.players):
        if k.name.startswith("seat_compensation["):
            comp = sc.rules.seat_compensation or (0,) * sc.players
            i = int(k.name[len("seat_compensation["):-1])
            v = comp[i] - comp[0]
            if not k.lo <= v <= k.hi:
                return None
            out[k.name] = v
        elif k.start is None:
            return None
        else:
            out[k.name] = k.start
    return out
