"""The benchmark scripts still start.

`bench/` is not run by the suite (its figures are measured apart), so a
script can fall behind the code it drives without a test failing. Each one
must at least import what it uses and answer `--help` with its usage,
exit 0, without doing its work.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((REPO / "bench").glob("*.py"))


def test_there_are_scripts() -> None:
    assert len(SCRIPTS) >= 20


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_answers_help(script: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(script), "--help"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip(), f"{script.name} --help printed nothing"
    assert "Traceback" not in proc.stderr
