"""Attribute and type bodies that span lines: any blank,
newlines included, inside `<...>` and `[...]`, as `mlir-opt-19` reads them;
an error inside such a body is located on its own line.

The inputs are this project's own; against `mlir-opt-19` where installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.syntax.parser import parse_module
from spec.syntax.printing import print_op
from spec.syntax.string_literals import BYTES
from tests.mlir_tools import needs_mlir19
from tests.support.against_mlir19 import each_output, ours, theirs, write_input

ACCEPTED = {
    "dense-and-target-env": b"""module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>,
    #spirv.resource_limits<>>} {
  func.func @f(%m: memref<4x
      4xf32>, %v: vector<
  4xf32>) attributes {d = dense<[[1.0, 2.0],
                     [3.0, 4.0]]> : tensor<2x2xf32>, a = [1,
        2], t = tuple<i32,
      f32>, x = array<i32: 1,
         2>, m = affine_map<(d0) ->
      (d0)>, s = {a = 1,
     b = 2}} {
    %c = arith.constant dense<[1.0,
       2.0]> : tensor<2xf32>
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_70",
      O = 3>] {
  }
}
""",
    "types-and-objects": b"""func.func @f(%m: memref<?x
    ?xf32, strided<[?, 1],
    offset: ?>>, %p: !llvm.struct<(
    i32, f32)>, %t: tensor<4x
    f32>, %w: vector<[4]x
    f32>) -> (i32,
    f32) {
  %c = arith.constant 1 : i32
  %d = arith.constant 1.0 : f32
  return %c, %d : i32,
      f32
}
func.func @g() attributes {a = #gpu.object<#nvvm.target, properties = {
      O = 2 : i32},
    "\\00\\01">, b = #spirv.entry_point_abi<
      workgroup_size = [1,
        1, 1]>} {
  return
}
""",
    "host-code-with-a-multiline-memref": b"""func.func @h(%n: index) {
  %t = gpu.wait async
  %m, %t2 = gpu.alloc async [%t] (%n) : memref<
      ?xf32>
  %t3 = gpu.dealloc async [%t2] %m : memref<?x
      f32>
  gpu.wait [%t3]
  return
}
""",
    "comments-inside-bodies": b"""module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<
    // the version and capabilities
    #spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
  func.func @f(%m: memref<4x // rows
      4xf32>) attributes {d = dense<[1.0, // one
    2.0]> : tensor<2xf32>, t = tuple<i32, // x
   f32>, s = "// not a comment", x = array<i32: 1, // y
     2>} {
    return
  }
}
""",
}

REFUSED = {
    "unknown-limit-on-its-own-line": (
        b"module attributes {gpu.container_module} {\n  gpu.module @k [#spirv.target_env<\n"
        b"      #spirv.vce<v1.0, [Shader], []>,\n      #spirv.resource_limits<foo = 1>>] {\n  }\n}\n"
    ),
    "bad-target-field-on-its-own-line": b'module attributes {gpu.container_module} {\n  gpu.module @k [#nvvm.target<chip = "sm_70",\n      O = x>] {\n  }\n}\n',
}
FIRST_ONLY = frozenset({"bad-target-field-on-its-own-line"})
"""19 adds `failed to parse NVVM_TargettAttr parameter ...` after the first error."""


def test_a_dense_literal_over_two_lines_is_the_one_line_literal() -> None:
    two = parse_module(
        "func.func @f() attributes {d = dense<[[1.0, 2.0],\n  [3.0, 4.0]]> : tensor<2x2xf32>} {\n  return\n}\n"
    )
    one = parse_module(
        "func.func @f() attributes {d = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} {\n  return\n}\n"
    )
    assert print_op(two) == print_op(one)


@needs_mlir19
@pytest.mark.parametrize("name", sorted(ACCEPTED))
@each_output
def test_multiline_bodies_print_as_mlir_opt_19(name: str, tool: str, options: tuple[str, ...], tmp_path: Path) -> None:
    path = write_input(tmp_path, ACCEPTED[name])
    mine, ref = ours(tool, path, *options), theirs(tool, path, *options)
    assert ref.returncode == 0, ref.stderr
    assert (mine.returncode, mine.stdout) == (0, ref.stdout), mine.stderr


@needs_mlir19
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_error_inside_a_multiline_body_is_on_its_line(name: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, REFUSED[name])
    mine, ref = ours("print", path), theirs("print", path)
    err, ref_err = mine.stderr.decode(*BYTES), ref.stderr.decode(*BYTES)
    if name in FIRST_ONLY:
        ref_err = "".join(ref_err.splitlines(keepends=True)[:3])
    assert (mine.returncode, err) == (ref.returncode, ref_err)
