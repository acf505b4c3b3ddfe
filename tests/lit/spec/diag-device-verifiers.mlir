// RUN: not %python -m spec print %s --split-input-file 2>&1 | filecheck %s
// RUN: not %python -m refimpl %s --split-input-file 2>&1 | filecheck %s

// mlir-opt-19's device-side op verifiers: each chunk is refused with its
// message, never rewritten.

// CHECK: error: 'gpu.shuffle' op failed to verify that all of {value, shuffleResult} have same type
func.func @shuffle(%v: f32, %o: i32, %w: i32) {
  %r, %p = "gpu.shuffle"(%v, %o, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (i32, i1)
  return
}

// -----

// CHECK: error: expected two region arguments
func.func @all_reduce(%v: f32) {
  %r = gpu.all_reduce %v {
  ^bb(%a: f32):
    gpu.yield %a : f32
  } : (f32) -> (f32)
  return
}

// -----

// CHECK: error: 'gpu.return' op expected 1 result operands
// CHECK: note: return type declared here
gpu.module @m {
  gpu.func @k() -> f32 {
    gpu.return
  }
}

// -----

// CHECK: error: 'gpu.func' op expected void return type for kernel function
gpu.module @m {
  gpu.func @k() -> f32 kernel {
    %c = arith.constant 1.0 : f32
    gpu.return %c : f32
  }
}

// -----

// CHECK: error: operands must be in the order AOp, BOp, COp
func.func @mma(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  %d = gpu.subgroup_mma_compute %b, %a, %c :
      !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}
