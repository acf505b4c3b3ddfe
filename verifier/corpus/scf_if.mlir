// scf.if: an effect in a branch after GPU work outside it, GPU work in a
// branch, and a branch yielding a token.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @ifs(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.memset %a, %v : memref<16xf32>, f32
    scf.if %p {
      memref.store %v, %a[%c0] : memref<16xf32>
    }
    scf.if %p {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
      func.call @use(%a) : (memref<16xf32>) -> ()
    } else {
      gpu.memset %a, %v : memref<16xf32>, f32
    }
    %t = scf.if %p -> (!gpu.async.token) {
      %t1 = gpu.memset async %a, %v : memref<16xf32>, f32
      scf.yield %t1 : !gpu.async.token
    } else {
      %t2 = gpu.wait async
      scf.yield %t2 : !gpu.async.token
    }
    gpu.wait [%t]
    %x = memref.load %a[%c1] : memref<16xf32>
    return
  }
}
