"""Issue 16 steps 3-4: syntax mlir-opt-19 takes that we refused, and the ops
found around the pass (their dialects' syntax modules, `spec/dialects/<dialect>/syntax.py`).

Each case is one input and the custom form we print, written after checking
it with mlir-opt-19 (so these run without it); with mlir-opt-19 installed,
the custom and generic printouts and `--mode mlir19` are compared with it
on every chunk of `tests/wide/` and on each case.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from refimpl import rewrite
from spec import effects
from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module, split_input
from spec.syntax.printing import print_op
from tests.mlir_tools import MLIR_OPT_19, needs_mlir19

WIDE = Path(__file__).resolve().parents[1] / "wide"

_HEAD = (
    "func.func @f(%n: index, %c: i1, %m: memref<8xf32>, %u: memref<*xf32>, %x: f32, %i: i32, %r: memref<16xi32>) {\n"
)

CASES: dict[str, str] = {
    # name: the function body written
    "for-single-type": (
        "%c0 = arith.constant 0 : index\n"
        "%s = scf.for %k = %c0 to %n step %n iter_args(%a = %c0) -> index {\n"
        "  scf.yield %a : index\n"
        "}"
    ),
    "if-single-type": ("%v = scf.if %c -> f32 {\n  scf.yield %x : f32\n} else {\n  scf.yield %x : f32\n}"),
    "while-attributes": (
        "scf.while : () -> () {\n  scf.condition(%c)\n} do {\n  scf.yield\n} attributes {tag = 1 : i64}"
    ),
    "ops-around-the-pass": (
        "gpu.host_register %u : memref<*xf32>\n"
        "%o = memref.atomic_rmw addi %i, %r[%n] : (i32, memref<16xi32>) -> i32\n"
        "%s = math.sqrt %x fastmath<fast> : f32\n"
        "%p = math.powf %x, %s : f32\n"
        "%v = vector.load %m[%n] : memref<8xf32>, vector<4xf32>\n"
        "vector.store %v, %m[%n] : memref<8xf32>, vector<4xf32>\n"
        "vector.print %v : vector<4xf32>\n"
        "%w = vector.broadcast %x : f32 to vector<4xf32>\n"
        "%q = index.add %n, %n\n"
        "%g = gpu.global_id y upper_bound 8\n"
        "%l = gpu.lane_id\n"
        "%z = gpu.subgroup_size : index\n"
        "%sh, %ok = gpu.shuffle idx %x, %i, %i : f32\n"
        "%red = gpu.subgroup_reduce add %x uniform : (f32) -> f32\n"
        'gpu.printf "%d" %i : i32\n'
        "gpu.host_unregister %u : memref<*xf32>"
    ),
}

EXPECTED: dict[str, str] = {
    "for-single-type": (
        "module {\n  func.func @f(%arg0: index, %arg1: i1, %arg2: memref<8xf32>, %arg3: memref<*xf32>, %arg4: f32, %arg5: i32, %arg6: memref<16xi32>) {\n    %c0 = arith.constant 0 : index\n    %0 = scf.for %arg7 = %c0 to %arg0 step %arg0 iter_args(%arg8 = %c0) -> (index) {\n      scf.yield %arg8 : index\n    }\n    return\n  }\n}\n\n"
    ),
    "if-single-type": (
        "module {\n  func.func @f(%arg0: index, %arg1: i1, %arg2: memref<8xf32>, %arg3: memref<*xf32>, %arg4: f32, %arg5: i32, %arg6: memref<16xi32>) {\n    %0 = scf.if %arg1 -> (f32) {\n      scf.yield %arg4 : f32\n    } else {\n      scf.yield %arg4 : f32\n    }\n    return\n  }\n}\n\n"
    ),
    "while-attributes": (
        "module {\n  func.func @f(%arg0: index, %arg1: i1, %arg2: memref<8xf32>, %arg3: memref<*xf32>, %arg4: f32, %arg5: i32, %arg6: memref<16xi32>) {\n    scf.while : () -> () {\n      scf.condition(%arg1)\n    } do {\n      scf.yield\n    } attributes {tag = 1 : i64}\n    return\n  }\n}\n\n"
    ),
    "ops-around-the-pass": (
        'module {\n  func.func @f(%arg0: index, %arg1: i1, %arg2: memref<8xf32>, %arg3: memref<*xf32>, %arg4: f32, %arg5: i32, %arg6: memref<16xi32>) {\n    gpu.host_register %arg3 : memref<*xf32>\n    %0 = memref.atomic_rmw addi %arg5, %arg6[%arg0] : (i32, memref<16xi32>) -> i32\n    %1 = math.sqrt %arg4 fastmath<fast> : f32\n    %2 = math.powf %arg4, %1 : f32\n    %3 = vector.load %arg2[%arg0] : memref<8xf32>, vector<4xf32>\n    vector.store %3, %arg2[%arg0] : memref<8xf32>, vector<4xf32>\n    vector.print %3 : vector<4xf32>\n    %4 = vector.broadcast %arg4 : f32 to vector<4xf32>\n    %5 = index.add %arg0, %arg0\n    %global_id_y = gpu.global_id  y upper_bound 8\n    %6 = gpu.lane_id\n    %7 = gpu.subgroup_size : index\n    %shuffleResult, %valid = gpu.shuffle  idx %arg4, %arg5, %arg5 : f32\n    %8 = gpu.subgroup_reduce  add %arg4 uniform : (f32) -> f32\n    gpu.printf "%d" %arg5 : i32\n    gpu.host_unregister %arg3 : memref<*xf32>\n    return\n  }\n}\n\n'
    ),
}
"""What mlir-opt-19 prints for each case (its output, pasted)."""

_LAUNCH_19 = "module attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @f(%arg0: memref<?xf32>) kernel {\n      gpu.return\n    }\n  }\n  func.func @main(%arg0: i64, %arg1: index, %arg2: memref<?xf32>, %arg3: i32) {\n    gpu.launch_func  @k::@f clusters in (%arg0, %arg0, %arg0) blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0) : i64 dynamic_shared_memory_size %arg3 args(%arg2 : memref<?xf32>)\n    %0 = gpu.wait async\n    %1 = gpu.launch_func async [%0] @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0) : i64 args(%arg2 : memref<?xf32>)\n    gpu.launch clusters(%arg16, %arg17, %arg18) in (%arg19 = %arg1, %arg20 = %arg1, %arg21 = %arg1) blocks(%arg4, %arg5, %arg6) in (%arg10 = %arg1, %arg11 = %arg1, %arg12 = %arg1) threads(%arg7, %arg8, %arg9) in (%arg13 = %arg1, %arg14 = %arg1, %arg15 = %arg1) {\n      gpu.terminator\n    }\n    return\n  }\n}\n"
"""`clusters in` before `blocks`, a non-index size type, `gpu.launch clusters(...)`,
written as mlir-opt-19 prints them."""
LAUNCH_PRINTED = "module attributes {gpu.container_module} {\n  gpu.module @k {\n    gpu.func @f(%arg0: memref<?xf32>) kernel {\n      gpu.return\n    }\n  }\n  func.func @main(%arg0: i64, %arg1: index, %arg2: memref<?xf32>, %arg3: i32) {\n    gpu.launch_func  @k::@f clusters in (%arg0, %arg0, %arg0) blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0) : i64 dynamic_shared_memory_size %arg3 args(%arg2 : memref<?xf32>)\n    %0 = gpu.wait async\n    %1 = gpu.launch_func async [%0] @k::@f blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0) : i64 args(%arg2 : memref<?xf32>)\n    gpu.launch clusters(%arg16, %arg17, %arg18) in (%arg19 = %arg1, %arg20 = %arg1, %arg21 = %arg1) blocks(%arg4, %arg5, %arg6) in (%arg10 = %arg1, %arg11 = %arg1, %arg12 = %arg1) threads(%arg7, %arg8, %arg9) in (%arg13 = %arg1, %arg14 = %arg1, %arg15 = %arg1) {\n      gpu.terminator\n    }\n    return\n  }\n}\n\n"


def _module(body: str) -> str:
    return _HEAD + "".join(f"  {ln}\n" for ln in body.split("\n")) + "  return\n}\n"


@pytest.mark.parametrize("case", sorted(CASES))
def test_prints_as_mlir_opt_19(case: str) -> None:
    module = parse_module(_module(CASES[case]))
    assert print_op(module) + "\n" == EXPECTED[case]
    # The generic form reads back to the same custom form.
    assert print_op(parse_module(print_op(module, True))) + "\n" == EXPECTED[case]


def test_launch_forms_print_as_mlir_opt_19() -> None:
    module = parse_module(_LAUNCH_19)
    assert print_op(module) + "\n" == LAUNCH_PRINTED
    assert print_op(parse_module(print_op(module, True))) + "\n" == LAUNCH_PRINTED


@pytest.mark.parametrize(
    "bad",
    [
        # mlir-opt-19 reads clusters only before blocks, and a while's dict only after `attributes`.
        "gpu.launch_func @k::@f blocks in (%n, %n, %n) threads in (%n, %n, %n) clusters in (%n, %n, %n)",
        "scf.while : () -> () {\n  scf.condition(%c)\n} do {\n  scf.yield\n} {tag = 1 : i64}",
        "%o = memref.atomic_rmw bogus %i, %r[%n] : (i32, memref<16xi32>) -> i32",
        '%o = "memref.atomic_rmw"(%x, %m, %n) <{kind = 1 : i64}> : (f32, memref<8xf32>, index) -> f32',
    ],
)
def test_what_mlir_opt_19_refuses_is_refused(bad: str) -> None:
    with pytest.raises(DiagnosticError):
        parse_module(_module(bad))


def test_effects_are_mlir_opt_19s() -> None:
    """Which of the new ops keep a token chain open (pure) and which the pass
    waits before, as mlir-opt-19 -gpu-async-region does."""
    module = parse_module(_module(CASES["ops-around-the-pass"]))
    func = module.regions[0].blocks[0].ops[0]
    free = {op.name: effects.is_memory_effect_free(op) for op in func.regions[0].blocks[0].ops}
    assert free == {
        "gpu.host_register": False, "memref.atomic_rmw": False, "math.sqrt": True, "math.powf": True,
        "vector.load": False, "vector.store": False, "vector.print": False, "vector.broadcast": True,
        "index.add": True, "gpu.global_id": True, "gpu.lane_id": True, "gpu.subgroup_size": True,
        "gpu.shuffle": True, "gpu.subgroup_reduce": False, "gpu.printf": False, "gpu.host_unregister": False,
        "func.return": True,
    }  # fmt: skip


def _run19(text: str, *flags: str) -> subprocess.CompletedProcess[str]:
    assert MLIR_OPT_19 is not None
    return subprocess.run([MLIR_OPT_19, *flags, "-"], input=text, capture_output=True, text=True, timeout=120)


@needs_mlir19
@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_against_mlir_opt_19(case: str) -> None:
    text = _module(CASES[case])
    assert _run19(text).stdout == EXPECTED[case]
    assert _run19(text, "--mlir-print-op-generic").stdout == print_op(parse_module(text), True) + "\n"
    assert _run19(_LAUNCH_19).stdout == LAUNCH_PRINTED


def _wide_chunks() -> list[tuple[str, str]]:
    out = []
    for path in sorted(WIDE.glob("*.mlir")):
        for chunk, offset in split_input(path.read_text()):
            out.append((f"{path.name}:{offset + 1}", "\n" * offset + chunk))
    return out


@needs_mlir19
@pytest.mark.parametrize("name,text", _wide_chunks(), ids=[n for n, _ in _wide_chunks()])
def test_wide_chunks_against_mlir_opt_19(name: str, text: str) -> None:
    """Every chunk both accept prints and rewrites byte-identically; the
    chunks we still refuse are those of ops not in the registry yet."""
    assert _run19(text).returncode == 0
    try:
        module = parse_module(text, name)
    except DiagnosticError as exc:
        assert "is unknown" in exc.diagnostics[0].message or "#map" in exc.diagnostics[0].message, exc.diagnostics[
            0
        ].message
        pytest.skip(f"refused: {exc.diagnostics[0].message}")
    assert print_op(module) + "\n" == _run19(text).stdout
    assert print_op(module, True) + "\n" == _run19(text, "--mlir-print-op-generic").stdout
    result = rewrite(parse_module(text, name), "mlir19")
    upstream = _run19(text, "-gpu-async-region")
    assert not result.diagnostics and upstream.returncode == 0
    assert print_op(result.module) + "\n" == upstream.stdout


VECTOR_PRINT_IN = """func.func @f(%x: f32) {
  "vector.print"(%x)  {punctuation = #vector.punctuation<comma>} : (f32) -> ()
  "vector.print"() {punctuation = #vector.punctuation<newline>, stringLiteral = "s"} : () -> ()
  "vector.print"() {punctuation = #vector.punctuation<no_punctuation>} : () -> ()
  "vector.print"() : () -> ()
  vector.print %x : f32 punctuation <close>
  vector.print str "a\\n b"
  return
}
"""
VECTOR_PRINT_OUT = """module {
  func.func @f(%arg0: f32) {
    vector.print %arg0 : f32 punctuation <comma>
    vector.print str "s"
    vector.print punctuation <no_punctuation>
    vector.print
    vector.print %arg0 : f32 punctuation <close>
    vector.print str "a\\0A b"
    return
  }
}
"""
"""`VECTOR_PRINT_IN` as mlir-opt-19 prints it (checked with it)."""


def test_vector_print_in_every_form() -> None:
    out = print_op(parse_module(VECTOR_PRINT_IN, "v.mlir"))
    assert out == VECTOR_PRINT_OUT
    assert print_op(parse_module(out, "v2.mlir")) == out
    if MLIR_OPT_19 is not None:
        ref = subprocess.run([MLIR_OPT_19, "-"], input=VECTOR_PRINT_IN, capture_output=True, text=True, check=True)
        assert ref.stdout == out + "\n"


def test_vector_print_string_with_a_source_is_refused_as_19_does() -> None:
    bad = 'func.func @f(%x: f32) {\n  "vector.print"(%x) {stringLiteral = "s"} : (f32) -> ()\n  return\n}\n'
    with pytest.raises(
        DiagnosticError, match="failed to verify that `source` or `punctuation` are not set when printing strings"
    ):
        parse_module(bad, "v.mlir")
