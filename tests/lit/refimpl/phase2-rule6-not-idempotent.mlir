// Phase 2, rule 6: the pass is not idempotent. Run twice, the deferral fires
// again: another result and another await per await site.
// RUN: %python -m refimpl --mode mlir19 %s | %python -m refimpl --mode mlir19 - | filecheck %s

// CHECK-LABEL: func.func @twice
func.func @twice(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T:.*]], %[[R:.*]]:2 = async.execute -> (!async.value<!gpu.async.token>, !async.value<!gpu.async.token>)
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  // CHECK: async.await %[[T]]
  // CHECK-NEXT: %[[A:.*]] = async.await %[[R]]#1
  // CHECK-NEXT: gpu.wait [%[[A]]]
  // CHECK-NEXT: %[[B:.*]] = async.await %[[R]]#0
  // CHECK-NEXT: gpu.wait [%[[B]]]
  async.await %t : !async.token
  return
}
