"""An exhaustive run interrupted and resumed ends as an uninterrupted one.

`python -m verifier exhaustive --alphabet whole --max-size 3 --results F`
is stopped (SIGINT twice, then SIGKILL) once F holds a given number of
lines, each time resumed with the same F; then it runs to the end. Each
interrupted run must exit 130 (SIGINT) well before the end, leave F all
whole JSON lines, and the last run's totals, bugs and smallest programs
must be those of a run that was never interrupted.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--alphabet", "whole", "--max-size", "3", "--format", "json"]
PROGRAMS = 13_952
"""Enough that a run stopped after a few hundred lines is seconds from its
end: however late the signal lands on a loaded machine, the run cannot
have finished first."""


def _start(results: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "verifier", "exhaustive", *ARGS, "--results", str(results)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _stop_at(results: Path, lines: int, sig: int) -> int:
    """Start a run, send `sig` once `results` has `lines` lines, return its exit code."""
    proc = _start(results)
    while _lines(results) < lines and proc.poll() is None:
        time.sleep(0.002)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    return proc.returncode


def _records(path: Path) -> list[dict]:
    text = path.read_text()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]  # every line whole


def _outcome(summary: dict) -> dict:
    """The summary without its times."""
    return {
        "sizes": {n: {k: v for k, v in row.items() if k != "time_s"} for n, row in summary["sizes"].items()},
        "bugs": [(b["signature"], b["programs"], b["smallest"]["id"], b["smallest"]["text"]) for b in summary["bugs"]],
        "failures": [(f["message"], f["programs"], f["smallest"]["id"]) for f in summary["failures"]],
    }


def test_interrupted_and_resumed_equals_uninterrupted(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    proc = _start(plain)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 4), err
    plain_code = proc.returncode
    want = json.loads(out)
    assert want["totals"]["programs"] == PROGRAMS

    res = tmp_path / "resumed.jsonl"
    for lines, sig, code in (
        (40, signal.SIGINT, 130),
        (200, signal.SIGINT, 130),
        (300, signal.SIGKILL, -signal.SIGKILL),
    ):
        assert _stop_at(res, lines, sig) == code
        recs = _records(res)
        assert recs[0] == {"header": json.loads(plain.read_text().splitlines()[0])["header"]}
        # Stopped soon after the signal, not at the end of the run: the
        # file holds the lines seen when it was sent (the header among
        # them; SIGKILL leaves exactly those), and not every program.
        assert lines <= len(recs) and len(recs) - 1 < PROGRAMS
        ids = [r["id"] for r in recs[1:]]
        assert len(ids) == len(set(ids))
    proc = _start(res)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == plain_code, err
    got = json.loads(out)
    assert _outcome(got) == _outcome(want)
    assert {k: v for k, v in got["totals"].items() if k != "time_s"} == {
        k: v for k, v in want["totals"].items() if k != "time_s"
    }
    # The file holds every program once, each with the verdict of the plain run.
    verdicts = {r["id"]: r["verdict"] for r in _records(plain)[1:]}
    assert {r["id"]: r["verdict"] for r in _records(res)[1:]} == verdicts
    assert len(verdicts) == PROGRAMS
