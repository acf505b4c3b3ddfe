// Phase 2, rules 2 and 3: the deferred gpu.wait is erased and its tokens
// are yielded as new !async.value<!gpu.async.token> results after the
// existing ones; after each `async.await %token` the result is awaited, and
// the next GPU op depends on it, or a gpu.wait precedes the next effectful op.
// RUN: %python -m refimpl %s | filecheck %s
// RUN: %python -m refimpl --mode mlir19 %s | filecheck %s

func.func private @host()

// CHECK-LABEL: func.func @value_and_token
func.func @value_and_token(%m: memref<4xf32>, %c: f32) {
  // CHECK: %[[T:.*]], %[[R:.*]]:2 = async.execute -> (!async.value<f32>, !async.value<!gpu.async.token>) {
  // CHECK: %[[G:.*]] = gpu.memset async
  // CHECK-NEXT: async.yield %arg1, %[[G]] : f32, !gpu.async.token
  %t, %v = async.execute -> !async.value<f32> {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield %c : f32
  }
  // CHECK: async.await %[[T]] : !async.token
  // CHECK-NEXT: %[[W:.*]] = async.await %[[R]]#1 : !async.value<!gpu.async.token>
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: gpu.wait [%[[W]]]
  // CHECK-NEXT: call @host
  async.await %t : !async.token
  %x = arith.addf %c, %c : f32
  call @host() : () -> ()
  return
}

// CHECK-LABEL: func.func @next_gpu_op
func.func @next_gpu_op(%m: memref<4xf32>, %c: f32) {
  %t = async.execute {
    gpu.memset %m, %c : memref<4xf32>, f32
    async.yield
  }
  // CHECK: async.await %{{.*}} : !async.token
  // CHECK-NEXT: %[[W:.*]] = async.await %{{.*}} : !async.value<!gpu.async.token>
  // The next GPU op here is the gpu.wait async that starts the chain.
  // CHECK-NEXT: %[[S:.*]] = gpu.wait async [%[[W]]]
  // CHECK-NEXT: gpu.memset async [%[[S]]]
  async.await %t : !async.token
  gpu.memset %m, %c : memref<4xf32>, f32
  return
}
