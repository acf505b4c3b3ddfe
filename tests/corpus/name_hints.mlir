// Result names mlir-opt suggests and their shared `_N` counter: constants
// of several types, repeated hints, hints in nested regions.
func.func @hints(%n: index, %m: memref<?xf32>, %t0: !gpu.async.token, %p: i1) {
  %c0 = arith.constant 0 : index
  %c0_dup = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c7_i64 = arith.constant 7 : i64
  %cm1 = arith.constant -1 : i8
  %t = arith.constant true
  %f = arith.constant false
  %cst = arith.constant 1.0 : f32
  %cst2 = arith.constant 2.0 : f64
  %dim = memref.dim %m, %c0 : memref<?xf32>
  %dim2 = memref.dim %m, %c0_dup : memref<?xf32>
  %alloc = memref.alloc(%dim) : memref<?xf32>
  %alloc2 = memref.alloc(%dim2) : memref<?xf32>
  %alloca = memref.alloca() : memref<4xf32>
  %cast = memref.cast %alloca : memref<4xf32> to memref<?xf32>
  %sv = memref.subview %alloca[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %mem, %tok = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %mem2, %tok2 = gpu.alloc async [%tok] (%n) : memref<?xf32>
  %mem3 = gpu.alloc (%n) : memref<?xf32>
  %tk, %bv = async.execute -> !async.value<f32> {
    %c0_inner = arith.constant 0 : index
    %cst_inner = arith.constant 3.0 : f32
    async.yield %cst_inner : f32
  }
  %tk2 = async.execute {
    async.yield
  }
  scf.if %p {
    %c0_a = arith.constant 0 : index
    %alloc_a = memref.alloc() : memref<2xf32>
  } else {
    %c0_b = arith.constant 0 : index
    %alloc_b = memref.alloc() : memref<2xf32>
  }
  %c0_after = arith.constant 0 : index
  %thread = "test.tid"() : () -> index
  return
}
