"""Split games into chunks by game index and run them in this process or in N processes.

Game g depends on (seed, g) alone and chunk totals are integers merged by addition, so the
totals are the same for any number of processes, chunk size or completion order.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace

import numpy as np

from simsym.run.aggregate import merge, reduce_rows

ENGINES = ("numba", "python")


def plan_chunks(games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(g0, min(g0 + chunk_size, games)) for g0 in range(0, games, chunk_size)]


def default_chunk_size(games: int, jobs: int) -> int:
    return int(min(5000, max(50, games // max(1, jobs * 16))))


@dataclass
class ChunkResult:
    index: int
    g0: int
    g1: int
    totals: dict
    agg: np.ndarray
    rows: np.ndarray | None


# One engine per process, built once (the worker initializer, or lazily in-process).
_STATE: dict = {}


def _init(scenario, engine, search="reference"):
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    _STATE["scenario"] = scenario
    _STATE["engine"] = engine
    _STATE["oracle"] = None
    if engine == "numba":
        from simsym.engine import setup_for

        _STATE["setup"] = setup_for(scenario)
    elif search == "numba":
        _STATE["oracle"] = compiled_oracle(scenario)


def compiled_oracle(scenario):
    """The compiled best-Symposion search, in the reference engine's oracle interface."""
    from simsym.search import Searcher

    s = Searcher(scenario.cards, scenario.rules)
    index = scenario.cards.index

    def oracle(hand, types, required=()):
        p = s.best(list(hand), types=types, required=required)
        return p.score, p.type, tuple(sorted(index(n) for n in p.cards))

    return oracle


def _run_chunk(index, g0, g1, keep_rows) -> ChunkResult:
    scenario, engine = _STATE["scenario"], _STATE["engine"]
    if engine == "numba":
        from simsym.engine import run_chunk

        rows, agg = run_chunk(_STATE["setup"], g0, g1)
    else:
        from simsym.run.reference import run_chunk_reference

        rows, agg = run_chunk_reference(scenario, g0, g1, search=_STATE["oracle"])
    totals = reduce_rows(rows, scenario.players, len(scenario.strategies))
    return ChunkResult(index, g0, g1, totals, agg, rows if keep_rows else None)


def run_games(scenario, games: int, seed: int, *, jobs: int = 1, engine: str = "numba",
              chunk_size: int | None = None, on_chunk=None, keep_rows: bool = False,
              search: str = "reference"):
    """Play games 0..games-1 of ``scenario`` with ``seed``.

    ``search`` (python engine only): "reference" for the brute-force best-Symposion search,
    "numba" for the compiled one (the game logic stays the reference's).

    ``on_chunk(result, done_games)`` is called in this process as each chunk finishes (for
    progress and for writing per-chunk files). Returns (totals, card aggregate)."""
    if engine not in ENGINES:
        raise ValueError(engine)
    if engine == "numba":
        from simsym.engine import setup_for

        setup_for(scenario)  # refuses what the numba engine cannot run, before any work
    scenario = replace(scenario, seed=seed, games=games)
    chunk_size = chunk_size or default_chunk_size(games, jobs)
    chunks = plan_chunks(games, chunk_size)
    totals, agg, done = None, None, 0

    def take(res: ChunkResult):
        nonlocal totals, agg, done
        totals = merge(totals, res.totals)
        agg = res.agg.copy() if agg is None else agg + res.agg
        done += res.g1 - res.g0
        if on_chunk:
            on_chunk(res, done)

    if jobs <= 1:
        _init(scenario, engine, search)
        for i, (g0, g1) in enumerate(chunks):
            take(_run_chunk(i, g0, g1, keep_rows))
    else:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init,
                                   initargs=(scenario, engine, search))
        try:
            pending = set()
            it = iter(enumerate(chunks))
            # Keep a bounded number of chunks in flight: memory stays bounded.
            for i, (g0, g1) in it:
                pending.add(pool.submit(_run_chunk, i, g0, g1, keep_rows))
                if len(pending) >= 2 * jobs:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    take(f.result())
                    nxt = next(it, None)
                    if nxt is not None:
                        i, (g0, g1) = nxt
                        pending.add(pool.submit(_run_chunk, i, g0, g1, keep_rows))
        except BaseException:
            for p in list(getattr(pool, "_processes", {}).values()):
                p.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    return totals, agg


class Progress:
    """A one-line progress bar with games/s and ETA, on stderr, only on a terminal."""

    def __init__(self, total: int, enabled: bool, stream=None):
        import sys

        self.total, self.enabled = total, enabled
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()
        self.last = 0.0

    def update(self, done: int, force: bool = False):
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2 and done < self.total:
            return
        self.last = now
        el = max(now - self.start, 1e-9)
        rate = done / el
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        width = 30
        fill = int(width * done / self.total) if self.total else width
        bar = "#" * fill + "-" * (width - fill)
        eta_s = f"{eta:6.0f}s" if eta != float("inf") else "     ?"
        self.stream.write(f"\r[{bar}] {done:,}/{self.total:,} games  {rate:,.0f} games/s  "
                          f"ETA {eta_s} ")
        self.stream.flush()

    def close(self):
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
