"""Run this project's command-line tools and `mlir-opt-19` on the same bytes
and compare what they print, exit codes, stdout and stderr, byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mlir_tools import MLIR_OPT_19

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: bytes
    stderr: bytes


def _run(argv: list[str], cwd: Path) -> Run:
    proc = subprocess.run(argv, capture_output=True, timeout=120, cwd=cwd, stdin=subprocess.DEVNULL)
    return Run(proc.returncode, proc.stdout, proc.stderr)


TOOLS = {
    "print": ([sys.executable, "-m", "spec", "print"], []),
    "refimpl": ([sys.executable, "-m", "refimpl", "--mode", "mlir19"], ["-gpu-async-region"]),
}
"""Our command and the `mlir-opt-19` options that do the same."""


def write_input(tmp_path: Path, data: bytes, name: str = "input.mlir") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def ours(tool: str, path: Path, *options: str) -> Run:
    """`python -m spec print` or `python -m refimpl --mode mlir19` on `path`,
    run in its folder (so diagnostics name it as mlir-opt's do)."""
    argv, _ = TOOLS[tool]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [*argv, *options, path.name],
        capture_output=True,
        timeout=120,
        cwd=path.parent,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def theirs(tool: str, path: Path, *options: str) -> Run:
    """`mlir-opt-19` doing what `tool` does, on `path`, with threading off
    (so that diagnostics come in one order)."""
    assert MLIR_OPT_19 is not None
    _, extra = TOOLS[tool]
    return _run([MLIR_OPT_19, "--mlir-disable-threading", *extra, *options, path.name], path.parent)


each_output = pytest.mark.parametrize(
    ("tool", "options"),
    [("print", ()), ("print", ("--mlir-print-op-generic",)), ("refimpl", ())],
    ids=["custom", "generic", "refimpl"],
)
"""A test once per output compared with mlir-opt-19's: the custom print, the
generic print, the pass (`ours` and `theirs` take `tool` and `options`)."""
