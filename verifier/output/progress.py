"""Progress of a long run on stderr, for a person watching a terminal.

`check` on a 100k-op file takes seconds and `exhaustive` hours; someone at
a terminal wants to know how far they are: the phase (parsing, matching,
Z3, ...), a count where there is one (functions, Z3 groups, programs) and
the elapsed time. A script, a pipe or a CI log wants none of it: the
verifier's stderr carries diagnostics that tests and tools read. So a
`Progress` writes only when its stream is a terminal (`isatty()`), and
writes nothing at all otherwise.

On a terminal it keeps one status line, rewritten in place (`\\r`, then
`ESC [K` to clear what is left of a longer line) every `interval` seconds
by a daemon thread, once the run has lasted `delay` seconds, so a quick run
leaves the terminal as it was. The thread is what makes a phase without
counts (parsing a large file) still show its elapsed time; the run itself
only updates two fields, which costs nothing measurable. The line is
written with `os.write` on the stream's descriptor, not through Python's
buffered stream, so a fork (the verifier forks parsers and provers) never
copies a stream lock held by the thread. `finish()` stops the thread and
clears the line; if something was shown it leaves one line with the total
time and the time per phase.

A check is handed its `Progress` (`CheckOptions.progress`), which its
budget and provers report to; without one they report to `DISABLED`, whose
methods return at once.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from parallel import jobs


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or not a real stream
        return False


class Progress:
    """A status line on `stream` (default stderr) if it is a terminal."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        label: str = "verifier",
        interval: float = 0.25,
        delay: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        enabled: bool | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _isatty(self.stream) if enabled is None else enabled
        self.label = label
        self.interval = interval
        self.delay = delay
        self.clock = clock
        self.t0 = clock()
        self.phase_name = ""
        self.phase_t0 = self.t0
        self.phases: list[tuple[str, float]] = []
        """(phase, seconds) of the phases ended so far."""
        self.shown = False
        self._detail = ""
        self._count: tuple[int, int | None, str] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Progress:
        """Start redrawing the line every `interval` seconds (a daemon
        thread); returns self."""
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._tick, name="progress", daemon=True)
            # Forking beside it stays allowed (`parallel.jobs.can_fork`):
            # on a terminal the check would otherwise run in one process.
            jobs.WAITING_THREADS += 1
            self._thread.start()
        return self

    def phase(self, name: str, detail: str = "") -> None:
        """A new phase begins (the previous one ends)."""
        if not self.enabled:
            return
        now = self.clock()
        self._end_phase(now)
        self.phase_name, self.phase_t0, self._detail, self._count = name, now, detail, None

    def count(self, done: int, total: int | None = None, what: str = "") -> None:
        """`done` of `total` things (`what`) in the current phase."""
        if self.enabled:
            self._count = (done, total, what)

    def line(self) -> str:
        """The status line as it would be drawn now."""
        now = self.clock()
        detail = self._detail
        if self._count is not None:
            done, total, what = self._count
            of = f"/{total}" if total is not None else ""
            pct = f" ({100 * done // total}%)" if total else ""
            detail = f"{done}{of}{pct} {what}".rstrip() + (f", {detail}" if detail else "")
        return f"{self.label}: [{now - self.t0:6.1f} s] {self.phase_name}" + (f": {detail}" if detail else "")

    def render(self) -> None:
        """Draw the line (what the thread does), once `delay` has passed."""
        if not self.enabled or self.clock() - self.t0 < self.delay:
            return
        self._write("\r\x1b[K" + self.line())
        self.shown = True

    def finish(self) -> None:
        """End the run: stop the thread, clear the status line; if it was
        shown, one line with the total time and each phase's."""
        if not self.enabled:
            return
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            jobs.WAITING_THREADS -= 1
        now = self.clock()
        self._end_phase(now)
        if not self.shown:
            return
        parts = ", ".join(f"{name} {secs:.1f} s" for name, secs in self.phases)
        self._write(f"\r\x1b[K{self.label}: done in {now - self.t0:.1f} s ({parts})\n")
        self.shown = False

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.render()

    def _end_phase(self, now: float) -> None:
        """Add the current phase's time to its entry (a phase met again,
        `check` once per function, adds to the same one)."""
        if self.phase_name:
            for k, (name, secs) in enumerate(self.phases):
                if name == self.phase_name:
                    self.phases[k] = (name, secs + now - self.phase_t0)
                    break
            else:
                self.phases.append((self.phase_name, now - self.phase_t0))
            self.phase_name = ""

    def _write(self, text: str) -> None:
        try:
            fd = self.stream.fileno()
        except (AttributeError, ValueError, OSError):
            fd = -1
        try:
            if fd >= 0:
                os.write(fd, text.encode("utf-8", "replace"))
            else:
                self.stream.write(text)
                self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False  # a terminal gone away: stop drawing, never fail the run


DISABLED = Progress(enabled=False)
"""A `Progress` that shows nothing: every method returns at once, so it is
never started and never changes; one for the whole process."""
