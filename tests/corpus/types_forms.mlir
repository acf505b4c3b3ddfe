// Types: integers (signless, signed, unsigned, odd widths), floats, index,
// memrefs (ranked, dynamic, 0-d, memory spaces, strided layouts, unranked),
// tensors and vectors in signatures, async and GPU types, function types.
func.func private @ints(i1, i2, i7, i16, i64, si8, ui32, i128)
func.func private @floats(f16, bf16, f32, f64)
func.func private @memrefs(memref<f32>, memref<?xi8>, memref<2x?x4xf64>, memref<4xf32, 1>, memref<4x4xf32, strided<[4, 1], offset: 8>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<*xf32>, memref<2xf32, #gpu.address_space<workgroup>>)
func.func private @others(tensor<4xf32>, tensor<?x2xi32>, vector<4xf32>, vector<2x2xi1>, !async.token, !async.group, !async.value<f32>, !async.value<memref<4xf32>>, !gpu.async.token, index, none)
func.func private @fns((i32) -> f32, () -> (), (index, index) -> (i1, i1))
func.func private @multi() -> (i32, memref<?xf32>, !gpu.async.token)
