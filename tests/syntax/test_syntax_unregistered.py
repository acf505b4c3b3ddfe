"""Unregistered dialects are errors unless allowed; unknown ops of registered
dialects are opaque ops with unknown effects.

mlir-opt-19 rejects an op, type or attribute of a dialect it does not
register while parsing, unless `-allow-unregistered-dialect` is given; an op
of a registered dialect that our registry does not know (`vector.scatter`,
`test.*`) must still be read, and the pass and the verifier must treat it
as touching anything. (`vector.print` and `memref.atomic_rmw` are known
ops now; their generic forms are kept here as accepted.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

ROOT = Path(__file__).resolve().parents[2]
_HINT = "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"
_OP_HINT = "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used"

REJECTED: dict[str, tuple[str, str]] = {
    # name: (program, first error "LINE:COL: error: MESSAGE" as mlir-opt-19 gives it)
    "op": ('func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n', f"2:12: error: {_OP_HINT}"),
    "op-dotless": ('func.func @f() {\n  "foo"() : () -> ()\n  return\n}\n', f"2:8: error: {_OP_HINT}"),
    "op-before-its-types": (
        'func.func @f() {\n  %0 = "foo.bar"() : () -> (!foo.t)\n  return\n}\n',
        f"2:17: error: {_OP_HINT}",
    ),
    "type": ("func.func @f(%a: !foo.t) {\n  return\n}\n", f'1:23: error: `!"foo"<"t">` type {_HINT}'),
    "type-params": ("func.func @f(%a: !foo.t<1>) {\n  return\n}\n", f'1:23: error: `!"foo"<"t<1>">` type {_HINT}'),
    "type-angle": ("func.func @f(%a: !foo<t>) {\n  return\n}\n", f'1:18: error: `!"foo"<"t">` type {_HINT}'),
    "type-nested": ("func.func @f(%a: memref<4x!foo.t>) {\n  return\n}\n", f'1:32: error: `!"foo"<"t">` type {_HINT}'),
    "attr": (
        "func.func @f() attributes {x = #foo.bar<1>} {\n  return\n}\n",
        f'1:37: error: #"foo"<"bar<1>"> : \'none\' attribute {_HINT}',
    ),
    "attr-angle": (
        "func.func @f() attributes {x = #foo<bar>} {\n  return\n}\n",
        f'1:32: error: #"foo"<"bar"> : \'none\' attribute {_HINT}',
    ),
    "attr-in-array": (
        "func.func @f() attributes {x = [#foo.b]} {\n  return\n}\n",
        f'1:38: error: #"foo"<"b"> : \'none\' attribute {_HINT}',
    ),
}

INVALID_EVEN_ALLOWED = {"type-nested"}
"""mlir-opt-19 with the flag: "invalid memref element type"."""

ACCEPTED_WITHOUT_FLAG = {
    # Registered dialects: ops our registry does not know are opaque.
    "vector-print": '%c = "arith.constant"() <{value = 1 : index}> : () -> index\n  "vector.print"(%c) : (index) -> ()',
    "atomic-rmw": ('%0 = "memref.atomic_rmw"(%v, %m, %i) <{kind = 0 : i64}> : (f32, memref<4xf32>, index) -> f32'),
    "test-dialect": '"test.anything"() : () -> ()',
    "llvm-dialect-types": '"test.op"() {p = !llvm.ptr, a = #gpu.address_space<workgroup>} : () -> ()',
}


def _in_func(body: str) -> str:
    return f"func.func @f(%m: memref<4xf32>, %i: index, %v: f32) {{\n  {body}\n  return\n}}\n"


def _first_error(text: str) -> str:
    with pytest.raises(DiagnosticError) as info:
        parse_module(text, "in.mlir", allow_unregistered=False)
    d = info.value.diagnostics[0]
    return f"{d.loc.line}:{d.loc.col}: {d.severity}: {d.message}"


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_unregistered_dialect_rejected_with_mlir_opt_19s_message(case: str) -> None:
    text, expected = REJECTED[case]
    assert _first_error(text) == expected
    if case not in INVALID_EVEN_ALLOWED:
        parse_module(text, "in.mlir", allow_unregistered=True)


@needs_mlir19
@pytest.mark.parametrize("case", sorted(REJECTED))
def test_rejections_pinned_from_mlir_opt_19(case: str, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    text, expected = REJECTED[case]
    path = tmp_path / "in.mlir"
    path.write_text(text)
    proc = subprocess.run([MLIR_OPT_19, str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0] == f"{path}:{expected}"
    allowed = subprocess.run(
        [MLIR_OPT_19, "--allow-unregistered-dialect", str(path)], capture_output=True, text=True, timeout=60
    )
    assert allowed.returncode == (1 if case in INVALID_EVEN_ALLOWED else 0)


@pytest.mark.parametrize("case", sorted(ACCEPTED_WITHOUT_FLAG))
def test_unknown_ops_of_registered_dialects_parse_opaque(case: str) -> None:
    module = parse_module(_in_func(ACCEPTED_WITHOUT_FLAG[case]), allow_unregistered=False)
    assert module.name == "builtin.module"


@needs_mlir19
@pytest.mark.parametrize("case", sorted(ACCEPTED_WITHOUT_FLAG))
def test_mlir_opt_19_accepts_them_too(case: str, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    path = tmp_path / "in.mlir"
    path.write_text(_in_func(ACCEPTED_WITHOUT_FLAG[case]))
    proc = subprocess.run([MLIR_OPT_19, str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


_KERNEL_THEN_UNKNOWN = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    "OPNAME"(%m) : (memref<4xf32>) -> ()
    return
  }
}
"""


@pytest.mark.parametrize("flag", ["-allow-unregistered-dialect", "--allow-unregistered-dialect"])
def test_every_tool_takes_the_flag(flag: str, tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(_KERNEL_THEN_UNKNOWN.replace("OPNAME", "foo.use"))
    for tool in (("spec", "print"), ("refimpl",), ("refimpl", "--mode", "mlir19"), ("verifier", "check")):
        refused = _run(*tool, str(path))
        assert refused.returncode in (1, 2) and _OP_HINT in refused.stderr, tool
        taken = _run(*tool, flag, str(path))
        assert taken.returncode == 0, (tool, taken.stderr)
    # The verifier hands the flag on to the refimpl it runs.
    assert "verdict: verified" in _run("verifier", "check", flag, "--mode", "mlir19", str(path)).stdout


@pytest.mark.parametrize("name", ["vector.scatter", "test.use"])
def test_pass_waits_before_an_unknown_op_and_the_verifier_needs_it(name: str, tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(_KERNEL_THEN_UNKNOWN.replace("OPNAME", name))
    out = _run("refimpl", "--mode", "mlir19", str(path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    at = next(i for i, ln in enumerate(lines) if f'"{name}"' in ln)
    assert lines[at - 1].strip().startswith("gpu.wait [")
    assert "verdict: verified" in _run("verifier", "check", str(path), "--mode", "mlir19").stdout
    # Without the wait, the unknown op may touch the kernel's buffer while it runs.
    bad = tmp_path / "bad.mlir"
    bad.write_text("\n".join(lines[: at - 1] + lines[at:]) + "\n")
    refuted = _run("verifier", "check", str(path), "--after", str(bad))
    assert refuted.returncode == 1, refuted.stdout + refuted.stderr
