#set = affine_set<(d0) : (d0 - 1 >= 0)>
func.func @f(%n: index, %m: memref<4xf32>, %x: f32) {
  %t0 = gpu.wait async
  %r = affine.if #set(%n) -> !gpu.async.token {
    %t = gpu.memset async [%t0] %m, %x : memref<4xf32>, f32
    affine.yield %t : !gpu.async.token
  } else {
    affine.yield %t0 : !gpu.async.token
  }
  gpu.wait [%r]
  return
}
