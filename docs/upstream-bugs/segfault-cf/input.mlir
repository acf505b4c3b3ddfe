module {
  func.func @f(%m: memref<1024xf32>, %v: f32) {
    %t0 = async.execute {
      %t1 = async.execute {
        %t2 = async.execute {
          gpu.memset %m, %v : memref<1024xf32>, f32
          async.yield
        }
        async.await %t2 : !async.token
        async.yield
      }
      async.await %t1 : !async.token
      gpu.memset %m, %v : memref<1024xf32>, f32
      async.yield
    }
    async.await %t0 : !async.token
    return
  }
}
