// What `-gpu-async-region` produces: a token chain from `gpu.wait async`,
// tokens threaded through every GPU op, blocking waits before host effects.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<256xf32>)
  func.func @async_chain(%dev: memref<256xf32>, %host: memref<256xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %0 = gpu.wait async
    %memref, %asyncToken = gpu.alloc async [%0] (%n) : memref<?xf32>
    %1 = gpu.launch_func async [%asyncToken] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<256xf32>)
    %2 = gpu.launch_func async [%1] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<256xf32>)
    %3 = gpu.memcpy async [%2] %host, %dev : memref<256xf32>, memref<256xf32>
    %4 = gpu.dealloc async [%3] %memref : memref<?xf32>
    gpu.wait [%4]
    call @consume(%host) : (memref<256xf32>) -> ()
    return
  }
}
