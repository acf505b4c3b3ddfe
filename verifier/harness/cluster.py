"""`exhaustive --cluster [ADDRESS]`: the run's programs checked on a Dask cluster.

The driver enumerates the programs (as the in-process run does, skipping
those a resumed `--results` file holds) and hands them out in chunks of
`CHUNK` (each program with its ops and text: enumerating costs some 20
microseconds a program, checking tens of times more), never more than
`WINDOW` chunks per worker ahead, so that its memory stays flat. Each
worker runs its chunks in-process with the same runner as `--jobs`
(`RefimplRunner`, or `CommandRunner` for `--impl`), so its verdicts are
the in-process run's; the driver merges the results into one summary and
one `--results` stream. A chunk whose worker is lost is run again by the
scheduler (Dask's own retry of the tasks of a dead worker; `RETRIES` more
for a chunk that raised).

`ADDRESS` is a running scheduler (`tcp://host:8786`); without one a local
cluster is started with one single-threaded worker process per core (or
`--jobs J`). `distributed` is an optional dependency (the `cluster` extra:
`pip install 'gpu-async-region-reference[cluster]'`); without it
`--cluster` is a usage error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from typing import Any

from verifier.programs.enumeration import Program, batched

CHUNK = 2000
"""Programs per chunk: a few seconds of a worker's time, many chunks per worker."""
WINDOW = 4
"""Chunks in flight per worker: the driver enumerates ahead only this far,
so its memory does not grow with the run."""
RETRIES = 2
"""Extra runs of a chunk that raised (a lost worker's chunks are rerun by the scheduler anyway)."""


def run_chunk(runner: Any, chunk: list[Program]) -> list:
    """On a worker: the results of a chunk's programs (each with its ops, so
    that the refimpl runner builds its IR rather than parsing it)."""
    results = []
    for batch in batched(chunk, 64):
        results.extend(runner.run(batch))
    return results


def available() -> bool:
    """Whether `distributed` can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _chunks(work: Iterable[Program], chunk: int) -> Iterator[list[Program]]:
    out: list[Program] = []
    for p in work:
        out.append(p)
        if len(out) == chunk:
            yield out
            out = []
    if out:
        yield out


def connect(stack: ExitStack, address: str | None, workers: int | None) -> tuple[Any, int]:
    """A `distributed.Client` to the scheduler at `address`, or to a local
    cluster of `workers` single-threaded processes (default: one per core),
    closed with `stack`; and how many workers it has now (at least 1)."""
    from distributed import Client, LocalCluster

    if address:
        client = stack.enter_context(Client(address))
    else:
        cluster = stack.enter_context(
            LocalCluster(
                n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None
            )
        )
        client = stack.enter_context(Client(cluster))
    return client, max(1, len(client.scheduler_info().get("workers", {})))


def run_on_cluster(
    runner: Any, work: Iterable[Program], address: str | None = None, workers: int | None = None,
    chunk: int = CHUNK, client: Any = None,
) -> Iterator:  # fmt: skip
    """Each result of the programs of `work` (enumerated here, in chunks of
    `chunk`, at most `WINDOW` per worker in flight), chunk by chunk as the
    workers finish them. `client`, a connected `distributed.Client`, is
    used as it is (tests); else one to `address`, or to a local cluster of
    `workers` processes (default: the cores)."""
    from distributed import as_completed

    with ExitStack() as stack:
        if client is None:
            client, _ = connect(stack, address, workers)
        pending = _chunks(work, chunk)
        running = as_completed()

        def fill() -> None:
            # The window follows the workers the scheduler has now (a
            # cluster may grow or lose some while the run goes on).
            target = WINDOW * max(1, len(client.scheduler_info().get("workers", {})), workers or 1)
            while running.count() < target:
                nxt = next(pending, None)
                if nxt is None:
                    return
                running.add(client.submit(run_chunk, runner, nxt, pure=False, retries=RETRIES))

        fill()
        for fut in running:
            results = fut.result()
            fut.release()
            fill()
            yield from results
