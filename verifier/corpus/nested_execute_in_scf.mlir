// async.execute inside scf.for and scf.if, GPU work inside an execute
// inside a loop, awaited in the same iteration.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @nest(%a: memref<16xf32>, %n: index, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %e = async.execute {
        gpu.memset %a, %v : memref<16xf32>, f32
        async.yield
      }
      async.await %e : !async.token
      memref.store %v, %a[%i] : memref<16xf32>
    }
    scf.if %p {
      %e = async.execute {
        gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
        async.yield
      }
      async.await %e : !async.token
    }
    func.call @use(%a) : (memref<16xf32>) -> ()
    return
  }
}
