func.func @f(%k: i32, %m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %t = gpu.memset async [%t0] %m, %x : memref<4xf32>, f32
  cf.switch %k : i32, [
    default: ^bb1,
    1: ^bb2
  ]
^bb1:
  gpu.wait [%t]
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  cf.switch %k : i32, [
    default: ^bb4,
    2: ^bb5
  ]
^bb4:
  memref.store %x, %m[%c0] : memref<4xf32>
  return
^bb5:
  gpu.wait [%t]
  memref.store %x, %m[%c0] : memref<4xf32>
  return
}
