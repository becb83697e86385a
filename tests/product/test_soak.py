"""Soak: one run interrupted many times at seeded random moments, by SIGINT, SIGTERM, kill -9
of the main process and kill -9 of a worker, resumed after each, ends byte-identical to an
uninterrupted run, with no process left behind and no temp file left in --out.

Prints its figures (interruptions of each kind, wall time); docs/reliability.md quotes them.
"""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from simsym.run.job import run_scenario
from simsym.model.scenario import BASE_SCENARIO, load_scenario

FAST = load_scenario(BASE_SCENARIO).judge("fast")  # the base game's greedy table

SIMSYM = str(Path(sys.executable).parent / "simsym")
GAMES, CHUNK, SEED = 20000, 50, 11
INTERRUPTIONS = 20
KINDS = ("SIGINT", "SIGTERM", "kill -9 main", "kill -9 worker")
EXPECTED = {"SIGINT": {130}, "SIGTERM": {143}, "kill -9 main": {-9},
            "kill -9 worker": {2}}
# A signal in the first moments, while Python starts and before simsym's handlers are in
# place, takes its default action (no worker exists yet, nothing is written).
BEFORE_HANDLERS = {"SIGINT": -2, "SIGTERM": -15}


def poll(cond, timeout, what):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def chunks(out):
    try:
        return sum(1 for _ in os.scandir(out / "chunks") if _.name.startswith("chunk-"))
    except FileNotFoundError:  # not yet made, or being replaced by a fresh start
        return 0


def processes_of(out):
    """Every live process whose command line names ``out`` (a run's main and workers)."""
    found = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if str(out) in " ".join(p.info["cmdline"] or ()) and p.status() != "zombie":
                found.append(p)
        except psutil.Error:
            pass
    return found


@pytest.mark.slow
def test_soak_interrupted_20_times_ends_byte_identical(tmp_path):
    ref = tmp_path / "uninterrupted"
    run_scenario(FAST, games=GAMES, seed=SEED, out=ref, jobs=1,
                 chunk_size=CHUNK)
    out = tmp_path / "soak"
    rng = random.Random(13)
    counts = dict.fromkeys(KINDS, 0)
    early = 0
    t0 = time.monotonic()

    def start():
        resume = ["--resume"] if (out / "chunks" / "manifest.json").exists() else []
        return subprocess.Popen([SIMSYM, "run", str(BASE_SCENARIO), "--judge", "fast",
                                 "--games", str(GAMES),
                                 "--seed", str(SEED), "--chunk-size", str(CHUNK), "--jobs",
                                 "2", "--out", str(out), "-q", "--no-report", *resume],
                                stderr=subprocess.PIPE, text=True)

    for n in range(INTERRUPTIONS):
        kind = KINDS[n % len(KINDS)] if n < len(KINDS) else rng.choice(KINDS)
        proc = start()
        before = chunks(out)
        # A random moment: during start-up, or after 1 to 3 more chunks plus up to 0.1 s.
        if kind == "kill -9 worker" or rng.random() < 0.8:
            target = before + rng.randint(1, 3)
            poll(lambda: chunks(out) >= target or proc.poll() is not None, 300, "chunks")
            time.sleep(rng.random() * 0.1)
        else:  # during start-up: up to 3 s, but never past the first new chunk
            until = time.monotonic() + rng.random() * 3
            while time.monotonic() < until and chunks(out) == before and proc.poll() is None:
                time.sleep(0.005)
        if proc.poll() is not None:
            _, err = proc.communicate()
            raise AssertionError(f"the run ended (exit {proc.returncode}) before interruption "
                                 f"{n + 1} ({kind}); its stderr: {err}")
        if kind == "kill -9 worker":
            workers = psutil.Process(proc.pid).children()
            os.kill(rng.choice(workers).pid, signal.SIGKILL)
        else:
            os.kill(proc.pid, {"SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM}.get(
                kind, signal.SIGKILL))
        _, err = proc.communicate(timeout=120)
        if proc.returncode == BEFORE_HANDLERS.get(kind) and chunks(out) == before:
            early += 1
        else:
            assert proc.returncode in EXPECTED[kind], (n, kind, proc.returncode, err)
            assert "Traceback" not in err and "internal error" not in err, err
        poll(lambda: not processes_of(out), 15, f"the processes of the run to end ({kind})")
        assert not (out / "summary.json").exists()
        counts[kind] += 1
    proc = start()
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    wall = time.monotonic() - t0
    print(f"\nsoak: {sum(counts.values())} interruptions ({counts}; {early} before the "
          f"handlers), {GAMES} games, {wall:.0f} s; summary.json and cards.csv identical")
    assert (out / "summary.json").read_bytes() == (ref / "summary.json").read_bytes()
    assert (out / "cards.csv").read_bytes() == (ref / "cards.csv").read_bytes()
    assert not list(out.rglob(".*.tmp")) and not (out / "chunks").exists()
    assert not processes_of(out)
    assert all(counts[k] >= 2 for k in KINDS)
