"""Device-side op verifier checks of mlir-opt-19: `gpu.shuffle`,
`gpu.all_reduce`, `gpu.func` and `gpu.return`, the `gpu.known_block_size` /
`gpu.known_grid_size` dialect attributes and the subgroup MMA ops. Invalid
IR is refused with 19's first message; the valid twins are accepted. The
rules are `spec.dialects.gpu.verifiers`'.

The inputs are this project's own; each is compared with `mlir-opt-19`
(exit code and the whole stderr) where it is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec.diagnostics import DiagnosticError
from spec.syntax.parser import parse_module
from spec.syntax.string_literals import BYTES
from tests.mlir_tools import needs_mlir19
from tests.support.against_mlir19 import ours, theirs, write_input

REFUSED = {
    "shuffle-index-value": "func.func @f(%v: index, %o: i32, %w: i32) {\n  %r, %p = gpu.shuffle xor %v, %o, %w : index\n  return\n}\n",
    "shuffle-result-type": 'func.func @f(%v: f32, %o: i32, %w: i32) {\n  %r, %p = "gpu.shuffle"(%v, %o, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f16, i1)\n  return\n}\n',
    "shuffle-i64-offset": 'func.func @f(%v: f32, %o: i64, %w: i32) {\n  %r, %p = "gpu.shuffle"(%v, %o, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i64, i32) -> (f32, i1)\n  return\n}\n',
    "shuffle-unknown-mode": "func.func @f(%v: f32, %o: i32, %w: i32) {\n  %r, %p = gpu.shuffle foo %v, %o, %w : f32\n  return\n}\n",
    "shuffle-vector-value": "func.func @f(%v: vector<2x2xf32>, %o: i32, %w: i32) {\n  %r, %p = gpu.shuffle xor %v, %o, %w : vector<2x2xf32>\n  return\n}\n",
    "shuffle-i32-predicate": 'func.func @f(%v: f32, %o: i32, %w: i32) {\n  %r, %p = "gpu.shuffle"(%v, %o, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i32)\n  return\n}\n',
    "shuffle-value-and-result-differ": 'func.func @f(%v: f32, %o: i32, %w: i32) {\n  %r, %p = "gpu.shuffle"(%v, %o, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (i32, i1)\n  return\n}\n',
    "all-reduce-op-and-body": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce add %v {\n  ^bb(%a: f32, %b: f32):\n    %s = arith.addf %a, %b : f32\n    gpu.yield %s : f32\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-neither-op-nor-body": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-one-argument": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32):\n    gpu.yield %a : f32\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-three-arguments": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32, %b: f32, %c: f32):\n    gpu.yield %a : f32\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-argument-type": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32, %b: i32):\n    gpu.yield %a : f32\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-yield-type": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32, %b: f32):\n    %c = arith.constant 1 : i32\n    gpu.yield %c : i32\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-two-yielded": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32, %b: f32):\n    gpu.yield %a, %b : f32, f32\n  } : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-no-yield": 'func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32, %b: f32):\n    %c = arith.addf %a, %b : f32\n    "test.foo"() : () -> ()\n  } : (f32) -> (f32)\n  return\n}\n',
    "all-reduce-and-of-float": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce and %v {} : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-minnumf-of-int": "func.func @f(%v: i32) {\n  %r = gpu.all_reduce minnumf %v {} : (i32) -> (i32)\n  return\n}\n",
    "all-reduce-unknown-kind": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce mini %v {} : (f32) -> (f32)\n  return\n}\n",
    "all-reduce-result-type": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce add %v {} : (f32) -> (i32)\n  return\n}\n",
    "all-reduce-index": "func.func @f(%v: index) {\n  %r = gpu.all_reduce add %v {} : (index) -> (index)\n  return\n}\n",
    "all-reduce-vector": "func.func @f(%v: vector<4xf32>) {\n  %r = gpu.all_reduce add %v {} : (vector<4xf32>) -> (vector<4xf32>)\n  return\n}\n",
    "kernel-returns-a-value": "gpu.module @m {\n  gpu.func @k() -> f32 kernel {\n    %c = arith.constant 1.0 : f32\n    gpu.return %c : f32\n  }\n}\n",
    "return-missing-operand": "gpu.module @m {\n  gpu.func @k() -> f32 {\n    gpu.return\n  }\n}\n",
    "return-operand-type": "gpu.module @m {\n  gpu.func @k() -> f32 {\n    %c = arith.constant 1 : i32\n    gpu.return %c : i32\n  }\n}\n",
    "return-in-void-function": "gpu.module @m {\n  gpu.func @k() {\n    %c = arith.constant 1 : i32\n    gpu.return %c : i32\n  }\n}\n",
    "return-too-few": "gpu.module @m {\n  gpu.func @k() -> (f32, f32) {\n    %c = arith.constant 1.0 : f32\n    gpu.return %c : f32\n  }\n}\n",
    "workgroup-attribution-not-memref": "gpu.module @m {\n  gpu.func @k() workgroup(%w: f32) {\n    gpu.return\n  }\n}\n",
    "workgroup-attribution-unranked": "gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<*xf32>) {\n    gpu.return\n  }\n}\n",
    "private-attribution-workgroup-space": "gpu.module @m {\n  gpu.func @k() private(%w: memref<4xf32, #gpu.address_space<workgroup>>) {\n    gpu.return\n  }\n}\n",
    "workgroup-attribution-global-space": "gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<4xf32, #gpu.address_space<global>>) {\n    gpu.return\n  }\n}\n",
    "workgroup-attribution-private-space": "gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<4xf32, #gpu.address_space<private>>) {\n    gpu.return\n  }\n}\n",
    "kernel-return-before-attributions": "gpu.module @m {\n  gpu.func @k() -> f32 workgroup(%w: f32) kernel {\n    gpu.return\n  }\n}\n",
    "known-block-size-two-elements": "gpu.module @m {\n  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 2>} {\n    gpu.return\n  }\n}\n",
    "known-block-size-before-kernel-return": "gpu.module @m {\n  gpu.func @k() -> f32 kernel attributes {known_block_size = array<i32: 1, 2>} {\n    %c = arith.constant 1.0 : f32\n    gpu.return %c : f32\n  }\n}\n",
    "known-block-size-before-attributions": "gpu.module @m {\n  gpu.func @k() workgroup(%w: f32) kernel attributes {known_block_size = array<i32: 1, 2>} {\n    gpu.return\n  }\n}\n",
    "dialect-known-block-size-on-gpu-func": "gpu.module @m {\n  gpu.func @k() kernel attributes {gpu.known_block_size = array<i32: 1, 2>} {\n    gpu.return\n  }\n}\n",
    "dialect-known-block-size-on-func": "gpu.module @m {\n  func.func @k() attributes {gpu.known_block_size = array<i32: 1, 2>} {\n    return\n  }\n}\n",
    "dialect-known-grid-size-not-array": "gpu.module @m {\n  gpu.func @k() attributes {gpu.known_grid_size = 5 : i32} {\n    gpu.return\n  }\n}\n",
    "dialect-known-grid-size-i64": "gpu.module @m {\n  gpu.func @k() attributes {gpu.known_grid_size = array<i64: 1, 2, 3>} {\n    gpu.return\n  }\n}\n",
    "mma-store-of-aop": 'func.func @f(%m: memref<32x32xf16, 3>, %i: index, %a: !gpu.mma_matrix<16x16xf16, "AOp">) {\n  gpu.subgroup_mma_store_matrix %a, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "AOp">, memref<32x32xf16, 3>\n  return\n}\n',
    "mma-compute-order": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = gpu.subgroup_mma_compute %b, %a, %c : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-compute-shapes": 'func.func @f(%a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-compute-order-with-transpose": 'func.func @f(%a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<8x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">\n  %e = gpu.subgroup_mma_compute %a, %a, %c {b_transpose} :\n      !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<16x8xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-compute-shapes-transposed": 'func.func @f(%a: !gpu.mma_matrix<8x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = gpu.subgroup_mma_compute %a, %b, %c {a_transpose} :\n      !gpu.mma_matrix<8x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-load-minor-stride": 'func.func @f(%m: memref<32x32xf16, strided<[64, 2]>>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, strided<[64, 2]>> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-load-permuted-map": 'func.func @f(%m: memref<32x32xf16, strided<[?, ?]>>, %m2: memref<32x32xf16, affine_map<(d0, d1) -> (d1, d0)>>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m2[%i, %i] {leadDimension = 32 : index} :\n      memref<32x32xf16, affine_map<(d0, d1) -> (d1, d0)>> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-store-minor-stride": 'func.func @f(%m: memref<32x32xf16, strided<[64, 2]>>, %i: index, %a: !gpu.mma_matrix<16x16xf16, "COp">) {\n  gpu.subgroup_mma_store_matrix %a, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, strided<[64, 2]>>\n  return\n}\n',
    "mma-store-stride-before-role": 'func.func @f(%m: memref<32x32xf16, strided<[64, 2]>>, %i: index, %a: !gpu.mma_matrix<16x16xf16, "AOp">) {\n  gpu.subgroup_mma_store_matrix %a, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "AOp">, memref<32x32xf16, strided<[64, 2]>>\n  return\n}\n',
    "mma-constant-type": 'func.func @f(%c: f32) {\n  %cc = "gpu.subgroup_mma_constant_matrix"(%c) : (f32) -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-elementwise-scalar": 'func.func @f(%a: f16) {\n  %e = "gpu.subgroup_mma_elementwise"(%a) <{opType = #gpu<mma_element_wise addf>}> : (f16) -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-compute-result-type": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = "gpu.subgroup_mma_compute"(%a, %b, %c) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">)\n      -> !gpu.mma_matrix<16x16xf32, "COp">\n  return\n}\n',
    "mma-compute-scalar-result": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = "gpu.subgroup_mma_compute"(%a, %b, %c) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">) -> f16\n  return\n}\n',
    "mma-compute-scalar-operand": 'func.func @f(%a: f16, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = "gpu.subgroup_mma_compute"(%a, %b, %c) : (f16, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-compute-scalar-accumulator": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: f16) {\n  %d = "gpu.subgroup_mma_compute"(%a, %b, %c) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, f16) -> f16\n  return\n}\n',
    "mma-constant-of-matrix": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %d = "gpu.subgroup_mma_constant_matrix"(%a) : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-load-of-scalar": 'func.func @f(%m: f16, %i: index) {\n  %a = "gpu.subgroup_mma_load_matrix"(%m, %i, %i) <{leadDimension = 32 : index}> : (f16, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-load-scalar-result": 'func.func @f(%m: memref<32x32xf16>, %i: index) {\n  %a = "gpu.subgroup_mma_load_matrix"(%m, %i, %i) <{leadDimension = 32 : index}> : (memref<32x32xf16>, index, index) -> f16\n  return\n}\n',
    "mma-type-role": 'func.func @f(%m: memref<32x32xf16, 3>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "DOp">\n  return\n}\n',
    "mma-type-role-before-dims": 'func.func @f(%a: !gpu.mma_matrix<16x16x16xi8, "DOp">) {\n  return\n}\n',
    "mma-type-three-dims": 'func.func @f(%a: !gpu.mma_matrix<16x16x16xf16, "AOp">) {\n  return\n}\n',
    "mma-type-dims-before-elements": 'func.func @f(%a: !gpu.mma_matrix<16x16x16xi8, "AOp">) {\n  return\n}\n',
    "mma-type-i8-elements": 'func.func @f(%a: !gpu.mma_matrix<16x16xi8, "AOp">, %b: !gpu.mma_matrix<16x16xi8, "BOp">, %c: !gpu.mma_matrix<16x16xi32, "COp">) {\n  %d = gpu.subgroup_mma_compute %a, %b, %c {a_transpose} :\n      !gpu.mma_matrix<16x16xi8, "AOp">, !gpu.mma_matrix<16x16xi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">\n  return\n}\n',
    "mma-type-vector-elements": 'func.func @f(%a: !gpu.mma_matrix<16x16xvector<2xf16>, "AOp">) {\n  return\n}\n',
    "mma-type-dynamic-shape": 'func.func @f(%a: !gpu.mma_matrix<16x?xf16, "AOp">) {\n  return\n}\n',
    "mma-type-no-role": "func.func @f(%a: !gpu.mma_matrix<16x16xf16>) {\n  return\n}\n",
    "dialect-known-sizes-by-name": "func.func @k() attributes {gpu.known_grid_size = array<i32: 1>, gpu.known_block_size = array<i32: 1, 2>} {\n  return\n}\n",
    "all-reduce-index-in-a-launch": "func.func @f() {\n  %c9 = arith.constant 9 : index\n  gpu.launch blocks(%bx, %by, %bz) in (%x = %c9, %y = %c9, %z = %c9) threads(%tx, %ty, %tz) in (%a = %c9, %b = %c9, %c = %c9) {\n    %r = gpu.all_reduce add %c9 {} : (index) -> (index)\n    gpu.terminator\n  }\n  return\n}\n",
    "gpu-func-too-few-attribution-arguments": 'gpu.module @m {\n  "gpu.func"() ({\n    gpu.return\n  }) {function_type = () -> (), sym_name = "k", workgroup_attributions = 2 : i64} : () -> ()\n}\n',
    "mma-elementwise-scalar-result": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "COp">) {\n  %e = "gpu.subgroup_mma_elementwise"(%a) <{opType = #gpu<mma_element_wise addf>}> : (!gpu.mma_matrix<16x16xf16, "COp">) -> f16\n  return\n}\n',
    "mma-store-of-scalar": 'func.func @f(%m: memref<32x32xf16>, %i: index, %a: !gpu.mma_matrix<16x16xf16, "COp">) {\n  "gpu.subgroup_mma_store_matrix"(%a, %m, %i, %i) <{leadDimension = 32 : index}> : (!gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>, index, index) -> ()\n  "gpu.subgroup_mma_store_matrix"(%i, %m, %i, %i) <{leadDimension = 32 : index}> : (index, memref<32x32xf16>, index, index) -> ()\n  return\n}\n',
    "mma-store-to-scalar": 'func.func @f(%m: f16, %i: index, %a: !gpu.mma_matrix<16x16xf16, "COp">) {\n  "gpu.subgroup_mma_store_matrix"(%a, %m, %i, %i) <{leadDimension = 32 : index}> : (!gpu.mma_matrix<16x16xf16, "COp">, f16, index, index) -> ()\n  return\n}\n',
    "mma-load-i32-indices": 'func.func @f(%m: memref<32x32xf16>, %i: i32) {\n  %a = "gpu.subgroup_mma_load_matrix"(%m, %i, %i) <{leadDimension = 32 : index}> : (memref<32x32xf16>, i32, i32) -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-store-i32-indices": 'func.func @f(%m: memref<32x32xf16>, %i: i32, %a: !gpu.mma_matrix<16x16xf16, "COp">) {\n  "gpu.subgroup_mma_store_matrix"(%a, %m, %i, %i) <{leadDimension = 32 : index}> : (!gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>, i32, i32) -> ()\n  return\n}\n',
}
"""Each invalid input, by the check it fails."""
FIRST_ONLY = frozenset({"gpu-func-too-few-attribution-arguments"})
"""Cases where only 19's error is compared, not its `see current operation`
note (the generic `gpu.func`'s attribution count is checked as it is built,
before there is an op to show)."""

ACCEPTED = {
    "all-reduce-ops": "func.func @f(%v: f32, %i: i32, %o: i32, %w: i32) {\n  %a = gpu.all_reduce add %v {} : (f32) -> (f32)\n  %b = gpu.all_reduce and %i uniform {} : (i32) -> (i32)\n  %c = gpu.all_reduce %v {\n  ^bb(%x: f32, %y: f32):\n    %s = arith.mulf %x, %y : f32\n    gpu.yield %s : f32\n  } : (f32) -> (f32)\n  %r, %p = gpu.shuffle xor %v, %o, %w : f32\n  %r2, %p2 = gpu.shuffle idx %i, %o, %w : i32\n  return\n}\n",
    "gpu-func-attributions-and-sizes": "gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<4xf32, #gpu.address_space<workgroup>>)\n      private(%p: memref<4xf32, #gpu.address_space<private>>)\n      kernel attributes {known_block_size = array<i32: 1, 2, 3>, known_grid_size = array<i32: 4, 5, 6>} {\n    gpu.return\n  }\n  gpu.func @g() -> f32 {\n    %c = arith.constant 1.0 : f32\n    gpu.return %c : f32\n  }\n}\n",
    "attribution-default-space": "gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<4xf32>) {\n    gpu.return\n  }\n}\n",
    "known-sizes-zero": "gpu.module @m {\n  gpu.func @k() kernel attributes {known_block_size = array<i32: 0, 2, 1>} {\n    gpu.return\n  }\n}\n",
    "known-sizes-negative": "gpu.module @m {\n  gpu.func @k() kernel attributes {known_grid_size = array<i32: -1, 2, 1>} {\n    gpu.return\n  }\n}\n",
    "workgroup-attribution-integer-space": "gpu.module @m {\n  gpu.func @k() workgroup(%w: memref<4xf32, 3>) {\n    gpu.return\n  }\n}\n",
    "private-attribution-default-space": "gpu.module @m {\n  gpu.func @k() private(%w: memref<4xf32>) {\n    gpu.return\n  }\n}\n",
    "dialect-known-sizes": "gpu.module @m {\n  gpu.func @k() attributes {gpu.known_grid_size = array<i32: 1, 2, 3>, gpu.known_block_size = array<i32: 1, 2, 3>} {\n    gpu.return\n  }\n}\n",
    "mma-chain": 'func.func @f(%m: memref<32x32xf16, 3>, %i: index, %c: f16) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  %b = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">\n  %cc = gpu.subgroup_mma_constant_matrix %c : !gpu.mma_matrix<16x16xf16, "COp">\n  %d = gpu.subgroup_mma_compute %a, %b, %cc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">\n  %e = gpu.subgroup_mma_elementwise addf %d, %cc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">\n  gpu.subgroup_mma_store_matrix %e, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, 3>\n  return\n}\n',
    "mma-load-other-element-type": 'func.func @f(%m: memref<32x32xf32, 3>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf32, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-load-vector-elements": 'func.func @f(%m: memref<32x32xvector<2xf16>, 3>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xvector<2xf16>, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-load-other-space": 'func.func @f(%m: memref<32x32xf16, 5>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, 5> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-load-fewer-indices": 'func.func @f(%m: memref<32x32xf16, 3>, %i: index) {\n  %a = gpu.subgroup_mma_load_matrix %m[%i] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">\n  return\n}\n',
    "mma-store-other-element-type": 'func.func @f(%m: memref<32x32xf16, 3>, %i: index, %a: !gpu.mma_matrix<16x16xf32, "COp">) {\n  gpu.subgroup_mma_store_matrix %a, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf16, 3>\n  return\n}\n',
    "mma-elementwise-mixed-types": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: !gpu.mma_matrix<16x16xf32, "COp">) {\n  %e = gpu.subgroup_mma_elementwise addf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n',
    "mma-mixed-accumulator": 'func.func @f(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">) {\n  %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">\n  return\n}\n',
    "all-reduce-yield-in-a-later-block": "func.func @f(%v: f32) {\n  %r = gpu.all_reduce %v {\n  ^bb(%a: f32, %b: f32):\n    cf.br ^bb1\n  ^bb1:\n    gpu.yield %a : f32\n  } : (f32) -> (f32)\n  return\n}\n",
    "launch-of-a-kernel-with-other-known-sizes": "module attributes {gpu.container_module} {\n  gpu.module @m {\n    gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 2, 3>, known_grid_size = array<i32: 4, 5, 6>} {\n      gpu.return\n    }\n  }\n  func.func @f() {\n    %c9 = arith.constant 9 : index\n    gpu.launch_func @m::@k blocks in (%c9, %c9, %c9) threads in (%c9, %c9, %c9)\n    return\n  }\n}\n",
    "mma-store-i32-matrix-to-f16": 'func.func @f(%m: memref<32x32xf16>, %i: index, %a: !gpu.mma_matrix<16x16xi32, "COp">) {\n  "gpu.subgroup_mma_store_matrix"(%a, %m, %i, %i) <{leadDimension = 32 : index}> : (!gpu.mma_matrix<16x16xi32, "COp">, memref<32x32xf16>, index, index) -> ()\n  return\n}\n',
    "gpu-yield-outside-a-reduction": "func.func @f(%v: f32) {\n  gpu.yield %v : f32\n}\n",
}
"""Valid twins, and what 19 lets through (no positivity of the known sizes,
no element type or index count match of an MMA load or store, no launch
sizes against a kernel's known sizes)."""


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
    assert ref.returncode == 1
    assert err.splitlines()[:1] == ref_err.splitlines()[:1]
    if name in FIRST_ONLY:
        ref_err = "".join(ref_err.splitlines(keepends=True)[:3])
    assert (mine.returncode, mine.stdout, err) == (1, b"", ref_err)


@needs_mlir19
@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_as_mlir_opt_19(name: str, tmp_path: Path) -> None:
    path = write_input(tmp_path, ACCEPTED[name].encode())
    mine, ref = ours("refimpl", path), theirs("refimpl", path)
    assert ref.returncode == 0, ref.stderr
    assert (mine.returncode, mine.stdout) == (0, ref.stdout), mine.stderr
