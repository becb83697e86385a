"""The bounds-checked runs of tests/kernels/test_boundscheck.py as a background job.

Compiling every kernel again with NUMBA_BOUNDSCHECK=1 takes over three minutes on a fresh
clone (its cache of its own is empty there), almost all on one core. conftest.py starts the
job as soon as the test is collected and moves the test to the end of the run, so the compile
overlaps the rest of the suite on the machine's second core; the test then only waits for the
result. Run on its own, the test starts the job itself.

The job is one driver process that runs the steps one after the other. It ends its step and
itself when the pytest process that started it is gone (whatever signal ended it), and
conftest.py stops it at the end of the session, so no process outlives the test run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOUNDSCHECK_CACHE = ROOT / ".cache" / "numba-boundscheck"

# Runs argv lists (JSON, argv[1]) with this interpreter one after the other, until one fails;
# prints [[returncode, stdout, stderr], ...]. SIGTERM, or the parent (the pytest process) gone,
# ends the step and the driver.
DRIVER = r"""
import json, os, signal, subprocess, sys, threading, time
parent = os.getppid()
child = None
def end(*_):
    if child is not None:
        child.kill()
        child.wait()
    os._exit(1)
def watch():
    while os.getppid() == parent:
        time.sleep(0.5)
    end()
signal.signal(signal.SIGTERM, end)
threading.Thread(target=watch, daemon=True).start()
done = []
for args in json.loads(sys.argv[1]):
    child = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    out, err = child.communicate()
    done.append([child.returncode, out, err])
    if child.returncode:
        break
print(json.dumps(done))
"""


class BoundsCheckJob:
    """The steps (argv lists for the interpreter) running with bounds checking on."""

    def __init__(self, steps: list[list[str]]):
        self.tmp = tempfile.TemporaryDirectory(prefix="simsym-boundscheck-")
        # NUMBA_OPT=1: LLVM's first optimisation level. The bounds checks are the same (numba
        # emits them before LLVM optimises, and no level removes a check that can fail); the
        # compile is ~1.2x cheaper (217.9 against 260.8 s of CPU for the compile and the big
        # hands, measured side by side) and the checked tests run about as fast (74.0 against
        # 66.7 s). Level 0 compiled faster still but ran the tests 3x slower.
        env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(BOUNDSCHECK_CACHE),
                   NUMBA_OPT="1", PYTHONPATH=str(ROOT))
        # A pytest step gets a temporary folder of its own (not the outer session's).
        steps = [[a.replace("{tmp}", self.tmp.name) for a in s] for s in steps]
        self.proc = subprocess.Popen([sys.executable, "-c", DRIVER, json.dumps(steps)],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)

    def results(self, timeout: float) -> list[tuple[int, str, str]]:
        """[(returncode, stdout, stderr)] of the steps run (it stops at the first that
        fails)."""
        out, err = self.proc.communicate(timeout=timeout)
        assert self.proc.returncode == 0, f"the driver failed ({self.proc.returncode}): {err}"
        return [tuple(r) for r in json.loads(out)]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # the driver kills its step first
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.tmp.cleanup()
