func.func @f(%k: i32, %m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  gpu.memset %m, %x : memref<4xf32>, f32
  cf.switch %k : i32, [
    default: ^bb1,
    1: ^bb2
  ]
^bb1:
  memref.store %x, %m[%c0] : memref<4xf32>
  return
^bb2:
  memref.store %x, %m[%c0] : memref<4xf32>
  return
}
