"""`python -m refimpl` as a command: mlir-opt's conventions (stdin, `-o`,
one or two dashes, exit codes, nothing on stdout on failure) and
`--verify-diagnostics`, against mlir-opt-19 where it is installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

ROOT = Path(__file__).resolve().parents[2]

OK = """func.func @f(%m: memref<4xf32>, %c: f32) {
  gpu.memset %m, %c : memref<4xf32>, f32
  return
}
"""

LAUNCH = """func.func @g(%n: index) {
  // expected-error@+1 {{replace with gpu.launch_func first}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c2 = %n) {
    gpu.terminator
  }
  return
}
"""

VERIFY_CASES = {
    "matched": LAUNCH,
    "regex": LAUNCH.replace(
        "{{replace with gpu.launch_func first}}", "{{replace with {{gpu\\.launch(_func)?}} first}}"
    ).replace("expected-error@+1", "expected-error-re@+1"),
    "below": LAUNCH.replace("expected-error@+1", "expected-error@below"),
    "unexpected": LAUNCH.replace("  // expected-error@+1 {{replace with gpu.launch_func first}}\n", ""),
    "not_produced": OK.replace("  return\n", "  // expected-error@+1 {{never}}\n  return\n"),
    "wrong_line": LAUNCH.replace("expected-error@+1", "expected-error@+2"),
}


def run(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "refimpl", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        timeout=120,
    )


def test_stdin_and_single_dash_flags() -> None:
    one = run("-gpu-async-region", "-mode", "mlir19", stdin=OK)
    two = run("--gpu-async-region", "--mode=mlir19", "-", stdin=OK)
    assert one.returncode == 0 and one.stdout == two.stdout
    assert "gpu.memset async" in one.stdout


def test_failure_leaves_output_file_untouched(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(LAUNCH)
    out = tmp_path / "out.mlir"
    out.write_text("keep me\n")
    proc = run(str(src), "-o", str(out))
    assert proc.returncode == 1 and proc.stdout == ""
    assert "replace with gpu.launch_func first" in proc.stderr
    assert out.read_text() == "keep me\n"


def test_success_writes_output_file(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(OK)
    out = tmp_path / "out.mlir"
    proc = run(str(src), "-o", str(out))
    assert proc.returncode == 0 and proc.stdout == ""
    assert "gpu.wait async" in out.read_text()


def test_unknown_mode_is_a_usage_error() -> None:
    assert run("--mode", "llvm", stdin=OK).returncode == 2


@pytest.mark.parametrize("name", sorted(VERIFY_CASES))
def test_verify_diagnostics_exit_codes(name: str, tmp_path: Path) -> None:
    src = tmp_path / "v.mlir"
    src.write_text(VERIFY_CASES[name])
    proc = run("--verify-diagnostics", str(src))
    assert proc.returncode == (0 if name in ("matched", "regex", "below") else 1)


@needs_mlir19
@pytest.mark.parametrize("name", sorted(VERIFY_CASES))
def test_verify_diagnostics_like_mlir_opt_19(name: str, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    src = tmp_path / "v.mlir"
    src.write_text(VERIFY_CASES[name])
    theirs = subprocess.run(
        [MLIR_OPT_19, "-gpu-async-region", "--verify-diagnostics", str(src)], capture_output=True, text=True, timeout=60
    )
    ours = run("--mode", "mlir19", "--verify-diagnostics", str(src))
    assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr)


BAD_OPTIONS = {
    "unknown mode": (["--mode", "llvm"], "argument -mode/--mode: invalid choice: 'llvm'"),
    "mode without value": (["--mode"], "argument -mode/--mode: expected one argument"),
    "other pipeline": (["--pass-pipeline", "builtin.module(cse)"], "unknown pass pipeline 'builtin.module(cse)'"),
    "pipeline and pass flag": (
        ["--pass-pipeline", "builtin.module(gpu-async-region)", "-gpu-async-region"],
        "'-pass-pipeline' option can't be used with individual pass options",
    ),
    "unknown option": (["--bogus"], "unrecognized arguments: --bogus"),
}


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_bad_option_is_reported_before_the_input_is_read(name: str, tmp_path: Path) -> None:
    """Each bad option has its own message and exit code 2, even when the
    input could not be read (which would be exit code 1)."""
    args, message = BAD_OPTIONS[name]
    proc = run(str(tmp_path / "missing.mlir"), *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in proc.stderr
    assert "could not open input file" not in proc.stderr
