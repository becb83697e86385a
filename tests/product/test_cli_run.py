"""`simsym run` end to end: outputs, flags over the file, determinism, bad input, Ctrl-C."""

import io
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from simsym.cli.main import main
from simsym.run.progress import Progress
from simsym.model.scenario import REPO_ROOT

SIMSYM = str(Path(sys.executable).parent / "simsym")
BASE = str(REPO_ROOT / "scenarios" / "base.yaml")


def run(*args):
    return CliRunner().invoke(main, ["run", *args])


def wilson_by_hand(wins: float, n: int, z: float = 1.959963984540054):
    """The 95% Wilson score interval, from its textbook formula."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_run_writes_summary_cards_and_run_json(tmp_path):
    t0 = time.perf_counter()
    r = run(BASE, "--games", "300", "--seed", "3", "--jobs", "1", "--out", str(tmp_path),
            "--save-games")
    elapsed = time.perf_counter() - t0
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["games"] == 300 and s["seed"] == 3 and s["players"] == 4
    assert isinstance(s["stalled"], int)
    assert [seat["seat"] for seat in s["seats"]] == [0, 1, 2, 3]
    games = pd.read_parquet(tmp_path / "games")
    assert len(games) == 300 and sorted(games["game"]) == list(range(300))
    for seat in s["seats"]:
        assert {"seat", "strategy", "wins", "win_rate", "ci95", "mean_score"} <= set(seat)
        assert seat["win_rate"] == pytest.approx(seat["wins"] / 300, abs=1e-6)
        assert seat["ci95"] == pytest.approx(wilson_by_hand(seat["wins"], 300), abs=1e-6)
        # The per-game rows (a separate path from the reduced totals) give the same mean.
        assert seat["mean_score"] == pytest.approx(games[f"score_{seat['seat']}"].mean(),
                                                   abs=1e-6)
    assert abs(sum(seat["wins"] for seat in s["seats"]) - 300) < 1e-3  # ties are shared
    # games_long/: the same games one row a game and seat, with each seat's share of the win
    tidy = pd.read_parquet(tmp_path / "games_long").sort_values(["game", "seat"])
    assert len(tidy) == 1200 and list(tidy["seat"][:4]) == [0, 1, 2, 3]
    wide = games.sort_values("game")
    assert (tidy["score"].to_numpy().reshape(300, 4)
            == wide[[f"score_{i}" for i in range(4)]].to_numpy()).all()
    assert tidy.groupby("game")["win_share"].sum().round(9).eq(1).all()
    for seat in s["seats"]:
        assert tidy[tidy["seat"] == seat["seat"]]["win_share"].sum() == pytest.approx(
            seat["wins"], abs=1e-6)
    top = wide[[f"score_{i}" for i in range(4)]].max(axis=1).to_numpy()
    sole = (wide[[f"score_{i}" for i in range(4)]].to_numpy() == top[:, None]).sum(1) == 1
    g = int(wide["game"][sole].iloc[0])  # a game with one winner: share 1 for it, 0 else
    row = tidy[tidy["game"] == g]
    assert sorted(row["win_share"]) == [0, 0, 0, 1]
    assert row["score"][row["win_share"] == 1].item() == top[sole][0]
    # the base game is judged: the strong table in the run directory, the fast one in fast/
    assert s["strategies"][0]["strategy"] == "learned"
    fast = json.loads((tmp_path / "fast" / "summary.json").read_text())
    assert fast["strategies"][0]["strategy"] == "greedy" and fast["games"] == 300
    cards = pd.read_csv(tmp_path / "cards.csv")
    assert len(cards) == 75 and cards["opening_n"].sum() == 300 * 4 * 9
    meta = json.loads((tmp_path / "run.json").read_text())
    # Timed here too: the run cannot have taken longer than the command around it.
    assert meta["engine"] == "numba" and 0 < meta["wall_seconds"] <= elapsed
    assert meta["games_per_second"] >= 300 / elapsed


def test_a_run_that_compiles_counts_its_games_a_second_without_the_compile(tmp_path,
                                                                            monkeypatch,
                                                                            own_locks):
    """The kernels' compile (here: a warm-up made to take 5 s more, in this process, for each
    kind of table) is not play: run.json's compile_seconds holds it, games_per_second is the
    games over the rest of the wall time, and the terminal says the compile happens once."""
    from simsym.engine import compiled
    from simsym.run.job import COMPILE_NOTE_S

    slow = COMPILE_NOTE_S
    real = compiled.compiled_once
    monkeypatch.setattr(compiled, "_COMPILED", set())  # as in a fresh process
    monkeypatch.setattr(compiled, "compiled_once", lambda kernel, warm, helper=None: real(
        kernel, lambda: (time.sleep(slow), warm()), helper))
    monkeypatch.delenv("SIMSYM_CACHE", raising=False)  # no chunk comes from a cache
    out = tmp_path / "run"
    r = run(BASE, "--games", "400", "--jobs", "1", "--out", str(out), "--no-report")
    assert r.exit_code == 0, r.output
    # the base game is judged: the fast table (the game loop) and the strong table (the
    # lookahead loop) compile a kernel each
    for table in (out / "fast", out):
        meta = json.loads((table / "run.json").read_text())
        assert slow <= meta["compile_seconds"] < meta["wall_seconds"]
        # games over the wall time less the compile's, as exact as run.json's figures allow:
        # each time is rounded to the millisecond (so play is known to 1 ms either way), the
        # rate to 0.1
        play = meta["wall_seconds"] - meta["compile_seconds"]
        assert 400 / (play + 0.001) - 0.05 <= meta["games_per_second"] <= \
            400 / (play - 0.001) + 0.05
    notes = [line for line in r.stderr.splitlines() if line.startswith("compiled the engine")]
    assert len(notes) == 2, r.stderr
    assert all(n.endswith("s (once: later runs load it from the cache)") for n in notes)
    # a warm start loads the kernels: the note is said exactly when what it records reaches
    # the threshold (no bound on the time itself: a loaded machine loads slowly)
    warm = tmp_path / "warm"
    r = run(BASE, "--games", "400", "--jobs", "1", "--out", str(warm), "--no-report",
            "--judge", "fast")
    assert r.exit_code == 0
    meta = json.loads((warm / "run.json").read_text())
    assert ("compiled the engine" in r.stderr) == (meta["compile_seconds"] >= COMPILE_NOTE_S)
    play = meta["wall_seconds"] - meta["compile_seconds"]
    assert meta["games_per_second"] == pytest.approx(400 / play, rel=0.01)


def test_summary_is_byte_identical_across_jobs_and_chunks(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(BASE, "--games", "400", "--jobs", "1", "--out", str(a), "-q").exit_code == 0
    assert run(BASE, "--games", "400", "--jobs", "2", "--chunk-size", "37", "--out", str(b),
               "-q").exit_code == 0
    assert (a / "summary.json").read_bytes() == (b / "summary.json").read_bytes()
    assert (a / "cards.csv").read_bytes() == (b / "cards.csv").read_bytes()
    # With two processes the census is made in a thread while they play: the same file.
    assert (a / "census.json").read_bytes() == (b / "census.json").read_bytes()


def test_the_census_is_made_while_worker_processes_play(tmp_path, monkeypatch):
    """With worker processes, this process makes the census in a thread while they play
    (simsym.run.job._Meanwhile), and the caller's ``meanwhile`` call with it; an error there
    is the run's error."""
    import threading

    import simsym.analysis.census as census_module
    from simsym.run.job import run_scenario
    from simsym.model.scenario import BASE_SCENARIO, load_scenario

    real, seen = census_module.census, []

    def census(*args, **kw):
        seen.append(threading.current_thread().name)
        return real(*args, **kw)

    monkeypatch.setattr(census_module, "census", census)
    sc = load_scenario(BASE_SCENARIO).judge("fast")
    def then():
        seen.append(("then", threading.current_thread().name))

    run_scenario(sc, games=120, seed=3, out=tmp_path / "a", jobs=2, chunk_size=20,
                 meanwhile=then)
    run_scenario(sc, games=120, seed=3, out=tmp_path / "b", jobs=1, meanwhile=then)
    assert seen == ["simsym-meanwhile", ("then", "simsym-meanwhile"),
                    "MainThread", ("then", "MainThread")]
    assert (tmp_path / "a" / "census.json").read_bytes() == \
        (tmp_path / "b" / "census.json").read_bytes()

    def broken(*args, **kw):
        raise RuntimeError("census failed")

    monkeypatch.setattr(census_module, "census", broken)
    with pytest.raises(RuntimeError, match="census failed"):
        run_scenario(sc, games=120, seed=3, out=tmp_path / "c", jobs=2, chunk_size=20)
    assert not (tmp_path / "c" / "summary.json").exists()


def test_the_census_thread_starts_only_once_the_workers_exist(tmp_path, monkeypatch):
    """Chunks from the chunk cache (SIMSYM_CACHE) are taken before the pool starts its
    processes; the census thread must not start then (a fork copies a thread's locks held,
    and the child would wait on them for ever): it starts once the workers exist."""
    import multiprocessing

    from simsym.run import job
    from simsym.model.scenario import BASE_SCENARIO, load_scenario

    monkeypatch.setenv("SIMSYM_CACHE", str(tmp_path / "cache"))
    sc = load_scenario(BASE_SCENARIO).judge("fast")
    job.run_scenario(sc, games=120, seed=5, out=tmp_path / "a", jobs=2, chunk_size=20)
    workers_at_start = []
    real_start = job._Meanwhile.start

    def start(self):
        workers_at_start.append(len(multiprocessing.active_children()))
        real_start(self)

    monkeypatch.setattr(job._Meanwhile, "start", start)
    # Games 0-119 come from the cache (six chunks taken first), 120-139 are played.
    job.run_scenario(sc, games=140, seed=5, out=tmp_path / "b", jobs=2, chunk_size=20)
    assert len(workers_at_start) == 1 and workers_at_start[0] == 2
    assert (tmp_path / "b" / "census.json").exists()


def test_the_compensation_check_plays_on_the_engine_of_the_run(tmp_path, monkeypatch):
    """A one-table run's --verify-compensation replays its table on the run's own engine and
    search, not on numba whatever the flags say."""
    from simsym.run import executor

    monkeypatch.delenv("SIMSYM_CACHE", raising=False)
    played = []
    real = executor.run_chunk_task

    def spy(sc, engine, search, *rest):  # one process (--jobs 1): chunks are played here
        played.append((bool(sc.rules.seat_compensation), engine, search))
        return real(sc, engine, search, *rest)

    monkeypatch.setattr(executor, "run_chunk_task", spy)
    r = run(BASE, "--judge", "fast", "--games", "12", "--jobs", "1", "--engine", "python",
            "--search", "numba", "--verify-compensation", "--no-report", "-q", "--out",
            str(tmp_path))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "compensation.json").exists()
    assert set(played) == {(False, "python", "numba"), (True, "python", "numba")}


def test_bad_scenario_is_refused_before_any_game(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {BASE}\nstrategies:\n  - family: greedy\n    patience: 3\n")
    r = run(str(bad), "--out", str(tmp_path / "out"))
    assert r.exit_code == 2
    assert "bad.yaml:4" in r.output and "patience" in r.output
    assert not (tmp_path / "out").exists()
    bad.write_text(f"extends: {BASE}\nplayers: 7\n")
    assert run(str(bad)).exit_code == 2
    bad.write_text(f"extends: {BASE}\nstrategies: [cheater]\n")
    r = run(str(bad))
    assert r.exit_code == 2 and "unknown strategy 'cheater'" in r.output


def test_out_dir_of_another_scenario_needs_force(tmp_path):
    assert run(BASE, "--games", "50", "--jobs", "1", "--out", str(tmp_path), "-q").exit_code == 0
    other = tmp_path.parent / "other.yaml"
    other.write_text(f"extends: {BASE}\nname: other\n")
    r = run(str(other), "--games", "50", "--jobs", "1", "--out", str(tmp_path), "-q")
    assert r.exit_code == 2 and "--force" in r.output
    assert json.loads((tmp_path / "summary.json").read_text())["scenario"] == "base"
    r = run(str(other), "--games", "50", "--jobs", "1", "--out", str(tmp_path), "-q", "--force")
    assert r.exit_code == 0


def test_progress_bar_shows_rate_and_eta():
    buf = io.StringIO()
    p = Progress(1000, True, stream=buf)
    p.update(500, force=True)
    p.close()
    assert "500/1,000 games" in buf.getvalue() and "games/s" in buf.getvalue()
    assert "ETA" in buf.getvalue()
    quiet = io.StringIO()
    Progress(10, False, stream=quiet).update(5, force=True)
    assert quiet.getvalue() == ""


def test_ctrl_c_exits_cleanly_and_keeps_the_previous_summary(tmp_path):
    assert run(BASE, "--games", "60", "--jobs", "1", "--out", str(tmp_path), "-q").exit_code == 0
    before = (tmp_path / "summary.json").read_bytes()
    proc = subprocess.Popen([SIMSYM, "run", BASE, "--games", "5000000", "--jobs", "2",
                             "--chunk-size", "200", "--out", str(tmp_path), "-q"],
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not list(tmp_path.rglob("chunk-*.npz")) and proc.poll() is None:
        assert time.monotonic() < deadline, "no chunk saved"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert (tmp_path / "summary.json").read_bytes() == before
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    assert list(tmp_path.rglob("chunk-*.npz"))  # kept for --resume
