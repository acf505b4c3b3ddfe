// Straight-line host code: synchronous GPU ops with host effects between
// them; every host effect must wait for the GPU work before it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @straight(%dev: memref<16xf32>, %host: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.memset %dev, %v : memref<16xf32>, f32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<16xf32>)
    %s = arith.addf %v, %v : f32
    gpu.memcpy %host, %dev : memref<16xf32>, memref<16xf32>
    %x = memref.load %host[%c0] : memref<16xf32>
    memref.store %s, %host[%c1] : memref<16xf32>
    func.call @use(%host) : (memref<16xf32>) -> ()
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<16xf32>)
    return
  }
}
