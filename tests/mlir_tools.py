"""Locate real mlir-opt binaries for differential tests (skipped without them)."""

from __future__ import annotations

import shutil

import pytest

MLIR_OPT_19 = shutil.which("mlir-opt-19")
MLIR_OPT_22 = shutil.which("mlir-opt-22")

needs_mlir19 = pytest.mark.skipif(
    MLIR_OPT_19 is None, reason="mlir-opt-19 not installed (apt-get install mlir-19-tools; .ci/run does)"
)
needs_mlir22 = pytest.mark.skipif(
    MLIR_OPT_22 is None, reason="mlir-opt-22 not installed (apt-get install mlir-22-tools; .ci/run does)"
)
