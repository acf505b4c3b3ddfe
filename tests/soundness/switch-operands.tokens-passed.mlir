func.func @f(%k: i32, %m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %t = gpu.memset async [%t0] %m, %x : memref<4xf32>, f32
  cf.switch %k : i32, [
    default: ^bb1(%t : !gpu.async.token),
    1: ^bb2(%t : !gpu.async.token)
  ]
^bb1(%a: !gpu.async.token):
  gpu.wait [%a]
  memref.store %x, %m[%c0] : memref<4xf32>
  return
^bb2(%b: !gpu.async.token):
  gpu.wait [%b]
  memref.store %x, %m[%c0] : memref<4xf32>
  return
}
