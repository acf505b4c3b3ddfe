// Executes whose waits must not be deferred: the token is unused, a host
// effect follows the GPU op, the GPU op is in a nested region.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @stay(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %e1 = async.execute {
      gpu.memset %a, %v : memref<16xf32>, f32
      async.yield
    }
    %e2 = async.execute {
      gpu.memset %a, %v : memref<16xf32>, f32
      memref.store %v, %a[%c0] : memref<16xf32>
      async.yield
    }
    %e3 = async.execute {
      scf.if %p {
        gpu.memset %a, %v : memref<16xf32>, f32
      }
      async.yield
    }
    async.await %e2 : !async.token
    async.await %e3 : !async.token
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
