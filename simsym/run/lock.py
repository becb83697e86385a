"""One command per output directory: an exclusive lock on --out for the whole command.

`run`, `compare`, `compare-tree`, `sweep`, `ablate` and `report` all write through
``out_dir_lock``. The lock is filelock's FileLock (flock(2) on Linux) on a file named after
the directory's real path, in this user's lock folder of the temporary directory
(``lock_path``): the kernel drops it when the holding process dies, however it dies, so a
dead run never blocks the next one, and the output directory holds nothing but the outputs.
(A lock file cannot be removed on release without a race: a command waiting on the removed
file and one creating it anew would both hold "the" lock. So it stays, outside the
outputs.) Beside it, ``holder_path`` names the holder (pid, host, start time, command,
directory) for the message a second command prints when it refuses; the holder removes it on
release, so finding it when taking the lock means the last holder ended without releasing
(kill -9, power loss): the lock is taken over with a message.

The lock is re-entrant within a process (``simsym run`` holds it, and ``run_scenario`` and
the report inside take it again).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from simsym.errors import SimsymError
from simsym.run.output import ensure_dir, write_json

# The workers of a run killed with -9 share its lock until they notice (lifeline.py).
DEAD_HOLDER_GRACE = 10.0

_HELD: dict[str, FileLock] = {}


def _lock_stem(out: Path) -> Path:
    """This user's lock folder (created 0700) / a name for directory ``out``'s real path."""
    folder = Path(tempfile.gettempdir()) / f"simsym-locks-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    key = hashlib.sha256(os.path.realpath(out).encode()).hexdigest()[:32]
    return folder / key


def lock_path(out) -> Path:
    """The file the lock on output directory ``out`` is taken on."""
    return _lock_stem(Path(out)).with_suffix(".lock")


def holder_path(out) -> Path:
    """The file that names the holder of the lock on ``out`` while it is held."""
    return _lock_stem(Path(out)).with_suffix(".json")


def _holder(out: Path) -> dict | None:
    try:
        return json.loads(holder_path(out).read_text())
    except (OSError, ValueError):
        return None


def _describe(h: dict | None) -> str:
    if not h:
        return "holder unknown"
    return (f"`simsym {h.get('command', '?')}`, pid {h.get('pid', '?')} on "
            f"{h.get('host', '?')}, started {h.get('started', '?')}")


def _alive(h: dict | None) -> bool:
    if not h or h.get("host") != socket.gethostname() or not isinstance(h.get("pid"), int):
        return True  # another machine's process: cannot tell, assume it runs
    try:
        os.kill(h["pid"], 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _acquire(lock: FileLock, out: Path):
    deadline = time.monotonic() + DEAD_HOLDER_GRACE
    while True:
        try:
            lock.acquire(timeout=0)
            return
        except Timeout:
            h = _holder(out)
            if _alive(h) or time.monotonic() > deadline:
                raise SimsymError(f"--out {out}: in use by another simsym command "
                                  f"({_describe(h)}); wait for it to end or choose another "
                                  "--out") from None
            time.sleep(0.1)  # its main process is gone; its workers are exiting


@contextmanager
def out_dir_lock(out, command: str):
    """Hold the lock on directory ``out`` (created if need be) for the block."""
    out = ensure_dir(Path(out))
    key = os.path.realpath(out)
    lock = _HELD.get(key)
    if lock is not None:  # this process holds it already
        with lock.acquire(timeout=0):
            yield out
        return
    lock = FileLock(lock_path(out), thread_local=False)
    _acquire(lock, out)
    _HELD[key] = lock
    try:
        stale = _holder(out)
        if stale:
            print(f"simsym: {out}: taking over the lock of a command that ended without "
                  f"releasing it ({_describe(stale)})", file=sys.stderr)
        write_json(holder_path(out), {
            "pid": os.getpid(), "host": socket.gethostname(), "command": command,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "out": os.path.realpath(out)})
        yield out
    finally:
        del _HELD[key]
        try:
            holder_path(out).unlink(missing_ok=True)
        finally:
            lock.release()
