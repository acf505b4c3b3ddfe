"""`exhaustive --cluster [ADDRESS]`: the run's programs checked on a Dask cluster.

The enumeration is split into chunks, each a range of the indices of one
size's programs (`Chunk`: size, start, stop), which a worker enumerates
itself: nothing but the chunk's three numbers (and the ids to skip when
resuming) goes to it, and its results come back. Each worker runs its
chunks in-process with the same runner as `--jobs` (`RefimplRunner`, or
`CommandRunner` for `--impl`), so its verdicts are the in-process run's;
the driver merges the results into one summary and one `--results`
stream. A chunk whose worker is lost is run again by the scheduler
(Dask's own retry of the tasks of a dead worker; `RETRIES` more for a
chunk that raised).

`ADDRESS` is a running scheduler (`tcp://host:8786`); without one a local
cluster is started with one single-threaded worker process per core (or
`--jobs J`). `distributed` is an optional dependency (the `cluster` extra:
`pip install 'gpu-async-region-reference[cluster]'`); without it
`--cluster` is a usage error.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from verifier.enumeration import ALPHABETS, Alphabet, counts, programs

CHUNK = 2000
"""Programs per chunk: a few seconds of a worker's time, many chunks per worker."""
RETRIES = 2
"""Extra runs of a chunk that raised (a lost worker's chunks are rerun by the scheduler anyway)."""


@dataclass(frozen=True)
class Chunk:
    """The programs of size `size` with index `start <= i < stop` (ids `SIZE-i`)."""

    size: int
    start: int
    stop: int


def chunks(alphabet: Alphabet, min_size: int, max_size: int, chunk: int = CHUNK) -> list[Chunk]:
    """Every program of `min_size..max_size`, in chunks of at most `chunk`, in enumeration order."""
    out = []
    for size, n in counts(alphabet, max_size).items():
        if size >= min_size:
            out.extend(Chunk(size, k, min(k + chunk, n)) for k in range(0, n, chunk))
    return out


def run_chunk(runner: Any, alphabet: str, chunk: Chunk, skip: frozenset[int] = frozenset()) -> list:
    """On a worker: the results of the chunk's programs, but those whose index is in `skip`."""
    from verifier.exhaustive import _batches  # noqa: PLC0415 - the worker imports what it runs

    wanted = (p for i, p in enumerate(itertools.islice(programs(ALPHABETS[alphabet], chunk.size), chunk.start, chunk.stop), chunk.start) if i not in skip)
    results = []
    for batch in _batches(wanted, 64):
        results.extend(runner.run(batch))
    return results


def available() -> bool:
    """Whether `distributed` can be imported."""
    try:
        import distributed  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def run_on_cluster(
    runner: Any, alphabet: Alphabet, min_size: int, max_size: int, done: Any, address: str | None = None,
    workers: int | None = None, chunk: int = CHUNK, client: Any = None,
) -> Iterator:  # fmt: skip
    """Each program's result, chunk by chunk as the workers finish them.
    `done` holds the ids already run (skipped); `client`, a connected
    `distributed.Client`, is used as it is (tests); else one to `address`,
    or to a local cluster of `workers` processes (default: the cores)."""
    from distributed import Client, LocalCluster, as_completed  # noqa: PLC0415 - optional dependency

    with ExitStack() as stack:
        if client is None:
            if address:
                client = stack.enter_context(Client(address))
            else:
                cluster = stack.enter_context(
                    LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None)
                )
                client = stack.enter_context(Client(cluster))
        futures = []
        for c in chunks(alphabet, min_size, max_size, chunk):
            skip = frozenset(i for i in range(c.start, c.stop) if f"{c.size}-{i}" in done)
            if len(skip) < c.stop - c.start:
                futures.append(client.submit(run_chunk, runner, alphabet.name, c, skip, pure=False, retries=RETRIES))
        for fut in as_completed(futures):
            results = fut.result()
            fut.release()
            yield from results
