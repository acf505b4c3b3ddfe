// scf.for: plain, iter_args (one and several), integer induction variables,
// nesting, and loops carrying GPU tokens.
func.func @loops(%lb: index, %ub: index, %step: index, %m: memref<?xf32>, %t0: !gpu.async.token) -> (f32, index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  scf.for %i = %lb to %ub step %step {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%c0] : memref<?xf32>
  }
  %sum, %cnt = scf.for %i = %lb to %ub step %step iter_args(%acc = %zero, %n = %c0) -> (f32, index) {
    %v = memref.load %m[%i] : memref<?xf32>
    %a = arith.addf %acc, %v : f32
    %c1 = arith.constant 1 : index
    %n1 = arith.addi %n, %c1 : index
    scf.yield %a, %n1 : f32, index
  }
  %lo = arith.constant 0 : i32
  %hi = arith.constant 10 : i32
  %st = arith.constant 2 : i32
  scf.for %k = %lo to %hi step %st : i32 {
    %e = arith.index_cast %k : i32 to index
    memref.store %zero, %m[%e] : memref<?xf32>
  }
  %r = scf.for %k = %lo to %hi step %st iter_args(%x = %lo) -> (i32) : i32 {
    %y = arith.addi %x, %k : i32
    scf.yield %y : i32
  }
  %tok = scf.for %i = %lb to %ub step %step iter_args(%t = %t0) -> (!gpu.async.token) {
    %t1 = gpu.memset async [%t] %m, %zero : memref<?xf32>, f32
    scf.yield %t1 : !gpu.async.token
  }
  gpu.wait [%tok]
  scf.for %i = %lb to %ub step %step {
    scf.for %j = %i to %ub step %step {
      %v = memref.load %m[%j] : memref<?xf32>
      memref.store %v, %m[%i] : memref<?xf32>
    }
  }
  return %sum, %cnt : f32, index
}
