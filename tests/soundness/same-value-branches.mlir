func.func @f(%p: i1, %m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  gpu.memset %m, %x : memref<4xf32>, f32
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  cf.cond_br %p, ^bb4, ^bb5
^bb4:
  memref.store %x, %m[%c0] : memref<4xf32>
  return
^bb5:
  memref.store %x, %m[%c0] : memref<4xf32>
  return
}
