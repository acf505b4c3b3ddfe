// Phase 2, rule 5: each user of a deferred token gets its own result. With
// three or more users 19/22 add the results but move only one user
// (DEVIATION: the reference gives every user its own result).
// RUN: %python -m refimpl %s | filecheck %s --check-prefixes=CHECK,REF
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s --check-prefixes=CHECK,M19

// CHECK-LABEL: func.func @two
func.func @two(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T:.*]], %[[R:.*]]:2 = async.execute
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  // CHECK: async.await %[[R]]#0
  // CHECK: async.await %[[R]]#1
  async.await %t : !async.token
  async.await %t : !async.token
  return
}

// CHECK-LABEL: func.func @three
func.func @three(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T:.*]], %[[R:.*]]:3 = async.execute
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  // REF: async.await %[[R]]#0
  // REF: async.await %[[R]]#1
  // REF: async.await %[[R]]#2
  // M19: async.await %[[R]]#0
  // M19: async.await %[[R]]#1
  // M19: async.await %[[R]]#0
  async.await %t : !async.token
  async.await %t : !async.token
  async.await %t : !async.token
  return
}
