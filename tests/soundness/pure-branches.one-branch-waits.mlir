func.func @f(%p: i1, %m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %t = gpu.memset async [%t0] %m, %x : memref<4xf32>, f32
  scf.if %p {
    gpu.wait [%t]
    %a = arith.addf %x, %x : f32
  } else {
    %b = arith.mulf %x, %x : f32
  }
  memref.store %x, %m[%c0] : memref<4xf32>
  return
}
