"""Chunks on a Dask cluster: a local one (workers = cores) or an existing scheduler.

Each task plays one chunk with the numba engine on a worker and returns its integer
totals; a worker lost mid-run has its task re-run elsewhere by Dask, and since a chunk
depends only on (seed, game indices) the result is the same.
"""

from __future__ import annotations

import os
import time

from simsym.errors import SimsymError


def _client(jobs: int, scheduler: str | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - dask is a dependency
        raise SimsymError("--executor dask needs dask[distributed] installed") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except (OSError, TimeoutError) as e:
            raise SimsymError(f"--scheduler {scheduler}: cannot connect ({e})") from None
    # One numba thread per worker process: no oversubscription.
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                           dashboard_address=None,
                           env={"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    return Client(cluster), cluster


def run_on_dask(args, todo, games_dir, take, *, jobs: int, scheduler: str | None,
                started=None):
    """Play the chunks ``todo`` on a Dask cluster (``scheduler``'s, or a local one of
    ``jobs`` workers), ``take(result)`` for each here; ``started()`` once the cluster's
    processes exist."""
    from dask.distributed import as_completed

    from simsym.run.lifeline import deferred_signals, raise_if_stopped

    client, cluster = _client(jobs or os.cpu_count() or 1, scheduler)
    if started is not None:
        started()
    try:
        with deferred_signals():  # a signal is raised between client calls, not inside one
            _feed(client, args, todo, games_dir, take, as_completed, raise_if_stopped)
        raise_if_stopped()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _feed(client, args, todo, games_dir, take, as_completed, raise_if_stopped):
    """Keep a bounded window of chunks on the cluster; hand each result to ``take``."""
    from simsym.run.worker import run_chunk_task

    # The scenario travels inside every task (~12 kB pickled), not scattered: scattered
    # data held only by a worker that dies cannot be recomputed, and the tasks waiting on it
    # are cancelled (a worker that registers after the scatter never got a copy). A worker
    # builds the engine once per scenario all the same (worker.engine_state).
    scenario = args[0]

    def submit(i, g0, g1):
        return client.submit(run_chunk_task, scenario, args[1], args[2], i, g0, g1,
                             games_dir, key=f"simsym-chunk-{i}-{g0}-{g1}", retries=3,
                             pure=False)

    window = max(2, 2 * len(client.scheduler_info()["workers"]))
    it = iter(todo)
    pending = as_completed([submit(*chunk) for _, chunk in zip(range(window), it)])
    while not pending.is_empty():
        raise_if_stopped()
        if not pending.has_ready():
            time.sleep(0.05)
            continue
        for fut in pending.next_batch(block=False):
            take(fut.result())
            fut.release()
            nxt = next(it, None)
            if nxt is not None:
                pending.add(submit(*nxt))
