// Two kernels and a copy back to the host, written synchronously. The pass
// makes them asynchronous and must keep the host call after all three.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<256xf32>)
  func.func @demo(%dev: memref<256xf32>, %host: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<256xf32>)
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%dev : memref<256xf32>)
    gpu.memcpy %host, %dev : memref<256xf32>, memref<256xf32>
    call @consume(%host) : (memref<256xf32>) -> ()
    return
  }
}
