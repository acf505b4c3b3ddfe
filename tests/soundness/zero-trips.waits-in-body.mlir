func.func @f(%m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t0 = gpu.wait async
  %t = gpu.memset async [%t0] %m, %x : memref<4xf32>, f32
  scf.for %i = %c0 to %c0 step %c1 {
    gpu.wait [%t]
    memref.store %x, %m[%c0] : memref<4xf32>
  }
  memref.store %x, %m[%c0] : memref<4xf32>
  return
}
