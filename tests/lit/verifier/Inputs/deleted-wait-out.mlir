module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @consume(memref<4xf32>)
  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg0 : memref<4xf32>)
    %2 = gpu.memcpy async [%1] %arg1, %arg0 : memref<4xf32>, memref<4xf32>
    call @consume(%arg1) : (memref<4xf32>) -> ()
    return
  }
}
