"""Ops that mlir-opt-19 has and this tool's subset does not read (issue 29,
item 4): the message names the op and says it is unsupported, rather than
the token where the grammar gave up. Ops nobody has keep 19's `is unknown`.

Each input is this project's own; where `mlir-opt-19` is installed it is
checked to accept it (so the op is really one of 19's)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

ARGS = "%v: vector<4xf32>, %w: vector<2x4xf32>, %m: memref<4xf32>, %n: index, %k: vector<4xi1>, %i: vector<4xindex>, %f: f32"

IN_A_FUNCTION = {
    "vector.bitcast": "%0 = vector.bitcast %v : vector<4xf32> to vector<4xi32>",
    "vector.fma": "%0 = vector.fma %v, %v, %v : vector<4xf32>",
    "vector.reduction": "%0 = vector.reduction <add>, %v : vector<4xf32> into f32",
    "vector.shape_cast": "%0 = vector.shape_cast %v : vector<4xf32> to vector<2x2xf32>",
    "vector.constant_mask": "%0 = vector.constant_mask [2] : vector<4xi1>",
    "vector.create_mask": "%0 = vector.create_mask %n : vector<4xi1>",
    "vector.outerproduct": "%0 = vector.outerproduct %v, %v : vector<4xf32>, vector<4xf32>",
    "vector.transpose": "%0 = vector.transpose %w, [1, 0] : vector<2x4xf32> to vector<4x2xf32>",
    "vector.type_cast": "%0 = vector.type_cast %m : memref<4xf32> to memref<vector<4xf32>>",
    "vector.compressstore": "vector.compressstore %m[%n], %k, %v : memref<4xf32>, vector<4xi1>, vector<4xf32>",
    "vector.gather": "%0 = vector.gather %m[%n] [%i], %k, %v : memref<4xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>",
    "vector.contract": (
        "%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], "
        'iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %f : vector<4xf32>, vector<4xf32> into f32'
    ),
    "scf.forall": "scf.forall (%j) in (4) {\n    memref.store %f, %m[%j] : memref<4xf32>\n  }",
}

WHOLE = {
    "async.func": "async.func @af(%a: f32) -> !async.value<f32> {\n  async.return %a : f32\n}\n",
    "async.call": (
        "async.func @af(%a: f32) -> !async.value<f32> {\n  async.return %a : f32\n}\n"
        "func.func @f(%a: f32) {\n  %0 = async.call @af(%a) : (f32) -> !async.value<f32>\n  return\n}\n"
    ),
}


def _in_function(body: str) -> str:
    return f"func.func @f({ARGS}) {{\n  {body}\n  return\n}}\n"


def _first_message(text: str) -> tuple[int, int, str]:
    with pytest.raises(DiagnosticError) as info:
        parse_module(text, "in.mlir")
    d = info.value.diagnostics[0]
    return d.loc.line, d.loc.col, d.message


@pytest.mark.parametrize("name", sorted(IN_A_FUNCTION))
def test_an_op_of_19_outside_the_subset_is_named_unsupported(name: str) -> None:
    line, col, message = _first_message(_in_function(IN_A_FUNCTION[name]))
    dialect = name.split(".")[0]
    assert (
        message
        == f"custom op '{name}' is unsupported: mlir-opt-19's {dialect} dialect has it, this tool's subset does not (docs/subset.md)"
    )
    assert line == 2


def test_async_func_is_named_unsupported() -> None:
    assert _first_message(WHOLE["async.func"])[2].startswith("custom op 'async.func' is unsupported")


def test_llvm_func_with_a_body_says_only_declarations_are_read() -> None:
    text = "llvm.func @lf(%arg0: i32) -> i32 {\n  llvm.return %arg0 : i32\n}\n"
    assert _first_message(text) == (
        1,
        15,
        "custom op 'llvm.func' is supported only as a declaration (argument types, no names, no body): unexpected '%arg0'",
    )
    assert _first_message("llvm.func @g() {\n  llvm.return\n}\n")[2].startswith(
        "custom op 'llvm.func' is supported only as a declaration"
    )
    parse_module("llvm.func @decl(i32, f32) -> i32\n")


def test_an_op_of_a_dialect_the_registry_does_not_list_is_unsupported() -> None:
    """Which ops 19's spirv or llvm dialect has is not listed here: the
    message says what is known, that this tool does not read the op."""
    spirv = "module {\n  spirv.module Logical GLSL450 {\n  }\n}\n"
    assert _first_message(spirv) == (
        2,
        3,
        "custom op 'spirv.module' is unsupported: the spirv dialect is outside this tool's subset (docs/subset.md)",
    )
    gep = "%0 = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32"
    text = f"func.func @f(%p: !llvm.ptr) {{\n  {gep}\n  return\n}}\n"
    assert _first_message(text)[2] == (
        "custom op 'llvm.getelementptr' is unsupported: this tool's subset of the llvm dialect does not have it "
        "(docs/subset.md)"
    )


def test_an_op_nobody_has_is_still_unknown() -> None:
    assert (
        _first_message(_in_function("%0 = vector.frobnicate %v : vector<4xf32>"))[2]
        == "custom op 'vector.frobnicate' is unknown"
    )
    assert _first_message(_in_function('"vector.frobnicate"() : () -> ()'))[2] == (
        "unregistered operation 'vector.frobnicate' found in dialect ('vector') that does not allow unknown operations"
    )


@needs_mlir19
@pytest.mark.parametrize("name", sorted(IN_A_FUNCTION) + sorted(WHOLE))
def test_mlir_opt_19_has_the_op(name: str, tmp_path: Path) -> None:
    assert MLIR_OPT_19 is not None
    text = WHOLE[name] if name in WHOLE else _in_function(IN_A_FUNCTION[name])
    path = tmp_path / "in.mlir"
    path.write_text(text)
    run = subprocess.run([MLIR_OPT_19, str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
