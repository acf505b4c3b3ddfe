"""Every invalid-IR report under `docs/upstream-bugs/invalid-ir/` still holds.

A report's first `mlir` block is a valid input (plain `mlir-opt-19`
accepts it) that `-gpu-async-region` turns into IR that does not verify;
its `input.mlir:...: error: ...` line is the first line of the error. Each
installed upstream tool (`mlir-opt-19`, `mlir-opt-22`, `iree-opt` at LLVM
head) must still fail with exactly that line, exit 1 and no output, and
`python -m refimpl --mode mlir19` must too. The last `mlir` block is the
reference's output, which must be what the refimpl prints, be accepted by
the installed tools, and get the verdict the report states. When upstream
fixes a bug, its report fails here instead of going stale.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import verifier
from spec.syntax.parser import parse_module
from tests.mlir_tools import IREE_OPT, MLIR_OPT_19, MLIR_OPT_22
from verifier.harness.gate import RefimplImpl

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "docs" / "upstream-bugs" / "invalid-ir"
NAMES = sorted(p.name for p in REPORTS.glob("*.md"))
TOOLS = {"mlir-opt-19": MLIR_OPT_19, "mlir-opt-22": MLIR_OPT_22, "iree-opt": IREE_OPT}


def _text(name: str) -> str:
    return (REPORTS / name).read_text(encoding="utf-8")


def _blocks(name: str) -> list[str]:
    blocks = re.findall(r"^```mlir\n(.*?)^```", _text(name), re.S | re.M)
    assert len(blocks) >= 2, f"{name}: an input and the reference's output"
    return blocks


def _error_line(name: str) -> str:
    m = re.search(r"^(input\.mlir:\d+:\d+: error: .*)$", _text(name), re.M)
    assert m, f"{name}: no error line"
    return m.group(1)


def _stated_verdict(name: str) -> str:
    m = re.search(r"check`\s+(?:on the input\s+)?says\s+`(\w+)`", _text(name))
    assert m, f"{name}: no verdict stated"
    return m.group(1)


def test_there_are_invalid_ir_reports() -> None:
    assert len(NAMES) >= 2


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_output_is_the_one_shown_with_the_verdict_stated(name: str) -> None:
    given, shown = _blocks(name)[0], _blocks(name)[-1]
    out = RefimplImpl("reference")(given)
    assert out.rstrip("\n") == shown.rstrip("\n")
    r = verifier.check(parse_module(given, "in.mlir"), parse_module(out, "out.mlir"))
    assert str(r.verdict) == _stated_verdict(name), r.text()


@pytest.mark.parametrize("name", NAMES)
def test_mlir19_mode_fails_as_upstream_does(name: str, tmp_path: Path) -> None:
    path = tmp_path / "input.mlir"
    path.write_text(_blocks(name)[0], encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "refimpl", "--mode", "mlir19", "input.mlir"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr.splitlines()[0] == _error_line(name)


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("name", NAMES)
def test_upstream_still_makes_invalid_ir(name: str, tool: str, tmp_path: Path) -> None:
    exe = TOOLS[tool]
    if exe is None:
        pytest.skip(f"{tool} not installed (.ci/run installs mlir-19-tools, mlir-22-tools and the [upstream] extra)")
    path = tmp_path / "input.mlir"
    path.write_text(_blocks(name)[0], encoding="utf-8")
    plain = subprocess.run([exe, "input.mlir"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0, plain.stderr
    run = subprocess.run(
        [exe, "-gpu-async-region", "input.mlir"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert (run.returncode, run.stdout) == (1, ""), run.stderr
    assert run.stderr.splitlines()[0] == _error_line(name)
    out = tmp_path / "reference.mlir"
    out.write_text(_blocks(name)[-1], encoding="utf-8")
    accepted = subprocess.run([exe, "reference.mlir"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert accepted.returncode == 0, accepted.stderr
