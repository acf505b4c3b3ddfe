// GPU work on the host thread right before an async.execute (whose body
// has a host effect) and right before an async.await: both need the wait.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @before_execute(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    gpu.memset %a, %v : memref<16xf32>, f32
    %e = async.execute {
      memref.store %v, %a[%c0] : memref<16xf32>
      async.yield
    }
    async.await %e : !async.token
    return
  }
  func.func @before_await(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e, %r = async.execute -> !async.value<f32> {
      %x = memref.load %a[%c0] : memref<16xf32>
      async.yield %x : f32
    }
    gpu.memset %a, %v : memref<16xf32>, f32
    %y = async.await %r : !async.value<f32>
    memref.store %y, %a[%c0] : memref<16xf32>
    return
  }
}
