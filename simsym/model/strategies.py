"""Scripted strategy families and their parameters (what a scenario's `strategies:` holds).

The behaviour of each family is specified in docs/game-engine.md, section 6; both engines
implement that text. This module only names the families, their parameters and defaults,
validates a scenario's list, and encodes it as integers for the kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simsym.core.enums import SP, TYPE_NAMES
from simsym.errors import InputError, Problems, did_you_mean, show
from simsym.model.yamlio import line_of

FAMILIES = ("greedy", "patient", "specialist", "random", "lookahead", "learned", "python")
BUILT_IN = FAMILIES[:6]  # what the numba engine runs; "python" is the reference engine's
SEARCHED = ("lookahead", "learned")  # decide over lookahead's candidates (docs 6.6, 6.7)
ROLLOUT_POLICIES = ("greedy", "own", "learned")

COMMON = {
    "discard_max": (4, 0, 30, "most cards discarded in the Symposiarch phase"),
    "keep_threshold": (3, 0, 1000, "discard only cards whose keep value is below this"),
    "wine_weight": (2, 0, 100, "keep value of a printed Wine point, on top of its points"),
    "trade": (True, None, None, "propose and accept trades"),
    "trade_candidates": (6, 0, 1000, "kinds considered when asking for a card"),
    "trade_inactive": (False, None, None, "also propose trades on other players' turns"),
}
SPECIFIC = {
    "greedy": {},
    "patient": {
        "threshold": (15, 0, 1000, "make a Symposion only when it scores at least this"),
        "late_run": (2, 0, 100, "... or once this many deck runs have ended"),
    },
    "specialist": {
        "favours": ("social", TYPE_NAMES, None, "the Symposion type it plays and keeps for"),
        "focus": (3, 0, 1000, "keep value added to cards its type can use"),
        "fallback": (True, None, None, "play another type when its own has no legal play"),
    },
    "random": {},
    "lookahead": {
        "iterations": (64, 1, 100000, "rollouts one decision may spend (the search budget)"),
        "candidates": (6, 2, 64, "most candidate actions one decision considers"),
        "policy": ("greedy", ROLLOUT_POLICIES, None,
                   "how seats play inside a rollout: greedy, own (each seat its strategy), or "
                   "learned (every seat the learned player)"),
        "model": ("", None, None, "under policy learned, the model the rollouts play (a "
                  "model file beside the scenario; empty: the one shipped for the base game)"),
    },
    "learned": {
        "model": ("", None, None, "a model file made by simsym train (beside the scenario); "
                  "empty: the model shipped for the base game"),
        "generation": (0, 0, 10_000, "a generation of the shipped model (simsym train's "
                       "rounds, docs/strategies.md); 0: the newest, the shipped model"),
        "candidates": (6, 2, 64, "most candidate actions one decision considers"),
    },
    "python": {
        "class": ("", None, None, "'file.py:ClassName' (beside the scenario) or 'module:Class'"),
        "params": ({}, None, None, "keyword arguments for the class"),
    },
}



@dataclass(frozen=True)
class StrategyConfig:
    family: str
    params: tuple  # sorted (name, value) pairs, every parameter present
    label: str  # how reports name it: "greedy", or "patient(threshold=12)"
    base_dir: str = "."  # where a python strategy's file is looked for

    def get(self, name):
        return dict(self.params)[name]

    def as_dict(self) -> dict:
        return {"family": self.family, **dict(self.params)}


def parameters(family: str) -> dict:
    return {**COMMON, **SPECIFIC[family]}


def _check(family, name, value, spec, file, line, key):
    default, lo, hi, _ = spec
    if name == "params":
        if not isinstance(value, dict):
            raise InputError(f"expected a mapping of keyword arguments, found {show(value)}",
                             file, line, key)
        for k in value:
            if not isinstance(k, str):
                raise InputError(f"keyword argument names must be text, found "
                                 f"{show(k)}", file, line_of(value, k, line), f"{key}.{k}")
        return tuple(sorted((str(k), v) for k, v in value.items()))
    if name == "model":
        if not isinstance(value, str):
            raise InputError(f"expected the path of a model file, found {show(value)}", file,
                             line, key)
        return value
    if name == "class":
        if not isinstance(value, str) or ":" not in value:
            raise InputError(f"expected 'file.py:ClassName' or 'module:ClassName', found "
                             f"{show(value)}", file, line, key)
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InputError(f"expected true or false, found {show(value)}", file, line, key)
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise InputError(f"expected a whole number from {lo} to {hi}, found {show(value)}",
                             file, line, key)
    elif not isinstance(value, str) or value not in lo:
        raise InputError(f"{show(value)} is not allowed; one of {', '.join(lo)}"
                         f"{did_you_mean(str(value), lo)}", file, line, key)
    return value


def make_strategy(entry, file=None, line=None, key="strategies",
                  base_dir=".") -> StrategyConfig:
    """A strategy from YAML: a family name, or {family: name, param: value, ...}.

    Every problem of the entry (each parameter) is raised together.
    """
    problems = Problems()
    if isinstance(entry, str):
        entry = {"family": entry}
    if not isinstance(entry, dict) or "family" not in entry:
        problems.fatal(InputError("a strategy is a family name (" + ", ".join(FAMILIES) + ") "
                                  f"or a mapping with 'family:' and its parameters, found "
                                  f"{show(entry)}", file, line, key))
    family = entry["family"]
    if not isinstance(family, str) or family not in FAMILIES:
        problems.fatal(InputError(f"unknown strategy {show(family)}"
                                  f"{did_you_mean(str(family), FAMILIES)}; allowed: "
                                  + ", ".join(FAMILIES), file, line_of(entry, "family", line),
                                  f"{key}.family"))
    spec = parameters(family)
    values = {n: s[0] for n, s in spec.items()}
    given = []
    for name, value in entry.items():
        if name == "family":
            continue
        with problems.collect():
            if name not in spec:
                raise InputError(f"strategy {family!r} has no parameter {show(name)}"
                                 f"{did_you_mean(str(name), spec)}; its parameters: "
                                 + ", ".join(spec), file, line_of(entry, name, line),
                                 f"{key}.{name}")
            values[name] = _check(family, name, value, spec[name], file,
                                  line_of(entry, name, line), f"{key}.{name}")
            given.append(f"{name}={value}")
    problems.raise_if_any()
    if family == "python":
        if not values["class"]:
            raise InputError("a python strategy needs class: 'file.py:ClassName'", file, line,
                             f"{key}.class")
        from pathlib import Path

        from simsym.model.custom import load_class

        load_class(values["class"], Path(base_dir), file, line_of(entry, "class", line),
                   f"{key}.class")  # fail now, before any game, if it cannot be loaded
        values["params"] = values["params"] if isinstance(values["params"], tuple) else ()
        given = [values["class"].rsplit(":", 1)[1]]
    if family == "learned" and values["generation"]:
        _check_generation(values, entry, file, line, key)
    if family == "learned" or (family == "lookahead" and values["policy"] == "learned"):
        model_weights(StrategyConfig(family, tuple(sorted(values.items())), family,
                                     str(base_dir)), file, line_of(entry, "model", line),
                      f"{key}.model")  # fail now, before any game, if it cannot be read
    label = family + (f"({', '.join(given)})" if given else "")
    return StrategyConfig(family, tuple(sorted(values.items())), label, str(base_dir))


def greedy_twin(s: StrategyConfig) -> StrategyConfig:
    """greedy with the common parameters of ``s``: what a lookahead, learned or Python-class
    seat plays inside rollouts under policy own."""
    return make_strategy({"family": "greedy", **{k: v for k, v in s.params if k in COMMON}})


def rollout_learner(s: StrategyConfig) -> StrategyConfig:
    """The learned player a lookahead strategy's rollouts play under policy learned: its
    model, the lookahead's common parameters."""
    return make_strategy({"family": "learned", "model": s.get("model"),
                          **{k: v for k, v in s.params if k in COMMON}}, base_dir=s.base_dir)


def _check_generation(values, entry, file, line, key):
    """A learned strategy's `generation:` names a shipped generation, and no model file."""
    from simsym.learned.model import generations

    n, gl = values["generation"], line_of(entry, "generation", line)
    if values["model"]:
        raise InputError("give a model file or a generation of the shipped model, not both; "
                         "allowed: remove model or generation", file, gl, f"{key}.generation")
    if n not in generations():
        raise InputError(f"no generation {n} is shipped; allowed: "
                         + ", ".join(map(str, generations())) + " (0: the newest)", file, gl,
                         f"{key}.generation")


def model_path(s: StrategyConfig):
    """The model file a learned strategy plays (None: the one shipped for the base game)."""
    from pathlib import Path

    if s.family == "learned" and s.get("generation"):
        from simsym.learned.model import generation_path

        return generation_path(s.get("generation"))
    name = s.get("model")
    if not name:
        return None
    p = Path(name).expanduser()
    return p if p.is_absolute() else Path(s.base_dir) / p


def model_weights(s: StrategyConfig, file=None, line=None, key=None):
    """A learned strategy's weights, (MODEL_SIZE,) int64 (simsym.learned.model)."""
    from simsym.learned import model

    p = model_path(s)
    return model.load_base() if p is None else model.load(p, file, line, key)


def encode_strategy(s: StrategyConfig) -> np.ndarray:
    p = dict(s.params)
    row = np.zeros(SP.SIZE, np.int64)
    row[SP.FAMILY] = FAMILIES.index(s.family)  # FAM.GREEDY ... FAM.RANDOM
    row[SP.DISCARD_MAX] = p["discard_max"]
    row[SP.KEEP_THRESHOLD] = p["keep_threshold"]
    row[SP.WINE_WEIGHT] = p["wine_weight"]
    row[SP.TRADE] = p["trade"]
    row[SP.TRADE_CANDIDATES] = p["trade_candidates"]
    row[SP.TRADE_INACTIVE] = p["trade_inactive"]
    row[SP.THRESHOLD] = p.get("threshold", 0)
    row[SP.LATE_RUN] = p.get("late_run", 0)
    row[SP.FAVOURS] = TYPE_NAMES.index(p["favours"]) if "favours" in p else 0
    row[SP.FOCUS] = p.get("focus", 0)
    row[SP.FALLBACK] = p.get("fallback", True)
    row[SP.ITERATIONS] = p.get("iterations", 0)
    row[SP.CANDIDATES] = p.get("candidates", 0)
    row[SP.POLICY] = ROLLOUT_POLICIES.index(p["policy"]) if "policy" in p else 0
    return row
