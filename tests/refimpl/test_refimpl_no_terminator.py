"""Blocks without a terminator: the reference closes the
chain at such a block's end, so its output is valid (our model of MLIR's
verifier finds nothing, and mlir-opt-19 re-parses it); the `mlir19` mode
lets the token leak and reports the verifier's error. Byte-for-byte
agreement of `mlir19` with mlir-opt-19 on these inputs is checked by
`tests/refimpl/test_refimpl_mlir19.py` (every chunk of the lit file)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from refimpl import functions, rewrite
from refimpl.ir_verify import first_error
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from tests.support.refimpl_runs import LIT_DIR, chunks_of

# The inputs use ops of unregistered dialects; mlir-opt-19 reads them with
# --allow-unregistered-dialect, and so does every parse here (`allow_unregistered=True`).

FILE = LIT_DIR / "deviation-no-terminator.mlir"
CHUNKS = chunks_of(FILE)
LEAKING = 4
"""The first chunks leak upstream; the last one closes its chain itself."""


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_reference_output_is_valid(index: int) -> None:
    result = rewrite(parse_module(CHUNKS[index], str(FILE), allow_unregistered=True), "reference")
    assert result.ok
    assert [first_error(f) for f in functions(result.module)] == [None] * len(functions(result.module))
    # Every chain is closed: each block's last GPU token is waited on.
    text = print_op(result.module)
    assert text.count("gpu.wait async") == text.count("gpu.wait [")


@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_mlir19_reports_the_leak(index: int) -> None:
    result = rewrite(parse_module(CHUNKS[index], str(FILE), allow_unregistered=True), "mlir19")
    assert (not result.ok) == (index < LEAKING)
    if index < LEAKING:
        message = result.diagnostics[0].message
        assert "does not dominate this use" in message or "using value defined outside the region" in message


@needs_mlir19
@pytest.mark.parametrize("index", range(len(CHUNKS)))
def test_mlir_opt_19_accepts_reference_output(index: int, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    result = rewrite(parse_module(CHUNKS[index], str(FILE), allow_unregistered=True), "reference")
    out = tmp_path / "out.mlir"
    out.write_text(print_op(result.module) + "\n")
    proc = subprocess.run(
        [MLIR_OPT_19, "--allow-unregistered-dialect", str(out)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
