"""Work handed to a forked child, its result sent back pickled.

The tools are single-threaded Python; on a machine with an idle core, a
large job can give part of its work to a copy of itself made by `os.fork`
(which shares everything already loaded and built) and carry on with the
rest. `Forked.start(fn)` runs `fn()` in the child; `result()` waits for it
and gives what `fn` returned, or None if the child sent nothing (it failed,
or what it sent does not load): the caller then does that work itself, so
results never depend on whether a child was used.

Forking pays off only when a core is idle. Two Python processes on the
project's 2-core machine slow each other by about a third, and a second
process on a core that is already busy makes the whole job slower than
doing it in turn (measured on the verifier's parse: 1.36 s at once against
1.68 s in turn while the machine was quiet, 1.97 s against 1.63 s while
other jobs kept a core busy). `can_fork` says whether to try.
"""

from __future__ import annotations

import collections
import gc
import os
import pickle
import threading
import time
from collections.abc import Callable

WAITING_THREADS = 0
"""Threads beside the one doing the work that hold no lock a forked copy
could need, so forking beside them is safe: the main thread while it joins
the worker (`spec.tool.run_tool` runs `main` in a thread of its own), and a
progress line's redrawing thread (`verifier.output.progress`: it sleeps on an
event of its own and writes with `os.write`; a forked copy never touches
either)."""

JOBS: int | None = None
"""A tool's `--jobs N`. 1: never fork. 2 or more: fork whenever a core is
idle, whatever the size of the work. None (the default): fork only work
large enough that the wall time saved is worth the CPU time spent (the
callers' thresholds, asked through `large_enough`:
`spec.syntax.parse_in_child.MIN_FORKED_BYTES`,
`verifier.smt.encode.MIN_FORKED_GROUPS`, `verifier.smt.encode.MIN_FORKED_QUERIES`,
`verifier.proof.pipeline.MIN_FORKED_WELL_FORMED_OPS`). A fork buys wall time with CPU time:
the second process's pickled transfer, a second Z3 context, and two
processes on two cores slowing each other; a user on a loaded CI runner or
on battery may want the CPU figure instead."""


def set_jobs(n: int | None) -> None:
    """`JOBS` for the rest of the run."""
    global JOBS
    JOBS = n


def large_enough(size: int, minimum: int) -> bool:
    """Whether work of `size` is worth a fork by `JOBS`: at least the
    caller's `minimum` by default, any size at all with `--jobs 2` or more
    (never with `--jobs 1`, which `can_fork` refuses)."""
    return size >= minimum or (JOBS is not None and JOBS > 1 and size > 0)


_LIVE: set[int] = set()
"""Children started and not yet waited for: `spec.tool` ends them when the
tool is interrupted."""


def live_children() -> list[int]:
    return sorted(_LIVE)


def can_fork() -> bool:
    """Forking is allowed (not `--jobs 1`, `JOBS`), possible, safe and
    likely to pay: `os.fork` exists, no
    other thread runs (a forked copy of a threaded process may deadlock;
    `WAITING_THREADS` do not count), and at least two cores with one of them
    idle now (`_busy`)."""
    if JOBS == 1 or not hasattr(os, "fork") or threading.active_count() > 1 + WAITING_THREADS:
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


class _EagerPipe:
    """The write end of a pipe, for `pickle.dump`: each write goes into the
    pipe at once if it has room, and is kept in memory if not; `close`
    writes what was kept, waiting for the reader.

    A blocking pipe holds 64 KiB: a child whose caller is still busy (at
    100k GPU ops the caller parses OUTPUT for a second after the child has
    parsed INPUT) would stop pickling at the first full pipe and pickle the
    rest only while the caller loads, one frame at a time. Kept in memory,
    the pickling goes on meanwhile, and the caller loads a payload that is
    already there, as fast as it can. When the caller is the one waiting,
    every write goes straight through and loading overlaps pickling."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.kept: collections.deque[bytes] = collections.deque()
        self.offset = 0
        """How much of `kept[0]` is already in the pipe."""
        os.set_blocking(fd, False)

    def write(self, data: bytes | memoryview) -> int:
        self.kept.append(bytes(data))
        self._send()
        return len(data)

    def _send(self) -> None:
        """As much of what is kept as the pipe takes now."""
        kept = self.kept
        while kept:
            try:
                n = os.write(self.fd, memoryview(kept[0])[self.offset :])
            except BlockingIOError:
                return
            self.offset += n
            if self.offset < len(kept[0]):
                return  # the pipe is full
            kept.popleft()
            self.offset = 0

    def close(self) -> None:
        """Write the rest, waiting for the reader, and close the pipe."""
        os.set_blocking(self.fd, True)
        while self.kept:  # a blocking write may still be cut short by a signal
            self._send()
        os.close(self.fd)


class Forked:
    """`fn()` running in a forked child; `result` gives its return value."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd

    @classmethod
    def start(cls, fn: Callable[[], object]) -> Forked | None:
        """Fork a child that runs `fn` and sends back its result; None if
        the fork itself fails (the caller does the work)."""
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # the child: work, send, and leave without cleanup
            os.close(read_fd)
            try:
                gc.disable()
                result = fn()
                # Pickled into the pipe as it goes (`_EagerPipe`): protocol
                # 5 writes frames of 64 KiB, and a caller already waiting
                # loads each as it comes (`result`); a caller still busy
                # does not hold the pickling up. A pickling that fails
                # halfway leaves a truncated payload, which the caller's
                # load rejects: it does the work.
                pipe = _EagerPipe(write_fd)
                pickle.dump(result, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                pipe.close()
            except BaseException:
                pass
            os._exit(0)
        os.close(write_fd)
        _LIVE.add(pid)
        return cls(pid, read_fd)

    def result(self) -> object | None:
        """Wait for the child; what `fn` returned, or None if it sent nothing
        that loads."""
        # Loaded from the pipe as it comes, not read whole first: the
        # payload is never in memory beside the objects made from it.
        # Closing the pipe before the child is waited for means a child
        # still writing (after a load that failed) gets a broken pipe and
        # leaves, instead of blocking forever.
        # A result such as a module's IR is a large graph of new objects, none
        # of them garbage: the cyclic collector would only rescan it.
        collecting = gc.isenabled()
        gc.disable()
        try:
            with os.fdopen(self.fd, "rb", buffering=1 << 16) as pipe:
                return pickle.load(pipe)
        except Exception:
            return None
        finally:
            if collecting:
                gc.enable()
            os.waitpid(self.pid, 0)
            _LIVE.discard(self.pid)
