// Phase 2, rule 4: an async.execute depending on the deferred token gets the
// new result as a body operand, and its body waits for it; a wait made that
// way that ends up last before async.yield of a candidate is deferred again.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

func.func private @host()

// CHECK-LABEL: func.func @chained
func.func @chained(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T1:.*]], %[[R1:.*]] = async.execute -> !async.value<!gpu.async.token>
  %t1 = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  // The second body is pure: the wait made for %t1's GPU work ends up last
  // and is deferred again, to the await below.
  // CHECK: %[[T2:.*]], %[[R2:.*]] = async.execute [%[[T1]]] (%[[R1]] as %[[A:.*]]: !async.value<!gpu.async.token>) -> !async.value<!gpu.async.token> {
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: async.yield %[[A]] : !gpu.async.token
  %t2 = async.execute [%t1] {
    %x = arith.addf %c, %c : f32
    async.yield
  }
  // CHECK: async.await %[[T2]]
  // CHECK-NEXT: %[[W:.*]] = async.await %[[R2]]
  // CHECK-NEXT: gpu.wait [%[[W]]]
  // CHECK-NEXT: call @host
  async.await %t2 : !async.token
  call @host() : () -> ()
  return
}
