"""numba's cache of a kernel is stale when a kernel it calls has changed (simsym.core's
KernelSourcesLocator): numba itself only looks at the function's own source file.

Played on a copy of the package: the engine's gateway into the search (game_nb._search_a)
is compiled, then loaded from the cache, then search_nb.py alone is edited. numba alone would
load the gateway (and the previous search inside it) from the cache again."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import simsym
from simsym.scenario import BASE_SCENARIO

SCRIPT = """
import json
import numpy as np
from simsym.core import enums as E, game_nb as G
from simsym.core.search_nb import workspace_size
from simsym.engine import setup_for
from simsym.scenario import load_scenario

tb = setup_for(load_scenario(BASE)).table()
hand = np.array([0, 1, 2, 40, 41], np.int64)
res = np.zeros(E.RES_SIZE, np.int64)
ws = np.zeros(workspace_size(9), np.int64)
i64 = np.int64
score = G._search_a(hand, i64(5), tb.kinds, tb.rules, i64(0), i64(7), i64(-1), np.bool_(True),
                    res, ws)
st = G._search_a.stats
print(json.dumps({"score": int(score), "hits": sum(st.cache_hits.values()),
                  "misses": sum(st.cache_misses.values())}))
"""


@pytest.mark.slow
def test_an_edit_to_a_called_kernel_recompiles_its_callers(tmp_path):
    pkg = Path(simsym.__file__).parent
    shutil.copytree(pkg, tmp_path / "simsym", ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "numba"))

    def run():
        script = f"BASE = {str(BASE_SCENARIO)!r}\n" + SCRIPT
        out = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    first = run()
    assert first["misses"] == 1 and first["hits"] == 0  # compiled
    again = run()
    assert again == {**first, "hits": 1, "misses": 0}  # from the cache
    search = tmp_path / "simsym" / "core" / "search_nb.py"
    search.write_text(search.read_text() + "\n# an edit to the search alone\n")
    edited = run()
    assert edited["misses"] == 1 and edited["hits"] == 0  # compiled again
    assert edited["score"] == first["score"]
