"""Parse/print round trips over the corpus, and byte identity with mlir-opt."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from spec.ir import structurally_equal
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import join_outputs, print_op
from tests.mlir_tools import MLIR_OPT_19, MLIR_OPT_22, needs_mlir19, needs_mlir22

# The inputs use ops of unregistered dialects; mlir-opt-19 reads them with
# --allow-unregistered-dialect, and so does every parse here (`allow_unregistered=True`).

CORPUS = sorted((Path(__file__).parents[1] / "corpus").glob("*.mlir"))


def _chunks(path: Path) -> list[tuple[str, int]]:
    return split_input(path.read_text())


def _ours(path: Path, generic: bool) -> str:
    return join_outputs(
        [print_op(parse_module(c, str(path), o, allow_unregistered=True), generic) for c, o in _chunks(path)]
    )


def test_corpus_is_not_empty() -> None:
    assert len(CORPUS) >= 45


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_print_is_a_fixed_point(path: Path, generic: bool) -> None:
    for chunk, offset in _chunks(path):
        first = print_op(parse_module(chunk, str(path), offset, allow_unregistered=True), generic)
        second = print_op(parse_module(first, allow_unregistered=True), generic)
        assert first == second


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_parse_of_print_is_structurally_equal(path: Path, generic: bool) -> None:
    for chunk, offset in _chunks(path):
        ir = parse_module(chunk, str(path), offset, allow_unregistered=True)
        again = parse_module(print_op(ir, generic), allow_unregistered=True)
        assert structurally_equal(ir, again)


def _mlir_opt(binary: str, path: Path, generic: bool) -> str:
    args = [binary, "--allow-unregistered-dialect", "--split-input-file", str(path)]
    if generic:
        args.append("--mlir-print-op-generic")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@needs_mlir19
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_byte_identical_to_mlir_opt_19(path: Path, generic: bool) -> None:
    assert MLIR_OPT_19 is not None
    ours = _ours(path, generic)
    assert ours == _mlir_opt(MLIR_OPT_19, path, generic)


def _only_19(path: Path) -> bool:
    """Files mlir-opt-22 rejects: an explicit `gpu.module_end` (22 dropped the op)."""
    return '"gpu.module_end"' in path.read_text()


def _as_22_prints_generic(text: str) -> str:
    """Our (19) generic output with the known 19-vs-22 differences applied:
    no `gpu.module_end`, and `arith.trunci` has overflow flags in 22."""
    out = []
    for line in text.splitlines(True):
        if '"gpu.module_end"' in line:
            continue
        if '"arith.trunci"(' in line and "overflowFlags" not in line:
            line = line.replace(") : (", ") <{overflowFlags = #arith.overflow<none>}> : (", 1)
        out.append(line)
    return "".join(out)


_GPU_MODULE_HEAD = re.compile(r'^(\s*gpu\.module @(?:"(?:[^"\\]|\\.)*"|[\w$.\-]+)) (<.*)$')


def _as_22_prints_custom(text: str) -> str:
    """Our (19) custom form with the known 19-vs-22 difference applied:
    22 prints a `gpu.module`'s offloading handler right after its name
    (`@k<...>`) and one blank, not two, after its targets."""
    out = []
    for line in text.splitlines(True):
        if line.lstrip().startswith("gpu.module @"):
            line = _GPU_MODULE_HEAD.sub(r"\1\2", line)
            line = re.sub(r"\]  (attributes |\{)", r"] \1", line)
        out.append(line)
    return "".join(out)


@needs_mlir22
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_custom_form_identical_to_mlir_opt_22(path: Path) -> None:
    """22 prints the custom form as 19 does on the corpus, but for the
    layout of `gpu.module`'s handler and targets."""
    assert MLIR_OPT_22 is not None
    if _only_19(path):
        pytest.skip("uses gpu.module_end, which mlir-opt-22 no longer has (README, 19 vs 22)")
    assert _as_22_prints_custom(_ours(path, False)) == _mlir_opt(MLIR_OPT_22, path, False)


@needs_mlir22
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_generic_form_differs_from_mlir_opt_22_only_as_recorded(path: Path) -> None:
    """22's generic form is 19's up to the differences the README records."""
    assert MLIR_OPT_22 is not None
    if _only_19(path):
        pytest.skip("uses gpu.module_end, which mlir-opt-22 no longer has (README, 19 vs 22)")
    assert _as_22_prints_generic(_ours(path, True)) == _mlir_opt(MLIR_OPT_22, path, True)
