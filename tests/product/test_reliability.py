"""Runs survive signals, damaged checkpoints, full disks and each other (docs/reliability.md).

The signal tests start real `simsym run` processes, signal them, and poll (never a fixed
sleep) until every process the run started is gone.
"""

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from simsym.cli.main import main
from simsym.errors import SimsymError
from simsym.run import job
from simsym.run.job import run_scenario
from simsym.run.lock import holder_path
from simsym.model.scenario import BASE_SCENARIO, load_scenario

SIMSYM = str(Path(sys.executable).parent / "simsym")
BASE = str(BASE_SCENARIO)


def cli(*args):
    return CliRunner().invoke(main, list(args))


def start_run(out, *extra, games=200_000):
    return subprocess.Popen([SIMSYM, "run", BASE, "--games", str(games), "--seed", "5",
                             "--chunk-size", "100", "--out", str(out), "-q", *extra],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def poll(cond, timeout=120.0, what="condition"):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def chunk_files(out):
    """The saved chunks of a run in ``out``: of the base game's judged run, the fast table's
    (``fast/chunks``, played first) and the strong table's (``chunks``)."""
    found = []
    for where in (Path(out) / "fast" / "chunks", Path(out) / "chunks"):
        try:
            found += sorted(where.glob("chunk-*.npz"))
        except FileNotFoundError:  # removed while listed: a run starting afresh
            pass
    return found


def running_with_workers(proc, out, workers=2):
    """Wait until the run has saved a chunk and has its workers; return its descendants."""
    poll(lambda: chunk_files(out) or proc.poll() is not None, what="a saved chunk")
    assert proc.poll() is None, proc.communicate()[1]
    kids = psutil.Process(proc.pid).children(recursive=True)
    assert len(kids) >= workers, kids
    return kids


def assert_all_gone(procs, timeout=15.0):
    _, alive = psutil.wait_procs(procs, timeout=timeout)
    assert not alive, f"left behind: {alive}"


def temp_files(out):
    return [p for p in Path(out).rglob(".*.tmp")]


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143),
                                      (signal.SIGHUP, 129)])
def test_signal_ends_every_worker_and_keeps_results_for_resume(tmp_path, sig, code):
    out = tmp_path / "run"
    assert cli("run", BASE, "--games", "40", "--jobs", "1", "--out", str(out), "-q",
               "--no-report").exit_code == 0
    before = (out / "summary.json").read_bytes()
    proc = start_run(out, "--jobs", "2", "--force")
    kids = running_with_workers(proc, out)
    os.kill(proc.pid, sig)  # the main process only, as `timeout` or systemd would
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert f"interrupted by {signal.Signals(sig).name}" in err and "--resume" in err, err
    assert "Traceback" not in err
    assert_all_gone(kids)
    assert (out / "summary.json").read_bytes() == before
    saved = chunk_files(out)
    assert saved and (saved[0].parent / "manifest.json").exists()
    assert not temp_files(out)
    assert not holder_path(out).exists()  # the lock was released


@pytest.mark.parametrize("command", [
    ["compare", BASE, str(BASE_SCENARIO.parent / "plato-nerf.yaml")],
    ["sweep", BASE, "--players", "3", "--players", "4"]])
def test_commands_that_play_games_end_their_workers_on_sigterm(tmp_path, command):
    proc = subprocess.Popen([SIMSYM, *command, "--games", "400000", "--jobs", "2", "--out",
                             str(tmp_path / "out"), "-q"], stderr=subprocess.PIPE, text=True)
    poll(lambda: proc.poll() is not None or len(psutil.Process(proc.pid).children()) >= 2,
         what="the workers")
    kids = psutil.Process(proc.pid).children(recursive=True)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.strip() == "simsym: interrupted by SIGTERM"
    assert_all_gone(kids)


SWALLOWED = """
import ctypes, os, signal, sys, threading, time
from simsym.errors import Interrupted
from simsym.run.lifeline import signals_stop_the_run

libc = ctypes.CDLL(None)
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
cmp = CMP(lambda a, b: time.sleep(0.2) or 0)  # most of the time inside a callback from C
pair = (ctypes.c_int * 2)(1, 2)
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
t0 = time.monotonic()
try:
    with signals_stop_the_run():
        for _ in range(150):  # a minute of work, if the stop were lost
            libc.qsort(pair, 2, ctypes.sizeof(ctypes.c_int), cmp)
            time.sleep(0.2)
    print("finished")
except Interrupted as e:
    print("interrupted", e.signum, time.monotonic() - t0 < 10)
"""


def test_a_stop_signal_that_lands_in_a_callback_from_c_still_stops_the_run():
    """numba's compiler calls back into Python from C (its object cache); a stop signal whose
    handler runs there raises into C, which drops the exception. It is delivered again until
    it stops the run: at 0.5 s the process is inside qsort's comparison, 0.2 s at a time."""
    r = subprocess.run([sys.executable, "-c", SWALLOWED], capture_output=True, text=True,
                       timeout=120)
    assert r.stdout.split() == ["interrupted", str(int(signal.SIGTERM)), "True"], \
        r.stdout + r.stderr
    assert "Exception ignored" not in r.stderr


FAILS_AFTER_THE_STOP = """
import ctypes, os, signal, sys, time
import click
from simsym.cli.main import SimsymGroup

libc = ctypes.CDLL(None)
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


def stopped_inside(a, b):
    os.kill(os.getpid(), signal.SIGTERM)  # its handler runs here, inside qsort: dropped
    time.sleep(0.01)
    return 0


@click.group(cls=SimsymGroup)
def cli():
    pass


@cli.command()
def work():
    libc.qsort((ctypes.c_int * 2)(1, 2), 2, ctypes.sizeof(ctypes.c_int), CMP(stopped_inside))
    raise RuntimeError("no compiled object yet")  # as numba fails once its callback did


cli(["work"])
"""


def test_an_error_that_follows_a_stop_is_reported_as_the_stop():
    """Stopped inside a callback from C, numba fails a moment later with an error of its own:
    the command says it was interrupted and exits 128 + the signal, not "internal error"."""
    r = subprocess.run([sys.executable, "-c", FAILS_AFTER_THE_STOP], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 128 + signal.SIGTERM, r.stderr
    assert r.stderr.strip() == "simsym: interrupted by SIGTERM"


def test_workers_exit_by_themselves_when_the_main_process_is_killed(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out, "--jobs", "2")
    kids = running_with_workers(proc, out)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert_all_gone(kids, timeout=10)
    # The lock died with them: a resume starts at once and says it takes over.
    r = subprocess.run([SIMSYM, "run", BASE, "--games", "300", "--seed", "5", "--out",
                        str(out), "-q", "--jobs", "1", "--no-report"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "taking over the lock" in r.stderr and f"pid {proc.pid}" in r.stderr


def test_a_worker_killed_from_outside_ends_the_run_with_a_clear_error(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out, "--jobs", "2")
    kids = running_with_workers(proc, out)
    os.kill(kids[0].pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "a worker process died" in err and "--resume" in err and "internal" not in err
    assert_all_gone(kids)


@pytest.mark.slow
def test_dask_local_cluster_is_shut_down_by_sigterm_and_by_kill_9(tmp_path):
    for sig, code in ((signal.SIGTERM, 143), (signal.SIGKILL, -9)):
        out = tmp_path / signal.Signals(sig).name
        proc = start_run(out, "--executor", "dask", "--jobs", "2")
        kids = running_with_workers(proc, out)
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == code, err
        assert_all_gone(kids, timeout=30)


# --- checkpoints -------------------------------------------------------------------------

GAMES, CHUNK = 600, 60


FAST = load_scenario(BASE_SCENARIO).judge("fast")  # one table: the checkpoints of run_scenario


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole")
    run_scenario(FAST, games=GAMES, seed=9, out=out, jobs=1,
                 chunk_size=CHUNK)
    return (out / "summary.json").read_bytes()


def interrupted_run(out, monkeypatch, after=6):
    """A run stopped (as by Ctrl-C) after ``after`` chunks were saved."""
    saved = []
    real = job._save_chunk

    def save_then_stop(chunks, res):
        real(chunks, res)
        saved.append(res.index)
        if len(saved) == after:
            raise KeyboardInterrupt

    monkeypatch.setattr(job, "_save_chunk", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        run_scenario(FAST, games=GAMES, seed=9, out=out, jobs=1,
                     chunk_size=CHUNK)
    monkeypatch.setattr(job, "_save_chunk", real)
    assert len(chunk_files(out)) == after


def test_damaged_chunks_are_named_and_played_again(tmp_path, monkeypatch, capsys,
                                                   uninterrupted):
    out = tmp_path / "run"
    interrupted_run(out, monkeypatch)
    c = out / "chunks"
    capsys.readouterr()
    # A copy cut short, a chunk replaced by another (checksum recorded for it, so only the
    # game range tells), one cut short with its own checksum, and one without a checksum.
    data = (c / "chunk-000001.npz").read_bytes()
    (c / "chunk-000001.npz").write_bytes(data[: len(data) // 2])
    (c / "chunk-000002.npz").write_bytes((c / "chunk-000003.npz").read_bytes())
    sums = (c / "checksums.sha256").read_text().splitlines()
    three = next(s for s in sums if s.endswith("chunk-000003.npz")).split()[0]
    import hashlib

    junk = (c / "chunk-000004.npz").read_bytes()[:-100]  # cut short, its checksum recorded
    (c / "chunk-000004.npz").write_bytes(junk)
    (c / "checksums.sha256").write_text(
        "\n".join(s for s in sums if not s.endswith("chunk-000005.npz"))
        + f"\n{three}  chunk-000002.npz\n{hashlib.sha256(junk).hexdigest()}  chunk-000004.npz\n")
    summary = run_scenario(FAST, games=GAMES, seed=9, out=out, jobs=1,
                           resume=True)
    err = capsys.readouterr().err
    assert "chunk-000001.npz: its checksum is not the one recorded" in err
    assert "chunk-000002.npz: holds games 180..239, chunk 2 is games 120..179" in err
    assert "chunk-000004.npz: unreadable (BadZipFile" in err
    assert "chunk-000005.npz: no checksum recorded" in err
    assert "chunk-000000.npz" not in err and "chunk-000003.npz" not in err
    assert summary["games"] == GAMES
    assert (out / "summary.json").read_bytes() == uninterrupted
    assert not (out / "chunks").exists() and not temp_files(out)


def test_a_damaged_manifest_says_how_to_start_over(tmp_path, monkeypatch):
    out = tmp_path / "run"
    interrupted_run(out, monkeypatch, after=2)
    (out / "chunks" / "manifest.json").write_text('{"scenario": "base", "games": ')
    with pytest.raises(SimsymError, match=r"manifest.json is damaged .*run without --resume"):
        run_scenario(FAST, games=GAMES, seed=9, out=out, resume=True)


# --- the machine refuses a write -------------------------------------------------------

def disk_full_on(monkeypatch, name_part):
    """Writes of files whose name contains ``name_part`` fail as on a full disk."""
    import simsym.run.output as output

    real = output.os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[: len(data) // 2])  # half of it made it
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fdopen(fd, mode, **kw):
        fh = real(fd, mode, **kw)
        name = os.readlink(f"/proc/self/fd/{fd}")
        return Full(fh) if name_part in os.path.basename(name) else fh

    monkeypatch.setattr(output.os, "fdopen", fdopen)


@pytest.mark.parametrize("victim", ["summary.json", "chunk-000002.npz"])
def test_a_full_disk_is_one_line_exit_4_and_leaves_nothing_half_written(
        tmp_path, monkeypatch, victim, uninterrupted):
    out = tmp_path / "run"
    common = [BASE, "--judge", "fast", "--games", str(GAMES), "--chunk-size", str(CHUNK),
              "--jobs", "1", "--out", str(out), "-q", "--no-report"]
    assert cli("run", *common, "--seed", "1").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    disk_full_on(monkeypatch, victim)
    r = cli("run", *common, "--seed", "9")
    assert r.exit_code == 4, r.output
    where = out / "chunks" / victim if victim.startswith("chunk") else out / victim
    line = [x for x in r.output.splitlines() if x.startswith("simsym:")]
    assert line == [f"simsym: error: cannot write {where}: No space left on device; free some "
                    "space or choose another --out; finished chunks are kept: rerun with "
                    "--resume to continue"], r.output
    # Every file of the previous run as it was (none of the new run's half-replaced).
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert not temp_files(out)
    monkeypatch.undo()
    assert cli("run", *common, "--seed", "9", "--resume").exit_code == 0
    assert (out / "summary.json").read_bytes() == uninterrupted


def test_a_full_disk_while_writing_games_or_a_plot_is_not_a_bug(tmp_path, monkeypatch):
    import matplotlib.figure
    import pandas as pd

    out = tmp_path / "run"
    assert cli("run", BASE, "--games", "80", "--jobs", "1", "--out", str(out), "-q").exit_code == 0
    report = (out / "report.md").read_bytes()

    def full(self, target, *a, **kw):
        raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    r = cli("run", BASE, "--games", "80", "--jobs", "1", "--out", str(out), "-q",
            "--save-games")
    assert r.exit_code == 4 and "part-000000.parquet: No space left on device" in r.output
    assert "internal error" not in r.output
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig",
                        lambda self, fh, **kw: (_ for _ in ()).throw(
                            OSError(errno.EROFS, os.strerror(errno.EROFS))))
    r = cli("report", str(out))
    assert r.exit_code == 4 and "Read-only file system; the file system is read-only" in r.output
    assert (out / "report.md").read_bytes() == report and not temp_files(out)


# --- one command per output directory ----------------------------------------------------

def test_a_second_command_on_the_same_out_refuses_and_names_the_holder(tmp_path):
    out = tmp_path / "run"
    proc = start_run(out, "--jobs", "1")
    try:
        poll(lambda: holder_path(out).exists() or proc.poll() is not None,
             what="the lock")
        holder = json.loads(holder_path(out).read_text())
        assert holder["pid"] == proc.pid and holder["command"] == "run"
        t0 = time.monotonic()
        for args in (["run", BASE, "--games", "50", "--seed", "6", "--out", str(out), "-q"],
                     ["report", str(out)],
                     ["compare", BASE, BASE, "--games", "50", "--out", str(out), "-q"],
                     ["sweep", BASE, "--players", "2", "--players", "3", "--games", "50",
                      "--out", str(out), "-q"],
                     ["ablate", BASE, "--cards", "Plato", "--games", "50", "--out", str(out),
                      "-q"]):
            r = cli(*args)
            assert r.exit_code == 2, (args, r.output)
            assert f"--out {out}: in use by another simsym command (`simsym run`, pid " \
                   f"{proc.pid} on {holder['host']}, started {holder['started']})" in r.output
        assert time.monotonic() - t0 < 30  # refused at once, not after the other run
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)


def test_a_stale_holder_is_taken_over_with_a_message(tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    out = tmp_path / "run"
    out.mkdir()
    import socket

    holder_path(out).write_text(json.dumps({"pid": gone.pid, "host": socket.gethostname(),
                                               "command": "run", "started": "yesterday"}))
    r = subprocess.run([SIMSYM, "run", BASE, "--games", "50", "--jobs", "1", "--out", str(out),
                        "-q", "--no-report"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"taking over the lock of a command that ended without releasing it (`simsym run`, " \
           f"pid {gone.pid} on {socket.gethostname()}, started yesterday)" in r.stderr
    assert not holder_path(out).exists()


# --- the outputs' permissions ----------------------------------------------------------

@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_outputs_get_the_users_umask(tmp_path, mask, mode):
    """Every file of a run gets the mode any new file of the user's would (0o666 less the
    umask: 0o644 under the usual 022), not the 0o600 of the temp file it was written to."""
    import stat

    from simsym.run.output import file_mode, write_json

    old = os.umask(mask)
    try:
        assert file_mode() == mode
        write_json(tmp_path / "one.json", {"a": 1})
        assert stat.S_IMODE((tmp_path / "one.json").stat().st_mode) == mode
        out = tmp_path / "run"
        r = cli("run", BASE, "--judge", "fast", "--games", "40", "--jobs", "1", "--out",
                str(out), "-q")
        assert r.exit_code == 0, r.output
    finally:
        os.umask(old)
    files = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in files if ".lock" in p.name]  # the lock is not in the outputs
    assert {"summary.json", "report.md", "seats.png", "cards.csv"} <= {p.name for p in files}
    assert {str(p.relative_to(out)): oct(stat.S_IMODE(p.stat().st_mode)) for p in files} == {
        str(p.relative_to(out)): oct(mode) for p in files}
