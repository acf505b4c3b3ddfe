"""Host-side op verifier checks of mlir-opt-19: invalid
IR is refused with 19's first message, never rewritten or proved. The rules
are the registry's (`OpInfo.verifier`, `operand_types`,
`DIALECT_ATTRIBUTE_VERIFIERS`), spelled out in the dialects' verifier
modules (`spec.dialects.gpu.verifiers`, `spec.dialects.memref.verifiers`)
and run by `spec.syntax.op_verifiers`.

The inputs are this project's own; each is compared with `mlir-opt-19`
(exit code and the whole stderr) where it is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec import registry
from spec.diagnostics import DiagnosticError
from spec.dialects.gpu.verifiers import layout_symbols
from spec.syntax.op_verifiers import RULES, TYPE_CONSTRAINTS
from spec.syntax.parser import parse_module
from spec.syntax.string_literals import BYTES
from tests.mlir_tools import needs_mlir19
from tests.support.against_mlir19 import ours, theirs, write_input

KERNEL = "  gpu.module @m {\n    gpu.func @k(%a: f32) kernel {\n      gpu.return\n    }\n    func.func @plain() {\n      return\n    }\n  }\n"
C1 = "    %c1 = arith.constant 1 : index\n    %x = arith.constant 1.0 : f32\n"
GRID = "blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"


def _launch(
    kernel: str, args: str = " args(%x : f32)", attrs: str = " attributes {gpu.container_module}", extra: str = ""
) -> str:
    return f"module{attrs} {{\n{KERNEL}{extra}  func.func @f() {{\n{C1}    gpu.launch_func {kernel} {GRID}{args}\n    return\n  }}\n}}\n"


REFUSED = {
    "launch-without-container-module": _launch("@m::@k", attrs=""),
    "launch-in-the-implicit-module": f"func.func @f() {{\n{C1}    gpu.launch_func @m::@k {GRID}\n    return\n}}\n",
    "launch-in-a-nested-plain-module": (
        f"module attributes {{gpu.container_module}} {{\n{KERNEL}  module {{\n    func.func @f() {{\n{C1}"
        f"      gpu.launch_func @m::@k {GRID}\n      return\n    }}\n  }}\n}}\n"
    ),
    "kernel-container-undefined": _launch("@nomod::@k"),
    "kernel-module-not-a-gpu-module": _launch("@m2::@k", extra="  func.func @m2() {\n    return\n  }\n"),
    "kernel-function-undefined": _launch("@m::@nope"),
    "kernel-not-a-function": _launch("@m"),
    "kernel-not-marked-kernel": _launch("@m::@plain", args=""),
    "kernel-operand-count": _launch("@m::@k", args=""),
    "kernel-operand-type": _launch("@m::@k", args=" args(%c1 : index)"),
    "container-attribute-on-a-function": "func.func @f() attributes {gpu.container_module} {\n  return\n}\n",
    "alloc-too-many-sizes": "func.func @f(%n: index) {\n  %m = gpu.alloc (%n) : memref<4xf32>\n  return\n}\n",
    "alloc-too-few-sizes": "func.func @f(%n: index) {\n  %m = gpu.alloc (%n) : memref<?x?xf32>\n  return\n}\n",
    "alloc-async-sizes": "func.func @f(%n: index) {\n  %t = gpu.wait async\n  %m, %t2 = gpu.alloc async [%t] () : memref<?xf32>\n  return\n}\n",
    "alloc-missing-layout-symbol": "func.func @f(%n: index) {\n  %m = gpu.alloc (%n) : memref<?xf32, strided<[1], offset: ?>>\n  return\n}\n",
    "alloc-generic-sizes": (
        'func.func @f(%n: index) {\n  %m = "gpu.alloc"(%n, %n) <{operandSegmentSizes = array<i32: 0, 2, 0>}> : (index, index) -> memref<?xf32>\n'
        "  return\n}\n"
    ),
    "host-register-ranked": "func.func @f(%m: memref<4xf32>) {\n  gpu.host_register %m : memref<4xf32>\n  return\n}\n",
    "host-unregister-ranked": "func.func @f(%m: memref<?xf32>) {\n  gpu.host_unregister %m : memref<?xf32>\n  return\n}\n",
    "host-register-ranked-generic": 'func.func @f(%m: memref<4xf32>) {\n  "gpu.host_register"(%m) : (memref<4xf32>) -> ()\n  return\n}\n',
    "memcpy-element-types": "func.func @f(%a: memref<4xf32>, %b: memref<4xi32>) {\n  gpu.memcpy %a, %b : memref<4xf32>, memref<4xi32>\n  return\n}\n",
    "memcpy-sizes": "func.func @f(%a: memref<4xf32>, %b: memref<8xf32>) {\n  gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32>\n  return\n}\n",
    "memcpy-ranks": "func.func @f(%a: memref<4xf32>, %b: memref<2x2xf32>) {\n  gpu.memcpy %a, %b : memref<4xf32>, memref<2x2xf32>\n  return\n}\n",
    "memset-value-type": "func.func @f(%a: memref<4xf32>, %c: i32) {\n  gpu.memset %a, %c : memref<4xf32>, i32\n  return\n}\n",
    "async-memcpy-element-types": (
        "func.func @f(%a: memref<4xf32>, %b: memref<4xf16>) {\n  %t = gpu.wait async\n"
        "  %t2 = gpu.memcpy async [%t] %a, %b : memref<4xf32>, memref<4xf16>\n  gpu.wait [%t2]\n  return\n}\n"
    ),
    "memcpy-unranked": "func.func @f(%a: memref<4xf32>, %u: memref<*xf32>) {\n  gpu.memcpy %a, %u : memref<4xf32>, memref<*xf32>\n  return\n}\n",
    "memset-unranked-generic": 'func.func @f(%u: memref<*xf32>, %c: f32) {\n  "gpu.memset"(%u, %c) : (memref<*xf32>, f32) -> ()\n  return\n}\n',
    "typed-llvm-pointer": "func.func @f(%p: !llvm.ptr<1>, %q: !llvm.ptr<f32>) {\n  return\n}\n",
    "typed-llvm-pointer-in-a-struct": "func.func @f(%q: !llvm.struct<(i32, ptr<i8>)>) {\n  return\n}\n",
    "container-checks-come-first": _launch(
        "@m::@zz", extra='  func.func @g(%a: i32) {\n    %0 = "arith.addi"(%a) : (i32) -> i32\n    return\n  }\n'
    ),
}
FIRST_ONLY: frozenset[str] = frozenset()
"""Cases where only 19's first error is compared (none: a typed pointer's
second error, `failed to parse LLVMPointerType parameter ...`, is ours too)."""

ACCEPTED = {
    "launch-of-a-kernel": _launch("@m::@k"),
    "launch-nested-in-scf-if-is-not-checked-by-19": (
        f"module attributes {{gpu.container_module}} {{\n  func.func @f(%b: i1) {{\n{C1}    scf.if %b {{\n"
        f"      gpu.launch_func @nomod::@k {GRID}\n    }}\n    return\n  }}\n}}\n"
    ),
    "launch-of-a-binary": (
        'module attributes {gpu.container_module} {\n  gpu.binary @bin [#gpu.object<#nvvm.target, "\\00">]\n'
        f"  func.func @f() {{\n{C1}    gpu.launch_func @bin::@k {GRID}\n    return\n  }}\n}}\n"
    ),
    "alloc-shapes": (
        "func.func @f(%n: index) {\n  %a = gpu.alloc (%n, %n) : memref<?x4x?xf32>\n  %b = gpu.alloc (%n) [%n] : memref<?xf32, strided<[1], offset: ?>>\n"
        "  %c = gpu.alloc () : memref<4xf32, strided<[1], offset: 2>>\n  return\n}\n"
    ),
    "host-register-unranked": "func.func @f(%m: memref<*xf32>) {\n  gpu.host_register %m : memref<*xf32>\n  gpu.host_unregister %m : memref<*xf32>\n  return\n}\n",
    "memcpy-and-memset-that-fit": (
        "func.func @f(%a: memref<4xf32>, %b: memref<?xf32>, %v: memref<2x2xvector<2xf32>, 1>, %w: memref<2x?xvector<2xf32>>, %c: f32) {\n"
        "  gpu.memcpy %a, %b : memref<4xf32>, memref<?xf32>\n"
        "  gpu.memcpy %v, %w : memref<2x2xvector<2xf32>, 1>, memref<2x?xvector<2xf32>>\n  gpu.memset %b, %c : memref<?xf32>, f32\n  return\n}\n"
    ),
    "opaque-llvm-pointers": "func.func @f(%p: !llvm.ptr, %q: !llvm.ptr<3>, %s: !llvm.struct<(ptr, array<2 x ptr<1>>)>) {\n  return\n}\n",
}


def test_every_rule_the_registry_names_exists() -> None:
    names = {i.verifier for i in registry._REGISTRY.values() if i.verifier} | set(
        registry.DIALECT_ATTRIBUTE_VERIFIERS.values()
    )
    assert names <= set(RULES)
    kinds = {c for i in registry._REGISTRY.values() for _, c in i.operand_types}
    assert kinds <= set(TYPE_CONSTRAINTS)
    assert registry.lookup("gpu.alloc").verifier == "gpu.alloc"


@pytest.mark.parametrize(
    ("memref", "symbols"),
    [
        ("memref<4xf32>", 0),
        ("memref<?xf32, strided<[?, 1], offset: ?>>", 2),
        ("memref<4xf32, affine_map<(d0)[s0, s1] -> (d0 + s0)>>", 2),
        ("memref<4xf32, 3>", 0),
    ],
)
def test_layout_symbols(memref: str, symbols: int) -> None:
    assert layout_symbols(memref) == symbols


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_in_process_with_a_located_diagnostic(name: str) -> None:
    with pytest.raises(DiagnosticError) as info:
        parse_module(REFUSED[name], "in.mlir")
    assert info.value.diagnostics[0].loc.line >= 1


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_in_process(name: str) -> None:
    parse_module(ACCEPTED[name], "in.mlir")


@needs_mlir19
@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("tool", ["print", "refimpl"])
def test_refused_as_mlir_opt_19(name: str, tool: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, REFUSED[name].encode())
    mine, ref = ours(tool, path), theirs(tool, path)
    err, ref_err = mine.stderr.decode(*BYTES), ref.stderr.decode(*BYTES)
    if name in FIRST_ONLY:
        ref_err = "".join(ref_err.splitlines(keepends=True)[: len(err.splitlines())])
    assert ref.returncode == 1
    assert (mine.returncode, mine.stdout, err) == (1, b"", ref_err)


@needs_mlir19
@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_as_mlir_opt_19(name: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, ACCEPTED[name].encode())
    mine, ref = ours("refimpl", path), theirs("refimpl", path)
    assert ref.returncode == 0, ref.stderr
    assert (mine.returncode, mine.stdout) == (0, ref.stdout), mine.stderr
