// The token of an execute with GPU work used twice (an await and a later
// execute's dependency): one deferred token per use.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @two(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e = async.execute {
      gpu.memset %a, %v : memref<16xf32>, f32
      async.yield
    }
    %f = async.execute [%e] {
      func.call @use(%a) : (memref<16xf32>) -> ()
      async.yield
    }
    async.await %e : !async.token
    %x = memref.load %a[%c0] : memref<16xf32>
    async.await %f : !async.token
    return
  }
}
