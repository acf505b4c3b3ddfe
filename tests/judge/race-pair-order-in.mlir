module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%arg0: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%b0: memref<4xf32>, %b1: memref<4xf32>, %p: i1, %n: index, %x: f32) -> (!async.token, !async.token) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b1 : memref<4xf32>)
    %t1 = gpu.wait async
    cf.cond_br %p, ^bb1(%t1 : !gpu.async.token), ^bb2(%t1 : !gpu.async.token)
  ^bb1(%j2: !gpu.async.token):
    cf.br ^bb3(%j2 : !gpu.async.token)
  ^bb2(%j3: !gpu.async.token):
    cf.br ^bb3(%j3 : !gpu.async.token)
  ^bb4:
    %t4 = gpu.wait async
    cf.br ^bb3(%t4 : !gpu.async.token)
  ^bb3(%j5: !gpu.async.token):
    %g6 = async.create_group %c2 : !async.group
    %e7 = async.execute {
      gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b1 : memref<4xf32>)
      gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b0 : memref<4xf32>)
      async.yield
    }
    %k8 = async.add_to_group %e7, %g6 : !async.token
    gpu.wait [%j5]
    gpu.memset %b0, %x : memref<4xf32>, f32
    return %e7, %e7 : !async.token, !async.token
  }
}
