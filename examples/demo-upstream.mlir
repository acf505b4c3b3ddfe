// An async.execute whose GPU work ends in a memset and whose f32 value is
// awaited, and used by a store, before its token is. Upstream's phase 2
// defers the body's wait to the token's await, so the store may run while
// the memset is still writing the buffer.
module attributes {gpu.container_module} {
  func.func @value_then_token(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %e, %r = async.execute -> !async.value<f32> {
      gpu.memset %a, %v : memref<16xf32>, f32
      async.yield %v : f32
    }
    %s = async.await %r : !async.value<f32>
    %d = arith.addf %s, %s : f32
    memref.store %d, %a[%c0] : memref<16xf32>
    async.await %e : !async.token
    return
  }
}
