"""Split games into chunks by game index and run them here, in N processes, or on Dask.

Game g depends on (seed, g) alone and chunk totals are integers merged by addition, so the
totals are the same for any executor, number of processes or workers, chunk size or
completion order. Chunks already done (a resumed run) are skipped.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from simsym.errors import SimsymError
from simsym.run import cache as chunk_cache
from simsym.run.aggregate import merge
from simsym.run.worker import ChunkResult, init_worker, run_chunk_task

ENGINES = ("numba", "python")
EXECUTORS = ("local", "dask")


def plan_chunks(games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(g0, min(g0 + chunk_size, games)) for g0 in range(0, games, chunk_size)]


def default_chunk_size(games: int, jobs: int) -> int:
    return int(min(5000, max(50, games // max(1, jobs * 16))))


def run_games(scenario, games: int, seed: int, *, jobs: int = 1, engine: str = "numba",
              chunk_size: int | None = None, on_chunk=None, search: str = "reference",
              games_dir=None, executor: str = "local", scheduler: str | None = None,
              done: dict | None = None, on_start=None):
    """Play games 0..games-1 of ``scenario`` with ``seed``.

    ``search`` (python engine only): "reference" for the brute-force best-Symposion search,
    "numba" for the compiled one (the game logic stays the reference's). ``on_chunk(result,
    done_games)`` is called in this process as each chunk finishes (progress, checkpoints).
    ``done`` maps chunk index -> ChunkResult already finished (a resumed run): those chunks
    are not played again. ``on_start()`` is called in this process once other processes
    play the chunks (the pool's workers have been started): never when this process plays
    them itself (``jobs`` 1). Returns (totals, card aggregate)."""
    if engine not in ENGINES:
        raise ValueError(engine)
    if engine == "numba":
        from simsym.engine.compiled import setup_for

        setup_for(scenario)  # refuses what the numba engine cannot run, before any work
    scenario = replace(scenario, seed=seed, games=games)
    chunk_size = chunk_size or default_chunk_size(games, jobs)
    chunks = plan_chunks(games, chunk_size)
    done = dict(done or {})
    totals, agg, played = None, None, 0
    for res in done.values():
        totals = merge(totals, res.totals)
        agg = res.agg.copy() if agg is None else agg + res.agg
        played += res.g1 - res.g0
    todo = [(i, g0, g1) for i, (g0, g1) in enumerate(chunks) if i not in done]
    cache = None if games_dir else chunk_cache.cache_dir()

    def take(res: ChunkResult, from_cache: bool = False):
        nonlocal totals, agg, played
        if cache is not None and not from_cache:
            chunk_cache.store(cache, chunk_cache.chunk_key(scenario, engine, seed, res.g0,
                                                           res.g1), res)
        totals = merge(totals, res.totals)
        agg = res.agg.copy() if agg is None else agg + res.agg
        played += res.g1 - res.g0
        if on_chunk:
            on_chunk(res, played)

    if cache is not None:  # chunks any earlier run played already (simsym.run.cache)
        missing = []
        for i, g0, g1 in todo:
            hit = chunk_cache.load(cache, chunk_cache.chunk_key(scenario, engine, seed, g0, g1),
                                   i)
            if hit is None:
                missing.append((i, g0, g1))
            else:
                take(hit, from_cache=True)
        todo = missing

    args = (scenario, engine, search)
    if executor == "dask":
        from simsym.run.dask_executor import run_on_dask

        run_on_dask(args, todo, games_dir, take, jobs=jobs, scheduler=scheduler,
                    started=on_start)
    else:
        map_tasks(run_chunk_task, [(*args, i, g0, g1, games_dir) for i, g0, g1 in todo], take,
                  jobs, initializer=init_worker, initargs=args, started=on_start)
    return totals, agg


def map_tasks(fn, tasks, take, jobs: int, initializer=None, initargs=(), started=None):
    """Call ``fn(*task)`` for every task, here (``jobs`` 1) or in ``jobs`` processes, and
    ``take(result)`` in this process as each finishes (in completion order: ``take`` must
    not depend on it). At most 2 * jobs tasks are in flight, so memory stays bounded. Worker
    processes run ``initializer(*initargs)`` first and never outlive this process; a signal
    ends them all (docs/reliability.md). ``started()``, when given, is called once the
    worker processes exist (after the first submissions: a pool forks all its processes at
    the first), so that this process may start a thread then without a fork copying its
    locks."""
    with task_pool(jobs, initializer, initargs) as pool:
        pool.map(fn, tasks, take, started)


class TaskPool:
    """Where :func:`task_pool`'s maps run: here (``pool`` None) or in its worker processes."""

    def __init__(self, pool, jobs: int):
        self.pool, self.jobs = pool, jobs

    def map(self, fn, tasks, take, started=None):
        """:func:`map_tasks`'s contract, in this pool's processes."""
        if self.pool is None:
            for task in tasks:
                take(fn(*task))
            return
        from simsym.run.lifeline import raise_if_stopped

        _feed_pool(self.pool, fn, tasks, take, self.jobs, raise_if_stopped, started)


@contextmanager
def task_pool(jobs: int, initializer=None, initargs=()):
    """A :class:`TaskPool` whose worker processes (``jobs`` of them; none for ``jobs`` 1)
    serve every map of the block, for work of many rounds that should not start processes
    (and load their kernels) again each round. Its workers live as :func:`map_tasks`'s do:
    they never outlive this process, and a stop signal ends them all."""
    if jobs <= 1:
        yield TaskPool(None, jobs)
        return
    from simsym.run.lifeline import deferred_signals, raise_if_stopped

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_pool_worker,
                               initargs=(os.getpid(), initializer, initargs))
    with deferred_signals():
        try:
            yield TaskPool(pool, jobs)
        except BrokenProcessPool:
            raise WorkerLost() from None
        finally:
            # Every result is in, or the run stops: no worker is needed. Ended rather than
            # shut down gracefully: a worker killed while waiting for work holds the call
            # queue's lock for ever, and the others would wait for it at shutdown.
            _end_workers(pool)
    raise_if_stopped()


def _init_pool_worker(parent, initializer, initargs):
    from simsym.run.lifeline import die_with_parent

    die_with_parent(parent)  # no worker outlives the main process, however it ends
    if initializer is not None:
        initializer(*initargs)


def _feed_pool(pool, fn, tasks, take, jobs, raise_if_stopped, started=None):
    pending = set()
    it = iter(tasks)
    for task in it:
        pending.add(pool.submit(fn, *task))
        if len(pending) >= 2 * jobs:
            break
    if started is not None:
        started()
    while pending:
        finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        raise_if_stopped()
        # Workers only end with the pool. One killed while sending its result leaves half a
        # message that the pool's own thread waits on for ever, never noticing: look here.
        if any(p.exitcode is not None for p in list((pool._processes or {}).values())):
            raise WorkerLost()
        for f in finished:
            take(f.result())
            nxt = next(it, None)
            if nxt is not None:
                pending.add(pool.submit(fn, *nxt))


class WorkerLost(SimsymError):
    def __init__(self):
        super().__init__("a worker process died (killed from outside, or out of memory)")


def _end_workers(pool, grace: float = 5.0):
    """Stop every worker now (SIGTERM, then SIGKILL after ``grace`` s) and wait for them."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    for p in procs:
        p.terminate()
    deadline = time.monotonic() + grace
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join()
    # A worker ended while sending its result leaves half a message in the result pipe; the
    # pool's manager thread would wait for the rest forever, and the interpreter for that
    # thread at exit. Close this end of the pipe, so it reads EOF, and do not wait for the
    # thread feeding the (now unread) call queue either.
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        call_queue.cancel_join_thread()
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    pool.shutdown(wait=False, cancel_futures=True)
    if writer is not None:
        writer.close()
    # Let that thread finish closing its pipes now: at exit, Python 3.11 wakes it without a
    # lock and may write to a pipe it is closing ("Exception ignored ... Bad file descriptor").
    if manager is not None:
        manager.join(timeout=grace)
