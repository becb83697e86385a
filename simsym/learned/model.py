"""The `learned` player's model file: ``model.json``, format ``simsym-learned-model`` version 1.

A JSON object (docs/strategies.md, "The model file"):

* ``format``: ``"simsym-learned-model"``; ``version``: 1.
* ``features``, ``decisions``, ``phases``: the names of simsym.learned.features, in order; a
  file whose names differ was made for another feature set and is refused.
* ``scale``: the weights are integers; a weight ``w`` counts ``w / scale`` win shares per unit
  of its feature.
* ``weights``: for each decision, for each phase, one integer per feature.
* ``least_gain``: an integer in the weights' units: a candidate other than the first (greedy's
  choice) is played only when it scores more than this above the first.
* ``training``: how it was made (spec, seed, decisions labelled, its generation: the round of
  expert iteration it came from, counted on from the model training started from;
  informative only).

The package ships every generation of the base game's model (``generations/generation-N.json``,
``{family: learned, generation: N}``); the newest is the shipped model, the one a `learned`
seat plays unless told otherwise, and the one before it is what reports check their verdicts
against (docs/strategies.md, "Generations").

Integers make a model's scores exact in both engines, so the numba and the reference engine
choose the same candidate, game for game.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from simsym.errors import InputError
from simsym.learned.features import DECISIONS, FEATURES, NF, NPHASE, PHASES, WEIGHTS

FORMAT = "simsym-learned-model"
VERSION = 1
SCALE = 1 << 20
GENERATIONS = Path(__file__).resolve().parent / "generations"


def generations() -> list[int]:
    """The generations the package ships, oldest first."""
    return sorted(int(p.stem.rsplit("-", 1)[1]) for p in GENERATIONS.glob("generation-*.json"))


def generation_path(n: int) -> Path:
    return GENERATIONS / f"generation-{n}.json"


_SHIPPED = generations()
NEWEST = _SHIPPED[-1]
BASE_MODEL = generation_path(NEWEST)  # the shipped model: the newest generation
PREVIOUS = _SHIPPED[-2] if len(_SHIPPED) > 1 else None  # the one before it


def weights_to_json(w: np.ndarray) -> dict:
    w = np.asarray(w, np.int64)[:WEIGHTS].reshape(len(DECISIONS), NPHASE, NF)
    return {d: {p: [int(x) for x in w[i, j]] for j, p in enumerate(PHASES)}
            for i, d in enumerate(DECISIONS)}


def dumps(weights: np.ndarray, training: dict) -> str:
    """The file's text (deterministic: the same weights and training give the same bytes)."""
    doc = {"format": FORMAT, "version": VERSION, "features": list(FEATURES),
           "decisions": list(DECISIONS), "phases": list(PHASES), "scale": SCALE,
           "weights": weights_to_json(weights), "least_gain": int(weights[WEIGHTS]),
           "training": training}
    return json.dumps(doc, indent=1) + "\n"


def load(path, file=None, line=None, key=None) -> np.ndarray:
    """The weights of a model file, (MODEL_SIZE,) int64; an InputError naming the file and
    what is wrong when it is not a model of this version and feature set."""
    path = Path(path)
    where = dict(file=file or str(path), line=line, key=key)
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(f"no model file {str(path)!r} (make one with simsym train)",
                         **where) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError(f"model file {str(path)!r} is not readable JSON: {e}", **where) \
            from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f"{str(path)!r} is not a simsym model file (its 'format' must be "
                         f"{FORMAT!r})", **where)
    if doc.get("version") != VERSION:
        raise InputError(f"model file {str(path)!r} has version {doc.get('version')!r}; this "
                         f"simsym reads version {VERSION}", **where)
    for name, want in (("features", FEATURES), ("decisions", DECISIONS), ("phases", PHASES)):
        if doc.get(name) != list(want):
            raise InputError(f"model file {str(path)!r} was made for other {name} than this "
                             f"simsym's ({', '.join(want)}); train it again with simsym train",
                             **where)
    if doc.get("scale") != SCALE:
        raise InputError(f"model file {str(path)!r} has scale {doc.get('scale')!r}; allowed: "
                         f"{SCALE}", **where)
    out = np.zeros((len(DECISIONS), NPHASE, NF), np.int64)
    w = doc.get("weights")
    try:
        for i, d in enumerate(DECISIONS):
            for j, p in enumerate(PHASES):
                row = w[d][p]
                if len(row) != NF or not all(isinstance(x, int) and not isinstance(x, bool)
                                             and abs(x) < 1 << 40 for x in row):
                    raise ValueError
                out[i, j] = row
    except (KeyError, TypeError, ValueError):
        raise InputError(f"model file {str(path)!r}: 'weights' must hold, for each decision "
                         f"and phase, {NF} whole numbers below 2**40 in size", **where) \
            from None
    gain = doc.get("least_gain")
    if isinstance(gain, bool) or not isinstance(gain, int) or not 0 <= gain < 1 << 40:
        raise InputError(f"model file {str(path)!r}: 'least_gain' must be a whole number from "
                         f"0 to 2**40, found {gain!r}", **where)
    return np.append(out.reshape(WEIGHTS), gain).astype(np.int64)


def load_base() -> np.ndarray:
    """The model shipped in the package for the base game (its newest generation)."""
    return load(BASE_MODEL)


def generation_of(path) -> int:
    """The generation a model file says it is (``training.generation``); 0 when it does not
    say (a model trained from the zero model counts its rounds from 1)."""
    try:
        g = json.loads(Path(path).read_text()).get("training", {}).get("generation", 0)
    except (OSError, ValueError, AttributeError):
        return 0
    return g if isinstance(g, int) and not isinstance(g, bool) and g >= 0 else 0
