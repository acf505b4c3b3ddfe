"""`--split-input-file` when some chunks fail, as
mlir-opt-19 does it: every chunk that parsed is still printed on stdout,
joined by `// -----` (a failed chunk leaves only its separator), the
diagnostics say `within split at FILE:LINE offset :L:C`, the exit code is
1, and an `-o` file is written only when every chunk succeeds (19 removes
an existing one; this tool leaves it untouched).

The inputs are this project's own; against `mlir-opt-19` where installed:
exit code, stdout and stderr byte for byte."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from spec.diagnostics import Diagnostic, Split, render
from spec.ir import Location
from spec.syntax.string_literals import BYTES
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from tests.support.against_mlir19 import REPO, TOOLS, ours, theirs, write_input

GOOD_BAD_GOOD = """func.func @a() {
  return
}

// -----

func.func @b() {
  return %x : i32
}

// -----
func.func @c(%n: index) {
  %m = gpu.alloc (%n) : memref<?xf32>
  gpu.dealloc %m : memref<?xf32>
  return
}
// -----
"""

INPUTS = {
    "good-bad-good": GOOD_BAD_GOOD,
    "all-bad": "func.func @a() {\n  return %x : i32\n}\n// -----\nfunc.func @b() {\n  %0 = arith.addi %y, %y : i32\n  return\n}\n",
    "bad-with-notes": (
        "func.func @ok() {\n  return\n}\n// -----\nfunc.func @f(%n: index) {\n  %m = gpu.alloc (%n) : memref<4xf32>\n  return\n}\n"
        "// -----\nfunc.func @g() {\n  return\n}\n"
    ),
    "one-chunk": "func.func @b() {\n  return %x : i32\n}\n",
    "all-good": "func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n",
}


def test_a_diagnostic_in_a_chunk_is_located_as_19_does() -> None:
    d = Diagnostic("error", Location("f.mlir", 8, 10), "boom")
    assert render(d, None, Split("f.mlir", 5)) == "within split at f.mlir:5 offset :4:10: error: boom\n"
    assert render(d, None, Split("other.mlir", 5)) == "f.mlir:8:10: error: boom\n"
    assert render(d, None) == "f.mlir:8:10: error: boom\n"


@pytest.mark.parametrize("tool", ["print", "refimpl"])
def test_chunks_that_parsed_are_printed_and_the_exit_is_1(tool: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, GOOD_BAD_GOOD.encode())
    run = ours(tool, path, "--split-input-file")
    assert run.returncode == 1
    out = run.stdout.decode()
    assert out.count("// -----\n") == 3
    assert "func.func @a()" in out and "func.func @c(" in out and "@b" not in out
    assert "// -----\n// -----\n" in out  # the failed chunk leaves its separator
    assert run.stderr.decode().startswith(
        "within split at input.mlir:5 offset :4:10: error: use of undeclared SSA value name\n"
    )


@pytest.mark.parametrize("tool", ["print", "refimpl"])
def test_an_output_file_is_written_only_on_success(tool: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, GOOD_BAD_GOOD.encode())
    out = tmp_path / "out.mlir"
    out.write_text("precious\n")
    run = ours(tool, path, "--split-input-file", "-o", str(out))
    assert run.returncode == 1 and run.stdout == b""
    assert out.read_text() == "precious\n"
    good = write_input(tmp_path, INPUTS["all-good"].encode(), "good.mlir")
    assert ours(tool, good, "--split-input-file", "-o", str(out)).returncode == 0
    assert out.read_text().count("// -----\n") == 1


@needs_mlir19
@pytest.mark.parametrize("name", sorted(INPUTS))
@pytest.mark.parametrize("tool", ["print", "refimpl"])
def test_split_runs_as_mlir_opt_19(name: str, tool: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, INPUTS[name].encode())
    mine, ref = ours(tool, path, "--split-input-file"), theirs(tool, path, "--split-input-file")
    assert mine.returncode == ref.returncode
    assert mine.stdout == ref.stdout
    assert mine.stderr.decode(*BYTES) == ref.stderr.decode(*BYTES)


@needs_mlir19
@pytest.mark.parametrize("tool", ["print", "refimpl"])
def test_split_run_from_stdin_as_mlir_opt_19(tool: str) -> None:
    assert MLIR_OPT_19 is not None
    argv, extra = TOOLS[tool]
    data = GOOD_BAD_GOOD.encode()
    mine = subprocess.run([*argv, "--split-input-file", "-"], input=data, capture_output=True, timeout=120, cwd=REPO)
    ref = subprocess.run([MLIR_OPT_19, *extra, "--split-input-file", "-"], input=data, capture_output=True, timeout=120)
    assert (mine.returncode, mine.stdout, mine.stderr) == (ref.returncode, ref.stdout, ref.stderr)
