"""`simsym run` as a library call: play the games, checkpoint each chunk, write the run dir.

Each finished chunk's totals are saved in DIR/chunks/ (temp file, then rename) as the run
goes, so a crash, Ctrl-C or kill -9 loses at most the chunks in flight; ``resume=True``
continues from them and ends with the same summary.json as an uninterrupted run.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simsym import __version__
from simsym.core import enums as E
from simsym.errors import SimsymError
from simsym.strategies import BUILT_IN
from simsym.run.executor import ChunkResult, Progress, default_chunk_size, run_games
from simsym.run.output import atomic_write_text, prepare_out_dir, replace_dir, write_json
from simsym.run.summary import build_summary, card_table


def game_frame(scenario, rows: np.ndarray, g0: int) -> pd.DataFrame:
    P = scenario.players
    F = E.ROW_FIXED
    labels = [s.label for s in scenario.strategies]
    data = {"game": np.arange(g0, g0 + len(rows)), "deal": rows[:, E.ROW_DEAL],
            "turns": rows[:, E.ROW_TURNS], "stalled": rows[:, E.ROW_STALLED].astype(bool),
            "trades": rows[:, E.ROW_TRADES]}
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


def fingerprint(scenario) -> str:
    """What determines the games besides the seed: cards, rules, table, strategies."""
    spec = {
        "cards": [[c.name, c.text, c.copies] for c in scenario.cards],
        "rules": scenario.rules.as_dict(), "players": scenario.players,
        "seating": scenario.seating,
        "strategies": [[s.family, [[k, repr(v)] for k, v in s.params]]
                       for s in scenario.strategies],
    }
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


# --- checkpoints -------------------------------------------------------------------------

def _save_chunk(chunks: Path, res: ChunkResult):
    path = chunks / f"chunk-{res.index:06d}.npz"
    tmp = chunks / f".chunk-{res.index:06d}.tmp.npz"
    np.savez(tmp, _g0=res.g0, _g1=res.g1, _agg=res.agg, **res.totals)
    os.replace(tmp, path)


def _load_chunks(chunks: Path) -> dict:
    done = {}
    for path in sorted(chunks.glob("chunk-*.npz")):
        index = int(path.stem.split("-")[1])
        try:
            with np.load(path) as z:
                totals = {k: z[k] for k in z.files if not k.startswith("_")}
                done[index] = ChunkResult(index, int(z["_g0"]), int(z["_g1"]), totals,
                                          z["_agg"])
        except (OSError, ValueError, KeyError):
            path.unlink()  # a damaged checkpoint is simply played again
    return done


def _manifest(scenario, games, seed, chunk_size) -> dict:
    return {"scenario": scenario.name, "fingerprint": fingerprint(scenario), "games": games,
            "seed": seed, "chunk_size": chunk_size, "simsym": __version__}


def _resume_state(chunks: Path, manifest: dict) -> tuple[dict, int]:
    path = chunks / "manifest.json"
    if not path.exists():
        raise SimsymError(f"--resume: {chunks.parent} holds no interrupted run "
                          "(no chunks/manifest.json)")
    old = json.loads(path.read_text())
    for key, what in (("fingerprint", "scenario (cards, rules, table or strategies)"),
                      ("scenario", "scenario name"), ("seed", "seed"), ("games", "games"),
                      ("simsym", "simsym version")):
        if old.get(key) != manifest[key]:
            raise SimsymError(f"--resume: the interrupted run in {chunks.parent} has another "
                              f"{what} ({old.get(key)!r}, now {manifest[key]!r}); run without "
                              "--resume to start over")
    return _load_chunks(chunks), old["chunk_size"]


# --- the job -----------------------------------------------------------------------------

def run_scenario(scenario, *, games: int, seed: int, out: Path, jobs: int = 1,
                 engine: str = "numba", save_games: bool = False, progress: bool = False,
                 force: bool = False, chunk_size: int | None = None,
                 search: str = "reference", executor: str = "local",
                 scheduler: str | None = None, resume: bool = False) -> dict:
    """Run and write DIR/summary.json, DIR/cards.csv, DIR/run.json (and DIR/games/)."""
    if engine == "numba":
        from simsym.engine import setup_for

        setup_for(scenario)  # refuse what the numba engine cannot run before touching --out
    out = prepare_out_dir(out, scenario.name, force or resume)
    chunks = out / "chunks"
    games_tmp = out / ".games.partial"
    manifest = _manifest(scenario, games, seed, chunk_size or default_chunk_size(games, jobs))
    done = {}
    if resume:
        done, manifest["chunk_size"] = _resume_state(chunks, manifest)
    else:
        shutil.rmtree(chunks, ignore_errors=True)
        shutil.rmtree(games_tmp, ignore_errors=True)
    chunks.mkdir(exist_ok=True)
    write_json(chunks / "manifest.json", manifest)
    if save_games:
        games_tmp.mkdir(exist_ok=True)
    already = sum(r.g1 - r.g0 for r in done.values())
    bar = Progress(games, progress, start_at=already)
    started = time.time()
    t0 = time.perf_counter()

    def on_chunk(res, played):
        _save_chunk(chunks, res)
        bar.update(played)

    try:
        totals, agg = run_games(scenario, games, seed, jobs=jobs, engine=engine,
                                chunk_size=manifest["chunk_size"], on_chunk=on_chunk,
                                search=search, games_dir=games_tmp if save_games else None,
                                executor=executor, scheduler=scheduler, done=done)
    finally:
        bar.close()
    wall = time.perf_counter() - t0
    summary = build_summary(scenario, totals, games, seed)
    cards = card_table(scenario, agg, totals)
    atomic_write_text(out / "cards.csv", cards.to_csv(index=False, lineterminator="\n"))
    write_json(out / "totals.json", {k: v.tolist() for k, v in sorted(totals.items())})
    if save_games:
        replace_dir(games_tmp, out / "games")
    import numba

    write_json(out / "run.json", {
        "scenario": scenario.name, "scenario_file": str(scenario.path), "games": games,
        "seed": seed, "engine": engine, "search": search if engine == "python" else "numba",
        "executor": executor, "jobs": jobs, "chunk_size": manifest["chunk_size"],
        "resumed_games": already, "wall_seconds": round(wall, 3),
        "games_per_second": round((games - already) / wall, 1) if wall > 0 else None,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "versions": {"simsym": __version__, "numba": numba.__version__,
                     "numpy": np.__version__, "pandas": pd.__version__,
                     "python": platform.python_version()},
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
    })
    if all(s.family in BUILT_IN for s in scenario.strategies):  # the census replays in numba
        from dataclasses import replace as _replace

        from simsym.analysis.census import census, census_games

        write_json(out / "census.json", census(_replace(scenario, seed=seed),
                                               min(games, census_games(scenario))))
    # summary.json last: its presence means the run directory is complete.
    write_json(out / "summary.json", summary)
    shutil.rmtree(chunks, ignore_errors=True)
    return summary
