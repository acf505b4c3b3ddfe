// async.execute with dependencies, body operands, value results; awaits.
func.func @exec(%a: f32, %m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = async.execute {
    memref.store %a, %m[%c0] : memref<4xf32>
    async.yield
  }
  %t1, %v1 = async.execute [%t0] -> !async.value<f32> {
    %x = memref.load %m[%c0] : memref<4xf32>
    async.yield %x : f32
  }
  %t2, %v2:2 = async.execute [%t0, %t1] (%v1 as %x: !async.value<f32>) -> (!async.value<f32>, !async.value<index>) {
    %y = arith.addf %x, %x : f32
    async.yield %y, %c0 : f32, index
  }
  %t3 = async.execute (%v1 as %p: !async.value<f32>, %v2#0 as %q: !async.value<f32>) {
    %s = arith.mulf %p, %q : f32
    memref.store %s, %m[%c0] : memref<4xf32>
    async.yield
  }
  async.await %t3 : !async.token
  %r = async.await %v2#0 : !async.value<f32>
  %i = async.await %v2#1 : !async.value<index>
  %t4 = async.execute attributes {priority = 1 : i64} {
    async.yield
  }
  async.await %t4 : !async.token
  return %r : f32
}
