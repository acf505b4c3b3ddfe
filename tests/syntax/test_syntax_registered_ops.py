"""The ops mlir-opt-19 registers in `gpu`,
`arith`, `math`, `index`, `func`, `memref`, and `scf.index_switch`
(read and printed by the dialects' syntax modules, `spec/dialects/<dialect>/syntax.py`).

Three kinds of checks:

- the wide corpus files of these ops (`tests/wide/NAME.mlir`, with
  mlir-opt-19's custom and generic printouts and `-gpu-async-region`
  output pasted in `tests/wide/expected/`): compared, without
  mlir-opt-19, by `tests/syntax/test_syntax_wide_expected.py` with the other wide files;
- `CASES`, every form of every op (attr-dicts where 19 reads them,
  optional parts present and absent): against mlir-opt-19 live (skipped
  without it), custom print, generic print, the generic print read back,
  and the pass in `--mode mlir19`;
- effects (where the pass waits, from 19's `-gpu-async-region`, pasted in
  `WAITED`) and refusals (19's first error line, pasted in `REFUSED`): run
  without mlir-opt-19, and re-checked against it when installed.
"""

from __future__ import annotations

import pytest

from spec import effects, registry
from spec.syntax.parser import parse_module
from tests.mlir_tools import needs_mlir19
from tests.support.op_forms import (
    assert_as_mlir_opt_19,
    assert_pass_as_mlir_opt_19,
    assert_round_trip,
    first_error_19,
    refusal,
    waits_before,
)

_FN = "func.func @f(%m: memref<16xf32>, %m2: memref<8x4xf32>, %d: memref<?xf32>, %i: index, %j: index, %a: i32, %x: f32, %tag: memref<1xi32>, %sh: memref<2xindex>) {\n"

CASES: dict[str, str] = {
    "gpu_binary": (
        'gpu.binary @plain [#gpu.object<#nvvm.target, "A">]\n'
        'gpu.binary @picked <#gpu.select_object<1>> {note = "x"} [#gpu.object<#nvvm.target<O = 3>, fatbin = "A">, '
        '#gpu.object<#rocdl.target, offload = "B">, #gpu.object<#nvvm.target, properties = {b = 1, a = "s"}, assembly = "C">]\n'
        'gpu.binary @default_written <#gpu.select_object> [#gpu.object<#nvvm.target<chip = "sm_50">, bin = "D">]\n'
    ),
    "gpu_kernel_ops": (
        "gpu.module @k {\n  gpu.func @g(%a: memref<32x32xf16>, %c: memref<32x32xf32>) kernel {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %x = gpu.cluster_block_id x\n    %y = gpu.cluster_dim_blocks y upper_bound 4 {tag}\n"
        "    %s = gpu.dynamic_shared_memory {k = 1} : memref<?xi8, #gpu.address_space<workgroup>>\n"
        '    %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">\n'
        '    %B = gpu.subgroup_mma_load_matrix %a[%x, %c0] {leadDimension = 32 : index, transpose, z} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">\n'
        "    %f = arith.constant 1.0 : f32\n"
        '    %C = gpu.subgroup_mma_constant_matrix %f {q} : !gpu.mma_matrix<16x16xf32, "COp">\n'
        '    %D = gpu.subgroup_mma_compute %A, %B, %C {a_transpose, b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">\n'
        '    %E = gpu.subgroup_mma_elementwise divf %D, %C {w} : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">\n'
        '    %F = gpu.subgroup_mma_elementwise extf %A : (!gpu.mma_matrix<16x16xf16, "AOp">) -> !gpu.mma_matrix<16x16xf32, "AOp">\n'
        '    gpu.subgroup_mma_store_matrix %E, %c[%c0, %y] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>\n'
        "    gpu.return\n  }\n}\n"
        "func.func @h(%dev: i32) {\n  gpu.set_default_device {why} %dev\n  gpu.set_default_device %dev\n  return\n}\n"
    ),
    "scalar": _FN
    + (
        "  %s, %o = arith.addui_extended %a, %a {k} : i32, i1\n"
        "  %l, %h = arith.mulsi_extended %a, %a : i32\n  %l2:2 = arith.mului_extended %a, %a {k} : i32\n"
        "  %q = arith.ceildivui %a, %a : i32\n"
        "  %n0 = math.absi %a : i32\n  %n1 = math.ctlz %a {k} : i32\n  %n2 = math.ctpop %a : i32\n  %n3 = math.cttz %a : i32\n"
        "  %m4 = math.ipowi %a, %a : i32\n  %m5 = math.fpowi %x, %a fastmath<nnan> {k} : f32, i32\n"
        "  %m6 = math.fma %x, %x, %x : f32\n  %m7 = math.acos %x : f32\n  %m8 = math.acosh %x fastmath<fast> : f32\n"
        "  %m9 = math.asin %x : f32\n  %m10 = math.asinh %x : f32\n  %m11 = math.atanh %x : f32\n  %m12 = math.cosh %x : f32\n"
        "  %m13 = math.sinh %x {k} : f32\n"
        "  %t = index.bool.constant true\n  %t2 = index.bool.constant {k} false\n"
        "  %c = index.constant 42\n  %c2 = index.constant {k} -7\n  %c3 = index.constant 0x20\n"
        "  %cs = index.casts %a : i32 to index\n  %cu = index.castu %i {k} : index to i64\n"
        "  %p = index.cmp sle(%i, %j)\n  %p2 = index.cmp ult(%i, %c) {k}\n  %z = index.sizeof\n"
        "  %fc = func.constant @g : (i32) -> i32\n  %fc2 = constant {k} @g : (i32) -> i32\n"
        "  %r = func.call_indirect %fc(%a) : (i32) -> i32\n  %r2 = call_indirect %fc2(%a) {k} : (i32) -> i32\n"
        "  return\n}\nfunc.func private @g(i32) -> i32\n"
    ),
    "memref": _FN
    + (
        "  memref.alloca_scope {\n    %t = memref.alloca() : memref<4xf32>\n  }\n"
        "  %v = memref.alloca_scope -> (f32) {\n    memref.alloca_scope.return %x : f32\n  } {k}\n"
        "  %v2 = memref.alloca_scope -> f32 {\n    memref.alloca_scope.return {k} %x : f32\n  }\n"
        "  memref.assume_alignment %d, 32 {k} : memref<?xf32>\n"
        "  %g = memref.generic_atomic_rmw %m2[%i, %j] : memref<8x4xf32> {\n  ^bb0(%cur: f32):\n"
        "    %n = arith.mulf %cur, %x : f32\n    memref.atomic_yield %n {k} : f32\n  } {k}\n"
        "  memref.dma_start %m[%i], %d[%j], %i, %tag[%i] : memref<16xf32>, memref<?xf32>, memref<1xi32>\n"
        "  memref.dma_start %m2[%i, %j], %m2[%j, %i], %i, %tag[%i], %j, %i : memref<8x4xf32>, memref<8x4xf32>, memref<1xi32>\n"
        "  memref.dma_wait %tag[%i], %j {k} : memref<1xi32>\n"
        "  %p = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index {k}\n"
        "  %b, %o, %sz:2, %st:2 = memref.extract_strided_metadata %m2 : memref<8x4xf32> -> memref<f32>, index, index, index, index, index\n"
        "  %c = memref.memory_space_cast %d {k} : memref<?xf32> to memref<?xf32, 3>\n"
        "  memref.prefetch %m2[%i, %j], write, locality<0>, instr : memref<8x4xf32>\n"
        "  memref.prefetch %m[%i], read, locality<2>, data : memref<16xf32>\n"
        "  %r = memref.rank %d {k} : memref<?xf32>\n"
        "  %n1 = memref.realloc %m : memref<16xf32> to memref<32xf32>\n"
        "  %n2 = memref.realloc %d(%i) {alignment = 8 : i64, k} : memref<?xf32> to memref<?xf32>\n"
        "  %rs = memref.reshape %m(%sh) {k} : (memref<16xf32>, memref<2xindex>) -> memref<?x?xf32>\n"
        "  %tr = memref.transpose %m2 (a, b) -> (b, a) {k} : memref<8x4xf32> to memref<4x8xf32, strided<[1, 4]>>\n"
        "  return\n}\n"
    ),
    "index_switch": _FN
    + (
        "  %r:2 = scf.index_switch %i {k} -> f32, i32\n  case 2 {\n    scf.yield %x, %a : f32, i32\n  }\n"
        "  case -3 {\n    %y = arith.addf %x, %x : f32\n    scf.yield %y, %a : f32, i32\n  }\n"
        "  default {\n    scf.yield {q} %x, %a : f32, i32\n  }\n"
        "  scf.index_switch %j\n  default {\n  }\n"
        "  scf.index_switch %j\n  case 0x10 {\n    scf.yield\n  }\n  default {\n    scf.yield {k}\n  }\n"
        "  return\n}\n"
    ),
}
"""Every form of the new ops, each checked against mlir-opt-19 when it is
installed (`test_cases_against_mlir_opt_19`); `test_cases_round_trip`
checks what can be checked without it."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_round_trip(case: str) -> None:
    """Custom and generic prints read back to the same module (without 19)."""
    assert_round_trip(CASES[case])


@needs_mlir19
@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_against_mlir_opt_19(case: str) -> None:
    assert_as_mlir_opt_19(CASES[case])


_HOST = (
    "func.func private @g(i32) -> i32\n"
    "func.func @f(%dev: memref<16xf32>, %x: f32, %n: i32, %i: index, %h: memref<16xf16>, %hf: memref<16xf32>, "
    '%mm: !gpu.mma_matrix<16x16xf32, "COp">, %tag: memref<1xi32>, %sh: memref<1xindex>, %h2: memref<4x4xf32>, %fp: (i32) -> i32) {\n'
    "  gpu.memset %dev, %x : memref<16xf32>, f32\n  OP\n  gpu.memset %dev, %x : memref<16xf32>, f32\n  return\n}\n"
)

WAITED: dict[str, bool] = {
    "gpu.set_default_device %n": True,
    '%q = gpu.subgroup_mma_load_matrix %h[%i] {leadDimension = 16 : index} : memref<16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">': True,
    'gpu.subgroup_mma_store_matrix %mm, %hf[%i] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16xf32>': True,
    '%q = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">': False,
    '%q = gpu.subgroup_mma_elementwise negatef %mm : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">': False,
    "%q = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>": False,
    "%q = gpu.cluster_block_id x": False,
    "%q:2 = arith.addui_extended %n, %n : i32, i1": False,
    "%q = math.fma %x, %x, %x : f32": False,
    "%q = math.ctlz %n : i32": False,
    "%q = index.sizeof": False,
    "%q = index.cmp slt(%i, %i)": False,
    "%q = func.constant @g : (i32) -> i32": False,
    "%q = func.call_indirect %fp(%n) : (i32) -> i32": True,
    "memref.assume_alignment %hf, 16 : memref<16xf32>": True,
    "memref.dma_start %hf[%i], %hf[%i], %i, %tag[%i] : memref<16xf32>, memref<16xf32>, memref<1xi32>": True,
    "memref.dma_wait %tag[%i], %i : memref<1xi32>": True,
    "%q = memref.extract_aligned_pointer_as_index %hf : memref<16xf32> -> index": False,
    "%q = memref.memory_space_cast %hf : memref<16xf32> to memref<16xf32, 1>": False,
    "memref.prefetch %hf[%i], read, locality<3>, data : memref<16xf32>": True,
    "%q = memref.rank %hf : memref<16xf32>": False,
    "%q = memref.realloc %hf : memref<16xf32> to memref<32xf32>": True,
    "%q = memref.reshape %hf(%sh) : (memref<16xf32>, memref<1xindex>) -> memref<16xf32>": False,
    "%q = memref.transpose %h2 (i, j) -> (j, i) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>": False,
    "%q = memref.generic_atomic_rmw %hf[%i] : memref<16xf32> {\n  ^bb0(%c: f32):\n    memref.atomic_yield %c : f32\n  }": True,
    "memref.alloca_scope {\n    %z = arith.addf %x, %x : f32\n  }": False,
    "memref.alloca_scope {\n    %z = memref.alloca() : memref<4xf32>\n  }": True,
    "scf.index_switch %i\n  case 1 {\n    scf.yield\n  }\n  default {\n  }": False,
    "scf.index_switch %i\n  case 1 {\n    memref.store %x, %hf[%i] : memref<16xf32>\n    scf.yield\n  }\n  default {\n  }": True,
}
"""Whether mlir-opt-19's -gpu-async-region waits for the first `gpu.memset`
before the op (it does before an op that is not memory-effect free):
observed with 19, one op at a time between two memsets."""


def _host(op: str) -> str:
    return _HOST.replace("OP", op)


def _op_name(op: str) -> str:
    return next(w for w in op.split() if "." in w)


@pytest.mark.parametrize("op", sorted(WAITED), ids=[_op_name(o) for o in sorted(WAITED)])
def test_effects_are_mlir_opt_19s(op: str) -> None:
    module = parse_module(_host(op))
    func = module.regions[0].blocks[0].ops[1]
    target = func.regions[0].blocks[0].ops[1]
    assert effects.is_memory_effect_free(target) is not WAITED[op]
    shown = _op_name(op).removeprefix("func.")  # printed without its default dialect
    assert waits_before(_host(op), shown) == int(WAITED[op])


@needs_mlir19
@pytest.mark.parametrize("op", sorted(WAITED), ids=[_op_name(o) for o in sorted(WAITED)])
def test_effects_against_mlir_opt_19(op: str) -> None:
    assert_pass_as_mlir_opt_19(_host(op))


REFUSED: dict[str, str] = {
    "%0 = gpu.subgroup_mma_elementwise bogus %x : (f32) -> f32": (
        "2:37: custom op 'gpu.subgroup_mma_elementwise' expected ::mlir::gpu::MMAElementwiseOp to be one of: "
        "addf, mulf, subf, maxf, minf, divf, addi, muli, subi, divs, divu, negatef, negates, extf"
    ),
    '%0 = gpu.subgroup_mma_load_matrix %m[%i] : memref<16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">': (
        "2:8: 'gpu.subgroup_mma_load_matrix' op requires attribute 'leadDimension'"
    ),
    "%0 = index.cmp foo(%i, %i)": (
        "2:18: custom op 'index.cmp' expected ::mlir::index::IndexCmpPredicate to be one of: "
        "eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge"
    ),
    "memref.prefetch %m[%i], rw, locality<3>, data : memref<16xf32>": "2:3: custom op 'memref.prefetch' rw specifier has to be 'read' or 'write'",
    "memref.prefetch %m[%i], read, locality<5>, data : memref<16xf32>": (
        "2:3: 'memref.prefetch' op attribute 'localityHint' failed to satisfy constraint: "
        "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3"
    ),
    "memref.prefetch %m[%i], read, locality<1>, cache : memref<16xf32>": "2:3: custom op 'memref.prefetch' cache type has to be 'data' or 'instr'",
    "memref.assume_alignment %m, 0 : memref<16xf32>": (
        "2:3: 'memref.assume_alignment' op attribute 'alignment' failed to satisfy constraint: "
        "32-bit signless integer attribute whose value is positive"
    ),
    '%0 = "arith.addui_extended"(%a, %a) : (i32, i32) -> i32': "2:8: 'arith.addui_extended' op expected 2 results",
    '%0 = "index.constant"() {value = 1} : () -> index': "2:8: 'index.constant' op attribute 'value' failed to satisfy constraint: index attribute",
    '%0 = "index.bool.constant"() <{value = 1 : i32}> : () -> i1': (
        "2:8: invalid properties {value = 1 : i32} for op index.bool.constant: Invalid attribute `value` in property conversion: 1 : i32"
    ),
    '%0:2 = "memref.rank"(%m) : (memref<16xf32>) -> (index, index)': "2:10: 'memref.rank' op requires one result",
    "scf.index_switch %i\n  case 1 {\n  }\n  default {\n  }": (
        "2:3: 'scf.index_switch' op region #1 ('caseRegions') failed to verify constraint: region with 1 blocks"
    ),
    '%0 = "func.constant"() : () -> ((i32) -> i32)': "2:8: 'func.constant' op requires attribute 'value'",
    '"gpu.set_default_device"(%a, %a) : (i32, i32) -> ()': "2:3: 'gpu.set_default_device' op requires a single operand",
    "%0 = memref.transpose %m (d0) -> (d0 + 1) : memref<16xf32> to memref<16xf32>": "2:8: 'memref.transpose' op expected a permutation map",
    '"gpu.binary"() <{objects = [], sym_name = "b"}> : () -> ()': (
        "2:3: 'gpu.binary' op attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements"
    ),
    "%0 = memref.alloca_scope -> (f32) {\n  }": (
        "2:8: 'memref.alloca_scope' op  region control flow edge from Region #0 to parent results: "
        "source has 0 operands, but target successor needs 1"
    ),
    "%0 = gpu.subgroup_mma_elementwise addf %x : (f32, f32) -> f32": (
        "2:42: custom op 'gpu.subgroup_mma_elementwise' 1 operands present, but expected 2"
    ),
    "memref.prefetch %m[%i], read, locality<1>, data {w} : memref<16xf32>": "2:50: expected ':'",
}
"""Line:column and first error line of mlir-opt-19 on each op in `_BAD`."""

_BAD = "func.func @f(%m: memref<16xf32>, %i: index, %a: i32, %x: f32) {\n  OP\n  return\n}\n"


@pytest.mark.parametrize("bad", sorted(REFUSED), ids=[b.split("(")[0][:40] for b in sorted(REFUSED)])
def test_refused_as_mlir_opt_19_refuses(bad: str) -> None:
    assert refusal(_BAD.replace("OP", bad)) == REFUSED[bad]


@needs_mlir19
@pytest.mark.parametrize("bad", sorted(REFUSED), ids=[b.split("(")[0][:40] for b in sorted(REFUSED)])
def test_refusals_are_mlir_opt_19s(bad: str) -> None:
    assert first_error_19(_BAD.replace("OP", bad)) == REFUSED[bad]


def test_registry_counts() -> None:
    """The README's table: every op of the six dialects mlir-opt-19
    registers is known."""
    missing = {
        n
        for d in ("gpu", "memref", "arith", "func", "scf", "cf")
        for n in registry.COMPLETE_DIALECTS[d]
        if not registry.is_known(n)
    }
    assert missing == set()
    assert all(
        registry.is_known(f"math.{n}")
        for n in "absi acos acosh asin asinh atanh cosh ctlz ctpop cttz fma fpowi ipowi sinh".split()
    )
    assert all(registry.is_known(f"index.{n}") for n in "bool.constant casts castu cmp constant sizeof".split())
