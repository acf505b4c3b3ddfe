"""Ops that mlir-opt-19 has and this tool's subset does not read: the message names the op and says it is unsupported, rather than
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
    "vector.shuffle": "%0 = vector.shuffle %v, %v [0, 5] : vector<4xf32>, vector<4xf32>",
    "vector.multi_reduction": "%0 = vector.multi_reduction <add>, %w, %v [0] : vector<2x4xf32> to vector<4xf32>",
    "vector.maskedload": "%0 = vector.maskedload %m[%n], %k, %v : memref<4xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>",
    "vector.maskedstore": "vector.maskedstore %m[%n], %k, %v : memref<4xf32>, vector<4xi1>, vector<4xf32>",
    "vector.scatter": "vector.scatter %m[%n] [%i], %k, %v : memref<4xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>",
    "vector.expandload": "%0 = vector.expandload %m[%n], %k, %v : memref<4xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>",
    "vector.extract_strided_slice": (
        "%0 = vector.extract_strided_slice %v {offsets = [1], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>"
    ),
    "vector.step": "%0 = vector.step : vector<4xindex>",
    "vector.interleave": "%0 = vector.interleave %v, %v : vector<4xf32> -> vector<8xf32>",
    "vector.extractelement": "%0 = vector.extractelement %v[%n : index] : vector<4xf32>",
    "vector.scan": (
        "%0:2 = vector.scan <add>, %w, %v {inclusive = true, reduction_dim = 0 : i64} : vector<2x4xf32>, vector<4xf32>"
    ),
    "async.runtime.create": "%0 = async.runtime.create : !async.token",
}

WHOLE = {
    "async.coro.id": "func.func @f() {\n  %0 = async.coro.id\n  return\n}\n",
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


def test_an_async_coroutine_op_is_named_unsupported() -> None:
    assert _first_message(WHOLE["async.coro.id"])[2].startswith("custom op 'async.coro.id' is unsupported")


def test_llvm_func_with_a_body_is_named_unsupported_in_that_form() -> None:
    text = "llvm.func @lf(%arg0: i32) -> i32 {\n  llvm.return %arg0 : i32\n}\n"
    assert _first_message(text) == (
        1,
        15,
        "custom op 'llvm.func' is unsupported in this form (at '%arg0'): this tool reads it only as a declaration "
        "(argument types, no names, no body) (docs/subset.md)",
    )
    assert _first_message("llvm.func @g() {\n  llvm.return\n}\n")[2].startswith(
        "custom op 'llvm.func' is unsupported in this form (at '{'): this tool reads it only as a declaration"
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
