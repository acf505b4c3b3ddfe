module {
  module @A {
  }
  module @B {
    func.func @f(%m: memref<4xf32>) {
      %c = arith.constant 1.0 : f32
      gpu.memset %m, %c : memref<4xf32>, f32
      return
    }
  }
}
