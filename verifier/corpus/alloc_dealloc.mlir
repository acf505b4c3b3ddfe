// gpu.alloc (device and host_shared) and gpu.dealloc around host traffic.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @alloc(%host: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<16xf32>
    %s = gpu.alloc host_shared () : memref<16xf32>
    gpu.memcpy %d, %host : memref<16xf32>, memref<16xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    gpu.memcpy %s, %d : memref<16xf32>, memref<16xf32>
    %x = memref.load %s[%c0] : memref<16xf32>
    memref.store %x, %host[%c0] : memref<16xf32>
    gpu.dealloc %d : memref<16xf32>
    gpu.dealloc %s : memref<16xf32>
    return
  }
}
