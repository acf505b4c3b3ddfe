// Phase 1, rule 2: a GPU op with no current token gets a fresh
// `gpu.wait async` right before it (after pure ops in front of it); the
// current token is prepended to its deps, once.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

// CHECK-LABEL: func.func @after_pure
func.func @after_pure(%m: memref<4xf32>, %c: f32) {
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: %[[T0:.*]] = gpu.wait async
  // CHECK-NEXT: gpu.memset async [%[[T0]]] %arg0
  %0 = arith.addf %c, %c : f32
  gpu.memset %m, %0 : memref<4xf32>, f32
  return
}

// CHECK-LABEL: func.func @prepend
func.func @prepend(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[U:.*]] = gpu.wait async
  %u = gpu.wait async
  // The user's wait is already current, so it is prepended only once.
  // CHECK-NEXT: %[[A:.*]] = gpu.memset async [%[[U]]] %arg0
  %a = gpu.memset async [%u] %m, %c : memref<4xf32>, f32
  // A synchronous op with deps gets the current token in front.
  // CHECK-NEXT: %[[B:.*]] = gpu.memset async [%[[A]], %[[U]]] %arg0
  gpu.memset [%u] %m, %c : memref<4xf32>, f32
  // CHECK-NEXT: gpu.wait [%[[B]]]
  return
}
