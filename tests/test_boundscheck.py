"""Memory safety of the numba kernels: the engine-agreement and fuzz tests, and games whose
hands grow past the search's MAX_HAND positions (uneven trades, big hands), run again with
numba's bounds checking on (NUMBA_BOUNDSCHECK=1, in a subprocess with a numba cache of its
own, since bounds-checked machine code must not mix with the normal cache). An index past an
array there raises IndexError instead of silently corrupting memory.

That cache (BOUNDSCHECK_CACHE, ignored by git) outlives the run, as the normal one does: the
bounds-checked compile (over a minute) is paid once per change of the kernels, not on every
run. numba does not key its cache on NUMBA_BOUNDSCHECK, so nothing else may use the folder;
a kernel edit is seen through simsym.core.KernelSourcesLocator's stamp."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOUNDSCHECK_CACHE = ROOT / ".cache" / "numba-boundscheck"

BIG_HANDS = """
from dataclasses import replace
from simsym.engine import run_chunk, setup_for
from simsym.scenario import BASE_SCENARIO, load_scenario
from simsym.strategies import make_strategy
base = load_scenario(BASE_SCENARIO)
most = 0
for hs, kl, P in [(30, 30, 2), (20, 20, 3), (12, 12, 6), (9, 9, 4)]:
    strategies = [make_strategy({"family": "greedy", "trade_inactive": True}),
                  make_strategy("random"),
                  make_strategy({"family": "lookahead", "iterations": 2,
                                 "trade_inactive": True})]
    sc = replace(base, players=P, seating="rotate", strategies=strategies[:min(P, 3)],
                 rules=replace(base.rules, uneven_trades=True, hand_size=hs, komos_limit=kl,
                               trade_between_others=True, max_trades_per_turn=5))
    rows, agg = run_chunk(setup_for(sc), 0, 6)
    assert rows.shape[0] == 6
print("ok")
"""


def _bounds_checked(args):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(BOUNDSCHECK_CACHE),
               PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=3000)


@pytest.mark.slow
def test_kernels_stay_in_bounds():
    r = _bounds_checked(["-c", BIG_HANDS])
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
    r = _bounds_checked(["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                         "tests/test_engines_agree.py::test_engines_agree",
                         "tests/test_validate.py::test_fuzz_scenarios_load_or_fail_cleanly",
                         "tests/test_lookahead_engines.py"])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert " passed" in r.stdout and "failed" not in r.stdout
