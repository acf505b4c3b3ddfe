"""The GPU sparse library ops: every one is a GPU async
op the pass rewrites. On hand-written programs in `tests/sparse/` using each
of them: printing (custom and generic form, and re-reading the generic form)
and `--mode mlir19` byte-identical with mlir-opt-19 (output, or its
diagnostic: upstream's pass gives a synchronous `gpu.spmm_buffer_size` a token
without growing `resultSegmentSizes`, which its verifier then rejects), and
the verifier's verdict on the refimpl's output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spec import registry
from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19
from tests.support.refimpl_runs import ours, theirs

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "tests" / "sparse").glob("*.mlir"))
LIBRARY_OPS = [n for n in registry.known_ops() if registry.lookup(n).library_form is not None]


def _ids(p: Path) -> str:
    return p.name


def test_every_sparse_op_is_gpu_async_and_used() -> None:
    assert len(LIBRARY_OPS) == 21
    text = "".join(p.read_text() for p in PROGRAMS)
    for name in LIBRARY_OPS:
        assert registry.lookup(name).gpu_async
        assert f"{name} " in text, name


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids)
def test_print_is_a_fixed_point(path: Path) -> None:
    for generic in (False, True):
        once = print_op(parse_module(path.read_text(), str(path)), generic)
        assert print_op(parse_module(once), generic) == once


def _mlir_opt_19(*args: str, stdin: str | None = None) -> str:
    assert MLIR_OPT_19 is not None
    proc = subprocess.run([MLIR_OPT_19, *args], input=stdin, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@needs_mlir19
@pytest.mark.parametrize("path", PROGRAMS, ids=_ids)
def test_printing_byte_identical_to_mlir_opt_19(path: Path) -> None:
    text = path.read_text()
    for flags in ([], ["--mlir-print-op-generic"]):
        ref = _mlir_opt_19(*flags, str(path))
        assert print_op(parse_module(text, str(path)), bool(flags)) + "\n" == ref
    generic = _mlir_opt_19("--mlir-print-op-generic", str(path))
    assert print_op(parse_module(generic)) + "\n" == _mlir_opt_19(str(path))


@needs_mlir19
@pytest.mark.parametrize("path", PROGRAMS, ids=_ids)
def test_mlir19_mode_byte_identical_to_mlir_opt_19(path: Path, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    text = path.read_text()
    assert ours(text, str(tmp_path / path.name), "mlir19") == theirs(MLIR_OPT_19, text, tmp_path / path.name)


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids)
def test_verifier_verifies_the_reference_output(path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "verifier", "check", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 0 and "verdict: verified" in proc.stdout, proc.stdout + proc.stderr


def test_reference_grows_the_result_segments_upstream_does_not() -> None:
    path = ROOT / "tests" / "sparse" / "spmm_buffer_size_blocking.mlir"
    code, out, _ = ours(path.read_text(), str(path), "reference")
    assert code == 0 and "resultSegmentSizes = array<i32: 1, 1>" in print_op(parse_module(out), True)
    code, _, err = ours(path.read_text(), str(path), "mlir19")
    assert code == 1 and "does not match with the total size (1) specified in attribute 'resultSegmentSizes'" in err
