// async.execute with GPU work, awaited on the host before an effect: the
// pass defers the body's wait to the await.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @exec(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = async.execute {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
      async.yield
    }
    async.await %e : !async.token
    %x = memref.load %a[%c0] : memref<16xf32>
    gpu.memset %a, %x : memref<16xf32>, f32
    return
  }
}
