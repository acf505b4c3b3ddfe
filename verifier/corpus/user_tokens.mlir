// User-written tokens and waits: an async chain, a join, a blocking wait
// in the middle, and synchronous ops mixed in.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @tokens(%a: memref<16xf32>, %b: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %a, %v : memref<16xf32>, f32
    %t2 = gpu.memset async [%t0] %b, %v : memref<16xf32>, f32
    %t3 = gpu.wait async [%t1, %t2]
    %t4 = gpu.launch_func async [%t3] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    gpu.wait [%t4]
    %x = memref.load %a[%c0] : memref<16xf32>
    gpu.memcpy %b, %a : memref<16xf32>, memref<16xf32>
    %m, %t5 = gpu.alloc async () : memref<16xf32>
    %t6 = gpu.memcpy async [%t5] %m, %b : memref<16xf32>, memref<16xf32>
    gpu.wait
    memref.store %x, %b[%c1] : memref<16xf32>
    %t7 = gpu.dealloc async [%t6] %m : memref<16xf32>
    gpu.wait [%t7]
    return
  }
}
