"""Implementations that misbehave, in `check --impl` as in the gate: each
is the implementation's failure with its reason (exit 2 / `impl-failed`),
within its timeout, never a verdict, never a traceback, and the user's
input file is never changed."""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.common import SMALL, no_traceback, tool
from verifier.harness.external import DRAIN_S
from verifier.harness.gate import FAIL, PASS, CommandImpl, judge

IMPLS = {
    # forks a daemon that keeps stdout open, prints the input, exits 0
    "daemon": """
import os, sys, time
text = open(sys.argv[-1]).read()
if os.fork() == 0:
    open(os.environ["PIDFILE"], "w").write(str(os.getpid()))
    time.sleep(120)
    os._exit(0)
sys.stdout.write(text)
""",
    # prints without end
    "gigabytes": """
import sys
chunk = b"// " + b"x" * 65530 + b"\\n"
while True:
    sys.stdout.buffer.write(chunk)
""",
    "binary": """
import sys
sys.stdout.buffer.write(b"\\x7fELF\\x02\\x01\\x01\\x00\\xff\\xfe" * 100)
""",
    "empty": "",
    # rewrites its input file in place, then prints what it read
    "in-place": """
import sys
path = sys.argv[-1]
text = open(path).read()
open(path, "w").write("garbage, not MLIR\\n")
sys.stdout.write(text)
""",
    "stdin-only": """
import sys
sys.stdout.write(sys.stdin.read())
""",
    "slow-start": """
import sys, time
time.sleep(1.5)
sys.stdout.write(open(sys.argv[-1]).read())
""",
}

REASONS = {
    "daemon": "a process it started kept its output open",
    "gigabytes": "implementation printed more than",
    "binary": "not MLIR text",
    "empty": "exited 0 but printed nothing",
    "stdin-only": "exited 0 but printed nothing",
}


def _impl(tmp_path: Path, name: str) -> Path:
    script = tmp_path / f"impl-{name}.py"
    script.write_text(IMPLS[name])
    return script


def _fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def _daemon_gone(pidfile: Path) -> None:
    if not pidfile.exists():
        return
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail(f"the implementation's daemon {pid} outlived the run")


@pytest.mark.parametrize("name", sorted(IMPLS))
def test_check_reports_the_implementation(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(SMALL)
    before = _fingerprint(src)
    pidfile = tmp_path / "daemon.pid"
    monkeypatch.setenv("PIDFILE", str(pidfile))
    from tests.reliability.common import env

    r = tool(
        "check", str(src), "--impl", f"{sys.executable} {_impl(tmp_path, name)}", "--impl-timeout", "20", environ=env()
    )
    no_traceback(r)
    assert _fingerprint(src) == before, "the user's input changed"
    _daemon_gone(pidfile)
    if name in REASONS:
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
        assert r.stdout == ""
        assert REASONS[name] in r.stderr, r.stderr
        assert "<impl output>" in r.stderr
    else:
        # Rewriting the private copy or starting slowly is no failure: the
        # output is judged (the identity keeps this program's orderings).
        assert r.returncode == 0, r.stderr
        assert "verdict: verified" in r.stdout
    # Within its limits: the drain after the exit, Python start-ups.
    assert r.seconds < 15, r.seconds


def test_check_slow_start_past_its_timeout(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(SMALL)
    r = tool("check", str(src), "--impl", f"{sys.executable} {_impl(tmp_path, 'slow-start')}", "--impl-timeout", "0.5")
    no_traceback(r)
    assert r.returncode == 2 and "implementation timed out after 0.5 s" in r.stderr
    assert r.seconds < 8


def test_daemon_is_cut_after_the_drain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a wait for the timeout (600 s by default): `DRAIN_S` after the exit."""
    monkeypatch.setenv("PIDFILE", str(tmp_path / "daemon.pid"))
    impl = CommandImpl((sys.executable, str(_impl(tmp_path, "daemon"))))
    t0 = time.monotonic()
    out = judge(SMALL, impl)
    assert out.status == FAIL and out.verdict == "impl-failed"
    assert REASONS["daemon"] in out.detail
    assert time.monotonic() - t0 < DRAIN_S + 5
    _daemon_gone(tmp_path / "daemon.pid")


@pytest.mark.parametrize("name", sorted(IMPLS))
def test_gate_reports_the_implementation(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIDFILE", str(tmp_path / "daemon.pid"))
    out = judge(SMALL, CommandImpl((sys.executable, str(_impl(tmp_path, name)))))
    _daemon_gone(tmp_path / "daemon.pid")
    if name in REASONS:
        assert out.status == FAIL and out.verdict == "impl-failed", (out.verdict, out.detail)
        assert REASONS[name] in out.detail
    else:
        assert out.status == PASS, out.detail
