"""Shapes of real-world .mlir files that mlir-opt-19 refuses or prints in
its own way: each input here is this project's own, written in the shape
of one; the expected first error line (`line:col: error: message`) or the
printed bytes are mlir-opt-19's, written out so the tests run without it,
and compared with it where it is installed.

- `memref.expand_shape` needs `output_shape`; the reshape ops' verifiers
  (`verifyCollapsedShape`, the expanded / collapsed result type of the
  source layout, `static_output_shape` against the result type).
- Pre-2021 LLVM dialect types (`!llvm.i64`, `!llvm<"float*">`): refused
  where the type's keyword should be.
- `#gpu.loop_dim_map` printed with a blank after each `=` and its maps
  canonical.
- An undotted op name (`func @f()`) tried in the enclosing op's default
  dialect (`builtin` at the top, `func` in a function, none elsewhere).
- A `strided` layout's zero offset left out (`strided<[1]>`); a memref
  of vectors, whose element type is the whole vector type; `return` with
  an attr-dict.
- Where only an operand can come, `expected SSA operand`; a vector type
  with a zero size refused at its element type.
- A keyword a custom op's parser requires (`parseKeyword`) is reported as
  that op's error at the token found; an optional attr-dict before `:`
  does not show in `expected ':'`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from tests.mlir_tools import needs_mlir19
from tests.support.op_forms import first_error, refusal_19_file, run19_file


def _f(args: str, line: str) -> str:
    return f"func.func @f({args}) {{\n  {line}\n  return\n}}\n"


M24 = "%m: memref<24xf32>"
EXPAND = "%e = memref.expand_shape %m [[0, 1, 2]]"
INTO = ": memref<24xf32> into memref<2x3x4xf32>"

REFUSED: dict[str, tuple[str, str]] = {
    "expand-without-output-shape": (
        _f(M24, f"{EXPAND} {INTO}"),
        "2:43: error: custom op 'memref.expand_shape' expected 'output_shape'",
    ),
    "expand-without-output-shape-with-attrs": (
        _f(M24, f"{EXPAND} {{k = 1}} {INTO}"),
        "2:43: error: custom op 'memref.expand_shape' expected 'output_shape'",
    ),
    "expand-empty-output-shape": (
        _f(M24, f"{EXPAND} output_shape [] {INTO}"),
        "2:8: error: 'memref.expand_shape' op expected number of static shape bounds to be equal to the output rank (3) "
        "but found 0 inputs instead",
    ),
    "expand-wrong-output-size": (
        _f(M24, f"{EXPAND} output_shape [2, 4, 3] {INTO}"),
        "2:8: error: 'memref.expand_shape' op invalid output shape provided at pos 1",
    ),
    "expand-group-count": (
        _f(M24, f"%e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 3, 4] {INTO}"),
        "2:8: error: 'memref.expand_shape' op invalid number of reassociation groups: found 2, expected 1",
    ),
    "expand-not-contiguous": (
        _f(M24, f"%e = memref.expand_shape %m [[0, 2, 1]] output_shape [2, 3, 4] {INTO}"),
        "2:8: error: 'memref.expand_shape' op reassociation indices must be contiguous",
    ),
    "expand-index-out-of-bounds": (
        _f(M24, f"%e = memref.expand_shape %m [[0, 1, 2, 3]] output_shape [2, 3, 4] {INTO}"),
        "2:8: error: 'memref.expand_shape' op reassociation index 3 is out of bounds",
    ),
    "expand-group-size": (
        _f(M24, f"%e = memref.expand_shape %m [[0, 1]] output_shape [2, 3, 4] {INTO}"),
        "2:8: error: 'memref.expand_shape' op collapsed dim size (24) must equal reassociation group size (6)",
    ),
    "expand-element-type": (
        _f(M24, f"{EXPAND} output_shape [2, 3, 4] : memref<24xf32> into memref<2x3x4xf64>"),
        "2:8: error: 'memref.expand_shape' op expected expanded type to be 'memref<2x3x4xf32>' but found "
        "'memref<2x3x4xf64>'",
    ),
    "expand-lower-rank": (
        _f(
            "%m: memref<2x12xf32>",
            "%e = memref.expand_shape %m [[0, 1]] output_shape [24] : memref<2x12xf32> into memref<24xf32>",
        ),
        "2:8: error: 'memref.expand_shape' op has source rank 2 and result rank 1. This is not an expansion (2 > 1).",
    ),
    "expand-dynamic-into-static": (
        _f(
            "%m: memref<?xf32>, %n: index",
            "%e = memref.expand_shape %m [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<3x4xf32>",
        ),
        "2:8: error: 'memref.expand_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic",
    ),
    "expand-rank-0-not-ones": (
        _f("%m: memref<f32>", "%e = memref.expand_shape %m [] output_shape [1, 2] : memref<f32> into memref<1x2xf32>"),
        "2:8: error: 'memref.expand_shape' op rank 0 memrefs can only be extended/collapsed with/from ones",
    ),
    "expand-strided-source": (
        _f(
            "%m: memref<24xf32, strided<[2]>>",
            f"{EXPAND} output_shape [2, 3, 4] : memref<24xf32, strided<[2]>> into memref<2x3x4xf32>",
        ),
        "2:8: error: 'memref.expand_shape' op expected expanded type to be 'memref<2x3x4xf32, strided<[24, 8, 2]>>' "
        "but found 'memref<2x3x4xf32>'",
    ),
    "expand-unranked-result": (
        _f("%m: memref<f32>", "%e = memref.expand_shape %m [] output_shape [] : memref<f32> into memref<*xf32>"),
        "2:69: error: custom op 'memref.expand_shape' invalid kind of type specified",
    ),
    "expand-generic-dynamic-count": (
        _f(
            M24,
            '%e = "memref.expand_shape"(%m) <{reassociation = [[0, 1, 2]], static_output_shape = '
            "array<i64: 2, -9223372036854775808, 4>}> : (memref<24xf32>) -> memref<2x3x4xf32>",
        ),
        "2:8: error: 'memref.expand_shape' op mismatch in dynamic dims in output_shape and static_output_shape: "
        "static_output_shape has 1 dynamic dims while output_shape has 0 values",
    ),
    "expand-generic-unranked-source": (
        _f(
            "%m: memref<*xf32>",
            '%e = "memref.expand_shape"(%m) <{reassociation = [], static_output_shape = array<i64>}> '
            ": (memref<*xf32>) -> memref<f32>",
        ),
        "2:8: error: 'memref.expand_shape' op operand #0 must be strided memref of any type values, but got 'memref<*xf32>'",
    ),
    "collapse-with-output-shape": (
        _f(
            "%m: memref<2x3x4xf32>",
            "%e = memref.collapse_shape %m [[0, 1, 2]] output_shape [24] : memref<2x3x4xf32> into memref<24xf32>",
        ),
        "2:44: error: expected ':'",
    ),
    "collapse-to-not-into": (
        _f("%m: memref<2x3xf32>", "%e = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> to memref<6xf32>"),
        "2:60: error: custom op 'memref.collapse_shape' expected 'into'",
    ),
    "collapse-size": (
        _f(
            "%m: memref<2x3x4xf32>", "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x3x4xf32> into memref<25xf32>"
        ),
        "2:8: error: 'memref.collapse_shape' op collapsed dim size (25) must equal reassociation group size (24)",
    ),
    "collapse-expanded-rank": (
        _f("%m: memref<2x3x4xf32>", "%e = memref.collapse_shape %m [[0, 1]] : memref<2x3x4xf32> into memref<6xf32>"),
        "2:8: error: 'memref.collapse_shape' op expanded rank (3) inconsistent with number of reassociation indices (2)",
    ),
    "collapse-higher-rank": (
        _f(M24, "%e = memref.collapse_shape %m [[0]] : memref<24xf32> into memref<2x12xf32>"),
        "2:8: error: 'memref.collapse_shape' op has source rank 1 and result rank 2. This is not a collapse (1 < 2).",
    ),
    "collapse-memory-space": (
        _f(
            "%m: memref<2x3x4xf32, #gpu.address_space<workgroup>>",
            "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x3x4xf32, #gpu.address_space<workgroup>> into memref<24xf32>",
        ),
        "2:8: error: 'memref.collapse_shape' op expected collapsed type to be "
        "'memref<24xf32, #gpu.address_space<workgroup>>' but found 'memref<24xf32>'",
    ),
    "collapse-strided-identity-result": (
        _f(
            "%m: memref<2x3x4xf32, strided<[12, 4, 1]>>",
            "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x3x4xf32, strided<[12, 4, 1]>> into memref<24xf32>",
        ),
        "2:8: error: 'memref.collapse_shape' op expected collapsed type to be 'memref<24xf32, strided<[1]>>' "
        "but found 'memref<24xf32>'",
    ),
    "collapse-non-contiguous": (
        _f(
            "%m: memref<2x3x4xf32, strided<[24, 4, 1]>>",
            "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x3x4xf32, strided<[24, 4, 1]>> into memref<24xf32>",
        ),
        "2:8: error: 'memref.collapse_shape' op invalid source layout map or collapsing non-contiguous dims",
    ),
    "collapse-unit-dim-stride": (
        _f(
            "%m: memref<2x1x4xf32, strided<[4, 99, 1]>>",
            "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x1x4xf32, strided<[4, 99, 1]>> into memref<8xf32, strided<[1]>>",
        ),
        "2:8: error: 'memref.collapse_shape' op invalid source layout map or collapsing non-contiguous dims",
    ),
    "collapse-dynamic-stride": (
        _f(
            "%m: memref<2x?x4xf32, strided<[?, 8, 1], offset: 3>>",
            "%e = memref.collapse_shape %m [[0, 1], [2]] : memref<2x?x4xf32, strided<[?, 8, 1], offset: 3>> "
            "into memref<?x4xf32, strided<[8, 1], offset: 3>>",
        ),
        "2:8: error: 'memref.collapse_shape' op expected collapsed type to be "
        "'memref<?x4xf32, strided<[?, 1], offset: 3>>' but found 'memref<?x4xf32, strided<[8, 1], offset: 3>>'",
    ),
    "collapse-unranked-source": (
        _f("%m: memref<*xf32>", "%e = memref.collapse_shape %m [] : memref<*xf32> into memref<f32>"),
        "2:38: error: custom op 'memref.collapse_shape' invalid kind of type specified",
    ),
    "collapse-generic-reassociation-kind": (
        _f(
            "%m: memref<2x3xf32>",
            '%e = "memref.collapse_shape"(%m) <{reassociation = [0, 1]}> : (memref<2x3xf32>) -> memref<6xf32>',
        ),
        "2:8: error: 'memref.collapse_shape' op attribute 'reassociation' failed to satisfy constraint: "
        "Array of 64-bit integer array attributes",
    ),
    "llvm-old-integer-type": (
        "llvm.mlir.global internal @g(7 : i64) : !llvm.i64\n",
        "1:47: error: unexpected type, expected keyword",
    ),
    "llvm-old-quoted-type": ('func.func private @h(!llvm<"i8*">)\n', "1:28: error: expected valid keyword"),
    "llvm-old-float-keyword": ("func.func private @h(!llvm.double)\n", "1:28: error: unknown LLVM type: double"),
    "llvm-old-type-nested": (
        "func.func private @h(!llvm.array<2 x !llvm.i32>)\n",
        "1:44: error: unexpected type, expected keyword",
    ),
    # llvm.func definitions are outside the subset, but their argument
    # types are read first: a typed pointer is refused where 19 refuses it.
    "llvm-func-typed-pointer-argument": (
        "llvm.func @lf(%arg0: !llvm.ptr, %arg1: !llvm.ptr<f32>) {\n  llvm.return\n}\n",
        "1:50: error: expected integer value",
    ),
    # A name where an operand must come (a library op's enum written among
    # its operands, in an older syntax): 19 asks for an operand.
    "operand-not-a-value": (_f("%a: i32", "%0 = arith.addi 5, %a : i32"), "2:18: error: expected SSA operand"),
    # A vector type with a zero size: refused at its element type.
    "vector-zero-size": (
        _f("%a: memref<4xvector<2x0xf32>>", "%v = vector.from_elements : vector<0xf32>"),
        "1:38: error: vector types must have positive constant sizes",
    ),
    "scf-for-keyword": (
        "func.func @f(%a: index) {\n  scf.for %i = %a , %a step %a {\n  }\n  return\n}\n",
        "2:19: error: custom op 'scf.for' expected 'to'",
    ),
    # An undotted op name (the `func @f()` form before `func.func`): tried
    # in the default dialect of the op whose region holds it.
    "gpu-func-unnamed-arguments": (
        "module attributes {gpu.container_module} {\n  gpu.module @m {\n    gpu.func @k(index) kernel {\n"
        "      gpu.return\n    }\n  }\n}\n",
        "3:16: error: custom op 'gpu.func' gpu.func requires named arguments",
    ),
    "bare-func-at-top": (
        "func @f() {\n  return\n}\n",
        "1:1: error: custom op 'func' is unknown (tried 'builtin.func' as well)",
    ),
    "bare-func-in-module": (
        "module {\n  func @f() {\n    return\n  }\n}\n",
        "2:3: error: custom op 'func' is unknown (tried 'builtin.func' as well)",
    ),
    "bare-op-in-func": (_f("", "foo"), "2:3: error: custom op 'foo' is unknown (tried 'func.foo' as well)"),
    "bare-op-in-region-op": (
        _f("", "scf.execute_region {\n    foo\n    scf.yield\n  }"),
        "3:5: error: Dialect `' not found for custom op 'foo'  (tried '.foo' as well)",
    ),
}

ACCEPTED: dict[str, str] = {
    "loop-dim-map": (
        "func.func @f(%a: index, %b: index) {\n  scf.parallel (%i, %j) = (%a, %a) to (%b, %b) step (%a, %a) {\n"
        "    scf.reduce\n  } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>,"
        " #gpu.loop_dim_map<processor=block_x,map=(d0)->(d0 * 1),bound=(d0)[s0]->(d0+s0)>]}\n  return\n}\n"
    ),
    "llvm-types": "func.func private @h(!llvm.ptr, !llvm.array<2 x i32>, !llvm.struct<(i32, f64)>, !llvm.void)\n",
    "expand": _f(M24, f"{EXPAND} output_shape [2, 3, 4] {{k = 1}} {INTO}"),
    "expand-dynamic": _f(
        "%m: memref<?xf32>, %n: index",
        "%e = memref.expand_shape %m [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>",
    ),
    "expand-static-for-dynamic": _f(
        "%m: memref<?xf32>",
        "%e = memref.expand_shape %m [[0, 1]] output_shape [3, 4] : memref<?xf32> into memref<?x4xf32>",
    ),
    "expand-strided": _f(
        "%m: memref<?xf32, strided<[3]>>, %n: index",
        "%e = memref.expand_shape %m [[0, 1]] output_shape [4, %n] : memref<?xf32, strided<[3]>> into memref<4x?xf32, strided<[?, 3]>>",
    ),
    "expand-offset": _f(
        "%m: memref<24xf32, strided<[1], offset: 5>>",
        f"{EXPAND} output_shape [2, 3, 4] : memref<24xf32, strided<[1], offset: 5>> into memref<2x3x4xf32, strided<[12, 4, 1], offset: 5>>",
    ),
    "expand-affine-map-source": _f(
        "%m: memref<24xf32, affine_map<(d0) -> (d0 * 2)>>",
        f"{EXPAND} output_shape [2, 3, 4] : memref<24xf32, affine_map<(d0) -> (d0 * 2)>> into memref<2x3x4xf32, strided<[24, 8, 2]>>",
    ),
    "expand-unit-strided-source": _f(
        "%m: memref<24xf32, strided<[1]>>",
        f"{EXPAND} output_shape [2, 3, 4] : memref<24xf32, strided<[1]>> into memref<2x3x4xf32>",
    ),
    "expand-rank-0": _f(
        "%m: memref<f32>", "%e = memref.expand_shape %m [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>"
    ),
    "collapse": _f(
        "%m: memref<2x3x4xf32>", "%e = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>"
    ),
    "collapse-dynamic": _f(
        "%m: memref<2x?x?xf32>", "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x?x?xf32> into memref<?xf32>"
    ),
    "collapse-strided": _f(
        "%m: memref<2x3x4xf32, strided<[?, ?, 1], offset: ?>>",
        "%e = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32, strided<[?, ?, 1], offset: ?>> "
        "into memref<6x4xf32, strided<[?, 1], offset: ?>>",
    ),
    "collapse-trailing-unit": _f(
        "%m: memref<2x4x1xf32, strided<[4, 1, 7]>>",
        "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x4x1xf32, strided<[4, 1, 7]>> into memref<8xf32, strided<[1]>>",
    ),
    "collapse-memory-space": _f(
        "%m: memref<2x3x4xf32, strided<[12, 4, 1]>, 3>",
        "%e = memref.collapse_shape %m [[0, 1, 2]] : memref<2x3x4xf32, strided<[12, 4, 1]>, 3> into memref<24xf32, strided<[1]>, 3>",
    ),
}


PRINTED: dict[str, tuple[str, str]] = {
    "return-attributes": (
        "func.func @f(%a: f32) -> f32 {\n  return {k = 1} %a : f32\n}\nfunc.func @g() {\n  func.return {z}\n}\n",
        "module {\n  func.func @f(%arg0: f32) -> f32 {\n    return {k = 1 : i64} %arg0 : f32\n  }\n"
        "  func.func @g() {\n    return {z}\n  }\n}\n\n",
    ),
    # A memref of vectors: the loaded value's type is the whole vector type.
    "memref-of-vectors": (
        _f(
            "%m: memref<vector<2x4xi32>>, %n: memref<3xvector<4xf32>>, %i: index",
            "%v = memref.load %m[] : memref<vector<2x4xi32>>\n  %s = arith.addi %v, %v : vector<2x4xi32>\n"
            "  %w = memref.load %n[%i] : memref<3xvector<4xf32>>\n  memref.store %w, %n[%i] : memref<3xvector<4xf32>>",
        ),
        "module {\n  func.func @f(%arg0: memref<vector<2x4xi32>>, %arg1: memref<3xvector<4xf32>>, %arg2: index) {\n"
        "    %0 = memref.load %arg0[] : memref<vector<2x4xi32>>\n    %1 = arith.addi %0, %0 : vector<2x4xi32>\n"
        "    %2 = memref.load %arg1[%arg2] : memref<3xvector<4xf32>>\n"
        "    memref.store %2, %arg1[%arg2] : memref<3xvector<4xf32>>\n    return\n  }\n}\n\n",
    ),
    # Result attributes that are all empty dictionaries are none: one
    # result is written without parentheses.
    "empty-result-attributes": (
        '"func.func"() ({^bb0(%z: index): "func.return"(%z) : (index) -> ()}) '
        '{function_type = (index) -> index, sym_name = "fh", res_attrs = [{}], arg_attrs = [{}]} : () -> ()\n'
        '"async.func"() ({^bb0(%z: index): "async.return"() : () -> ()}) '
        '{function_type = (index) -> !async.token, sym_name = "ah", res_attrs = [{}]} : () -> ()\n',
        "module {\n  func.func @fh(%arg0: index) -> index {\n    return %arg0 : index\n  }\n"
        "  async.func @ah(%arg0: index) -> !async.token {\n    return\n  }\n}\n\n",
    ),
    # A zero offset is the default: 19 leaves it out, on any rank.
    "strided-zero-offset": (
        "func.func private @h(memref<4xf32, strided<[1], offset: 0>>, memref<4x4xf32, strided<[4, 1], offset:0>>,"
        " memref<4xf32, strided<[2], offset: ?>>)\n",
        "module {\n  func.func private @h(memref<4xf32, strided<[1]>>, memref<4x4xf32, strided<[4, 1]>>,"
        " memref<4xf32, strided<[2], offset: ?>>)\n}\n\n",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_mlir_opt_19s_first_error(name: str) -> None:
    text, expected = REFUSED[name]
    assert first_error(text) == expected


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted(name: str) -> None:
    parse_module(ACCEPTED[name], "in.mlir")


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_printed(name: str) -> None:
    text, expected = PRINTED[name]
    assert join_outputs([print_op(parse_module(text, "in.mlir"))]) == expected


@needs_mlir19
@pytest.mark.parametrize("name", sorted(PRINTED))
def test_printed_bytes_are_mlir_opt_19s(name: str, tmp_path: Path) -> None:
    text, expected = PRINTED[name]
    run = run19_file(text, tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected


@needs_mlir19
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_expected_error_is_mlir_opt_19s(name: str, tmp_path: Path) -> None:
    text, expected = REFUSED[name]
    assert refusal_19_file(text, tmp_path) == expected


@needs_mlir19
@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_prints_as_mlir_opt_19(name: str, tmp_path: Path) -> None:
    run = run19_file(ACCEPTED[name], tmp_path)
    assert run.returncode == 0, run.stderr
    assert join_outputs([print_op(parse_module(ACCEPTED[name], "in.mlir"))]) == run.stdout
