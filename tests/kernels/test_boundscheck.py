"""Memory safety of the numba kernels: the engine-agreement and fuzz tests, and games whose
hands grow past the search's MAX_HAND positions (uneven trades, big hands), run again with
numba's bounds checking on (NUMBA_BOUNDSCHECK=1, in a subprocess with a numba cache of its
own, since bounds-checked machine code must not mix with the normal cache). An index past an
array there raises IndexError instead of silently corrupting memory.

That cache (BOUNDSCHECK_CACHE, ignored by git) outlives the run, as the normal one does: the
bounds-checked compile (over a minute) is paid once per change of the kernels, not on every
run. numba does not key its cache on NUMBA_BOUNDSCHECK, so nothing else may use the folder;
a kernel edit starts a folder of its own inside it (simsym.core.kernel_cache_dir).

On a fresh clone that compile takes over three minutes: the runs are a background job
(tests/boundscheck_job.py) that conftest.py starts when this test is collected, and the test,
moved to the end of the run, collects their results."""

from __future__ import annotations

import pytest

BIG_HANDS = """
from dataclasses import replace
from simsym.engine.compiled import run_chunk, setup_for
from simsym.model.scenario import BASE_SCENARIO, load_scenario
from simsym.model.strategies import make_strategy
base = load_scenario(BASE_SCENARIO).judge("fast")
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


# The two bounds-checked steps, run by one background job (tests/boundscheck_job.py).
STEPS = [["-c", BIG_HANDS],
         ["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--basetemp", "{tmp}/pytest",
          "tests/engines/test_engines_agree.py::test_engines_agree",
          "tests/rules/test_validate.py::test_fuzz_scenarios_load_or_fail_cleanly",
          "tests/engines/test_lookahead_engines.py"]]


@pytest.mark.slow
def test_kernels_stay_in_bounds(boundscheck_job):
    results = boundscheck_job.results(timeout=3000)
    (rc, out, err) = results[0]
    assert rc == 0 and out.strip() == "ok", err[-3000:]
    assert len(results) == 2, results
    (rc, out, err) = results[1]
    assert rc == 0, out[-3000:] + err[-3000:]
    assert " passed" in out and "failed" not in out
