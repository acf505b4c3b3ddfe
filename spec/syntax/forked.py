"""Parsing several modules at once, one per core.

A tool that reads two large files (the verifier reads a program and its
rewrite) spends most of its time parsing them, one after the other, in one
Python process. Here each module but the last is parsed by a forked child,
which hands the built IR back pickled through a pipe, while the caller
parses the last. Pickling and unpickling cost about a tenth of a parse, so
two modules of similar size take a little over half the time.

The results are exactly those of `parse_module` called in order: a child
only ever sends a module it built. If its parse fails (or the child dies, or
its pickle does not load) the caller parses that text itself, so every
diagnostic comes from the caller's own parse, the same one a sequential run
gives. Forking is skipped where it cannot pay off or is not safe: without
`os.fork`, with other threads running (a forked copy of a threaded process
may deadlock), for texts smaller than `MIN_FORKED_BYTES`, and when no core
is idle: on one core, or when the load average says the other cores are
busy. Two parses on one core take longer than one after the other (the
pickling is extra); measured on the project's 2-core machine, the 10k
benchmark's two files took 1.36 s at once against 1.68 s in turn while it
was quiet, but 1.97 s against 1.63 s while other jobs kept one core busy.
"""

from __future__ import annotations

import gc
import os
import pickle
import threading
from collections.abc import Sequence

from spec.diagnostics import DiagnosticError
from spec.ir import Operation
from spec.syntax.parser import load_parser, parse_module

MIN_FORKED_BYTES = 100_000
"""Below this a text is parsed in the caller: forking, pickling and
unpickling cost more than the overlap saves (about 0.1 s of parsing)."""

Parsed = Operation | DiagnosticError
"""A module, or the diagnostics its parse raised."""


def parse_modules(sources: Sequence[tuple[str, str]], fork: bool | None = None) -> list[Parsed]:
    """Parse each `(text, file)` as `parse_module(text, file)` would: a list
    of modules or `DiagnosticError`s, in the order given. `fork=None` forks
    when it pays off (see the module doc); `False` never forks; `True` forks
    wherever `os.fork` exists, whatever the size (the tests use it)."""
    if not sources:
        return []
    *others, last = sources
    use_fork = _can_fork() if fork is None else fork and hasattr(os, "fork")
    if use_fork:
        load_parser()  # once, before the fork, so the children inherit it
    workers = [
        _Worker.start(text, file) if use_fork and (fork or len(text) >= MIN_FORKED_BYTES) else None
        for text, file in others
    ]
    try:
        parsed_last = _parse(*last)
    finally:
        received = [w.receive() if w is not None else None for w in workers]
    out: list[Parsed] = [
        module if module is not None else _parse(text, file)
        for module, (text, file) in zip(received, others, strict=True)
    ]
    out.append(parsed_last)
    return out


def _parse(text: str, file: str) -> Parsed:
    try:
        return parse_module(text, file)
    except DiagnosticError as exc:
        return exc


def _can_fork() -> bool:
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    # This process counts for about 1 in the load average.
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return cores >= 2 and load < cores - 0.5


class _Worker:
    """A forked child parsing one text; `receive` gives its module or None."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd

    @classmethod
    def start(cls, text: str, file: str) -> _Worker | None:
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # the child: parse, send, and leave without cleanup
            os.close(read_fd)
            try:
                gc.disable()
                payload = pickle.dumps(parse_module(text, file), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write_fd, "wb") as pipe:
                    pipe.write(payload)
            except BaseException:  # noqa: BLE001 - the caller parses it again and reports
                pass
            os._exit(0)
        os.close(write_fd)
        return cls(pid, read_fd)

    def receive(self) -> Operation | None:
        """The child's module; None if it sent none (the text does not
        parse, or the child failed): the caller then parses the text."""
        try:
            with os.fdopen(self.fd, "rb") as pipe:
                payload = pipe.read()
        finally:
            os.waitpid(self.pid, 0)
        if not payload:
            return None
        # The IR is a large graph of new objects, none of them garbage: the
        # cyclic collector would only rescan it while it loads.
        collecting = gc.isenabled()
        gc.disable()
        try:
            module = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - a truncated or foreign payload: parse again
            return None
        finally:
            if collecting:
                gc.enable()
        return module if isinstance(module, Operation) else None
