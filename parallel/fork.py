"""Work handed to a forked copy of the process, its result sent back pickled.

The tools are single-threaded Python; on a machine with an idle core, a
large job can give part of its work to a copy of itself made by `os.fork`
(which shares everything already loaded and built) and carry on with the
rest. `Forked.start(fn)` runs `fn()` in the child; `result()` waits for it
and gives what `fn` returned, or None if the child sent nothing (it failed,
or what it sent does not load): the caller then does that work itself, so
results never depend on whether a child was used. `beside` and `halves`
are the two ways the callers share work out, built on it.

Whether to fork at all is `parallel.jobs`'s question (`Jobs`); this module
only does it.
"""

from __future__ import annotations

import array
import collections
import gc
import os
import pickle
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
H = TypeVar("H", bound=Hashable)

_LIVE: set[int] = set()
"""Children started and not yet waited for: `spec.tool` ends them when the
tool is interrupted. Bookkeeping of the process's children: it never
changes what a call returns."""


def live_children() -> list[int]:
    """The children started and not yet waited for."""
    return sorted(_LIVE)


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
                got: object = pickle.load(pipe)
                return got
        except Exception:
            return None
        finally:
            if collecting:
                gc.enable()
            os.waitpid(self.pid, 0)
            _LIVE.discard(self.pid)


def beside(there: Callable[[], T], here: Callable[[], R]) -> tuple[R, object | None]:
    """`here()` in this process while `there()` runs in a forked child:
    what `here` returned, and what the child sent (None: nothing, or no
    child could be started). The caller does the child's work itself when
    it gets None, so its result is the same either way."""
    child = Forked.start(there)
    try:
        mine = here()
    finally:
        theirs = child.result() if child is not None else None
    return mine, theirs


def halves(fn: Callable[[T], H], items: Sequence[T]) -> list[H]:
    """`[fn(x) for x in items]`, the second half made by a forked child
    while this process makes the first. The child sends each distinct
    result once, with one index per item (an array of ints: cheap to
    pickle), so equal results come back as one object; if it sends nothing
    usable, this process makes the second half too."""
    half = len(items) // 2
    mine, got = beside(lambda: _indexed(fn, items[half:]), lambda: [fn(x) for x in items[:half]])
    if isinstance(got, tuple) and len(got) == 2 and len(got[1]) == len(items) - half:
        distinct, at = got
        return mine + [distinct[i] for i in at]
    return mine + [fn(x) for x in items[half:]]


def _indexed(fn: Callable[[T], H], items: Sequence[T]) -> tuple[list[H], array.array[int]]:
    """In a forked child: the distinct results of `fn` over `items` in the
    order they first occur, and each item's index among them."""
    index: dict[H, int] = {}
    at = array.array("l", (index.setdefault(r, len(index)) for r in (fn(x) for x in items)))
    return list(index), at
