"""Chunks on a Dask cluster: a local one (workers = cores) or an existing scheduler.

Each task plays one chunk with the numba engine on a worker and returns its integer
totals; a worker lost mid-run has its task re-run elsewhere by Dask, and since a chunk
depends only on (seed, game indices) the result is the same.
"""

from __future__ import annotations

import os

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


def run_on_dask(args, todo, games_dir, take, *, jobs: int, scheduler: str | None):
    from dask.distributed import as_completed

    from simsym.run.executor import run_chunk_task

    client, cluster = _client(jobs or os.cpu_count() or 1, scheduler)
    try:
        scenario_f = client.scatter(args[0], broadcast=True)
        window = max(2, 2 * len(client.scheduler_info()["workers"]))
        it = iter(todo)
        first = []
        for i, g0, g1 in it:
            first.append(client.submit(run_chunk_task, scenario_f, args[1], args[2], i, g0, g1,
                                       games_dir, key=f"simsym-chunk-{i}-{g0}-{g1}",
                                       retries=3, pure=False))
            if len(first) >= window:
                break
        pending = as_completed(first)
        for fut in pending:
            take(fut.result())
            fut.release()
            nxt = next(it, None)
            if nxt is not None:
                i, g0, g1 = nxt
                pending.add(client.submit(run_chunk_task, scenario_f, args[1], args[2], i, g0,
                                          g1, games_dir, key=f"simsym-chunk-{i}-{g0}-{g1}",
                                          retries=3, pure=False))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
