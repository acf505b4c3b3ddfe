// Several top-level ops without an explicit module: mlir-opt wraps them in
// one. Calls between them, a GPU module among them.
func.func private @ext(memref<8xf32>)
func.func @caller(%m: memref<8xf32>) {
  call @ext(%m) : (memref<8xf32>) -> ()
  call @helper(%m) : (memref<8xf32>) -> ()
  return
}
func.func @helper(%m: memref<8xf32>) {
  return
}
gpu.module @dev {
  gpu.func @k() kernel {
    gpu.return
  }
}
func.func @last() -> i32 {
  %c = arith.constant 3 : i32
  return %c : i32
}
