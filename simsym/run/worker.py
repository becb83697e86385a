"""What runs inside a worker process: play one chunk of games and reduce it.

A chunk (``run_chunk_task``) runs wherever the executor sends it: this process, a local
process pool (``simsym.run.executor``) or a Dask worker (``simsym.run.dask_executor``). Each
process builds its engine once per scenario (``engine_state``). The result, a
``ChunkResult``, is integer totals and card counts that merge by addition; ``chunk_bytes``
and ``chunk_from_bytes`` are its one file format (checkpoints and the chunk cache).

This module imports no other part of ``simsym.run`` except the reduction, so the executors
and the job import it, never each other.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simsym.core import enums as E
from simsym.errors import environment_error
from simsym.run.aggregate import reduce_rows, win_units


@dataclass
class ChunkResult:
    index: int
    g0: int
    g1: int
    totals: dict
    agg: np.ndarray
    # seconds the process that played it spent getting the kernels ready first (compiling,
    # waiting for another process's compile, loading them: simsym.engine.compiled
    # .compile_seconds); 0 when they were ready. Not part of the chunk's file.
    compile_seconds: float = 0.0


# One engine per process, built once per scenario (a worker may serve several runs).
_STATE: dict = {}


def engine_state(scenario, engine, search):
    """The engine of this worker process for ``scenario``, built on its first chunk and kept
    while the chunks are of the same games: the same fingerprint (cards, rules, table,
    strategies) and seed, which is all an engine reads of its scenario. Compared by content,
    not identity: a Dask task brings its own copy, and a freed scenario's id can be reused."""
    key = (fingerprint(scenario), scenario.seed, engine, search)
    if _STATE.get("key") != key:
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
        _STATE.clear()
        _STATE["key"] = key
        if engine == "numba":
            from simsym.engine.compiled import setup_for

            _STATE["setup"] = setup_for(scenario)
        else:
            _STATE["oracle"] = compiled_oracle(scenario) if search == "numba" else None
    return _STATE


def compiled_oracle(scenario):
    """The compiled best-Symposion search, in the reference engine's oracle interface."""
    from simsym.engine.search import Searcher

    s = Searcher(scenario.cards, scenario.rules)
    index = scenario.cards.index

    def oracle(hand, types, required=()):
        p = s.best(list(hand), types=types, required=required)
        return p.score, p.type, tuple(sorted(index(n) for n in p.cards))

    return oracle


def run_chunk_task(scenario, engine, search, index, g0, g1, games_dir=None) -> ChunkResult:
    """Play one chunk and reduce it (in whatever process runs it). With ``games_dir`` the
    chunk's per-game rows are written there as its own Parquet part file."""
    state = engine_state(scenario, engine, search)
    compiling = 0.0
    if engine == "numba":
        from simsym.engine.compiled import compile_seconds, run_chunk

        before = compile_seconds()
        rows, agg = run_chunk(state["setup"], g0, g1)
        compiling = compile_seconds() - before
    else:
        from simsym.run.reference import run_chunk_reference

        rows, agg = run_chunk_reference(scenario, g0, g1, search=state["oracle"])
    if games_dir is not None:
        part = Path(games_dir) / f"part-{index:06d}.parquet"
        tmp = part.with_name(f".{part.name}.tmp")
        try:
            game_frame(scenario, rows, g0).to_parquet(tmp, index=False)
            os.replace(tmp, part)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise environment_error(e, part) or e from None
    totals = reduce_rows(rows, scenario.players, len(scenario.strategies))
    return ChunkResult(index, g0, g1, totals, agg, compiling)


def init_worker(scenario, engine, search):
    engine_state(scenario, engine, search)


def chunk_bytes(res: ChunkResult) -> bytes:
    """A chunk as an .npz file's bytes (its index is not stored: a run's plan gives it)."""
    buf = io.BytesIO()
    np.savez(buf, _g0=res.g0, _g1=res.g1, _agg=res.agg, **res.totals)
    return buf.getvalue()


def chunk_from_bytes(data: bytes, index: int) -> ChunkResult:
    with np.load(io.BytesIO(data)) as z:
        totals = {k: z[k] for k in z.files if not k.startswith("_")}
        return ChunkResult(index, int(z["_g0"]), int(z["_g1"]), totals, z["_agg"])


# The game-quality fields of a row (docs/game-engine.md section 8) as saved games' columns.
QUALITY_COLUMNS = {
    "run1_turn": E.ROW.RUN1, "run2_turn": E.ROW.RUN2, "lead_changes": E.ROW.CHANGES,
    "decided_turn": E.ROW.DECIDED, "winner_deficit_run1": E.ROW.DEF1,
    "winner_deficit_run2": E.ROW.DEF2, "drama": E.ROW.DRAMA, "margin": E.ROW.MARGIN,
    "winners": E.ROW.WINNERS, "win_by": E.ROW.WIN_BY, "winner": E.ROW.WINNER,
}


def game_frame(scenario, rows: np.ndarray, g0: int) -> pd.DataFrame:
    P = scenario.players
    F = E.ROW.FIXED
    labels = [s.label for s in scenario.strategies]
    data = {"game": np.arange(g0, g0 + len(rows)), "deal": rows[:, E.ROW.DEAL],
            "turns": rows[:, E.ROW.TURNS], "stalled": rows[:, E.ROW.STALLED].astype(bool),
            "trades": rows[:, E.ROW.TRADES]}
    for name, col in QUALITY_COLUMNS.items():
        data[name] = rows[:, col]
    for i in range(P):
        data[f"score_{i}"] = rows[:, F + i]
    for i in range(P):
        data[f"strategy_{i}"] = pd.Categorical.from_codes(rows[:, F + P + i], labels)
    for i in range(P):
        data[f"symposia_{i}"] = rows[:, F + 2 * P + i]
    for i in range(P):
        for t, name in enumerate(("intellectual", "social", "hedonistic")):
            data[f"points_{name}_{i}"] = rows[:, F + 3 * P + 3 * i + t]
    return pd.DataFrame(data)


def long_game_frame(wide: pd.DataFrame, players: int) -> pd.DataFrame:
    """The rows of :func:`game_frame` one per game and seat (tidy: ``games_long/``), with
    the seat's share of the win (1 for a sole winner, 1/k among k tied, else 0)."""
    P = players
    scores = wide[[f"score_{i}" for i in range(P)]].to_numpy()
    share = win_units(scores) / E.WIN_UNITS
    n = len(wide)
    out = {"game": np.repeat(wide["game"].to_numpy(), P), "seat": np.tile(np.arange(P), n)}
    for col in ("deal", "turns", "stalled"):
        out[col] = np.repeat(wide[col].to_numpy(), P)
    out["strategy"] = pd.Categorical(np.stack([wide[f"strategy_{i}"].astype(str)
                                               for i in range(P)], axis=1).ravel(),
                                     categories=wide["strategy_0"].cat.categories)
    out["score"] = scores.ravel()
    out["win_share"] = share.ravel()
    out["symposia"] = wide[[f"symposia_{i}" for i in range(P)]].to_numpy().ravel()
    for name in ("intellectual", "social", "hedonistic"):
        out[f"points_{name}"] = wide[[f"points_{name}_{i}" for i in range(P)]].to_numpy().ravel()
    return pd.DataFrame(out)


def _model_digest(s) -> str:
    from simsym.model.strategies import model_weights

    return hashlib.sha256(model_weights(s).tobytes()).hexdigest()


def fingerprint(scenario) -> str:
    """What determines the games besides the seed: cards, rules, table, strategies, and the
    content of every model the table plays (its learned seats', its lookahead seats'
    rollouts')."""
    from simsym.model.strategies import rollout_learner

    spec = {
        "cards": [[c.name, c.text, c.copies] for c in scenario.cards],
        "rules": scenario.rules.as_dict(), "players": scenario.players,
        "seating": scenario.seating,
        "strategies": [[s.family, [[k, repr(v)] for k, v in s.params]]
                       for s in scenario.strategies],
    }
    # a learned seat plays its model's weights, whatever the file is called, and so do the
    # rollouts of a lookahead seat under policy learned (the model its `model` names)
    models = [_model_digest(s) for s in scenario.strategies if s.family == "learned"]
    if models:
        spec["models"] = models
    rollouts = [_model_digest(rollout_learner(s)) for s in scenario.strategies
                if s.family == "lookahead" and s.get("policy") == "learned"]
    if rollouts:
        spec["rollout_models"] = rollouts
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()
