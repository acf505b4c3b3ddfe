func.func @g(%m: memref<4xf32>, %t: !gpu.async.token) {
  gpu.wait [%t]
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  return
}
func.func @f(%m: memref<4xf32>, %x: f32) {
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %m, %x : memref<4xf32>, f32
  call @g(%m, %t1) : (memref<4xf32>, !gpu.async.token) -> ()
  return
}
