"""`python -m verifier check --split-input-file`: every `// -----` chunk of
INPUT against the same chunk of the rewrite, one report per chunk, the worst
chunk's exit code, and the file's own line numbers in the diagnostics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

LAUNCH = "@kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<4xf32>)"
TWO_CHUNKS = f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k0(%arg0: memref<4xf32>) kernel {{
      gpu.return
    }}
  }}
  func.func private @use(memref<4xf32>)
  func.func @f(%b: memref<4xf32>) {{
    %c1 = arith.constant 1 : index
    gpu.launch_func {LAUNCH}
    func.call @use(%b) : (memref<4xf32>) -> ()
    return
  }}
}}
// -----
func.func private @use(memref<4xf32>)
func.func @g(%b: memref<4xf32>, %x: f32) {{
  gpu.memset %b, %x : memref<4xf32>, f32
  func.call @use(%b) : (memref<4xf32>) -> ()
  return
}}
"""


def run(tmp_path: Path, *args: str, after: str | None = None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "in.mlir").write_text(TWO_CHUNKS)
    extra: list[str] = []
    if after is not None:
        (tmp_path / "out.mlir").write_text(after)
        extra = ["--after", str(tmp_path / "out.mlir")]
    cmd = [sys.executable, "-m", "verifier", "check", str(tmp_path / "in.mlir"), "--split-input-file", *extra, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def rewrite(tmp_path: Path) -> str:
    (tmp_path / "in.mlir").write_text(TWO_CHUNKS)
    r = subprocess.run(
        [sys.executable, "-m", "refimpl", "--split-input-file", str(tmp_path / "in.mlir")],
        capture_output=True,
        text=True,
        check=True,
    )
    return r.stdout


def test_each_chunk_is_checked_and_reported(tmp_path: Path) -> None:
    r = run(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    first, second = r.stdout.split("// -----\n")
    assert first.startswith("@f: verified (") and first.endswith("verdict: verified\n")
    assert second.startswith("@g: verified (") and second.endswith("verdict: verified\n")


def test_a_wrong_chunk_refutes_with_the_file_line_numbers(tmp_path: Path) -> None:
    out = rewrite(tmp_path)
    chunks = out.split("// -----\n")
    assert len(chunks) == 2
    wrong = (
        chunks[0]
        + "// -----\n"
        + "".join(ln for ln in chunks[1].splitlines(keepends=True) if not ln.strip().startswith("gpu.wait ["))
    )
    r = run(tmp_path, after=wrong)
    assert r.returncode == 1, r.stdout
    assert r.stdout.split("// -----\n")[0].endswith("verdict: verified\n")
    # the memset is on line 18 of the input file, in its second chunk
    assert "'gpu.memset' (" in r.stdout and "in.mlir:18:3) has finished" in r.stdout, r.stdout


def test_chunk_counts_that_differ_are_bad_input(tmp_path: Path) -> None:
    out = rewrite(tmp_path).split("// -----\n")[0]
    r = run(tmp_path, after=out)
    assert r.returncode == 2 and r.stdout == ""
    assert "the output has 1 chunk(s) and the input 2" in r.stderr


def test_json_is_one_report_per_line(tmp_path: Path) -> None:
    r = run(tmp_path, "--format", "json")
    assert r.returncode == 0
    reports = [json.loads(line) for line in r.stdout.splitlines()]
    assert [rep["functions"][0]["name"] for rep in reports] == ["f", "g"]
    assert {rep["verdict"] for rep in reports} == {"verified"}


def test_options_of_one_check_are_refused(tmp_path: Path) -> None:
    r = run(tmp_path, "--dot", str(tmp_path / "g.dot"))
    assert r.returncode == 2 and r.stdout == ""
    assert "--dot takes one check, not one per chunk of --split-input-file" in r.stderr


@needs_mlir19
def test_mlir_opt_19_split_rewrite_is_verified(tmp_path: Path) -> None:
    r = run(tmp_path, "--impl", f"{MLIR_OPT_19} -gpu-async-region --split-input-file")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("verdict: verified\n") == 2
