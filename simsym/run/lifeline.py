"""No process of a run outlives it: signals in the main process, a lifeline in each worker.

Main process (``signals_stop_the_run``): SIGTERM and SIGHUP, which `timeout`, a cancelled CI
job, systemd, Kubernetes or a closed terminal send, raise ``Interrupted`` like Ctrl-C does
(SIGINT too), so the executors' clean-up runs: workers ended, finished chunks kept, the
previous results untouched; the CLI exits 128 + the signal (130, 143, 129). Signals that
arrive while that clean-up runs are ignored, so it finishes.

Worker processes (``die_with_parent``, the pool's initializer): they ignore SIGINT (the main
process decides) and take the default action of SIGTERM/SIGHUP (the main process ends them
with SIGTERM). When the main process dies without cleaning up (kill -9, the OOM killer) the
kernel sends each worker SIGKILL (Linux ``prctl(PR_SET_PDEATHSIG)``); elsewhere, or if that
is unavailable, a daemon thread polling ``os.getppid()`` ends the worker within a second of
the next point where the kernel releases the GIL (at the latest, when its chunk ends).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

from simsym.errors import Interrupted

STOP_SIGNALS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))
                     if s is not None)
PR_SET_PDEATHSIG = 1
POLL_SECONDS = 0.5


@contextmanager
def signals_stop_the_run():
    """Within the block, SIGINT, SIGTERM and SIGHUP raise ``Interrupted(signum)``."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        for s in STOP_SIGNALS:  # the clean-up that follows is not interrupted again
            signal.signal(s, signal.SIG_IGN)
        raise Interrupted(signum)

    old = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def die_with_parent(parent: int):
    """In a worker process: the signal set-up above, and exit as soon as ``parent`` is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for s in STOP_SIGNALS[1:]:
        signal.signal(s, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - the watchdog below remains
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="simsym-parent-watch",
                     daemon=True).start()


def _watch(parent: int):
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)
