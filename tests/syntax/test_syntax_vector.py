"""The `vector` ops host code uses around launches (`spec/dialects/vector/syntax.py`,
their checks `spec/dialects/vector/verifiers.py`): `bitcast`, `shape_cast`,
`type_cast`, `transpose`, `fma`, `extract`, `insert`, `reduction`,
`outerproduct`, `contract`, `constant_mask`, `create_mask`, `gather`,
`compressstore`, `transfer_read`, `transfer_write`, with `broadcast`,
`splat`, `load` and `store`.

Four kinds of checks, on inputs of this project's own:

- `CASES`, every form of each op (attr-dicts, masks, scalable and 0-d
  vectors, defaults written and left out): read back from their custom and
  generic prints without mlir-opt-19, and against it live (custom print,
  generic print, the generic print read back, the pass in `--mode mlir19`);
- `WAITED`, where mlir-opt-19's `-gpu-async-region` waits for a `gpu.memset`
  before the op (before the ops that touch memory): pasted from 19, run
  without it and re-checked against it;
- `REFUSED`, 19's first error line on each invalid use, pasted, run
  without it and re-checked against it;
- `HOST`, a host function with vector ops around GPU ops: rewritten by
  `python -m refimpl` (as 19 rewrites it, where installed) and proved by
  `python -m verifier check`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spec import effects, registry
from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from tests.mlir_tools import needs_mlir19
from tests.support.against_mlir19 import ours, theirs, write_input
from tests.support.op_forms import (
    assert_as_mlir_opt_19,
    assert_pass_as_mlir_opt_19,
    assert_round_trip,
    first_error_19,
    refusal,
    run19,
    waits_before,
)

REPO = Path(__file__).resolve().parents[2]

_FN = (
    "func.func @f(%m: memref<8x16xf32>, %v: vector<4xf32>, %w: vector<16xf32>, %m2: vector<2x4xf32>, "
    "%m44: vector<4x4xf32>, %i: index, %k: vector<16xi1>, %iv: vector<16xi32>, %s: f32, %b: memref<2x4xf32>, "
    "%n: i32, %sv: vector<[4]xf32>, %z: vector<f32>) -> f32 {\n"
)
_END = "  return %s : f32\n}\n"
_MAPS = (
    "#mk = affine_map<(d0, d1, d2) -> (d0, d2)>\n#nk = affine_map<(d0, d1, d2) -> (d2, d1)>\n"
    "#mn = affine_map<(d0, d1, d2) -> (d0, d1)>\n"
)


def _body(*ops: str) -> str:
    return _FN + "".join(f"  {op}\n" for op in ops) + _END


CASES: dict[str, str] = {
    "casts": _body(
        "%0 = vector.bitcast %v : vector<4xf32> to vector<8xf16>",
        "%1 = vector.bitcast %v {note} : vector<4xf32> to vector<4xi32>",
        "%2 = vector.bitcast %z : vector<f32> to vector<i32>",
        "%3 = vector.shape_cast %m2 : vector<2x4xf32> to vector<8xf32>",
        "%4 = vector.shape_cast %z : vector<f32> to vector<1xf32>",
        "%5 = vector.type_cast %b : memref<2x4xf32> to memref<vector<2x4xf32>>",
        "%6 = vector.type_cast %b {x = 1 : i32} : memref<2x4xf32> to memref<2xvector<4xf32>>",
        "%7 = vector.broadcast %s : f32 to vector<[4]xf32>",
        "%8 = vector.splat %s : vector<4xf32>",
    ),
    "transpose_fma": _body(
        "%0 = vector.transpose %m2, [1, 0] : vector<2x4xf32> to vector<4x2xf32>",
        '%1 = vector.transpose %sv, [0] {b = "x"} : vector<[4]xf32> to vector<[4]xf32>',
        "%2 = vector.fma %v, %v, %v : vector<4xf32>",
        "%3 = vector.fma %sv, %sv, %sv {a} : vector<[4]xf32>",
    ),
    "extract_insert": _body(
        "%0 = vector.extract %m2[1] : vector<4xf32> from vector<2x4xf32>",
        "%1 = vector.extract %m2[%i, 2] : f32 from vector<2x4xf32>",
        "%2 = vector.extract %z[] : f32 from vector<f32>",
        "%3 = vector.extract %sv[0] {foo = 1 : i32} : f32 from vector<[4]xf32>",
        "%4 = vector.insert %s, %m2 [1, %i] : f32 into vector<2x4xf32>",
        "%5 = vector.insert %v, %m2 [0] : vector<4xf32> into vector<2x4xf32>",
    ),
    "reduction": _body(
        "%0 = vector.reduction <add>, %v : vector<4xf32> into f32",
        "%1 = vector.reduction <maxnumf>, %v, %s fastmath<nnan> : vector<4xf32> into f32",
        "%2 = vector.reduction <mul>, %iv : vector<16xi32> into i32",
        "%3 = vector.reduction <xor>, %iv, %n {tag} : vector<16xi32> into i32",
        "%4 = vector.reduction <add>, %sv : vector<[4]xf32> into f32",
        "%5 = vector.reduction <minimumf>, %v fastmath<fast> : vector<4xf32> into f32",
    ),
    "outerproduct": _body(
        "%0 = vector.outerproduct %v, %v : vector<4xf32>, vector<4xf32>",
        "%1 = vector.outerproduct %v, %v, %m44 {kind = #vector.kind<mul>} : vector<4xf32>, vector<4xf32>",
        "%2 = vector.outerproduct %v, %v, %m44 : vector<4xf32>, vector<4xf32>",
        "%3 = vector.outerproduct %v, %s : vector<4xf32>, f32",
        "%4 = vector.outerproduct %sv, %sv : vector<[4]xf32>, vector<[4]xf32>",
    ),
    "outerproduct_attributes_dropped": _body(
        "%0 = vector.outerproduct %v, %v {kind = #vector.kind<maxnumf>, tag} : vector<4xf32>, vector<4xf32>",
    ),
    "contract": _MAPS
    + _body(
        '%0 = vector.contract {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"], '
        "kind = #vector.kind<add>} %m44, %m44, %m44 : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>",
        "%1 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], "
        'iterator_types = ["reduction"]} %v, %v, %s {tag} : vector<4xf32>, vector<4xf32> into f32',
        '%2 = vector.contract {iterator_types = ["parallel", "parallel", "reduction"], indexing_maps = [#mk, #nk, #mn], '
        "kind = #vector.kind<maxnumf>} %m44, %m44, %m44 : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>",
    ),
    "masks": _body(
        "%0 = vector.constant_mask [2, 3] : vector<4x4xi1>",
        "%1 = vector.constant_mask [0, 0] {m} : vector<4x4xi1>",
        "%2 = vector.constant_mask [4] : vector<[4]xi1>",
        "%3 = vector.create_mask %i, %i : vector<4x4xi1>",
        "%4 = vector.create_mask %i {m} : vector<[4]xi1>",
    ),
    "from_elements": _body(
        "%0 = vector.from_elements %s, %s, %s, %s : vector<4xf32>",
        "%1 = vector.from_elements %s, %s {e} : vector<1x2xf32>",
        "%2 = vector.from_elements %s : vector<f32>",
        "%3 = vector.from_elements %i : vector<[1]xindex>",
    ),
    "gather_compressstore": _body(
        "%0 = vector.gather %m[%i, %i] [%iv], %k, %w : memref<8x16xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>",
        "vector.compressstore %m[%i, %i], %k, %w : memref<8x16xf32>, vector<16xi1>, vector<16xf32>",
        "vector.compressstore %m[%i, %i], %k, %w {c} : memref<8x16xf32>, vector<16xi1>, vector<16xf32>",
    ),
    "transfers": _body(
        "%0 = vector.transfer_read %m[%i, %i], %s : memref<8x16xf32>, vector<4xf32>",
        "%1 = vector.transfer_read %m[%i, %i], %s {in_bounds = [true, false], "
        "permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x16xf32>, vector<4x2xf32>",
        "%2 = vector.transfer_read %m[%i, %i], %s, %k {in_bounds = [true]} : memref<8x16xf32>, vector<16xf32>",
        "%3 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> (0)>, in_bounds = [true]} "
        ": memref<8x16xf32>, vector<4xf32>",
        "%4 = vector.transfer_read %b[%i, %i], %s {in_bounds = [false, false]} : memref<2x4xf32>, vector<2x4xf32>",
        "vector.transfer_write %w, %m[%i, %i] : vector<16xf32>, memref<8x16xf32>",
        "vector.transfer_write %w, %m[%i, %i], %k {in_bounds = [false]} : vector<16xf32>, memref<8x16xf32>",
        "vector.transfer_write %sv, %m[%i, %i] {in_bounds = [true], c} : vector<[4]xf32>, memref<8x16xf32>",
        "%5 = vector.load %m[%i, %i] : memref<8x16xf32>, vector<4xf32>",
        "vector.store %v, %m[%i, %i] : memref<8x16xf32>, vector<4xf32>",
    ),
    "transfers_of_vector_elements": (
        "func.func @f(%mv: memref<8xvector<4xf32>>, %m0: memref<f32>, %i: index, %s: f32, %p: vector<4xf32>) {\n"
        "  %0 = vector.transfer_read %mv[%i], %p : memref<8xvector<4xf32>>, vector<2x4xf32>\n"
        "  %1 = vector.transfer_read %m0[], %s {in_bounds = [true]} : memref<f32>, vector<1xf32>\n"
        "  vector.transfer_write %0, %mv[%i] : vector<2x4xf32>, memref<8xvector<4xf32>>\n"
        "  return\n}\n"
    ),
}
"""Every form of the ops, each checked against mlir-opt-19 when it is
installed (`test_cases_against_mlir_opt_19`)."""
LOSSY = frozenset({"outerproduct_attributes_dropped"})
"""Cases whose custom print loses what the generic one keeps, as 19's does:
an outer product without an accumulator prints no attributes, its `kind`
neither (read back, it has the default `add`)."""


@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_round_trip(case: str) -> None:
    """Custom and generic prints read back to the same module (without 19)."""
    assert_round_trip(CASES[case], lossy=case in LOSSY)


@needs_mlir19
@pytest.mark.parametrize("case", sorted(CASES))
def test_cases_against_mlir_opt_19(case: str) -> None:
    assert_as_mlir_opt_19(CASES[case])


_HOST_FN = (
    "func.func @f(%dev: memref<16xf32>, %x: f32, %h: memref<16xf32>, %i: index, %v: vector<16xf32>, "
    "%k: vector<16xi1>, %iv: vector<16xi32>, %b: memref<2x8xf32>, %m2: vector<2x8xf32>) {\n"
    "  gpu.memset %dev, %x : memref<16xf32>, f32\n  OP\n  gpu.memset %dev, %x : memref<16xf32>, f32\n  return\n}\n"
)

WAITED: dict[str, bool] = {
    "%q = vector.transfer_read %h[%i], %x : memref<16xf32>, vector<16xf32>": True,
    "vector.transfer_write %v, %h[%i] : vector<16xf32>, memref<16xf32>": True,
    "%q = vector.gather %h[%i] [%iv], %k, %v : memref<16xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>": True,
    "vector.compressstore %h[%i], %k, %v : memref<16xf32>, vector<16xi1>, vector<16xf32>": True,
    "%q = vector.type_cast %b : memref<2x8xf32> to memref<vector<2x8xf32>>": False,
    "%q = vector.bitcast %v : vector<16xf32> to vector<16xi32>": False,
    "%q = vector.shape_cast %m2 : vector<2x8xf32> to vector<16xf32>": False,
    "%q = vector.transpose %m2, [1, 0] : vector<2x8xf32> to vector<8x2xf32>": False,
    "%q = vector.fma %v, %v, %v : vector<16xf32>": False,
    "%q = vector.reduction <add>, %v : vector<16xf32> into f32": False,
    "%q = vector.outerproduct %v, %x : vector<16xf32>, f32": False,
    "%q = vector.constant_mask [3] : vector<16xi1>": False,
    "%q = vector.create_mask %i : vector<16xi1>": False,
    "%q = vector.from_elements %x, %x : vector<2xf32>": False,
    "%q = vector.extract %m2[1] : vector<8xf32> from vector<2x8xf32>": False,
    "%q = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], "
    'iterator_types = ["reduction"]} %v, %v, %x : vector<16xf32>, vector<16xf32> into f32': False,
}
"""Whether mlir-opt-19's -gpu-async-region waits for the first `gpu.memset`
before the op (it does before an op that is not memory-effect free):
observed with 19, one op at a time between two memsets."""


def _host(op: str) -> str:
    return _HOST_FN.replace("OP", op)


def _op_name(op: str) -> str:
    return re.findall(r"vector\.\w+", op)[0]


@pytest.mark.parametrize("op", sorted(WAITED), ids=[_op_name(o) for o in sorted(WAITED)])
def test_effects_are_mlir_opt_19s(op: str) -> None:
    module = parse_module(_host(op))
    target = module.regions[0].blocks[0].ops[0].regions[0].blocks[0].ops[1]
    assert effects.is_memory_effect_free(target) is not WAITED[op]
    assert waits_before(_host(op), _op_name(op)) == int(WAITED[op])


@needs_mlir19
@pytest.mark.parametrize("op", sorted(WAITED), ids=[_op_name(o) for o in sorted(WAITED)])
def test_effects_against_mlir_opt_19(op: str) -> None:
    assert_pass_as_mlir_opt_19(_host(op))


def test_registry_effects() -> None:
    """Memory effects by op name, as 19 declares them."""
    known = sorted(n for n in registry.COMPLETE_DIALECTS["vector"] if registry.is_known(n))
    effects_of = {n: registry.lookup(n).effects for n in known}
    reads = {n for n, e in effects_of.items() if e and registry.READ in e}
    writes = {n for n, e in effects_of.items() if e and registry.WRITE in e}
    assert reads == {"vector.gather", "vector.load", "vector.transfer_read"}
    assert writes == {"vector.compressstore", "vector.print", "vector.store", "vector.transfer_write"}


_BAD = (
    "func.func @f(%m: memref<8x16xf32>, %v: vector<4xf32>, %w: vector<16xf32>, %m2: vector<2x4xf32>, "
    "%m44: vector<4x4xf32>, %i: index, %k: vector<16xi1>, %iv: vector<16xi32>, %s: f32, %b: memref<2x4xf32>, "
    "%n: i32, %t: tensor<8xf32>) {\n  OP\n  return\n}\n"
)

REFUSED: dict[str, str] = {
    "%0 = vector.bitcast %v : vector<4xf32> to vector<3xf16>": "2:8: 'vector.bitcast' op source/result bitwidth of the minor 1-D vectors must be equal",
    "%0 = vector.bitcast %v : vector<4xf32> to vector<2x4xf16>": "2:8: 'vector.bitcast' op failed to verify that all of {source, result} have same rank",
    "%0 = vector.bitcast %s : f32 to vector<2xf16>": "2:28: custom op 'vector.bitcast' invalid kind of type specified",
    '%0 = "vector.bitcast"(%v) : (vector<4xf32>) -> f32': "2:8: 'vector.bitcast' op result #0 must be vector of any type values, but got 'f32'",
    "%0 = vector.shape_cast %m2 : vector<2x4xf32> to vector<7xf32>": "2:8: 'vector.shape_cast' op source/result number of elements must match",
    "%0 = vector.shape_cast %m2 : vector<2x4xf32> to vector<8xf16>": "2:8: 'vector.shape_cast' op source/result vectors must have same element type",
    "%0 = vector.type_cast %b : memref<2x4xf32> to memref<vector<3x4xf32>>": "2:8: 'vector.type_cast' op expects concatenated result and operand shapes to be equal: 'memref<vector<3x4xf32>>'",
    "%0 = vector.type_cast %b : memref<2x4xf32> to vector<4xf32>": "2:49: custom op 'vector.type_cast' invalid kind of type specified",
    "%0 = vector.transpose %m2, [0, 0] : vector<2x4xf32> to vector<2x4xf32>": "2:8: 'vector.transpose' op duplicate position index: 0",
    "%0 = vector.transpose %m2, [0, 1] : vector<2x4xf32> to vector<4x2xf32>": "2:8: 'vector.transpose' op dimension size mismatch at: 0",
    "%0 = vector.transpose %m2, [1] : vector<2x4xf32> to vector<4x2xf32>": "2:8: 'vector.transpose' op transposition length mismatch: 1",
    "%0 = vector.transpose %m2, [1, 0] {permutation = 1} : vector<2x4xf32> to vector<4x2xf32>": "2:37: custom op 'vector.transpose' 'vector.transpose' op attribute 'permutation' failed to satisfy constraint: i64 dense array attribute",
    "%0 = vector.fma %iv, %iv, %iv : vector<16xi32>": "2:8: 'vector.fma' op operand #0 must be vector of floating-point values, but got 'vector<16xi32>'",
    "%0 = vector.fma %s, %s, %s : f32": "2:32: custom op 'vector.fma' invalid kind of type specified",
    "%0 = vector.extract %m2[2] : vector<4xf32> from vector<2x4xf32>": "2:8: 'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension",
    "%0 = vector.extract %m2[1] : vector<2xf32> from vector<2x4xf32>": "2:8: 'vector.extract' op inferred type(s) 'vector<4xf32>' are incompatible with return type(s) of operation 'vector<2xf32>'",
    "%0 = vector.extract %m2[1, 1, 1] : f32 from vector<2x4xf32>": "2:8: 'vector.extract' op expected position attribute of rank no greater than vector rank",
    "%0 = vector.extract %v[0] {static_position = 1} : f32 from vector<4xf32>": "2:29: custom op 'vector.extract' 'vector.extract' op attribute 'static_position' failed to satisfy constraint: i64 dense array attribute",
    "%0 = vector.insert %s, %m2 [1] : f32 into vector<2x4xf32>": "2:8: 'vector.insert' op expected position attribute rank to match the dest vector rank",
    "%0 = vector.insert %s, %m2 [1, 4] : f32 into vector<2x4xf32>": "2:8: 'vector.insert' op expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension",
    "%0 = vector.reduction <and>, %v : vector<4xf32> into f32": "2:8: 'vector.reduction' op unsupported reduction type ''f32'' for kind 'and'",
    "%0 = vector.reduction <bogus>, %v : vector<4xf32> into f32": "2:26: custom op 'vector.reduction' expected ::mlir::vector::CombiningKind to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, maximumf, minimumf",
    "%0 = vector.reduction <add>, %v : vector<4xf32> into f16": "2:8: 'vector.reduction' op failed to verify that source operand and result have same element type",
    "%0 = vector.reduction <add>, %v {fastmath = 2} : vector<4xf32> into f32": "2:35: custom op 'vector.reduction' 'vector.reduction' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags",
    "%0 = vector.outerproduct %v, %w, %m44 : vector<4xf32>, vector<16xf32>": "2:36: use of value '%m44' expects different type than prior uses: 'vector<4x16xf32>' vs 'vector<4x4xf32>'",
    "%0 = vector.outerproduct %iv, %iv {kind = #vector.kind<maxnumf>} : vector<16xi32>, vector<16xi32>": "2:8: 'vector.outerproduct' op unsupported outerproduct type",
    "%0 = vector.outerproduct %v, %v {kind = #vector.kind<nope>} : vector<4xf32>, vector<4xf32>": "2:56: expected ::mlir::vector::CombiningKind to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, maximumf, minimumf",
    "%0 = vector.outerproduct %m2, %v : vector<2x4xf32>, vector<4xf32>": "2:8: 'vector.outerproduct' op expected 1-d vector for operand #1",
    "%0 = vector.constant_mask [5, 1] : vector<4x4xi1>": "2:8: 'vector.constant_mask' op array attr of size out of bounds of vector result dimension size",
    "%0 = vector.constant_mask [2] : vector<4x4xi1>": "2:8: 'vector.constant_mask' op must specify array attr of size equal vector result rank",
    "%0 = vector.constant_mask [2] : vector<4xf32>": "2:8: 'vector.constant_mask' op result #0 must be vector of 1-bit signless integer values, but got 'vector<4xf32>'",
    "%0 = vector.create_mask %i : vector<4x4xi1>": "2:8: 'vector.create_mask' op must specify an operand for each result vector dimension",
    "%0 = vector.create_mask %n : vector<4xi1>": "2:27: use of value '%n' expects different type than prior uses: 'index' vs 'i32'",
    "%0 = vector.gather %m[%i, %i] [%iv], %k, %v : memref<8x16xf32>, vector<16xi32>, vector<16xi1>, vector<4xf32> into vector<4xf32>": "2:8: 'vector.gather' op expected result dim to match indices dim",
    "%0 = vector.gather %m[%i] [%iv], %k, %w : memref<8x16xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>": "2:8: 'vector.gather' op requires 2 indices",
    "%0 = vector.gather %m[%i, %i] [%w], %k, %w : memref<8x16xf32>, vector<16xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>": "2:8: 'vector.gather' op operand #3 must be vector of integer or index values, but got 'vector<16xf32>'",
    "vector.compressstore %b[%i, %i], %k, %w : memref<2x4xf32>, vector<16xi1>, vector<16xi32>": "2:40: use of value '%w' expects different type than prior uses: 'vector<16xi32>' vs 'vector<16xf32>'",
    "vector.compressstore %m[%i, %i], %k, %m2 : memref<8x16xf32>, vector<16xi1>, vector<2x4xf32>": "2:3: 'vector.compressstore' op operand #4 must be  of ranks 1, but got 'vector<2x4xf32>'",
    "%0 = vector.transfer_read %m[%i], %s : memref<8x16xf32>, vector<4xf32>": "2:8: 'vector.transfer_read' op requires 2 indices",
    "%0 = vector.transfer_read %m[%i, %i], %n : memref<8x16xf32>, vector<4xf32>": "2:41: use of value '%n' expects different type than prior uses: 'f32' vs 'i32'",
    "%0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<8x16xf32>, vector<4x4xf32>": "2:8: 'vector.transfer_read' op requires a permutation_map that is a permutation (found one dim used more than once)",
    "%0 = vector.transfer_read %m[%i, %i], %s {in_bounds = [true, true]} : memref<8x16xf32>, vector<4xf32>": "2:8: 'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2",
    "%0 = vector.transfer_read %m[%i, %i], %s {in_bounds = [1]} : memref<8x16xf32>, vector<4xf32>": "2:8: 'vector.transfer_read' op attribute 'in_bounds' failed to satisfy constraint: 1-bit boolean array attribute",
    "%0 = vector.transfer_read %m[%i, %i], %s, %k : memref<8x16xf32>, vector<4xf32>": "2:45: use of value '%k' expects different type than prior uses: 'vector<4xi1>' vs 'vector<16xi1>'",
    "%0 = vector.transfer_read %m[%i, %i], %s : memref<8x16xf32>, f32": "2:44: custom op 'vector.transfer_read' requires vector type",
    "%0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> (0)>} : memref<8x16xf32>, vector<4xf32>": "2:8: 'vector.transfer_read' op requires broadcast dimensions to be in-bounds",
    "vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>, in_bounds = [true]} : vector<4xf32>, memref<8x16xf32>": "2:3: 'vector.transfer_write' op should not have broadcast dimensions",
    "vector.transfer_write %v, %m[%i, %i] : f32, memref<8x16xf32>": "2:40: custom op 'vector.transfer_write' requires vector type",
    "vector.transfer_write %v, %m[%i] : vector<4xf32>, memref<8x16xf32>": "2:3: 'vector.transfer_write' op requires 2 indices",
    '"vector.transfer_write"(%v) : (vector<4xf32>) -> ()': "2:3: 'vector.transfer_write' op expected 2 or more operands, but found 1",
    '%0 = "vector.transfer_read"(%m, %i, %i, %s) <{operandSegmentSizes = array<i32: 1, 2, 1, 0>, in_bounds = [false]}> : (memref<8x16xf32>, index, index, f32) -> vector<4xf32>': "2:8: 'vector.transfer_read' op requires attribute 'permutation_map'",
    "%0 = vector.from_elements %s, %s, %s : vector<2xf32>": "2:29: custom op 'vector.from_elements' 3 operands present, but expected 2",
    "%0 = vector.from_elements %s, %s : f32": "2:38: custom op 'vector.from_elements' invalid kind of type specified",
    '%0 = "vector.from_elements"(%s, %n) : (f32, i32) -> vector<2xf32>': "2:8: 'vector.from_elements' op failed to verify that operand types match result element type",
    '%0 = "vector.from_elements"(%s) : (f32) -> vector<2xf32>': "2:8: 'vector.from_elements' op failed to verify that operand types match result element type",
    '%0 = "vector.from_elements"(%s, %s) : (f32, f32) -> tensor<2xf32>': "2:8: 'vector.from_elements' op result #0 must be vector of any type values, but got 'tensor<2xf32>'",
    "%0 = vector.load %m[%i, %i] : memref<8x16xf32>, vector<4xf16>": "2:8: 'vector.load' op base and result element types should match",
    "%0 = vector.load %m[%i, %i] {nontemporal = 1} : memref<8x16xf32>, vector<4xf32>": "2:31: custom op 'vector.load' 'vector.load' op attribute 'nontemporal' failed to satisfy constraint: bool attribute",
    '%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} %v, %v, %v : vector<4xf32>, vector<4xf32> into vector<4xf32>': "2:8: 'vector.contract' op expected at least one contracting dimension pair",
    '%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["bogus"]} %v, %v, %s : vector<4xf32>, vector<4xf32> into f32': "2:24: custom op 'vector.contract' unexpected iterator_type (bogus)",
    '%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<and>} %v, %v, %s : vector<4xf32>, vector<4xf32> into f32': "2:8: 'vector.contract' op unsupported contraction type",
    '%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["reduction"]} %v, %v, %v : vector<4xf32>, vector<4xf32> into vector<4xf32>': "2:8: 'vector.contract' op invalid accumulator/result vector shape",
    '%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["reduction"]} %v, %v, %s : vector<4xf32>, vector<4xf32> into f32': "2:8: 'vector.contract' op expected an indexing map for each vector operand",
    '%0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} %v, %w, %s : vector<4xf32>, vector<16xf32> into f32': "2:8: 'vector.contract' op invalid contracting dimension map",
}
"""Line:column and first error line of mlir-opt-19 on each op in `_BAD`."""


@pytest.mark.parametrize("bad", sorted(REFUSED), ids=[b.split(":")[0][:50] for b in sorted(REFUSED)])
def test_refused_as_mlir_opt_19_refuses(bad: str) -> None:
    assert refusal(_BAD.replace("OP", bad)) == REFUSED[bad]


@needs_mlir19
@pytest.mark.parametrize("bad", sorted(REFUSED), ids=[b.split(":")[0][:50] for b in sorted(REFUSED)])
def test_refusals_are_mlir_opt_19s(bad: str) -> None:
    assert first_error_19(_BAD.replace("OP", bad)) == REFUSED[bad]


OUTSIDE_THE_SUBSET: dict[str, str] = {
    "%0 = vector.transfer_read %t[%i], %s : tensor<8xf32>, vector<4xf32>": (
        "2:42: custom op 'vector.transfer_read' of a tensor is unsupported: this tool's subset has transfers of "
        "memrefs (docs/subset.md)"
    ),
    '%0 = "vector.transfer_read"(%t, %i, %s) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, '
    "permutation_map = affine_map<(d0) -> (d0)>}> : (tensor<8xf32>, index, f32) -> vector<4xf32>": (
        "2:8: 'vector.transfer_read' op of a tensor is unsupported: this tool's subset has transfers of memrefs "
        "(docs/subset.md)"
    ),
    "%0 = vector.shuffle %v, %v [0, 5] : vector<4xf32>, vector<4xf32>": (
        "2:8: custom op 'vector.shuffle' is unsupported: mlir-opt-19's vector dialect has it, this tool's subset "
        "does not (docs/subset.md)"
    ),
}
"""What mlir-opt-19 accepts and this tool refuses, named: a transfer of a
tensor (19 declares no memory effect for it, the registry gives effects by
op name), an op of 19's vector dialect the subset does not have."""


@pytest.mark.parametrize("op", sorted(OUTSIDE_THE_SUBSET), ids=[_op_name(o) for o in sorted(OUTSIDE_THE_SUBSET)])
def test_outside_the_subset_is_named(op: str) -> None:
    with pytest.raises(DiagnosticError) as exc:
        parse_module(_BAD.replace("OP", op))
    d = exc.value.diagnostics[0]
    assert f"{d.loc.line}:{d.loc.col}: {d.message}" == OUTSIDE_THE_SUBSET[op]


@needs_mlir19
@pytest.mark.parametrize("op", sorted(OUTSIDE_THE_SUBSET), ids=[_op_name(o) for o in sorted(OUTSIDE_THE_SUBSET)])
def test_mlir_opt_19_accepts_what_is_outside_the_subset(op: str) -> None:
    ref = run19(_BAD.replace("OP", op))
    assert ref.returncode == 0, ref.stderr


HOST = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%h: memref<16xf32>, %b: memref<2x8xf32>, %mask: vector<16xi1>, %iv: vector<16xi32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %h[%c0], %pad : memref<16xf32>, vector<16xf32>
    %d = gpu.alloc () : memref<16xf32>
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    %k = vector.constant_mask [4] : vector<16xi1>
    %w = vector.fma %v, %v, %v : vector<16xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    %t = vector.type_cast %b : memref<2x8xf32> to memref<vector<2x8xf32>>
    %s = vector.reduction <add>, %w : vector<16xf32> into f32
    %2 = vector.shape_cast %w : vector<16xf32> to vector<4x4xf32>
    %3 = vector.transpose %2, [1, 0] : vector<4x4xf32> to vector<4x4xf32>
    %4 = vector.extract %3[0] : vector<4xf32> from vector<4x4xf32>
    %5 = vector.outerproduct %4, %4 : vector<4xf32>, vector<4xf32>
    gpu.memcpy %h, %d : memref<16xf32>, memref<16xf32>
    %g = vector.gather %h[%c0] [%iv], %mask, %w : memref<16xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    vector.compressstore %h[%c0], %k, %g : memref<16xf32>, vector<16xi1>, vector<16xf32>
    vector.transfer_write %w, %h[%c0] : vector<16xf32>, memref<16xf32>
    gpu.dealloc %d : memref<16xf32>
    return %s : f32
  }
}
"""
"""Vector ops before, between and after GPU work: the pass waits before
the transfers, the gather and the compressing store, not before the others."""


def test_host_function_rewritten_and_verified(tmp_path: Path) -> None:
    path = write_input(tmp_path, HOST.encode())
    mine = ours("refimpl", path)
    assert mine.returncode == 0, mine.stderr
    out = mine.stdout.decode()
    before = {op: out.split(op, 1)[0].rsplit("\n", 2)[-2].strip() for op in ("vector.gather", "vector.compressstore")}
    assert all(line.startswith("gpu.wait [") for line in before.values()), before
    check = subprocess.run(
        [sys.executable, "-m", "verifier", "check", path.name],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "@host: verified" in check.stdout and "verdict: verified" in check.stdout


@needs_mlir19
def test_host_function_rewritten_as_mlir_opt_19(tmp_path: Path) -> None:
    path = write_input(tmp_path, HOST.encode())
    mine, ref = ours("refimpl", path), theirs("refimpl", path)
    assert ref.returncode == 0, ref.stderr
    assert (mine.returncode, mine.stdout) == (0, ref.stdout), mine.stderr
