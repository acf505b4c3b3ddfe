// scf.if: then only, then/else, results, nested, tokens as results.
func.func @branches(%p: i1, %q: i1, %m: memref<4xf32>, %t0: !gpu.async.token) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.if %p {
    memref.store %one, %m[%c0] : memref<4xf32>
  }
  scf.if %p {
    memref.store %one, %m[%c0] : memref<4xf32>
  } else {
    memref.store %two, %m[%c0] : memref<4xf32>
  }
  %x = scf.if %p -> (f32) {
    scf.yield %one : f32
  } else {
    %y = scf.if %q -> (f32) {
      scf.yield %two : f32
    } else {
      %s = arith.addf %one, %two : f32
      scf.yield %s : f32
    }
    scf.yield %y : f32
  }
  %a, %b = scf.if %q -> (f32, index) {
    scf.yield %one, %c0 : f32, index
  } else {
    scf.yield %two, %c0 : f32, index
  }
  %t = scf.if %p -> (!gpu.async.token) {
    %t1 = gpu.memcpy async [%t0] %m, %m : memref<4xf32>, memref<4xf32>
    scf.yield %t1 : !gpu.async.token
  } else {
    scf.yield %t0 : !gpu.async.token
  }
  gpu.wait [%t]
  return %x : f32
}
