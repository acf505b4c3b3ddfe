// Several functions: one without GPU ops (unchanged), one calling the
// other after GPU work, one with only pure ops after its GPU work.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @host_only(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    memref.store %v, %a[%c0] : memref<16xf32>
    return
  }
  func.func @caller(%a: memref<16xf32>, %v: f32) {
    gpu.memset %a, %v : memref<16xf32>, f32
    func.call @host_only(%a, %v) : (memref<16xf32>, f32) -> ()
    gpu.memset %a, %v : memref<16xf32>, f32
    return
  }
  func.func @pure_tail(%a: memref<16xf32>, %v: f32) -> f32 {
    gpu.memset %a, %v : memref<16xf32>, f32
    %s = arith.addf %v, %v : f32
    return %s : f32
  }
}
