// Phase 1, rule 1: every block has its own current token; nested blocks are
// threaded on their own and a chain never crosses a block boundary.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

// CHECK-LABEL: func.func @nested
func.func @nested(%m: memref<4xf32>, %c: f32, %b: i1) {
  // CHECK: %[[T0:.*]] = gpu.wait async
  // CHECK-NEXT: %[[T1:.*]] = gpu.memset async [%[[T0]]]
  gpu.memset %m, %c : memref<4xf32>, f32
  // The scf.if holds a GPU op, so it is not effect free: the outer chain
  // is closed before it.
  // CHECK-NEXT: gpu.wait [%[[T1]]]
  // CHECK-NEXT: scf.if
  scf.if %b {
    // A fresh chain inside the region, not the outer token.
    // CHECK-NEXT: %[[I0:.*]] = gpu.wait async
    // CHECK-NOT: [%[[T1]]]
    // CHECK-NEXT: %[[I1:.*]] = gpu.memset async [%[[I0]]]
    gpu.memset %m, %c : memref<4xf32>, f32
    // CHECK-NEXT: gpu.wait [%[[I1]]]
    // CHECK-NEXT: }
  }
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @no_gpu
// CHECK-NOT: gpu.wait
// CHECK: return
func.func @no_gpu(%a: index) -> index {
  %0 = arith.addi %a, %a : index
  return %0 : index
}
