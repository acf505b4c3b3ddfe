// Dependencies between executes: the second execute depends on the first,
// whose GPU work must finish before the second's host effect.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @chain(%a: memref<16xf32>, %b: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e1 = async.execute {
      gpu.memset %a, %v : memref<16xf32>, f32
      async.yield
    }
    %e2 = async.execute [%e1] {
      %x = memref.load %a[%c0] : memref<16xf32>
      gpu.memset %b, %x : memref<16xf32>, f32
      async.yield
    }
    %e3 = async.execute [%e1, %e2] {
      gpu.memcpy %a, %b : memref<16xf32>, memref<16xf32>
      async.yield
    }
    async.await %e3 : !async.token
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
