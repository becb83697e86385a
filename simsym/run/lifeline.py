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


class _Deferral:
    depth = 0  # > 0: inside deferred_signals()
    pending: int | None = None
    received: int | None = None  # the first stop signal of the block (signals_stop_the_run)
    active = False  # inside signals_stop_the_run()


def stop_received() -> int | None:
    """The stop signal received in the last signals_stop_the_run() block, if any: an error
    raised after it is the stop's doing (numba, stopped inside a callback from C, fails a step
    later: "no compiled object yet"), and the command reports the stop, not a bug."""
    return _Deferral.received


def _stop(signum, frame):
    if _Deferral.received is None:
        _Deferral.received = signum
    for s in STOP_SIGNALS:  # the clean-up that follows is not interrupted again
        signal.signal(s, signal.SIG_IGN)
    if _Deferral.depth:
        _Deferral.pending = signum  # raised by raise_if_stopped() at the next safe point
        return
    raise Interrupted(signum)


@contextmanager
def deferred_signals():
    """Within the block a stop signal is recorded, not raised where it lands: an exception
    raised inside `concurrent.futures.wait` or a Dask client call can leave one of their
    locks held, and the pool's threads then hang the process's exit. The block's loop
    calls ``raise_if_stopped()`` at safe points (a fraction of a second apart)."""
    _Deferral.depth += 1
    try:
        yield
    finally:
        _Deferral.depth -= 1


def raise_if_stopped():
    signum, _Deferral.pending = _Deferral.pending, None
    if signum is not None:
        raise Interrupted(signum)


REDELIVER_S = 0.05


def _unraisable(previous):
    """A ``sys.unraisablehook`` that does not let a stop be lost. Python runs a signal
    handler in whatever Python code the main thread runs next, and that may be a callback
    from C: numba's compiler calls back into Python (its object cache notes each module it
    compiles), and an exception raised in a ctypes callback is reported here and dropped,
    while _stop has already set the signals aside for the clean-up. The run would then go
    on, deaf to any further SIGTERM. So the stop handler is set again and the signal sent
    again a moment later, until it lands in code that lets it through."""
    def hook(unraisable):
        e = unraisable.exc_value
        if not isinstance(e, Interrupted):
            return previous(unraisable)
        for s in STOP_SIGNALS:
            signal.signal(s, _stop)
        again = threading.Timer(REDELIVER_S, _redeliver, (e.signum,))
        again.daemon = True  # never what keeps the process from exiting
        again.start()
    return hook


def _redeliver(signum):
    if _Deferral.active:  # still in the block: its handler takes it
        os.kill(os.getpid(), signum)


@contextmanager
def signals_stop_the_run():
    """Within the block, SIGINT, SIGTERM and SIGHUP raise ``Interrupted(signum)``."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stop = _stop

    _Deferral.received = None
    old = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    old_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable(old_hook)
    _Deferral.active = True
    try:
        yield
    finally:
        _Deferral.active = False
        _Deferral.pending = None
        sys.unraisablehook = old_hook
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
