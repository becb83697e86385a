"""numba's cache of a kernel is stale when a kernel it calls has changed: numba itself only
looks at the function's own source file, so simsym.core caches the kernels in a folder per
digest of every kernel module (simsym.core.kernel_cache_dir).

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


def test_the_cache_folder_is_one_per_kernel_sources(monkeypatch, tmp_path):
    """The folder numba caches the kernels in: <NUMBA_CACHE_DIR>/simsym-numba/<digest>, a
    folder inherited from a parent (of other sources, or of these) taken as its base, and
    the user's cache folder when NUMBA_CACHE_DIR is not set."""
    import simsym.core as core

    digest = core.kernel_sources_digest()[:16]
    assert len(digest) == 16 and int(digest, 16) >= 0
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert core.kernel_cache_dir() == tmp_path / "mine" / "simsym-numba" / digest
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine" / "simsym-numba" / "0123abcd"))
    assert core.kernel_cache_dir() == tmp_path / "mine" / "simsym-numba" / digest
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert core.kernel_cache_dir() == tmp_path / "xdg" / "simsym" / "simsym-numba" / digest
    # and this process compiles into its own folder
    import numba

    assert numba.config.CACHE_DIR.endswith(f"simsym-numba/{digest}")
