module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: i1, %arg3: index, %arg4: f32) -> (!async.token, !async.token) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = gpu.wait async
    %1 = gpu.launch_func async [%0] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg1 : memref<4xf32>)
    %2 = gpu.wait async [%1]
    gpu.wait [%2]
    cf.cond_br %arg2, ^bb1(%2 : !gpu.async.token), ^bb2(%2 : !gpu.async.token)
  ^bb1(%3: !gpu.async.token):  // pred: ^bb0
    cf.br ^bb4(%3 : !gpu.async.token)
  ^bb2(%4: !gpu.async.token):  // pred: ^bb0
    cf.br ^bb4(%4 : !gpu.async.token)
  ^bb3:  // no predecessors
    %5 = gpu.wait async
    gpu.wait [%5]
    cf.br ^bb4(%5 : !gpu.async.token)
  ^bb4(%6: !gpu.async.token):  // 3 preds: ^bb1, ^bb2, ^bb3
    %7 = async.create_group %c2 : !async.group
    %token = async.execute {
      %11 = gpu.wait async
      %12 = gpu.launch_func async [%11] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg1 : memref<4xf32>)
      %13 = gpu.launch_func async [%12] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg0 : memref<4xf32>)
      gpu.wait [%13]
      async.yield
    }
    %8 = async.add_to_group %token, %7 : !async.token
    gpu.wait [%6]
    %9 = gpu.wait async
    %10 = gpu.memset async [%9] %arg0, %arg4 : memref<4xf32>, f32
    gpu.wait [%10]
    return %token, %token : !async.token, !async.token
  }
}
