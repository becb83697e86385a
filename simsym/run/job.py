"""`simsym run` as a library call: play the games, then write the run directory."""

from __future__ import annotations

import platform
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simsym import __version__
from simsym.core import game_nb as G
from simsym.run.executor import Progress, run_games
from simsym.run.output import atomic_write_text, prepare_out_dir, replace_dir, write_json
from simsym.run.summary import build_summary, card_table


def game_frame(scenario, rows: np.ndarray, g0: int) -> pd.DataFrame:
    P = scenario.players
    F = G.R_FIXED
    labels = [s.label for s in scenario.strategies]
    data = {"game": np.arange(g0, g0 + len(rows)), "deal": rows[:, G.R_DEAL],
            "turns": rows[:, G.R_TURNS], "stalled": rows[:, G.R_STALLED].astype(bool),
            "trades": rows[:, G.R_TRADES]}
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


def run_scenario(scenario, *, games: int, seed: int, out: Path, jobs: int = 1,
                 engine: str = "numba", save_games: bool = False, progress: bool = False,
                 force: bool = False, chunk_size: int | None = None,
                 search: str = "reference") -> dict:
    """Run and write DIR/summary.json, DIR/cards.csv, DIR/run.json (and DIR/games/)."""
    if engine == "numba":
        from simsym.engine import setup_for

        setup_for(scenario)  # refuse what the numba engine cannot run before touching --out
    out = prepare_out_dir(out, scenario.name, force)
    games_tmp = out / ".games.partial"
    if save_games:
        shutil.rmtree(games_tmp, ignore_errors=True)
        games_tmp.mkdir()
    bar = Progress(games, progress)
    started = time.time()
    t0 = time.perf_counter()

    def on_chunk(res, done):
        if save_games and res.rows is not None:
            game_frame(scenario, res.rows, res.g0).to_parquet(
                games_tmp / f"part-{res.index:06d}.parquet", index=False)
        bar.update(done)

    try:
        totals, agg = run_games(scenario, games, seed, jobs=jobs, engine=engine,
                                chunk_size=chunk_size, on_chunk=on_chunk, keep_rows=save_games,
                                search=search)
    except BaseException:
        shutil.rmtree(games_tmp, ignore_errors=True)
        raise
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
        "jobs": jobs, "wall_seconds": round(wall, 3),
        "games_per_second": round(games / wall, 1) if wall > 0 else None,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "versions": {"simsym": __version__, "numba": numba.__version__,
                     "numpy": np.__version__, "pandas": pd.__version__,
                     "python": platform.python_version()},
        "machine": {"cpus": __import__("os").cpu_count(), "platform": platform.platform()},
    })
    # summary.json last: its presence means the run directory is complete.
    write_json(out / "summary.json", summary)
    return summary
