// GPU work on the host thread right before a user `async.await` of an
// execute's token, with a host effect after the await: the wait goes before
// the await (which upstream counts as effectful).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @before_await(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e = async.execute {
      %x = memref.load %a[%c0] : memref<16xf32>
      async.yield
    }
    gpu.memset %a, %v : memref<16xf32>, f32
    async.await %e : !async.token
    %y = memref.load %a[%c0] : memref<16xf32>
    return
  }
}
