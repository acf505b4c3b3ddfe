// GPU ops inside scf and async regions, as the pass sees them before the
// rewrite: synchronous GPU work mixed with host effects in loops and
// branches and inside async.execute.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @step(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @regions(%m: memref<?xf32>, %h: memref<?xf32>, %n: index, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @kernels::@step blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%m : memref<?xf32>)
      gpu.memcpy %h, %m : memref<?xf32>, memref<?xf32>
      %x = memref.load %h[%i] : memref<?xf32>
      memref.store %x, %h[%c0] : memref<?xf32>
    }
    scf.if %p {
      gpu.memset %m, %v : memref<?xf32>, f32
    } else {
      %a = gpu.alloc (%n) : memref<?xf32>
      gpu.dealloc %a : memref<?xf32>
    }
    %t = async.execute {
      gpu.launch_func @kernels::@step blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%m : memref<?xf32>)
      async.yield
    }
    async.await %t : !async.token
    gpu.wait
    return
  }
}
