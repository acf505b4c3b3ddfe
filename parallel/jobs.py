"""When to hand work to a forked copy of the process: a tool's `--jobs`, the
size of the work, and whether a core is idle now.

Forking pays off only when a core is idle. Two Python processes on the
project's 2-core machine slow each other by about a third, and a second
process on a core that is already busy makes the whole job slower than
doing it in turn (measured on the verifier's parse: 1.36 s at once against
1.68 s in turn while the machine was quiet, 1.97 s against 1.63 s while
other jobs kept a core busy). `can_fork` says whether to try.

A fork buys wall time with CPU time: the second process's pickled
transfer, a second Z3 context, and two processes on two cores slowing each
other; a user on a loaded CI runner or on battery may want the CPU figure
instead. So the choice is the caller's, as a frozen `Jobs` handed down from
the command line to where work is shared out; nothing here is a setting of
the process.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Jobs:
    """How much of a run may go to a forked copy of the process."""

    n: int | None = None
    """A tool's `--jobs N`. 1: never fork. 2 or more: fork whenever a core
    is idle, whatever the size of the work. None (the default): fork only
    work large enough that the wall time saved is worth the CPU time spent
    (each caller's own threshold, passed to `worth`)."""
    force: bool | None = None
    """True: fork wherever `os.fork` exists, whatever the size, the load and
    `n`; False: never fork; None: as `n`, the size and the load say (the
    tests force either way)."""

    def worth(self, size: int, minimum: int) -> bool:
        """Whether work of `size` is worth a fork: at least the caller's
        `minimum` by default, any size at all with `--jobs 2` or more (and
        with `--jobs 1` it never happens: `may_fork`)."""
        if self.force is not None:
            return self.force
        return size >= minimum or (self.n is not None and self.n > 1 and size > 0)

    def may_fork(self) -> bool:
        """Forking is allowed (not `--jobs 1`), possible, safe and likely to
        pay now (`can_fork`); `force` decides alone where it is set."""
        if self.force is not None:
            return self.force and hasattr(os, "fork")
        return self.n != 1 and can_fork()

    def splits(self, size: int, minimum: int) -> bool:
        """Whether to hand part of work of `size` to a forked child now:
        `worth` it and `may_fork` (asked only then: it takes 5 ms)."""
        return self.worth(size, minimum) and self.may_fork()


DEFAULT_JOBS = Jobs()
"""No `--jobs`: fork large work when a core is idle."""
IN_ONE_PROCESS = Jobs(force=False)
"""Never fork."""


WAITING_THREADS = 0
"""Threads beside the one doing the work that hold no lock a forked copy
could need, so forking beside them is safe: the main thread while it joins
the worker (`spec.tool.run_tool` runs `main` in a thread of its own), and a
progress line's redrawing thread (`verifier.output.progress`: it sleeps on an
event of its own and writes with `os.write`; a forked copy never touches
either). Bookkeeping of the process's threads, kept by those who start
them: it decides whether work is shared out, never what a call returns."""


def can_fork() -> bool:
    """Forking is possible, safe and likely to pay: `os.fork` exists, no
    other thread runs (a forked copy of a threaded process may deadlock;
    `WAITING_THREADS` do not count), and at least two cores with one of them
    idle now (`_busy`)."""
    if not hasattr(os, "fork") or threading.active_count() > 1 + WAITING_THREADS:
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores >= 2 and _busy() < cores - 0.5


SNAPSHOTS = 3
"""Snapshots of the runnable count `_busy` takes, `SNAPSHOT_GAP_S` apart."""
SNAPSHOT_GAP_S = 0.0025


def _busy() -> float:
    """How many cores are busy now, this process included: the least of a
    few snapshots of the runnable count in `/proc/loadavg`, else the
    one-minute load average (which lags: after a minute of this tool's own
    work in two processes it reads about 2 on an idle machine).

    One snapshot is not enough: other tasks wake for a moment many times a
    second (on the project's quiet machine about 10 times a second, for
    0.3 ms typically and at most 4.5 ms in 5 s of sampling), and a single
    snapshot caught one in about one run in eight, so the tool parsed in
    one process. A task that keeps a core busy is runnable in every
    snapshot; a blip is in one at most. The snapshots cost 5 ms."""
    counts: list[float] = []
    for i in range(SNAPSHOTS):
        if i:
            time.sleep(SNAPSHOT_GAP_S)
        n = _runnable()
        if n is None:
            return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        counts.append(n)
    return min(counts)


def _runnable() -> float | None:
    """The runnable count of `/proc/loadavg` now, None where there is none."""
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return None
