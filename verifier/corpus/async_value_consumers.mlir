// Executes ending in GPU work whose results are consumed as values: the
// body's wait must stay where it is. In @values_only the token is unused;
// in @value_then_token the value is awaited (and used by a host effect)
// before the token is, so deferring the wait to the token's await, as
// upstream does, leaves the memset unordered with the store.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @values_only(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e, %r = async.execute -> !async.value<f32> {
      %s = arith.addf %v, %v : f32
      gpu.memset %a, %s : memref<16xf32>, f32
      async.yield %s : f32
    }
    %s = async.await %r : !async.value<f32>
    memref.store %s, %a[%c0] : memref<16xf32>
    return
  }
  func.func @value_then_token(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e, %r = async.execute -> !async.value<f32> {
      %s = arith.addf %v, %v : f32
      gpu.memset %a, %s : memref<16xf32>, f32
      async.yield %s : f32
    }
    %s = async.await %r : !async.value<f32>
    memref.store %s, %a[%c0] : memref<16xf32>
    async.await %e : !async.token
    return
  }
}
