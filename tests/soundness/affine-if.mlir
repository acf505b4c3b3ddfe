#set = affine_set<(d0) : (d0 - 1 >= 0)>
func.func @f(%n: index, %m: memref<4xf32>, %x: f32) {
  affine.if #set(%n) {
    gpu.memset %m, %x : memref<4xf32>, f32
  }
  return
}
