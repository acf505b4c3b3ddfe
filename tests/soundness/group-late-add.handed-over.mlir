func.func @f(%m: memref<4xf32>, %x: f32) {
  %c2 = arith.constant 2 : index
  %g = async.create_group %c2 : !async.group
  %t = async.execute {
    async.await_all %g
    %c0 = arith.constant 0 : index
    memref.store %x, %m[%c0] : memref<4xf32>
    async.yield
  }
  %a = async.execute {
    async.yield
  }
  %i0 = async.add_to_group %a, %g : !async.token
  %b, %bv = async.execute -> !async.value<!gpu.async.token> {
    %w = gpu.wait async
    %w2 = gpu.memset async [%w] %m, %x : memref<4xf32>, f32
    async.yield %w2 : !gpu.async.token
  }
  %i1 = async.add_to_group %b, %g : !async.token
  async.await %t : !async.token
  %tb = async.await %bv : !async.value<!gpu.async.token>
  gpu.wait [%tb]
  return
}
