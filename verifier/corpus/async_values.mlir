// !async.value results (f32 and GPU tokens) consumed by another execute
// and by host awaits, in an order different from their definitions.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @use(memref<16xf32>)
  func.func @values(%a: memref<16xf32>, %b: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e1, %r1:2 = async.execute -> (!async.value<f32>, !async.value<!gpu.async.token>) {
      %t = gpu.memset async %a, %v : memref<16xf32>, f32
      %s = arith.addf %v, %v : f32
      async.yield %s, %t : f32, !gpu.async.token
    }
    %e2, %r2 = async.execute (%r1#0 as %s: !async.value<f32>, %r1#1 as %t: !async.value<!gpu.async.token>) -> !async.value<f32> {
      %t2 = gpu.memcpy async [%t] %b, %a : memref<16xf32>, memref<16xf32>
      gpu.wait [%t2]
      %y = memref.load %b[%c0] : memref<16xf32>
      async.yield %y : f32
    }
    %yv = async.await %r2 : !async.value<f32>
    %tv = async.await %r1#1 : !async.value<!gpu.async.token>
    gpu.wait [%tv]
    memref.store %yv, %a[%c0] : memref<16xf32>
    async.await %e1 : !async.token
    return
  }
}
