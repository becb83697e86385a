"""numba's cache of a kernel is stale when a kernel it calls has changed (simsym.core's
KernelSourcesLocator): numba itself only looks at the function's own source file.

Played on a copy of the package: game_nb.key_stream_nb, which calls rng_nb.mix64_nb, is
compiled, then loaded from the cache, then rng_nb.py alone is edited. numba alone would load
key_stream_nb (and the previous mix64_nb inside it) from the cache again."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import simsym

SCRIPT = """
import json
import numpy as np
from simsym.core import game_nb as G

x = G.key_stream_nb(np.int64(20261130), np.array([3, 9, 0, 1], np.int64))
st = G.key_stream_nb.stats
print(json.dumps({"value": int(x), "hits": sum(st.cache_hits.values()),
                  "misses": sum(st.cache_misses.values())}))
"""


def test_an_edit_to_a_called_kernel_recompiles_its_callers(tmp_path):
    pkg = Path(simsym.__file__).parent
    shutil.copytree(pkg, tmp_path / "simsym", ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "numba"))

    def run():
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    first = run()
    assert first["misses"] == 1 and first["hits"] == 0  # compiled
    again = run()
    assert again == {**first, "hits": 1, "misses": 0}  # from the cache
    rng = tmp_path / "simsym" / "core" / "rng_nb.py"
    rng.write_text(rng.read_text() + "\n# an edit to the called kernel's module alone\n")
    edited = run()
    assert edited["misses"] == 1 and edited["hits"] == 0  # compiled again
    assert edited["value"] == first["value"]
