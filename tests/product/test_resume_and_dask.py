"""Long runs survive interruption (kill -9 at random moments, then --resume), and Dask
runs give the same summary.json as local ones, even when a worker dies mid-run."""

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simsym.errors import SimsymError
from simsym.run.job import run_scenario
from simsym.model.scenario import BASE_SCENARIO, load_scenario

FAST = load_scenario(BASE_SCENARIO).judge("fast")  # the base game's greedy table

SIMSYM = str(Path(sys.executable).parent / "simsym")
GAMES = 2400
# The kill -9 test's run: 100 chunks of 60 games, so that three kills at random moments
# (each after 1 to 6 more chunks and up to 0.1 s) land before it ends, however fast the
# engine (on this machine two processes save a chunk every ~5 ms).
KILL_GAMES = 6000


def _uninterrupted(tmp_path_factory, games):
    out = tmp_path_factory.mktemp("uninterrupted")
    run_scenario(FAST, games=games, seed=7, out=out, jobs=1)
    return (out / "summary.json").read_bytes(), (out / "cards.csv").read_bytes()


@pytest.fixture(scope="module")
def reference_summary(tmp_path_factory):
    return _uninterrupted(tmp_path_factory, GAMES)


def start(out, *extra, games=GAMES):
    return subprocess.Popen([SIMSYM, "run", str(BASE_SCENARIO), "--judge", "fast", "--games",
                             str(games), "--seed", "7", "--jobs", "2", "--chunk-size", "60",
                             "--out", str(out), "-q", *extra], start_new_session=True,
                            stderr=subprocess.PIPE, text=True)


def chunks_done(out):
    return len(list((out / "chunks").glob("chunk-*.npz"))) if (out / "chunks").exists() else 0


@pytest.mark.slow
def test_kill_9_at_random_moments_then_resume_is_identical(tmp_path, tmp_path_factory):
    rng = random.Random(2026)
    out = tmp_path / "run"
    proc = start(out, games=KILL_GAMES)
    kills = 0
    for attempt in range(3):
        # Wait until some chunks are saved, then kill the whole process group at once.
        deadline = time.time() + 120
        target = chunks_done(out) + rng.randint(1, 6)
        while chunks_done(out) < target and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(rng.random() * 0.1)
        if proc.poll() is not None:
            break
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        kills += 1
        assert not (out / "summary.json").exists()
        proc = start(out, "--resume", games=KILL_GAMES)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert kills >= 2
    summary, cards = _uninterrupted(tmp_path_factory, KILL_GAMES)
    assert (out / "summary.json").read_bytes() == summary
    assert (out / "cards.csv").read_bytes() == cards
    assert not (out / "chunks").exists()


def test_resume_refuses_another_scenario_or_seed(tmp_path):
    out = tmp_path / "run"
    proc = start(out)
    deadline = time.time() + 120
    while chunks_done(out) < 2 and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with pytest.raises(SimsymError, match="another seed"):
        run_scenario(FAST, games=GAMES, seed=8, out=out, resume=True)
    other = load_scenario(BASE_SCENARIO.parent / "plato-nerf.yaml")
    with pytest.raises(SimsymError, match="another scenario"):
        run_scenario(other, games=GAMES, seed=7, out=out, resume=True)
    with pytest.raises(SimsymError, match="no interrupted run"):
        run_scenario(FAST, games=10, seed=7, out=tmp_path / "x",
                     resume=True)


@pytest.mark.slow
def test_dask_local_cluster_matches_local_processes(tmp_path, reference_summary):
    out = tmp_path / "dask"
    r = subprocess.run([SIMSYM, "run", str(BASE_SCENARIO), "--judge", "fast", "--games",
                        str(GAMES), "--seed", "7", "--executor", "dask", "--jobs", "2",
                        "--chunk-size", "97", "--out", str(out), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (out / "summary.json").read_bytes() == reference_summary[0]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 1])
def test_dask_worker_killed_mid_run_gives_the_same_summary(tmp_path, reference_summary, workers):
    """With one worker, the one killed held everything the run had sent the cluster: each
    task carries what it needs (a scenario scattered to that worker was lost with it, and
    the tasks waiting on it were cancelled)."""
    from dask.distributed import LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"})
    out = tmp_path / "dask-kill"
    errors = []

    def go():
        try:
            run_scenario(FAST, games=GAMES, seed=7, out=out,
                         executor="dask", scheduler=cluster.scheduler_address, chunk_size=40)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    try:
        t = threading.Thread(target=go)
        t.start()
        deadline = time.time() + 180
        while chunks_done(out) < 3 and time.time() < deadline:
            time.sleep(0.05)
        nanny = next(iter(cluster.workers.values()))
        os.kill(nanny.process.process.pid, signal.SIGKILL)  # the worker, mid-run
        t.join(timeout=600)
    finally:
        cluster.close()
    assert not errors, errors
    assert (out / "summary.json").read_bytes() == reference_summary[0]
