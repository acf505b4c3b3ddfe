"""Locate real mlir-opt binaries for differential tests (skipped without them).

`iree-opt` (from the `iree-base-compiler` wheel, the `[upstream]` extra) is
MLIR at LLVM head with `--gpu-async-region`: `IREE_OPT` if set, else
`iree-opt` on PATH, else the one installed next to the running Python."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

MLIR_OPT_19 = shutil.which("mlir-opt-19")
MLIR_OPT_22 = shutil.which("mlir-opt-22")


def find_iree_opt() -> str | None:
    """`$IREE_OPT`, else `iree-opt` on PATH, else beside `sys.executable`
    (a venv's bin/ that is not on PATH); None when none is executable."""
    env = os.environ.get("IREE_OPT")
    if env:
        return env if os.access(env, os.X_OK) else None
    found = shutil.which("iree-opt")
    if found:
        return found
    beside = Path(sys.executable).parent / "iree-opt"
    return str(beside) if os.access(beside, os.X_OK) else None


IREE_OPT = find_iree_opt()

needs_mlir19 = pytest.mark.skipif(
    MLIR_OPT_19 is None, reason="mlir-opt-19 not installed (apt-get install mlir-19-tools; .ci/run does)"
)
needs_mlir22 = pytest.mark.skipif(
    MLIR_OPT_22 is None, reason="mlir-opt-22 not installed (apt-get install mlir-22-tools; .ci/run does)"
)
needs_iree = pytest.mark.skipif(
    IREE_OPT is None,
    reason="iree-opt (MLIR at LLVM head) not found: pip install -e '.[upstream]' (the iree-base-compiler wheel), "
    "or set IREE_OPT to its path; .ci/run installs it",
)
