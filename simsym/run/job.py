"""`simsym run` as a library call: play the games, checkpoint each chunk, write the run dir.

Each finished chunk's totals are saved in DIR/chunks/ (temp file, then rename) with its
checksum as the run goes, so a crash, a signal, kill -9 or a full disk loses at most the
chunks in flight; ``resume=True`` checks the saved chunks, plays again those that are
damaged or missing, and ends with the same summary.json as an uninterrupted run. The run
holds the lock on DIR throughout (lock.py); docs/reliability.md says what each failure
looks like.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simsym import __version__
from simsym.errors import OutputError, SimsymError, environment_error
from simsym.model.strategies import BUILT_IN
from simsym.run.executor import WorkerLost, default_chunk_size, plan_chunks, run_games
from simsym.run.lock import out_dir_lock
from simsym.run.output import (atomic_write, commit_files, json_text, prepare_out_dir,
                               remove_temp_files, replace_dir, stage_files, write_json)
from simsym.run.progress import Progress
from simsym.run.summary import build_summary, card_table
from simsym.run.worker import ChunkResult, chunk_bytes, chunk_from_bytes, fingerprint


# --- checkpoints -------------------------------------------------------------------------
#
# DIR/chunks/manifest.json says which run the chunks belong to; DIR/chunks/checksums.sha256
# (the format of `sha256sum -c`) gets one line per chunk, appended before the chunk file is
# renamed into place. On --resume a chunk file is used only if its SHA-256 is the one
# recorded and it holds the games its index stands for; any other is named on stderr,
# deleted, and its games are played again.

CHECKSUMS = "checksums.sha256"


def _chunk_name(index: int) -> str:
    return f"chunk-{index:06d}.npz"


def _save_chunk(chunks: Path, res: ChunkResult):
    data = chunk_bytes(res)
    name = _chunk_name(res.index)
    line = f"{hashlib.sha256(data).hexdigest()}  {name}\n"
    try:
        with open(chunks / CHECKSUMS, "a", encoding="ascii") as fh:
            fh.write(line)
    except OSError as e:
        raise environment_error(e, chunks / CHECKSUMS) or e from None
    atomic_write(chunks / name, lambda fh: fh.write(data), binary=True)


def _read_checksums(chunks: Path) -> dict[str, str]:
    """File name -> recorded SHA-256 (the last line wins; a line cut short is ignored)."""
    sums = {}
    try:
        text = (chunks / CHECKSUMS).read_text(encoding="ascii", errors="replace")
    except FileNotFoundError:
        return sums
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        if len(digest) == 64 and name.startswith("chunk-"):
            sums[name] = digest
    return sums


def _read_chunk(path: Path, sums: dict, plan: list) -> ChunkResult:
    """The chunk saved in ``path``, or ValueError saying why it cannot be used."""
    try:
        index = int(path.stem.split("-")[1])
    except (IndexError, ValueError):
        raise ValueError("not a chunk file name") from None
    if index >= len(plan):
        raise ValueError(f"chunk {index} is not part of this run ({len(plan)} chunks)")
    data = path.read_bytes()
    if path.name not in sums:
        raise ValueError("no checksum recorded (the run stopped while saving it)")
    if hashlib.sha256(data).hexdigest() != sums[path.name]:
        raise ValueError("its checksum is not the one recorded (damaged or replaced)")
    try:
        res = chunk_from_bytes(data, index)
    except Exception as e:  # noqa: BLE001 - any unreadable content means: play it again
        raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None
    if (res.g0, res.g1) != plan[index]:
        raise ValueError(f"holds games {res.g0}..{res.g1 - 1}, chunk {index} is games "
                         f"{plan[index][0]}..{plan[index][1] - 1}")
    return res


def _load_chunks(chunks: Path, plan: list) -> dict:
    sums = _read_checksums(chunks)
    done = {}
    for path in sorted(chunks.glob("chunk-*.npz")):
        try:
            res = _read_chunk(path, sums, plan)
        except (OSError, ValueError) as e:
            print(f"simsym: {path}: {e}; playing its games again", file=sys.stderr)
            path.unlink(missing_ok=True)
            continue
        done[res.index] = res
    return done


def _manifest(scenario, games, seed, chunk_size) -> dict:
    return {"scenario": scenario.name, "fingerprint": fingerprint(scenario), "games": games,
            "seed": seed, "chunk_size": chunk_size, "simsym": __version__}


def _resume_state(chunks: Path, manifest: dict) -> tuple[dict, int]:
    path = chunks / "manifest.json"
    if not path.exists():
        raise SimsymError(f"--resume: {chunks.parent} holds no interrupted run "
                          "(no chunks/manifest.json)")
    try:
        old = json.loads(path.read_text())
        chunk_size = int(old["chunk_size"])
        if chunk_size < 1:
            raise ValueError("chunk_size below 1")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SimsymError(f"--resume: {path} is damaged ({type(e).__name__}: {e}); run "
                          "without --resume to start over") from None
    for key, what in (("fingerprint", "scenario (cards, rules, table or strategies)"),
                      ("scenario", "scenario name"), ("seed", "seed"), ("games", "games"),
                      ("simsym", "simsym version")):
        if old.get(key) != manifest[key]:
            raise SimsymError(f"--resume: the interrupted run in {chunks.parent} has another "
                              f"{what} ({old.get(key)!r}, now {manifest[key]!r}); run without "
                              "--resume to start over")
    return _load_chunks(chunks, plan_chunks(manifest["games"], chunk_size)), chunk_size


# --- the job -----------------------------------------------------------------------------

def run_scenario(scenario, *, games: int, seed: int, out: Path, jobs: int = 1,
                 engine: str = "numba", save_games: bool = False, progress: bool = False,
                 force: bool = False, chunk_size: int | None = None,
                 search: str = "reference", executor: str = "local",
                 scheduler: str | None = None, resume: bool = False,
                 meanwhile=None) -> dict:
    """Run and write DIR/summary.json, DIR/cards.csv, DIR/seats.csv, DIR/run.json (and
    DIR/games/). ``meanwhile``: a call that prepares what the caller does next and writes
    nothing (e.g. the report's imports), made while other processes play the games (or after
    them, when this process plays them)."""
    if engine == "numba":
        from simsym.engine.compiled import setup_for

        setup_for(scenario)  # refuse what the numba engine cannot run before touching --out
    out = prepare_out_dir(out, scenario.name, force or resume)
    with out_dir_lock(out, "run"):
        try:
            return _run_locked(scenario, games, seed, out, jobs, engine, save_games, progress,
                               chunk_size, search, executor, scheduler, resume,
                               meanwhile)
        except KeyboardInterrupt as e:
            e.resume_hint = RESUME_HINT  # the CLI's message says so
            raise
        except OutputError as e:
            raise e.with_hint(RESUME_HINT) from None
        except WorkerLost as e:
            raise SimsymError(f"{e}; {RESUME_HINT}") from None


class CompileWatch:
    """Says so above the progress bar when the run is waiting for the kernels to compile
    (the first run after an install or a kernel edit: minutes with no game done). A thread
    looks once, AFTER_S seconds in, whether a process of this machine holds the compile
    lock of simsym.engine.compiled.compiled_once while no game is done yet; a warm start holds it
    for a tenth of a second."""

    TEXT = ("compiling the engine, once (the first run after an install or a kernel change: "
            "about a minute for each kind of table, then cached)")
    AFTER_S = 3.0

    def __init__(self, bar):
        import threading

        self.bar = bar
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._look, name="simsym-compile-watch",
                                       daemon=True)
        self.started = False

    def start(self):
        """Start looking (once: a Dask run calls this before and again once its workers
        exist)."""
        if not self.started and not self.stopped.is_set():
            self.started = True
            self.thread.start()

    def stop(self):
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join()

    def _look(self):
        from filelock import Timeout

        from simsym.engine.compiled import compile_lock

        if self.stopped.wait(self.AFTER_S) or self.bar.done > self.bar.start_at:
            return
        lock = compile_lock()
        try:
            lock.acquire(timeout=0)
        except Timeout:  # held: a compile is under way
            if not self.stopped.is_set():
                self.bar.note(self.TEXT)
        except OSError:
            pass
        else:
            lock.release()


# run.json's compile_seconds from which the terminal says the run compiled the engine: loading
# the kernels from numba's cache takes about a second, compiling them a minute or more.
COMPILE_NOTE_S = 5.0


def compile_note(out: Path) -> str | None:
    """What the terminal says after a run in ``out`` that compiled the engine (or waited for
    another process's compile), from its run.json; None after one that loaded it."""
    seconds = json.loads((Path(out) / "run.json").read_text()).get("compile_seconds") or 0
    if seconds < COMPILE_NOTE_S:
        return None
    return (f"compiled the engine in {seconds:.0f} s (once: later runs load it from the "
            "cache)")


class _Meanwhile:
    """What this process does once the games are played and that does not depend on them: the
    census (it replays the run's first games), importing statsmodels for the summary, and the
    caller's own preparation (run_scenario's ``meanwhile``: a report's plotting, say). When
    other processes play the games, this one only waits for their chunks, so it does that
    work in a thread meanwhile (~1.2 s less of a 13 s run of 100,000 base games; the thread
    takes some of the workers' CPU). run_games starts it once the worker processes exist
    (``on_start``), not before: forking a process while a thread holds an import lock leaves
    the child waiting for it for ever. In one process (the games hold the interpreter) it is
    done after the games, as before. Nothing here writes a file."""

    def __init__(self, scenario, games, seed, with_census, then=None):
        self.scenario, self.games, self.seed = scenario, games, seed
        self.with_census, self.then = with_census, then
        self.thread = None
        self.result = None
        self.error = None

    def _work(self):
        try:
            if self.with_census:
                from dataclasses import replace

                from simsym.analysis.census import census, census_games

                self.result = census(replace(self.scenario, seed=self.seed),
                                     min(self.games, census_games(self.scenario)))
            from importlib import import_module

            import_module("statsmodels.stats.proportion")  # build_summary's
            if self.then is not None:
                self.then()
        except BaseException as e:  # noqa: BLE001  (raised in the caller's thread: join)
            self.error = e

    def start(self):
        if self.thread is None:
            import threading

            self.thread = threading.Thread(target=self._work, name="simsym-meanwhile",
                                           daemon=True)
            self.thread.start()

    def join(self):
        """Wait for the work (or do it now, when it was not started); its error is raised
        here. Then ``result`` is the census (None without one)."""
        if self.thread is None:
            self._work()
        else:
            self.thread.join()
        if self.error is not None:
            raise self.error


RESUME_HINT = "finished chunks are kept: rerun with --resume to continue"


def _long_games(games_dir: Path, players: int) -> Path:
    """games_long/ beside games/: each part file of one row a game as one row a game and
    seat (simsym.run.worker.long_game_frame), in a temporary folder moved into place with
    the rest."""
    from simsym.run.worker import long_game_frame

    tmp = games_dir.with_name(".games_long.partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    for part in sorted(games_dir.glob("part-*.parquet")):
        try:
            long_game_frame(pd.read_parquet(part), players).to_parquet(tmp / part.name,
                                                                       index=False)
        except OSError as e:
            raise environment_error(e, tmp / part.name) or e from None
    return tmp


def _run_locked(scenario, games, seed, out, jobs, engine, save_games, progress, chunk_size,
                search, executor, scheduler, resume, then) -> dict:
    remove_temp_files(out)  # what a killed run left; no other command writes here now
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

    with_census = all(s.family in BUILT_IN for s in scenario.strategies)  # it replays in numba
    meanwhile = _Meanwhile(scenario, games, seed, with_census, then)
    watch = CompileWatch(bar) if engine == "numba" and progress else None

    def on_start():
        meanwhile.start()
        if watch is not None:
            watch.start()

    compiling = 0.0  # the longest any process spent getting the kernels ready

    def on_chunk(res, played):
        nonlocal compiling
        # The processes get their kernels ready at the same time (one compiles, the others
        # wait for it), before their first chunk: the longest of them is the run's.
        compiling = max(compiling, res.compile_seconds)
        _save_chunk(chunks, res)
        bar.update(played)

    if watch is not None and (jobs <= 1 or executor != "local"):
        watch.start()  # no worker processes forked from this one: a thread may run now
    try:
        totals, agg = run_games(scenario, games, seed, jobs=jobs, engine=engine,
                                chunk_size=manifest["chunk_size"], on_chunk=on_chunk,
                                search=search, games_dir=games_tmp if save_games else None,
                                executor=executor, scheduler=scheduler, done=done,
                                on_start=on_start)
    finally:
        if watch is not None:
            watch.stop()
        bar.close()
    wall = time.perf_counter() - t0
    play = max(wall - compiling, 0.0)
    meanwhile.join()
    summary = build_summary(scenario, totals, games, seed)
    cards = card_table(scenario, agg, totals)
    import numba

    from simsym.analysis.seats import seat_table  # statsmodels: imported by now (build_summary)

    files = {
        "cards.csv": cards.to_csv(index=False, lineterminator="\n"),
        # the report's seat table (simsym.analysis.seat_table), one row a seat
        "seats.csv": seat_table(summary).to_csv(index=False, lineterminator="\n"),
        "totals.json": json_text({k: v.tolist() for k, v in sorted(totals.items())}),
        "run.json": json_text({
            "scenario": scenario.name, "scenario_file": str(scenario.path), "games": games,
            "seed": seed, "judge": scenario.judged_by, "fingerprint": manifest["fingerprint"],
            "engine": engine,
            "search": search if engine == "python" else "numba",
            "executor": executor, "jobs": jobs, "chunk_size": manifest["chunk_size"],
            "resumed_games": already, "wall_seconds": round(wall, 3),
            "compile_seconds": round(compiling, 3),
            # the games played, over the wall time less the compile's
            "games_per_second": round((games - already) / play, 1) if play > 0 else None,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
            "versions": {"simsym": __version__, "numba": numba.__version__,
                         "numpy": np.__version__, "pandas": pd.__version__,
                         "python": platform.python_version()},
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        }),
    }
    if with_census:
        files["census.json"] = json_text(meanwhile.result)
    # summary.json last: its presence means the run directory is complete.
    files["summary.json"] = json_text(summary)
    staged = stage_files(out, files)
    if save_games:
        long_tmp = _long_games(games_tmp, scenario.players)
        replace_dir(games_tmp, out / "games")
        replace_dir(long_tmp, out / "games_long")
    commit_files(staged)
    shutil.rmtree(chunks, ignore_errors=True)
    return summary
