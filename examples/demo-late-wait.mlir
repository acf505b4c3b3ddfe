// The reference's rewrite of demo.mlir, hand-edited: the blocking gpu.wait on
// the copy's token is moved below the call, so @consume may read %host while
// the copy into it is still running. Refuted; the replay shows the value race.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%arg0: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<256xf32>)
  func.func @demo(%arg0: memref<256xf32>, %arg1: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)  args(%arg0 : memref<256xf32>)
    %2 = gpu.launch_func async [%1] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)  args(%arg0 : memref<256xf32>)
    %3 = gpu.memcpy async [%2] %arg1, %arg0 : memref<256xf32>, memref<256xf32>
    call @consume(%arg1) : (memref<256xf32>) -> ()
    gpu.wait [%3]
    return
  }
}

