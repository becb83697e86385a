"""A cache of played chunks, shared by every command: a game is never simulated twice.

Set ``SIMSYM_CACHE=DIR`` (the Makefile's `report` target sets ``.cache/chunks``) and every
chunk that `run_games` plays is stored under a key of everything that decides its games:

- the scenario's fingerprint (cards, rules, table, strategies: not its name or games; and
  the content of every model file the table plays, a learned seat's and the one a lookahead
  seat's rollouts play under policy learned, so a model trained again is not read as stale
  chunks),
- the seed and the chunk's game indices,
- the engine, and a hash of the source files that play and count games (``GAME_CODE``:
  the kernels, both engines, the strategies, the card and rule models, the reduction of a
  chunk), so an edit to any of them (a fixed rule, a faster kernel) starts a fresh cache
  instead of reusing games it might now play differently. Reports, statistics and the
  command line are not part of it: they read the totals, they do not make them.

Runs, sweeps, compares and ladders that play the same table on the same seed and chunk
boundaries then share their games: `simsym sweep scenarios/strength-sweep.yaml` after
`simsym run scenarios/base-lookahead.yaml` plays no lookahead game again. Results are
identical with or without the cache (a cached chunk is the chunk's own totals, checked
against its SHA-256 when read); a damaged entry is played again.

Unset (the default), nothing is read or written.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from simsym.run.worker import chunk_bytes, chunk_from_bytes, fingerprint

ENV = "SIMSYM_CACHE"


# What decides a chunk's totals, relative to the simsym package (folders: every .py in them).
GAME_CODE = ("core", "reference", "model/cards", "learned/features.py", "engine/compiled.py",
             "model/rules.py", "model/strategies.py", "engine/search.py", "run/aggregate.py",
             "run/worker.py", "model/custom.py")


@functools.lru_cache(maxsize=1)
def code_hash() -> str:
    """SHA-256 over the GAME_CODE files (path and content), in path order."""
    root = Path(__file__).resolve().parent.parent
    files = set()
    for part in GAME_CODE:
        p = root / part
        files.update(p.rglob("*.py") if p.is_dir() else [p])
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_dir() -> Path | None:
    value = os.environ.get(ENV, "").strip()
    return Path(value) if value else None


def chunk_key(scenario, engine: str, seed: int, g0: int, g1: int) -> str:
    text = f"{code_hash()}|{fingerprint(scenario)}|{engine}|{seed}|{g0}|{g1}"
    return hashlib.sha256(text.encode()).hexdigest()


def _path(root: Path, key: str) -> Path:
    return root / key[:2] / f"{key}.npz"


def load(root: Path, key: str, index: int):
    """The cached ChunkResult (with this run's chunk ``index``), or None."""
    path = _path(root, key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    digest, data = data[:64].decode("ascii", "replace"), data[64:]
    if hashlib.sha256(data).hexdigest() != digest:
        path.unlink(missing_ok=True)
        return None
    return chunk_from_bytes(data, index)


def store(root: Path, key: str, res) -> None:
    """Write one chunk (atomically: a reader sees the whole entry or none)."""
    from simsym.run.output import atomic_write

    data = chunk_bytes(res)
    path = _path(root, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = hashlib.sha256(data).hexdigest().encode("ascii") + data
    atomic_write(path, lambda fh: fh.write(blob), binary=True)
