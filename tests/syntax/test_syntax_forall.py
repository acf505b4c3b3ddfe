"""`scf.forall` and its `scf.forall.in_parallel` terminator, read and printed
as mlir-opt-19 reads and prints them, refused with its first message, and
rewritten by the pass as its `-gpu-async-region` rewrites them.

The inputs are this project's own; the expected bytes and messages are
mlir-opt-19's, written out so that the tests run without it, and compared
with it where it is installed. What the custom form shows: `in (ubs)`
when every lower bound is 0 and every step 1 (an index constant counts as
its value), `= (lbs) to (ubs) step (steps)` otherwise, each entry an
integer or a value; the terminator only with `shared_outs`; `mapping` in
the trailing attr-dict.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from refimpl import rewrite
from spec.syntax.parser import parse_module
from spec.syntax.printing import join_outputs, print_op
from tests.mlir_tools import needs_mlir19
from tests.support.op_forms import first_error, printed, refusal_19_file, run19_file

LOOPS = """func.func @f(%m: memref<16xf32>, %n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%i, %j) in (4, %n) {
    %v = memref.load %m[%i] : memref<16xf32>
    memref.store %v, %m[%j] : memref<16xf32>
  }
  scf.forall (%i) = (%c1) to (%n) step (2) {
    memref.store %x, %m[%i] : memref<16xf32>
  } {mapping = [#gpu.block<x>], tag}
  scf.forall (%i) = (%c0) to (16) step (%c1) {
    memref.store %x, %m[%i] : memref<16xf32>
    scf.forall.in_parallel {
    }
  }
  scf.forall (%i) = (0x2) to (8) step (-1) {
  }
  return
}
"""

LOOPS_PRINTED = """module {
  func.func @f(%arg0: memref<16xf32>, %arg1: index, %arg2: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.forall (%arg3, %arg4) in (4, %arg1) {
      %0 = memref.load %arg0[%arg3] : memref<16xf32>
      memref.store %0, %arg0[%arg4] : memref<16xf32>
    }
    scf.forall (%arg3) = (%c1) to (%arg1) step (2) {
      memref.store %arg2, %arg0[%arg3] : memref<16xf32>
    } {mapping = [#gpu.block<x>], tag}
    scf.forall (%arg3) in (16) {
      memref.store %arg2, %arg0[%arg3] : memref<16xf32>
    }
    scf.forall (%arg3) = (2) to (8) step (-1) {
    }
    return
  }
}

"""

SHARED_OUTS = """func.func @f(%t: tensor<16xf32>, %n: index) -> tensor<16xf32> {
  %r = scf.forall (%i) in (%n) shared_outs(%o = %t) -> (tensor<16xf32>) {
  }
  return %r : tensor<16xf32>
}
"""

SHARED_OUTS_GENERIC = """"builtin.module"() ({
  "func.func"() <{function_type = (tensor<16xf32>, index) -> tensor<16xf32>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<16xf32>, %arg1: index):
    %0 = "scf.forall"(%arg1, %arg0) <{operandSegmentSizes = array<i32: 0, 1, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
    ^bb0(%arg2: index, %arg3: tensor<16xf32>):
      "scf.forall.in_parallel"() ({
      ^bb0:
      }) : () -> ()
    }) : (index, tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%0) : (tensor<16xf32>) -> ()
  }) : () -> ()
}) : () -> ()

"""

SHARED_OUTS_PRINTED = """module {
  func.func @f(%arg0: tensor<16xf32>, %arg1: index) -> tensor<16xf32> {
    %0 = scf.forall (%arg2) in (%arg1) shared_outs(%arg3 = %arg0) -> (tensor<16xf32>) {
      scf.forall.in_parallel {
      }
    }
    return %0 : tensor<16xf32>
  }
}

"""

ARGS = "%n: index, %m: memref<4xf32>, %x: f32, %t: tensor<4xf32>"
STATIC = "staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>"
SEGMENTS = "operandSegmentSizes = array<i32: 0, 0, 0, 0>"


def _f(body: str) -> str:
    return f"func.func @f({ARGS}) {{\n  {body}\n  return\n}}\n"


def _generic(args: str, props: str, block: str, body: str, fn: str = "() -> ()") -> str:
    return _f(f'"scf.forall"({args}) <{{{props}}}> ({{\n  ^bb0({block}):\n    {body}\n  }}) : {fn}')


IN_PARALLEL = "scf.forall.in_parallel {}"

REFUSED: dict[str, tuple[str, str]] = {
    "too-few-bounds": (_f("scf.forall (%i, %j) in (4) {\n  }"), "2:3: error: expected 2 upper bound values, got 1"),
    "mapping-size": (
        _f("scf.forall (%i) in (4) {\n  } {mapping = [#gpu.block<x>, #gpu.block<y>]}"),
        "2:3: error: 'scf.forall' op mapping attribute size must match op rank",
    ),
    "mapping-kind": (
        _f("scf.forall (%i) in (4) {\n  } {mapping = [#gpu.address_space<workgroup>]}"),
        "2:3: error: 'scf.forall' op attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute",
    ),
    "dynamic-count": (
        _generic("%n", f"{SEGMENTS[:-12]}0, 1, 0, 0>, {STATIC}", "%a: index", IN_PARALLEL, "(index) -> ()"),
        "2:3: error: expected 0 dynamic upper bound values",
    ),
    "no-terminator": (
        _generic("", f"{SEGMENTS}, {STATIC}", "%a: index", "memref.store %x, %m[%a] : memref<4xf32>"),
        "4:5: error: block with no terminator, has "
        '"memref.store"(%arg2, %arg1, %arg4) : (f32, memref<4xf32>, index) -> ()',
    ),
    "empty-block": (
        _f(f'"scf.forall"() <{{{SEGMENTS}, {STATIC}}}> ({{\n  ^bb0(%a: index):\n  }}) : () -> ()'),
        "2:3: error: 'scf.forall' op expects a non-empty block",
    ),
    "argument-type": (
        _generic("", f"{SEGMENTS}, {STATIC}", "%a: i32", IN_PARALLEL),
        "2:3: error: 'scf.forall' op expects 0-th block argument to be an index",
    ),
    "argument-count": (
        _generic("", f"{SEGMENTS}, {STATIC}", "%a: index, %b: index", IN_PARALLEL),
        "2:3: error: 'scf.forall' op region expects 1 arguments",
    ),
    "results-without-outputs": (
        _generic("", f"{SEGMENTS}, {STATIC}", "%a: index", IN_PARALLEL, "() -> index"),
        "2:3: error: 'scf.forall' op produces 1 results, but has only 0 outputs",
    ),
    "memref-output": (
        _f("scf.forall (%i) in (4) shared_outs(%o = %m) -> (memref<4xf32>) {\n  }"),
        "2:3: error: 'scf.forall' op operand #0 must be variadic of ranked tensor of any type values, "
        "but got 'memref<4xf32>'",
    ),
    "non-index-bound": (
        _generic(
            "%x",
            f"{SEGMENTS[:-12]}0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, "
            "staticUpperBound = array<i64: -9223372036854775808>",
            "%a: index",
            IN_PARALLEL,
            "(f32) -> ()",
        ),
        "2:3: error: 'scf.forall' op operand #0 must be variadic of index, but got 'f32'",
    ),
    "outputs-and-types": (
        _f("scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>, f32) {\n  }"),
        "2:26: error: custom op 'scf.forall' 1 operands present, but expected 2",
    ),
    "terminator-body": (
        _f(
            "scf.forall (%i) in (4) {\n    scf.forall.in_parallel {\n      memref.store %x, %m[%i] : memref<4xf32>\n    }\n  }"
        ),
        "3:5: error: 'scf.forall.in_parallel' op expected only tensor.parallel_insert_slice ops",
    ),
    "terminator-without-block": (
        _f(
            f'"scf.forall"() <{{{SEGMENTS}, {STATIC}}}> ({{\n  ^bb0(%a: index):\n    "scf.forall.in_parallel"() ({{\n    }}) : () -> ()\n  }}) : () -> ()'
        ),
        "4:5: error: 'scf.forall.in_parallel' op region #0 ('region') failed to verify constraint: region with 1 blocks",
    ),
    "terminator-elsewhere": (
        _f("scf.forall.in_parallel {\n  }"),
        "2:3: error: 'scf.forall.in_parallel' op expects parent op 'scf.forall'",
    ),
    "yield-in-forall": (
        _generic("", f"{SEGMENTS}, {STATIC}", "%a: index", '"scf.yield"() : () -> ()'),
        "4:5: error: 'scf.yield' op expects parent op to be one of "
        "'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'",
    ),
}

KERNELS = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
"""

LAUNCH = "@k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"

GPU_INSIDE = (
    KERNELS
    + f"""  func.func @f(%d: memref<16xf32>, %h: memref<16xf32>, %n: index, %x: f32) {{
    %c1 = arith.constant 1 : index
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    scf.forall (%i) in (%n) {{
      gpu.launch_func {LAUNCH} args(%d : memref<16xf32>)
      memref.store %x, %h[%i] : memref<16xf32>
      gpu.memcpy %h, %d : memref<16xf32>, memref<16xf32>
    }} {{mapping = [#gpu.thread<x>]}}
    return
  }}
}}
"""
)

GPU_INSIDE_REWRITTEN = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%arg0: memref<16xf32>, %arg1: memref<16xf32>, %arg2: index, %arg3: f32) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.memcpy async [%0] %arg0, %arg1 : memref<16xf32>, memref<16xf32>
    gpu.wait [%1]
    scf.forall (%arg4) in (%arg2) {
      %2 = gpu.wait async
      %3 = gpu.launch_func async [%2] @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg0 : memref<16xf32>)
      gpu.wait [%3]
      memref.store %arg3, %arg1[%arg4] : memref<16xf32>
      %4 = gpu.wait async
      %5 = gpu.memcpy async [%4] %arg1, %arg0 : memref<16xf32>, memref<16xf32>
      gpu.wait [%5]
    } {mapping = [#gpu.thread<x>]}
    return
  }
}

"""


def test_bounds_print_as_19_prints_them() -> None:
    assert printed(LOOPS) == LOOPS_PRINTED


def test_the_generic_form_reads_back_to_the_same_ops() -> None:
    for text in (LOOPS, SHARED_OUTS):
        assert printed(printed(text, generic=True)) == printed(text)


def test_shared_outs_show_their_terminator() -> None:
    assert printed(SHARED_OUTS) == SHARED_OUTS_PRINTED
    assert printed(SHARED_OUTS, generic=True) == SHARED_OUTS_GENERIC


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_19s_first_error(name: str) -> None:
    text, expected = REFUSED[name]
    assert first_error(text) == expected


@pytest.mark.parametrize("mode", ["mlir19", "reference"])
def test_the_pass_waits_around_gpu_work_in_the_body(mode: str) -> None:
    result = rewrite(parse_module(GPU_INSIDE, "in.mlir"), mode)
    assert result.ok
    assert join_outputs([print_op(result.module)]) == GPU_INSIDE_REWRITTEN


@needs_mlir19
@pytest.mark.parametrize("text", [LOOPS, SHARED_OUTS, GPU_INSIDE], ids=["loops", "shared-outs", "gpu-inside"])
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_printed_as_mlir_opt_19(text: str, generic: bool, tmp_path: Path) -> None:
    run = run19_file(text, tmp_path, *(["--mlir-print-op-generic"] if generic else []))
    assert run.returncode == 0, run.stderr
    assert printed(text, generic) == run.stdout


@needs_mlir19
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_expected_error_is_mlir_opt_19s(name: str, tmp_path: Path) -> None:
    text, expected = REFUSED[name]
    assert refusal_19_file(text, tmp_path) == expected


@needs_mlir19
def test_the_rewrite_is_mlir_opt_19s(tmp_path: Path) -> None:
    run = run19_file(GPU_INSIDE, tmp_path, "-gpu-async-region")
    assert run.returncode == 0, run.stderr
    assert run.stdout == GPU_INSIDE_REWRITTEN
