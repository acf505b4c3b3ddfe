"""Every crash report under `docs/upstream-bugs/crashes/` still holds.

A report's first `mlir` block is a valid input (plain `mlir-opt-19`
accepts it) on which `mlir-opt-19 -gpu-async-region` dies by a signal, and
so does `mlir-opt-22` where the report says it does.
When upstream fixes the crash, the report fails here instead of going
stale. Whatever upstream does, the reference's rewrite of the input must
be verified.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import verifier
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, MLIR_OPT_22, needs_mlir22
from verifier.harness.gate import RefimplImpl
from verifier.output.report import VERIFIED

CRASHES = Path(__file__).resolve().parents[2] / "docs" / "upstream-bugs" / "crashes"
NAMES = sorted(p.name for p in CRASHES.glob("*.md"))


def report_input(name: str) -> str:
    m = re.search(r"^```mlir\n(.*?)^```", (CRASHES / name).read_text(encoding="utf-8"), re.S | re.M)
    assert m, f"{name}: no mlir block"
    return m.group(1)


def test_there_are_crash_reports() -> None:
    assert NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_rewrite_of_the_input_is_verified(name: str) -> None:
    text = report_input(name)
    r = verifier.check(parse_module(text, "in.mlir"), parse_module(RefimplImpl("reference")(text), "out.mlir"))
    assert r.verdict == VERIFIED, r.text()


@pytest.mark.skipif(
    MLIR_OPT_19 is None, reason="mlir-opt-19 not installed (apt-get install mlir-19-tools; .ci/run does)"
)
@pytest.mark.parametrize("name", NAMES)
def test_mlir_opt_19_still_crashes(name: str, tmp_path: Path) -> None:
    path = tmp_path / "input.mlir"
    path.write_text(report_input(name), encoding="utf-8")
    plain = subprocess.run([str(MLIR_OPT_19), str(path)], capture_output=True, timeout=60)
    assert plain.returncode == 0, plain.stderr.decode(errors="replace")
    run = subprocess.run([str(MLIR_OPT_19), "-gpu-async-region", str(path)], capture_output=True, timeout=60)
    # Killed by a signal: negative here, or 128 + N where a shell reports it.
    assert run.returncode < 0 or run.returncode >= 128, (run.returncode, run.stderr[-2000:])


def _reported_on_22(name: str) -> bool:
    return "`mlir-opt-22`, Debian package" in (CRASHES / name).read_text(encoding="utf-8")


@needs_mlir22
@pytest.mark.parametrize("name", [n for n in NAMES if _reported_on_22(n)])
def test_mlir_opt_22_crashes_where_reported(name: str, tmp_path: Path) -> None:
    assert MLIR_OPT_22 is not None
    path = tmp_path / "input.mlir"
    path.write_text(report_input(name), encoding="utf-8")
    plain = subprocess.run([MLIR_OPT_22, str(path)], capture_output=True, timeout=60)
    assert plain.returncode == 0, plain.stderr.decode(errors="replace")
    run = subprocess.run([MLIR_OPT_22, "-gpu-async-region", str(path)], capture_output=True, timeout=60)
    assert run.returncode < 0 or run.returncode >= 128, (run.returncode, run.stderr[-2000:])
