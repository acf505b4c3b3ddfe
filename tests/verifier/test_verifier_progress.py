"""`verifier/output/progress.py`: a status line on stderr only when it is a
terminal (a fake tty stream here), nothing otherwise; and the CLIs draw
nothing into a pipe."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import verifier
from spec.syntax.parser import parse_module
from verifier.output import progress
from verifier.output.progress import Progress

ROOT = Path(__file__).resolve().parents[2]


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no descriptor")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_terminal_gets_phases_counts_and_elapsed() -> None:
    tty, clock = FakeTty(), Clock()
    p = Progress(tty, clock=clock, delay=0.5)
    assert p.enabled
    p.phase("parse")
    p.render()
    assert tty.getvalue() == ""  # a quick run leaves the terminal as it was
    clock.now += 2.0
    p.render()
    assert "verifier: [   2.0 s] parse" in tty.getvalue()
    p.phase("check", "@main")
    p.count(3, 12, "Z3 groups")
    clock.now += 1.5
    p.render()
    assert "[   3.5 s] check: 3/12 (25%) Z3 groups, @main" in tty.getvalue()
    assert tty.getvalue().count("\r\x1b[K") == 2
    p.phase("check", "@other")  # the same phase again adds to its entry
    clock.now += 0.5
    p.finish()
    assert tty.getvalue().endswith("verifier: done in 4.0 s (parse 2.0 s, check 2.0 s)\n")


def test_not_a_terminal_gets_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress(out, clock=clock, delay=0.0).start()
    assert not p.enabled
    p.phase("parse")
    p.count(1, 2, "x")
    clock.now += 10
    p.render()
    p.finish()
    assert out.getvalue() == ""


def test_quick_run_on_a_terminal_prints_nothing() -> None:
    tty = FakeTty()
    p = Progress(tty, delay=60.0).start()
    p.phase("parse")
    p.finish()
    assert tty.getvalue() == ""


def test_thread_redraws_and_stops() -> None:
    tty = FakeTty()
    p = Progress(tty, delay=0.0, interval=0.01).start()
    p.phase("long phase")
    import time

    time.sleep(0.1)
    p.finish()
    text = tty.getvalue()
    assert "long phase" in text and text.endswith(")\n")
    assert p._thread is None


def test_a_check_reports_to_the_progress_it_is_given() -> None:
    text = (ROOT / "examples" / "demo.mlir").read_text()
    before, after = parse_module(text, "in.mlir"), parse_module(text, "out.mlir")
    mine = Progress(FakeTty(), delay=0.0)
    verifier.check(before, after, progress=mine)
    assert mine.phase_name == "check" and "@demo" in mine.line()
    # Without one, a check reports to `DISABLED`, which takes nothing in.
    verifier.check(before, after)
    progress.DISABLED.count(1, 2, "x")
    assert not progress.DISABLED.enabled and progress.DISABLED.phase_name == "" and progress.DISABLED.phases == []


def test_cli_into_a_pipe_draws_nothing() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "verifier", "check", "examples/demo.mlir"], cwd=ROOT, capture_output=True, text=True
    )
    assert res.returncode == 0 and res.stderr == ""


def test_a_progress_line_leaves_forking_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    # On a terminal the redrawing thread runs for the whole check: it must
    # not make `can_fork` refuse (the check would run in one process).
    from parallel import jobs

    monkeypatch.setattr(jobs, "_busy", lambda: 0.0)
    if hasattr(jobs.os, "sched_getaffinity"):
        monkeypatch.setattr(jobs.os, "sched_getaffinity", lambda pid: {0, 1})
    # Threads already running here (a test runner's) count as harmless.
    monkeypatch.setattr(jobs, "WAITING_THREADS", threading.active_count() - 1)
    assert jobs.can_fork()
    p = Progress(FakeTty(), delay=0.0, interval=0.01).start()
    try:
        assert p._thread is not None and p._thread.is_alive()
        assert jobs.can_fork()
    finally:
        p.finish()
    assert jobs.can_fork()
    assert jobs.WAITING_THREADS == threading.active_count() - 1
