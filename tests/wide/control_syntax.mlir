// The control-flow forms people write: single result types without
// parentheses, while loops with attributes.

func.func @loop_token(%m: memref<?xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
    %f = arith.constant 1.0 : f32
    %t = gpu.memset async [%t0] %m, %f : memref<?xf32>, f32
    gpu.wait [%t]
    %s = arith.addi %acc, %i : index
    scf.yield %s : index
  }
  return %r : index
}

// -----

func.func @if_token(%c: i1, %m: memref<?xf32>, %v: f32) -> !gpu.async.token {
  %t0 = gpu.wait async
  %t = scf.if %c -> !gpu.async.token {
    %t1 = gpu.memset async [%t0] %m, %v : memref<?xf32>, f32
    scf.yield %t1 : !gpu.async.token
  } else {
    scf.yield %t0 : !gpu.async.token
  }
  return %t : !gpu.async.token
}

// -----

func.func @while_attr(%m: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = scf.while (%i = %c0) : (index) -> index {
    %b = arith.cmpi slt, %i, %n : index
    scf.condition(%b) %i : index
  } do {
  ^bb0(%j: index):
    gpu.memset %m, %v : memref<?xf32>, f32
    %k = arith.addi %j, %c1 : index
    scf.yield %k : index
  } attributes {unrolled = false}
  return
}
