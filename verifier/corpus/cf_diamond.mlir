// A cf diamond: GPU work before the branch, in one arm, effects in both
// arms and after the join.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @diamond(%a: memref<16xf32>, %p: i1, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.memset %a, %v : memref<16xf32>, f32
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    memref.store %v, %a[%c0] : memref<16xf32>
    cf.br ^bb3
  ^bb2:
    func.call @use(%a) : (memref<16xf32>) -> ()
    cf.br ^bb3
  ^bb3:
    gpu.memcpy %a, %a : memref<16xf32>, memref<16xf32>
    %x = memref.load %a[%c1] : memref<16xf32>
    return
  }
}
