func.func @g(%p: i1, %n: index, %m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 0.0 : f32
  %t, %v = async.execute -> !async.value<f32> {
    %x = arith.addf %f, %f : f32
    async.yield %x : f32
  }
  %t2, %v2:2 = async.execute [%t] (%v as %a: !async.value<f32>) -> (!async.value<f32>, !async.value<f32>) {
    async.yield %a, %a : f32, f32
  }
  %t3 = async.execute {
    async.yield
  }
  async.await %t : !async.token
  %r = async.await %v2#1 : !async.value<f32>
  %grp = async.create_group %c1 : !async.group
  %idx = async.add_to_group %t3, %grp : !async.token
  async.await_all %grp
  %w = scf.while (%i = %c0) : (index) -> index {
    %cond = arith.cmpi slt, %i, %n : index
    scf.condition(%cond) %i : index
  } do {
  ^bb0(%i2: index):
    %nx = arith.addi %i2, %c1 : index
    scf.yield %nx : index
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %f, %m[%i] : memref<4xf32>
    scf.reduce
  }
  %e = scf.execute_region -> index {
    scf.yield %c0 : index
  }
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%f) -> f32 {
    scf.reduce(%f : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %res = arith.addf %lhs, %rhs : f32
      scf.reduce.return %res : f32
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  "foo.bar"(%c0) {attr = 1} : (index) -> ()
  %u = "foo.baz"() ({
  ^bb0(%q: index):
    "foo.yield"(%q) : (index) -> ()
  }) : () -> i32
  return
}
