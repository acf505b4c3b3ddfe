// Phase 1, rule 3: a GPU op without a token is replaced by its async form,
// the token appended after its results; an op that has a token keeps it and
// its token becomes current. The seed puts the token first instead.
// RUN: %python -m refimpl --split-input-file %s | filecheck %s
// RUN: %python -m refimpl --split-input-file --mode mlir19 %s | filecheck %s
// RUN: %python -m refimpl --split-input-file --verify-diagnostics --mode seed --mlir-print-op-generic %s | filecheck %s --check-prefix=SEED

// CHECK-LABEL: func.func @alloc
// SEED-LABEL: sym_name = "alloc"
func.func @alloc(%n: index) -> memref<?xf32> {
  // CHECK: %[[T0:.*]] = gpu.wait async
  // CHECK-NEXT: %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%arg0) : memref<?xf32>
  // SEED: %[[T0:.*]] = "gpu.wait"() : () -> !gpu.async.token
  // SEED-NEXT: %[[R:.*]]:2 = "gpu.alloc"(%[[T0]], %arg0) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!gpu.async.token, index) -> (!gpu.async.token, memref<?xf32>)
  %m = gpu.alloc (%n) : memref<?xf32>
  // CHECK-NEXT: gpu.wait [%[[T1]]]
  // CHECK-NEXT: return %[[M]]
  // SEED-NEXT: "gpu.wait"(%[[R]]#0) : (!gpu.async.token) -> ()
  // SEED-NEXT: "func.return"(%[[R]]#1)
  return %m : memref<?xf32>
}

// -----

// CHECK-LABEL: func.func @already_async
func.func @already_async(%m: memref<4xf32>, %c: f32) {
  // The seed refuses ops that already have a token.
  // expected-error@+3 {{'gpu.memset' op is already async}}
  // CHECK: %[[T0:.*]] = gpu.wait async
  // CHECK-NEXT: %[[A:.*]] = gpu.memset async [%[[T0]]]
  %a = gpu.memset async %m, %c : memref<4xf32>, f32
  // CHECK-NEXT: %[[B:.*]] = gpu.memset async [%[[A]]]
  gpu.memset %m, %c : memref<4xf32>, f32
  // CHECK-NEXT: gpu.wait [%[[B]]]
  return
}
