// Phase 2, rule 1: only an async.execute whose body ends (before its last
// non-pure op... up to async.yield) in a blocking gpu.wait and whose token is
// used, and only by async.await / async.execute, is deferred.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

func.func private @host()

// CHECK-LABEL: func.func @no_uses
func.func @no_uses(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T:.*]] = async.execute {
  // CHECK: gpu.wait [%{{.*}}]
  // CHECK-NEXT: async.yield
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  return
}

// CHECK-LABEL: func.func @host_effect_after
func.func @host_effect_after(%m: memref<4xf32>, %c: f32) {
  // CHECK: async.execute {
  // CHECK: gpu.wait [%{{.*}}]
  // CHECK-NEXT: call @host
  // CHECK-NEXT: async.yield
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    func.call @host() : () -> ()
    async.yield
  }
  async.await %t : !async.token
  return
}

// CHECK-LABEL: func.func @other_user
func.func @other_user(%m: memref<4xf32>, %c: f32) {
  // CHECK: async.execute {
  // CHECK: gpu.wait [%{{.*}}]
  // CHECK-NEXT: async.yield
  %c1 = arith.constant 1 : index
  %g = async.create_group %c1 : !async.group
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  %i = async.add_to_group %t, %g : !async.token
  return
}

// CHECK-LABEL: func.func @deferred
func.func @deferred(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T:.*]], %[[R:.*]] = async.execute -> !async.value<!gpu.async.token> {
  // CHECK-NOT: gpu.wait [
  // CHECK: async.yield
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  async.await %t : !async.token
  return
}
