"""Differential: `--mode mlir19` against the real `mlir-opt-19` (and 22) on
every lit input of the refimpl suite, byte for byte (output, diagnostics and
exit code). Skipped when the binaries are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mlir_tools import MLIR_OPT_19, MLIR_OPT_22, needs_mlir19, needs_mlir22
from tests.support.refimpl_runs import LIT_DIR, chunks_of, ours, theirs

CASES = [(p, i) for p in sorted(LIT_DIR.glob("*.mlir")) for i in range(len(chunks_of(p)))]
IDS = [f"{p.name}#{i}" for p, i in CASES]


def _compare(binary: str, path: Path, index: int, tmp_path: Path, mode: str) -> None:
    text = chunks_of(path)[index]
    if "INVALID-UPSTREAM" in text:
        pytest.skip("input only the seed's IR accepted")
    target = tmp_path / path.name
    rc, out, err = theirs(binary, text, target)
    if rc == 0:
        # mlir-opt-22 complains about `expected-*` comments on stderr even
        # without --verify-diagnostics; only failures' stderr is compared.
        err = ""
    mine = ours(text, str(target), mode)
    assert mine == (rc, out, err)


@needs_mlir19
@pytest.mark.parametrize(("path", "index"), CASES, ids=IDS)
def test_mlir19_mode_matches_mlir_opt_19(path: Path, index: int, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    _compare(MLIR_OPT_19, path, index, tmp_path, "mlir19")


def _drop_expectation_noise(stderr: str) -> str:
    """mlir-opt-22 checks `expected-*` comments even without
    --verify-diagnostics; drop those reports (3 lines each)."""
    lines = stderr.split("\n")
    out, i = [], 0
    while i < len(lines):
        if "was not produced" in lines[i]:
            i += 3
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


@needs_mlir22
@needs_mlir19
@pytest.mark.parametrize(("path", "index"), CASES, ids=IDS)
def test_reference_mode_matches_mlir_opt_22(path: Path, index: int, tmp_path: Path) -> None:
    """22 reports every failing function, as the reference does; on inputs
    that exercise no deviation the results agree."""
    assert MLIR_OPT_22 is not None and MLIR_OPT_19 is not None
    text = chunks_of(path)[index]
    if "DEVIATION" in text or "INVALID-UPSTREAM" in text:
        pytest.skip("input exercises a documented deviation of the reference")
    target = tmp_path / path.name
    rc, out, err = theirs(MLIR_OPT_22, text, target)
    rc19, out19, _ = theirs(MLIR_OPT_19, text, target)
    if (rc, out) != (rc19, out19):
        pytest.skip("mlir-opt-19 and -22 differ on this input (see refimpl/README.md)")
    mine = ours(text, str(target), "reference")
    assert mine == (rc, out, _drop_expectation_noise(err) if rc else "")


def test_lit_inputs_exist() -> None:
    assert len(CASES) >= 3
