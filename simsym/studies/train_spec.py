"""The `train:` block of a scenario: how `simsym train` learns a player from the search.

    train:
      rounds: 6            # expert iterations: play, label, refit
      games: 300           # games a round plays at each table
      tables: [self, greedy]   # self: every seat learned; greedy: one learned seat, the rest
                               # greedy (rotate seating); lookahead: one learned, the rest
                               # lookahead (32 rollouts)
      teacher: {iterations: 64, candidates: 6, policy: greedy}   # the lookahead search
                           # that labels; policy learned: its rollouts play every seat as
                           # the round's model (a stronger teacher, at a learned table's cost)
      start: base          # the model round 1 plays: a model file (relative to this file),
                           # base (the shipped one) or generation N (a shipped generation);
                           # default none, the zero model (greedy)
      ridge: 1.0           # the fit's penalty on standardised weights
      least_gain: 0.005    # win shares a candidate must gain over greedy's to be played
      eval_games: 2000     # games a round's model plays against three greedy seats
      seed: 1              # default: the scenario's seed
      refine:              # then a direct search on the weights (simsym.studies.refine)
        steps: 60          #   evolution-strategy steps
        pairs: 12          #   mirrored pairs of candidates a step
        games: 2000        #   games a candidate plays against the opponent model's seats
        greedy_games: 800  #   and against greedy seats
        sigma: 0.2         #   perturbation, in units of each weight's size
        step: 0.08         #   update size, in the same units
        opponent: start    #   the other seats: the model the search starts from, or current
        eval_games: 8000   #   held-out games measuring every tenth step

`rounds: 0` with a `start:` model refines that model alone.

Checked like the rest of a scenario: every problem at once, each naming file, line and key,
what was found and what is allowed (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from simsym.errors import InputError, Problems, did_you_mean, show
from simsym.model.scenario import file_of
from simsym.model.yamlio import line_of

TABLES = ("self", "greedy", "lookahead")
INTS = {  # key: (lo, hi, default)
    "rounds": (0, 100, 6), "games": (1, 10**7, 300), "eval_games": (0, 10**8, 2000),
    "seed": (0, 2**63 - 1, None)}
TEACHER = {"iterations": (2, 100_000, 64), "candidates": (2, 64, 6)}
POLICIES = ("greedy", "learned")
KEYS = (*INTS, "tables", "teacher", "ridge", "least_gain", "start", "refine")
REFINE_INTS = {"steps": (1, 10_000), "pairs": (1, 1000), "games": (0, 10**7),
               "greedy_games": (0, 10**7), "eval_games": (0, 10**8)}
REFINE_FLOATS = {"sigma": (1e-6, 10.0), "step": (0.0, 10.0)}
REFINE_OPPONENTS = ("start", "current")


@dataclass(frozen=True)
class TrainSpec:
    rounds: int = 6
    games: int = 300
    tables: tuple = ("self", "greedy")
    iterations: int = 64
    candidates: int = 6
    ridge: float = 1.0
    least_gain: float = 0.005
    eval_games: int = 2000
    seed: int = 0
    policy: str = "greedy"
    start: str | None = None  # a model file's path as written in the spec, or "base"
    start_path: str | None = None  # that file resolved (None: the zero model)
    refine: dict | None = None  # the refine block's settings (simsym.studies.refine.RefineSpec)

    def as_dict(self) -> dict:
        d = {"rounds": self.rounds, "games": self.games, "tables": list(self.tables),
             "teacher": {"iterations": self.iterations, "candidates": self.candidates},
             "ridge": self.ridge, "least_gain": self.least_gain,
             "eval_games": self.eval_games, "seed": self.seed}
        if self.policy != "greedy":
            d["teacher"]["policy"] = self.policy
        if self.start is not None:
            d["start"] = self.start
        if self.refine is not None:
            d["refine"] = dict(self.refine)
        return d


def _int(value, lo, hi, file, line, key, problems):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        problems.add(InputError(f"expected a whole number from {lo} to {hi}, found "
                                f"{show(value)}", file, line, key))
        return None
    return value


def parse_train(sc) -> TrainSpec:
    """The scenario's `train:` block as a TrainSpec (an InputError for each problem)."""
    data = sc.raw.get("train")
    file = file_of(sc.raw, "train", str(sc.path))
    line = line_of(sc.raw, "train")
    if not isinstance(data, dict):
        raise InputError(f"expected a mapping with some of {', '.join(KEYS)}, found "
                         f"{show(data)}", file, line, "train")
    problems = Problems()
    values = {k: v[2] for k, v in INTS.items()}
    values.update(tables=("self", "greedy"), iterations=64, candidates=6, ridge=1.0,
                  least_gain=0.005, policy="greedy", start=None, start_path=None, refine=None)
    for k, v in data.items():
        kl = line_of(data, k, line)
        key = f"train.{k}"
        if k in INTS:
            values[k] = _int(v, *INTS[k][:2], file, kl, key, problems)
        elif k == "tables":
            if not isinstance(v, list) or not v or any(t not in TABLES for t in v) \
                    or len(set(v)) != len(v):
                problems.add(InputError(f"expected a list of distinct tables, each one of "
                                        f"{', '.join(TABLES)}; found {show(v)}", file, kl, key))
            else:
                values["tables"] = tuple(v)
        elif k == "teacher":
            if not isinstance(v, dict):
                problems.add(InputError(f"expected a mapping with iterations and candidates, "
                                        f"found {show(v)}", file, kl, key))
                continue
            for tk, tv in v.items():
                tl = line_of(v, tk, kl)
                if tk == "policy":
                    if tv not in POLICIES:
                        problems.add(InputError(f"expected one of {', '.join(POLICIES)}, found "
                                                f"{show(tv)}", file, tl, f"{key}.{tk}"))
                    else:
                        values["policy"] = tv
                    continue
                if tk not in TEACHER:
                    problems.add(InputError(f"the teacher has no setting {show(tk)}"
                                            f"{did_you_mean(str(tk), (*TEACHER, 'policy'))}; "
                                            "allowed: " + ", ".join((*TEACHER, "policy")),
                                            file, tl, f"{key}.{tk}"))
                    continue
                values[tk] = _int(tv, *TEACHER[tk][:2], file, tl, f"{key}.{tk}", problems)
        elif k in ("ridge", "least_gain"):
            hi = 1e6 if k == "ridge" else 1.0
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= hi:
                problems.add(InputError(f"expected a number from 0 to {hi:g}, found "
                                        f"{show(v)}", file, kl, key))
            else:
                values[k] = float(v)
        elif k == "start":
            values["start"], values["start_path"] = _start(v, sc, file, kl, key, problems)
        elif k == "refine":
            values["refine"] = _refine(v, file, kl, key, problems)
        else:
            problems.add(InputError(f"train has no setting {show(k)}"
                                    f"{did_you_mean(str(k), KEYS)}; allowed: "
                                    + ", ".join(KEYS), file, kl, key))
    if values["rounds"] == 0 and values["start"] is None:
        problems.add(InputError("rounds 0 trains nothing: give a start model to refine, or "
                                "rounds from 1", file, line_of(data, "rounds", line),
                                "train.rounds"))
    problems.raise_if_any()
    if values["seed"] is None:
        values["seed"] = sc.seed
    return TrainSpec(**values)


def _start(v, sc, file, line, key, problems):
    """The `start:` model: (as written, the file it names), the file checked readable as a
    model of this simsym's feature set."""
    from pathlib import Path

    from simsym.learned import model as M

    if not isinstance(v, str) or not v.strip():
        problems.add(InputError(f"expected a model file's path, base (the shipped model) or "
                                f"generation N (a shipped generation), found {show(v)}", file,
                                line, key))
        return None, None
    if v == "base":
        return v, str(M.BASE_MODEL)
    named = re.fullmatch(r"generation\s+(\d+)", v.strip())
    if named:
        if int(named[1]) not in M.generations():
            problems.add(InputError(f"no generation {named[1]} is shipped; allowed: "
                                    + ", ".join(map(str, M.generations())), file, line, key))
            return None, None
        return v, str(M.generation_path(int(named[1])))
    p = Path(v).expanduser()
    if not p.is_absolute():
        p = Path(sc.path).resolve().parent / p
    try:
        M.load(p, file, line, key)
    except InputError as e:
        problems.add(e)
        return None, None
    return v, str(p)


def _refine(v, file, line, key, problems):
    """The `refine:` block as a dict of RefineSpec's settings (defaults filled in)."""
    from simsym.studies.refine import RefineSpec

    allowed = (*REFINE_INTS, *REFINE_FLOATS, "opponent")
    if not isinstance(v, dict):
        problems.add(InputError(f"expected a mapping with some of {', '.join(allowed)}, "
                                f"found {show(v)}", file, line, key))
        return None
    out = RefineSpec().as_dict()
    del out["seed"]
    for rk, rv in v.items():
        rl = line_of(v, rk, line)
        rkey = f"{key}.{rk}"
        if rk in REFINE_INTS:
            out[rk] = _int(rv, *REFINE_INTS[rk], file, rl, rkey, problems)
        elif rk in REFINE_FLOATS:
            lo, hi = REFINE_FLOATS[rk]
            if isinstance(rv, bool) or not isinstance(rv, (int, float)) or not lo <= rv <= hi:
                problems.add(InputError(f"expected a number from {lo:g} to {hi:g}, found "
                                        f"{show(rv)}", file, rl, rkey))
            else:
                out[rk] = float(rv)
        elif rk == "opponent":
            if rv not in REFINE_OPPONENTS:
                problems.add(InputError(f"expected one of {', '.join(REFINE_OPPONENTS)}, "
                                        f"found {show(rv)}", file, rl, rkey))
            else:
                out[rk] = rv
        else:
            problems.add(InputError(f"refine has no setting {show(rk)}"
                                    f"{did_you_mean(str(rk), allowed)}; allowed: "
                                    + ", ".join(allowed), file, rl, rkey))
    return out
