// scf.parallel over one and two dimensions, with and without reductions.
func.func @par(%n: index, %m: memref<?x?xf32>, %init: f32, %k: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    memref.store %v, %m[%j, %i] : memref<?x?xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
  }
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
    %v = memref.load %m[%i, %i] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %r = arith.addf %lhs, %rhs : f32
      scf.reduce.return %r : f32
    }
  }
  %a, %b = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init, %k) -> (f32, i32) {
    scf.reduce(%init, %k : f32, i32) {
    ^bb0(%x: f32, %y: f32):
      %r = arith.maximumf %x, %y : f32
      scf.reduce.return %r : f32
    }, {
    ^bb0(%x: i32, %y: i32):
      %r = arith.maxsi %x, %y : i32
      scf.reduce.return %r : i32
    }
  }
  return %s, %b : f32, i32
}
